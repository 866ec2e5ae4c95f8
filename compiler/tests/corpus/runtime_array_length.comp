#version 450
// .length() of runtime arrays of structs after a header.
//! buf 0 0 ramp 40
//! buf 0 1 zero 8
layout(local_size_x = 1) in;
struct E { uint a; uint b[3]; };
layout(std430, binding = 0) readonly buffer I { uint head[2]; E e[]; };
layout(std430, binding = 1) buffer O { uint n; uint sum; uint last; };
void main() {
    n = uint(e.length());
    uint s = 0u;
    for (int k = 0; k < e.length(); k++) s += e[k].b[2];
    sum = s;
    last = e[e.length() - 1].a;
}
