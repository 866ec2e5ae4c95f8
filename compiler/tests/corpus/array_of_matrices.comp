#version 450
// Arrays of matrices in std140, both row- and column-major, with dynamic indices.
//! buf 0 0 framp 256
//! buf 0 1 zero 64
layout(local_size_x = 4) in;
layout(std140, binding = 0) uniform U {
    layout(row_major) mat2 r[4];
    layout(column_major) mat2x3 c[3];
} u;
layout(std430, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 a = u.r[i] * vec2(1.0, 2.0);
    o[i] = vec4(a, u.r[i][1]);
    o[i + 4u] = vec4(u.c[i % 3u][i & 1u], u.c[2][1][i % 3u]);
}
