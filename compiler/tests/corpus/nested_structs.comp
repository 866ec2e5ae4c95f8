#version 450
// Nested structs with arrays inside arrays, read and written member by member.
//! buf 0 0 framp 128
//! buf 0 1 zero 128
layout(local_size_x = 2) in;
struct B { float x; vec3 y; };
struct A { B b[2]; vec2 c; uint k; };
layout(std430, binding = 0) readonly buffer I { A a[]; };
layout(std430, binding = 1) buffer O { A r[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    r[i].b[0].x = a[i].b[1].x;
    r[i].b[0].y = a[i].b[1].y.zyx;
    r[i].b[1] = a[i ^ 1u].b[0];
    r[i].c = a[i].c * 2.0;
    r[i].k = uint(a[i].b[0].x);
}
