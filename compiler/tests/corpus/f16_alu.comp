#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Half-precision arithmetic, rounding, sign and min/max family on divergent values: finite
// operands from 1/16 to 32 of both signs, with exact halves (round-half cases), signed zeros and
// integers on some lanes. Every result is stored as its f16 bit pattern in its own word.
//! buf 0 0 rand 32
//! buf 0 1 zero 1024
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint v[32]; };
layout(std430, binding = 1) buffer O { uint o[]; };

float16_t half_of(uint r) {
    // Sign and mantissa from r, biased exponent 11..19 (2^-4 .. 2^4).
    return uint16BitsToFloat16(uint16_t((r & 0x83ffu) | (((r >> 16) % 9u + 11u) << 10)));
}

uint bits(float16_t x) {
    return uint(float16BitsToUint16(x));
}

void main() {
    uint i = gl_LocalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    float16_t a = half_of(r);
    float16_t b = half_of(r * 69069u + 12345u);
    float16_t c = half_of(r * 1103515245u + 7u);
    a = (i % 8u == 1u) ? float16_t(float(int(i) - 16) * 0.5) : a;
    a = (i == 2u) ? float16_t(-0.0) : a;
    b = (i == 3u) ? float16_t(0.0) : b;
    b = (i % 8u == 5u) ? -a : b;
    uint k = 0u;
    uint base = i * 32u;
    o[base + 0u] = bits(-a);
    o[base + 1u] = bits(abs(a));
    o[base + 2u] = bits(sign(a));
    o[base + 3u] = bits(floor(a));
    o[base + 4u] = bits(ceil(a));
    o[base + 5u] = bits(fract(abs(a) + float16_t(0.5)));
    o[base + 6u] = bits(trunc(a));
    o[base + 7u] = bits(round(a));
    o[base + 8u] = bits(roundEven(a));
    o[base + 9u] = bits(min(a, b));
    o[base + 10u] = bits(max(a, b));
    o[base + 11u] = bits(clamp(a, float16_t(-1.0), float16_t(2.0)));
    o[base + 12u] = bits(clamp(a, b, c));
    o[base + 13u] = bits(fma(a, b, c));
    o[base + 14u] = bits(mix(a, b, c));
    o[base + 15u] = bits(step(a, b));
    o[base + 16u] = bits(a + b);
    o[base + 17u] = bits(a - b);
    o[base + 18u] = bits(a * b);
    o[base + 19u] = bits(a / b);
    o[base + 20u] = bits(float16_t(0.5) - a);
    o[base + 21u] = bits(a * float16_t(-4.0) + float16_t(0.15915494));
    o[base + 22u] = bits(-(a * b));
    o[base + 23u] = bits(abs(b) * float16_t(2.0) - float16_t(-0.5));
    o[base + 24u] = bits(sign(b) * c);
    o[base + 25u] = bits(mix(a, b, float16_t(0.25)));
    o[base + 26u] = bits(a * float16_t(1.5) + float16_t(-2.0));
    o[base + 27u] = bits(fma(a, float16_t(4.0), float16_t(-1.0)));
    o[base + 28u] = bits(max(-a, float16_t(1.0)));
    o[base + 29u] = bits(min(abs(a), float16_t(-2.0) * b));
    o[base + 30u] = bits(float16_t(1.0) / a);
    o[base + 31u] = bits(-abs(c));
}
