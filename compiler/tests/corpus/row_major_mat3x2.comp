#version 450
// A non-square row-major matrix: columns are strided gathers, m * v reads all of it.
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 3) in;
layout(std430, binding = 0, row_major) readonly buffer I { mat3x2 m; vec3 v; mat2x3 n; };
layout(std430, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i] = vec4(m[i], m * v);
    o[i + 3u] = vec4(n[i & 1u], n[1][i]);
}
