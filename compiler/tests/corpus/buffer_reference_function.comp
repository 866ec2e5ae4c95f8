#version 450
#extension GL_EXT_buffer_reference : require
// Buffer references passed to and returned from functions, and through a struct.
//! global 0 ramp 32
//! global 1 zero 32
//! push zero 4
//! pushaddr 0 0
//! pushaddr 8 1
layout(local_size_x = 8) in;
layout(buffer_reference, std430) buffer U { uint v[]; };
struct Pair { U src; U dst; };
layout(push_constant) uniform P { Pair p; };
U pick(Pair q, bool second) { if (second) return q.dst; return q.src; }
void bump(U r, uint i, uint by) { r.v[i] += by; }
void main() {
    uint i = gl_LocalInvocationID.x;
    U s = pick(p, false);
    U d = pick(p, true);
    d.v[i] = s.v[i] * 2u;
    bump(d, i, 7u);
    bump(pick(p, (i & 1u) == 1u), i + 8u, 1u);
}
