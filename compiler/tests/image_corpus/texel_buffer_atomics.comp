#version 450
// Atomics on a storage texel buffer.
//! buf 0 0 zero 64
//! texbuf 0 1 uint 16 rand
//! isa buffer_atomic_add
//! isa buffer_atomic_cmpswap
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer sb;
void main() {
    int i = int(gl_LocalInvocationID.x);
    uint a = imageAtomicAdd(sb, i % 16, 1u);
    uint b = imageAtomicCompSwap(sb, (i + 3) % 16, 7u, uint(i));
    o[i] = a * 1000u + b;
}
