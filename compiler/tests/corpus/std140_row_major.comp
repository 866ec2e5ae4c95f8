#version 450
// A std140 UBO with a row-major matrix, read whole, by column and by element.
//! groups 1 1 1
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 4) in;
layout(std140, set = 0, binding = 0) uniform U {
    layout(row_major) mat4 m;
    vec3 v;
    float s[3];
} u;
layout(std430, set = 0, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i] = u.m * vec4(u.v, 1.0);
    o[i + 4] = u.m[i];
    o[i + 8] = vec4(u.m[i][1], u.s[i % 3], u.v[i % 3], 0.0);
}
