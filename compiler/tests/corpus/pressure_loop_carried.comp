#version 450
// Loop-carried values whose next value is computed from the current one and nothing else
// needs the old one afterwards: register allocation gives both one register, so no loop
// ends with a move copying the next value into the φ register (uniform and divergent trip
// counts, a value carried out of a loop left by a divergent break).
//! buf 0 0 rand 64
//! buf 0 1 zero 256
//! push rand 4
//! groups 2 1 1
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer I { uint inp[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint x = inp[g];
    uint u = n;
    for (uint k = 0u; k < (n & 7u) + 2u; k++) u = u * 5u + 3u;
    uint h = x;
    for (uint k = 0u; k < (x & 15u); k++) h = (h ^ (h >> 3u)) * 0x9e3779b9u;
    uint c = x | 1u;
    while (c > 1u) { if ((c & 4u) == 4u) break; c = c >> 1u; }
    o[g * 4u] = u;
    o[g * 4u + 1u] = h;
    o[g * 4u + 2u] = c;
}
