#version 450
// A push-constant block with a struct, a matrix and an array.
//! push framp 32
//! buf 0 0 zero 32
layout(local_size_x = 4) in;
struct X { vec2 off; uint n; };
layout(push_constant) uniform P { mat2 m; X x; float k[3]; } pc;
layout(std430, binding = 0) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 p = pc.m * vec2(float(i), 1.0) + pc.x.off;
    o[i] = vec4(p, pc.k[i % 3u], float(pc.x.n & 3u));
}
