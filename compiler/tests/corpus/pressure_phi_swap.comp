#version 450
// Loop-carried values that copy coalescing must keep apart or may merge: a swap and a
// three-way rotation (φs reading φs of the same header), a Fibonacci pair, values carried
// out of a loop left by a divergent break, and φs joining divergent if/else sides, in
// uniform and divergent loops.
//! buf 0 0 rand 64
//! buf 0 1 zero 512
//! push rand 4
//! groups 2 1 1
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer I { uint inp[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint x = inp[g], y = inp[(g + 7u) & 63u], z = g * 3u;
    // Swap and rotate (uniform trip count).
    uint su = 1u, sv = 2u, ra = x, rb = y, rc = z;
    for (uint k = 0u; k < (n & 7u) + 3u; k++) {
        uint t = su; su = sv; sv = t + k;
        uint r = ra; ra = rb; rb = rc; rc = r ^ k;
    }
    // Fibonacci pair with a divergent trip count.
    uint fa = 0u, fb = 1u;
    for (uint k = 0u; k < (x & 15u); k++) {
        uint t = fa + fb; fa = fb; fb = t;
    }
    // Values carried out of a loop that lanes leave at different iterations.
    uint acc = y, last = 0u, k2 = 0u;
    for (; k2 < 40u; k2++) {
        last = acc;
        acc = acc * 1664525u + 1013904223u;
        if ((acc >> 28u) == (x & 15u)) break;
    }
    // Divergent if/else joining into φs, inside a loop with a swap.
    uint p = x, q = y;
    for (uint k = 0u; k < 5u; k++) {
        if (((p + k) & 1u) != 0u) { p = p * 3u + 1u; } else { uint t = p; p = q; q = t >> 1u; }
    }
    uint b = g * 8u;
    o[b + 0u] = su; o[b + 1u] = sv; o[b + 2u] = ra ^ (rb << 1u) ^ (rc << 2u);
    o[b + 3u] = fa; o[b + 4u] = fb; o[b + 5u] = acc ^ last; o[b + 6u] = k2;
    o[b + 7u] = p * 31u + q;
}
