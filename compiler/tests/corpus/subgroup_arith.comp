#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
// Reductions and inclusive/exclusive scans for every operation on uint, int and float, over a
// workgroup of 40 (one full wave and 8 lanes), at full width, under a divergent condition and
// inside a loop whose lanes leave at different iterations.
//! groups 2 1 1
//! buf 0 0 rand 80
//! buf 0 1 frand 80
//! buf 0 2 zero 2560
layout(local_size_x = 40) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) readonly buffer F { float f[]; };
layout(std430, binding = 2) buffer O { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 32u;
    uint u = x[g];
    int i = int(u) - 500;
    float y = f[g];
    o[b + 0u] = subgroupAdd(u);
    o[b + 1u] = subgroupInclusiveAdd(u);
    o[b + 2u] = subgroupExclusiveAdd(u);
    o[b + 3u] = subgroupMin(u) | subgroupMax(u) << 16;
    o[b + 4u] = uint(subgroupMin(i)) ^ uint(subgroupMax(i));
    o[b + 5u] = subgroupInclusiveMin(u) | subgroupExclusiveMax(u) << 16;
    o[b + 6u] = uint(subgroupInclusiveMax(i)) + uint(subgroupExclusiveMin(i));
    o[b + 7u] = subgroupAnd(u | 0xf000u) ^ subgroupOr(u) ^ subgroupXor(u);
    o[b + 8u] = subgroupInclusiveAnd(u | 0xf000u) ^ subgroupExclusiveOr(u) ^ subgroupInclusiveXor(u);
    o[b + 9u] = subgroupMul(u % 2u + 1u) + subgroupExclusiveMul(u % 3u + 1u);
    o[b + 10u] = floatBitsToUint(subgroupAdd(y));
    o[b + 11u] = floatBitsToUint(subgroupInclusiveAdd(y));
    o[b + 12u] = floatBitsToUint(subgroupExclusiveAdd(y));
    o[b + 13u] = floatBitsToUint(subgroupMin(y)) ^ floatBitsToUint(subgroupMax(y));
    o[b + 14u] = floatBitsToUint(subgroupInclusiveMin(y)) ^ floatBitsToUint(subgroupExclusiveMax(y));
    float p = (u % 2u == 0u) ? 2.0 : -0.5;
    o[b + 15u] = floatBitsToUint(subgroupMul(p)) ^ floatBitsToUint(subgroupInclusiveMul(p));
    if (u % 4u != 1u) {
        o[b + 16u] = subgroupAdd(u);
        o[b + 17u] = subgroupInclusiveAdd(u);
        o[b + 18u] = subgroupExclusiveAdd(u);
        o[b + 19u] = subgroupMin(u) | subgroupMax(u) << 16;
        o[b + 20u] = floatBitsToUint(subgroupExclusiveAdd(y));
        o[b + 21u] = uint(subgroupExclusiveMax(i));
    } else {
        o[b + 22u] = subgroupInclusiveAdd(u) + subgroupXor(u);
    }
    // 64-bit floats with exact partial sums.
    double d = double(y) * 1024.0 + double(u) * 4294967296.0;
    o[b + 24u] = uint(subgroupAdd(d) / 4294967296.0);
    o[b + 25u] = uint(subgroupInclusiveAdd(d) / 1024.0);
    // The exclusive max is -inf in the first lane: clamp before converting.
    o[b + 26u] = uint(max(subgroupExclusiveMax(d), 0.0) / 4294967296.0) ^ uint(subgroupMin(d) / 4294967296.0 + 8.0);
    // 64-bit bitwise operations: both halves carry lane-dependent bits.
    uint64_t w = uint64_t(u) << 32 | uint64_t(u * 2654435761u);
    uint64_t wa = subgroupAnd(w | 0xf0f0f0f00000f000ul) ^ subgroupOr(w) ^ subgroupXor(w);
    uint64_t ws = subgroupInclusiveAnd(w | 0xff000000ff000000ul) ^ subgroupExclusiveOr(w) ^ subgroupInclusiveXor(w);
    o[b + 27u] = uint(wa) ^ uint(ws);
    o[b + 28u] = uint(wa >> 32) + uint(ws >> 32);
    uint acc = 0u;
    for (uint k = 0u; k < (u % 5u) + 1u; k++) {
        acc += subgroupInclusiveAdd(k + u) * 3u + subgroupAdd(k);
    }
    o[b + 23u] = acc;
}
