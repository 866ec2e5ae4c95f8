#version 450
// Constant tables read with dynamic indices (opt_constant_arrays moves them into the shader's
// constant data): uniform indices (workgroup id: s_load) and divergent ones (lane, buffer
// value: global_load), an int table and a vec2 table; every index is in range (the
// interpreter's reference run reads the private array itself).
//! groups 2 1 1
//! buf 0 0 rand 32
//! buf 0 1 zero 128
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uvec4 o[]; };
void main() {
    int perm[8] = int[](3, 7, 0, 5, 1, 6, 2, 4);
    vec2 pts[5] = vec2[](vec2(1.0, -2.0), vec2(0.5, 4.0), vec2(-3.0, 8.0), vec2(7.5, 0.25),
                         vec2(-1.0, -1.0));
    uint l = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    int a = perm[l & 7u];
    int b = perm[(g * 3u + 1u) & 7u];
    vec2 p = pts[x[g * 16u + l] % 5u];
    vec2 q = pts[g + 2u];
    o[g * 16u + l] = uvec4(uint(a), uint(b), floatBitsToUint(p.x + q.y), floatBitsToUint(p.y * q.x));
}
