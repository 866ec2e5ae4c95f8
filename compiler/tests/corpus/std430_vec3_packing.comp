#version 450
// std430 packs a float right after a vec3; arrays of vec3 still have stride 16.
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 4) in;
struct S { vec3 a; float b; vec2 c; float d[2]; };
layout(std430, binding = 0) readonly buffer I { S s[]; };
layout(std430, binding = 1) buffer O { float tail; vec3 v[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    S x = s[i];
    v[i] = x.a * x.b + vec3(x.c, x.d[1]);
    if (i == 0u) tail = s[3].d[0];
}
