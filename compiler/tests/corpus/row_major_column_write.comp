#version 450
// Writing columns and elements of a row-major matrix: strided scatters.
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 4) in;
layout(std430, binding = 0) readonly buffer I { vec4 x[]; };
layout(std430, binding = 1, row_major) buffer O { mat4 m; mat4x3 n; };
void main() {
    uint i = gl_LocalInvocationID.x;
    m[i] = x[i];
    n[i] = x[i + 4u].xyz;
    barrier();
    if (i == 0u) { m[2][3] = 99.0; n[1].y = -1.0; }
}
