#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Half-precision comparisons, ordered and unordered, with NaN, infinities, signed zeros and
// equal operands on some lanes, on divergent and on uniform operands.
//! buf 0 0 rand 32
//! buf 0 1 zero 32
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint v[32]; };
layout(std430, binding = 1) buffer O { uint o[32]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint16_t ab = uint16_t((v[i] * 40503u) ^ (i << 11u));
    uint16_t bb = uint16_t((v[(i + 5u) & 31u] * 52561u) ^ (i << 12u));
    ab = (i % 7u == 3u) ? uint16_t(0x7e01) : ab;
    bb = (i % 9u == 4u) ? uint16_t(0xfc00) : bb;
    ab = (i % 11u == 6u) ? uint16_t(0x7c00) : ab;
    bb = (i % 4u == 1u) ? ab : bb;
    ab = (i == 8u) ? uint16_t(0x8000) : ab;
    bb = (i == 8u) ? uint16_t(0) : bb;
    float16_t a = uint16BitsToFloat16(ab);
    float16_t b = uint16BitsToFloat16(bb);
    uint r = 0u;
    r |= (a < b) ? 1u : 0u;
    r |= (a <= b) ? 2u : 0u;
    r |= (a > b) ? 4u : 0u;
    r |= (a >= b) ? 8u : 0u;
    r |= (a == b) ? 16u : 0u;
    r |= (a != b) ? 32u : 0u;
    r |= !(a < b) ? 64u : 0u;
    r |= isnan(a) ? 128u : 0u;
    r |= isinf(b) ? 256u : 0u;
    r |= (a > float16_t(0.0)) ? 512u : 0u;
    float16_t u = uint16BitsToFloat16(uint16_t(v[3] * 37u + 0x3c00u));
    r |= (u < float16_t(3.5)) ? 1024u : 0u;
    r |= (u >= a) ? 2048u : 0u;
    if (u != float16_t(1.0)) {
        r += 4096u;
    }
    o[i] = r;
}
