#version 450
// An address computed in a loop that lanes leave at different iterations and used again after
// it: the access after the loop must use each lane's own last address (CSE gives both accesses
// one address value, whose constant part the selector may not split off a stale base).
//! groups 2 1 1
//! buf 0 0 rand 600
//! buf 0 1 zero 64
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint k = 0u;
    uint v;
    while (true) {
        v = x[k * 4u + 1u];
        if (v % 64u < g || k == 30u) {
            break;
        }
        k++;
    }
    o[g] = x[k * 4u + 1u] + v * 3u + k;
}
