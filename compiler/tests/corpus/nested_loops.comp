#version 450
// Nested loops with an early exit from the inner one and a do-while.
//! buf 0 0 zero 16
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint n = 0u;
    for (uint a = 0u; a < 5u; a++) {
        for (uint b = 0u; b < 7u; b++) {
            if (a * b > i) break;
            n += a + b;
        }
    }
    uint c = i;
    do { c = (c * 3u + 1u) % 17u; n++; } while (c != 1u && n < 1000u);
    o[i] = n;
}
