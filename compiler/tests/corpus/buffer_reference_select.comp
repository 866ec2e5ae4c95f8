#version 450
#extension GL_EXT_buffer_reference : require
// Variable pointers: select and phi of buffer references.
//! global 0 framp 32
//! global 1 ramp 32
//! global 2 zero 32
//! push zero 6
//! pushaddr 0 0
//! pushaddr 8 1
//! pushaddr 16 2
layout(local_size_x = 8) in;
layout(buffer_reference, std430) buffer F { uint v[]; };
layout(push_constant) uniform P { F a; F b; F o; };
void main() {
    uint i = gl_LocalInvocationID.x;
    F p = (i & 1u) == 0u ? a : b;
    F q;
    if (i < 4u) q = b; else q = a;
    o.v[i] = p.v[i] + q.v[i + 8u];
}
