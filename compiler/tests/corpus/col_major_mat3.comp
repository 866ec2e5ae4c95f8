#version 450
// Column-major mat3 in std430 (MatrixStride 16): whole loads, column loads, element loads.
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 3) in;
layout(std430, binding = 0) readonly buffer I { mat3 m; vec3 v; };
layout(std430, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i] = vec4(m * v, m[i][2]);
    o[i + 3u] = vec4(m[i], (v * m)[i]);
}
