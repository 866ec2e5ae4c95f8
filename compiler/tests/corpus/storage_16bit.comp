#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// 16-bit storage and arithmetic: u16, i16 and f16 with conversions.
//! buf 0 0 bytes 32
//! buf 0 1 zero 32
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { uint16_t u[16]; int16_t s[16]; float16_t h[16]; f16vec2 hv[8]; };
layout(std430, binding = 1) buffer O { float f[8]; uint16_t r[16]; f16vec2 hv2[8]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    r[i] = u[i] * uint16_t(3) + uint16_t(s[i]);
    r[i + 8u] = uint16_t(int16_t(s[i + 8u]) >> int16_t(2));
    float16_t x = float16_t(float(i) * 0.25);
    hv2[i] = f16vec2(x, x * x + float16_t(1.5));
    f[i] = float(x) + float(u[i] & uint16_t(255));
}
