#version 450
// Uniform vec4 and mat4 members read component by component: the scalar loads of one member
// (and of neighbouring members) merge into s_buffer_load_dwordx4/x8.
//! buf 0 0 framp 40
//! buf 0 1 zero 32
layout(local_size_x = 4) in;
layout(std140, binding = 0) uniform U { vec4 a; mat4 m; float s; float t; vec2 uv; vec4 tail; } u;
layout(std430, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    vec4 p = vec4(float(i), 1.0, 2.0, 3.0);
    o[i] = u.m * p + u.a * u.s - vec4(u.uv, u.t, 0.0);
    o[i + 4u] = u.tail.wzyx;
}
