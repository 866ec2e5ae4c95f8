#version 450
// Storage images: loads, stores, sizes and every 32-bit atomic.
//! buf 0 0 zero 64
//! image 0 1 float 8 8 1 1 1 frand
//! image 0 2 uint 8 8 1 2 1 rand
//! isa image_store
//! isa image_atomic_cmpswap
//! isa image_atomic_umax
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1, rgba32f) uniform image2D img;
layout(set = 0, binding = 2, r32ui) uniform uimage2DArray counters;
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    vec4 v = imageLoad(img, p);
    imageStore(img, ivec2(7, 7) - p, v * 2.0 + vec4(imageSize(img), 0.0, 1.0));
    ivec3 q = ivec3(p.x / 2, p.y / 2, p.x & 1);
    uint a = imageAtomicAdd(counters, q, 3u);
    uint b = imageAtomicMin(counters, q + ivec3(1, 0, 0), uint(p.x * 7));
    uint c = imageAtomicMax(counters, q + ivec3(0, 1, 0), uint(p.y * 50));
    uint d = imageAtomicAnd(counters, q, 0xfffffff7u) ^ imageAtomicOr(counters, q, 0x100u);
    uint e = imageAtomicXor(counters, q, uint(p.x));
    uint f = imageAtomicExchange(counters, ivec3(p, 1) / 3, uint(p.x + p.y));
    uint g = imageAtomicCompSwap(counters, ivec3(p.x, 0, 0), 5u, 9u);
    uint idx = gl_LocalInvocationIndex;
    atomicAdd(o[idx % 64u], a + b + c + d + e + f + g + uint(imageSize(counters).z));
}
