#version 450
// Integer bit operations, shifts, extended multiply and add-with-carry.
//! buf 0 0 rand 32
//! buf 0 1 zero 128
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uvec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint a = x[i] * 2654435761u, b = x[i + 8u] + 17u;
    int s = int(a) >> 5;
    uint hi, lo, carry;
    umulExtended(a, b, hi, lo);
    uint sum = uaddCarry(a, b, carry);
    o[i * 4u] = uvec4(bitCount(a), findMSB(a), findLSB(b), bitfieldReverse(a));
    o[i * 4u + 1u] = uvec4(bitfieldExtract(a, 3, 9), uint(bitfieldExtract(int(a), 5, 7)), bitfieldInsert(a, b, 4, 8), uint(s));
    o[i * 4u + 2u] = uvec4(hi, lo, sum, carry);
    o[i * 4u + 3u] = uvec4(a / b, a % b, uint(int(a) / -int(b + 1u)), uint(findMSB(-int(b))));
}
