#version 450
// Work-efficient (Blelloch) exclusive scan in shared memory: barriers inside loops.
//! groups 2 1 1
//! buf 0 0 rand 128
//! buf 0 1 zero 128
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint y[]; };
shared uint t[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 64u;
    t[2u * l] = x[base + 2u * l];
    t[2u * l + 1u] = x[base + 2u * l + 1u];
    uint off = 1u;
    for (uint d = 32u; d > 0u; d >>= 1) {
        barrier();
        if (l < d) { uint ai = off * (2u * l + 1u) - 1u; uint bi = off * (2u * l + 2u) - 1u; t[bi] += t[ai]; }
        off *= 2u;
    }
    if (l == 0u) t[63] = 0u;
    for (uint d = 1u; d < 64u; d *= 2u) {
        off >>= 1;
        barrier();
        if (l < d) {
            uint ai = off * (2u * l + 1u) - 1u; uint bi = off * (2u * l + 2u) - 1u;
            uint v = t[ai]; t[ai] = t[bi]; t[bi] += v;
        }
    }
    barrier();
    y[base + 2u * l] = t[2u * l];
    y[base + 2u * l + 1u] = t[2u * l + 1u];
}
