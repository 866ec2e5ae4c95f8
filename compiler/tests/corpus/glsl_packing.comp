#version 450
// Packing built-ins: half, unorm and snorm packs and unpacks, and ldexp.
//! buf 0 0 frand 32
//! buf 0 1 zero 64
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { vec4 x[]; };
layout(std430, binding = 1) buffer O { uvec4 p[8]; vec4 u[8]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    vec4 v = x[i] * 0.3;
    p[i] = uvec4(packHalf2x16(v.xy), packUnorm4x8(v), packSnorm4x8(v), packUnorm2x16(v.zw) ^ packSnorm2x16(v.xy));
    u[i] = unpackUnorm4x8(p[i].y) + unpackSnorm4x8(p[i].z) + vec4(unpackHalf2x16(p[i].x), unpackSnorm2x16(p[i].w))
         + vec4(ldexp(v.x, int(i) - 3));
    if (i == 0u) {
        p[0] = uvec4(packHalf2x16(vec2(1.0, -2.0)), packUnorm4x8(vec4(0.0, 0.5, 1.0, 2.0)), packSnorm4x8(vec4(-1.0, 0.5, 0.0, 1.0)), 0u);
        u[0] = unpackUnorm4x8(0x00FF8000u);
    }
}
