#version 450
// Lanes that leave a loop through a divergent break keep, in lanes now inactive, values the
// linear CFG sees dead: a header φ read after the loop whose last read in the body comes
// before the break, with other values (or its own next value) written in between, and a
// do-while reading the previous iteration's value after the loop. Register allocation must not
// reuse or merge such registers while the leaving lanes are still active.
//! buf 0 0 rand 64
//! buf 0 1 zero 256
//! groups 2 1 1
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer I { uint inp[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint x = inp[g];
    for (uint k = 0u; k < 20u; k++) {
        uint y = x * 3u + k;
        uint z = y * y + (y >> 5u);
        if ((z & 7u) == 3u) break;
        x = y + (z & 0xffu);
    }
    uint a = inp[(g + 5u) & 63u], prev = 0u;
    uint m = 0u;
    do {
        prev = a;
        a = a * 1103515245u + 12345u;
        m++;
    } while (((a >> 16u) & 7u) != (g & 7u) && m < 30u);
    uint p = inp[(g + 9u) & 63u];
    for (uint k = 0u; k < 16u; k++) {
        uint next = p ^ (p << 7u);
        uint t = next * 5u;
        if ((t & 15u) == (g & 15u)) break;
        p = next + k;
    }
    o[g * 4u] = x;
    o[g * 4u + 1u] = prev;
    o[g * 4u + 2u] = p;
    o[g * 4u + 3u] = a;
}
