#version 450
// Divergent loop exits: a flag and a value computed inside a loop with per-lane trip counts,
// used after it; an early return inside the loop; a loop exited only through break.
//! groups 2 1 1
//! buf 0 0 rand 64
//! buf 0 1 zero 64
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i];
    bool found = false;
    uint last = 0u;
    for (uint k = 0u; k < 40u; k++) {
        last = k * 3u + v;
        bool hit = (last % 7u) == (i % 7u);
        if (hit && k > (i & 3u)) { found = hit; break; }
        if (k == 37u && i == 5u) { o[i] = 12345u; return; }
    }
    uint n = 0u;
    while (true) {
        n += v & 3u;
        if (n > 20u || (v & 3u) == 0u) break;
    }
    o[i] = (found ? 1000000u : 0u) + last * 16u + n;
}
