#version 450
// A switch with fall-through inside a loop with continue, nested in a divergent if.
//! buf 0 0 ramp 64
//! buf 0 1 zero 64
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint acc = i;
    if ((x[i] & 1u) == 0u) {
        for (uint k = 0u; k < (i & 7u) + 2u; k++) {
            switch ((acc + k) % 5u) {
            case 0u: acc += 3u;
            case 1u: acc ^= 5u; break;
            case 2u: continue;
            default: acc = acc * 3u + 1u; break;
            }
            acc += k;
        }
    } else {
        acc = acc / 3u + 100u;
    }
    o[i] = acc;
}
