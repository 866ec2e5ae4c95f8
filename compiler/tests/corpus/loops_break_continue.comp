#version 450
// A for loop with continue and break.
//! buf 0 0 ramp 64
//! buf 0 1 zero 16
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint acc = 0u;
    for (uint k = 0u; k < 64u; k++) {
        if ((x[k] + i) % 3u == 0u) continue;
        acc += x[k] ^ i;
        if (acc > 200u + i * 10u) break;
    }
    o[i] = acc;
}
