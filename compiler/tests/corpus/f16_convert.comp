#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
// Half-precision conversions to and from f32, f64 and 8/16/32-bit integers (rounding ties,
// overflow to infinity, f16 subnormals, saturation of out-of-range integer results), dot and
// length on f16 vectors, round() on f32, and f16 arithmetic on uniform operands (scalar
// registers as sources, sign-bit ops on the scalar unit).
//! buf 0 0 rand 64
//! buf 0 1 zero 1024
//! push rand 2
layout(local_size_x = 32) in;
layout(push_constant) uniform P { uint pa; uint pb; };
layout(std430, binding = 0) readonly buffer I { uint v[64]; };
layout(std430, binding = 1) buffer O { uint o[]; };

float16_t half_of(uint r) {
    return uint16BitsToFloat16(uint16_t((r & 0x83ffu) | (((r >> 16) % 9u + 11u) << 10)));
}

uint bits(float16_t x) {
    return uint(float16BitsToUint16(x));
}

void main() {
    uint i = gl_LocalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    // f32 values around f16's range: huge, tiny (subnormal in f16) and halfway cases.
    float f = uintBitsToFloat((r & 0x807fffffu) | (((r >> 23) % 40u + 100u) << 23));
    f = (i % 4u == 1u) ? float(int(r % 4096u) - 2048) + 0.5 : f;
    float16_t h = half_of(r * 69069u);
    h = (i % 8u == 3u) ? float16_t(float(i) * 1000.0 - 20000.0) : h;
    uint base = i * 32u;
    o[base + 0u] = bits(float16_t(f));
    o[base + 1u] = floatBitsToUint(float(h));
    o[base + 2u] = bits(float16_t(double(f) * 3.0lf));
    uvec2 d = unpackDouble2x32(double(h) * 0.1lf);
    o[base + 3u] = d.x;
    o[base + 4u] = d.y;
    o[base + 5u] = uint(int(h));
    o[base + 6u] = uint(abs(h));
    o[base + 7u] = uint(int16_t(h * float16_t(4.0)));
    o[base + 8u] = uint(uint16_t(abs(h) * float16_t(4.0)));
    o[base + 9u] = uint(int8_t(h));
    o[base + 10u] = uint(uint8_t(abs(h) * float16_t(8.0)));
    o[base + 11u] = bits(float16_t(int(r) >> 12));
    o[base + 12u] = bits(float16_t(r >> 13));
    o[base + 13u] = bits(float16_t(int16_t(r)));
    o[base + 14u] = bits(float16_t(uint16_t(r)));
    o[base + 15u] = bits(float16_t((r & 3u) == 1u));
    f16vec3 p = f16vec3(h, half_of(r * 3u), half_of(r * 7u));
    f16vec3 q = f16vec3(half_of(r * 11u), h, float16_t(-0.5));
    o[base + 16u] = bits(dot(p, q));
    o[base + 17u] = bits(length(p));
    o[base + 18u] = floatBitsToUint(round(f * 0.25));
    o[base + 19u] = floatBitsToUint(round(float(int(r % 64u) - 32) * 0.25));
    o[base + 20u] = bits(round(h));
    // Uniform operands (push constants, in scalar registers).
    float16_t ua = half_of(pa * 2654435761u);
    float16_t ub = half_of(pb * 2654435761u);
    o[base + 21u] = bits(-ua);
    o[base + 22u] = bits(abs(ub) - ua);
    o[base + 23u] = bits(ua * ub + h);
    o[base + 24u] = bits(fma(ua, ub, float16_t(0.5)));
    o[base + 25u] = (ua < ub) ? 1u : 0u;
    o[base + 26u] = bits(min(ua, h) / ub);
    o[base + 27u] = bits(float16_t(float(ua) * 3.0));
    o[base + 28u] = uint(int(ua * float16_t(16.0)));
    o[base + 29u] = bits(ua - float16_t(2.0));
    o[base + 30u] = bits(h - float16_t(0.5));
    o[base + 31u] = bits(float16_t(4.0) - h);
}
