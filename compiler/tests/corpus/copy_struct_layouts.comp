#version 450
// Whole-struct copies between std140 (UBO) and std430 (SSBO) layouts of the same struct.
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 1) in;
struct S { float a[2]; vec3 b; mat2 m; };
layout(std140, binding = 0) uniform U { S s; } u;
layout(std430, binding = 1) buffer O { S d; S e; };
void main() {
    d = u.s;
    S t = d;
    t.b.y = 42.0;
    e = t;
}
