#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
// mod() (OpFMod: x - y * floor(x / y), the result taking y's sign) on f16, f32 and f64, with
// divisors of both signs, exact multiples, large quotients and a constant divisor.
//! buf 0 0 rand 32
//! buf 0 1 zero 256
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint v[32]; };
layout(std430, binding = 1) buffer O { uint o[256]; };

float16_t half_of(uint r, uint lo) {
    return uint16BitsToFloat16(uint16_t((r & 0x83ffu) | (((r >> 16) % 10u + lo) << 10)));
}

uint bits(float16_t x) {
    return uint(float16BitsToUint16(x));
}

void main() {
    uint i = gl_LocalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    float16_t x = half_of(r, 12u);
    float16_t y = half_of(r * 69069u + 3u, 8u);
    y = (i % 8u == 3u) ? x * float16_t(-0.25) : y;
    o[i * 8u] = bits(mod(x, y));
    o[i * 8u + 1u] = bits(mod(x, float16_t(3.0)));
    float fx = uintBitsToFloat((r & 0x807fffffu) | (((r >> 7) % 60u + 100u) << 23));
    float fy = float(y) * 1.37;
    o[i * 8u + 2u] = floatBitsToUint(mod(fx, fy));
    o[i * 8u + 3u] = floatBitsToUint(mod(fx * 1000.0, -0.1));
    double dx = double(fx) * 3.0lf + double(i);
    double dy = double(fy) - 0.5lf;
    uvec2 d = unpackDouble2x32(mod(dx, dy));
    o[i * 8u + 4u] = d.x;
    o[i * 8u + 5u] = d.y;
    f16vec2 m2 = mod(f16vec2(x, -x), f16vec2(y));
    o[i * 8u + 6u] = bits(m2.x) | bits(m2.y) << 16;
}
