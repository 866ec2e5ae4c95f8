#version 450
// Local arrays, structs and matrices with constant indices only: fully promoted to SSA.
//! buf 0 0 framp 16
//! buf 0 1 zero 64
layout(local_size_x = 4) in;
struct S { vec4 v; float f[2]; };
layout(std430, binding = 0) readonly buffer I { float x[]; };
layout(std430, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    float a[3] = float[3](x[i], x[i + 4u], 2.0);
    S s;
    s.v = vec4(a[0], a[1], a[2], 1.0);
    s.f[0] = a[1] * 3.0;
    s.f[1] = s.f[0] - a[0];
    mat2 m = mat2(a[0], a[1], s.f[0], s.f[1]);
    m[1][0] += 1.0;
    s.v.y = m[1].x;
    o[i] = s.v + vec4(m * vec2(1.0, -1.0), s.f[1], 0.0);
}
