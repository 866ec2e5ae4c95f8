#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// 16-bit and 8-bit integers converted straight to float16, including values above 2048 that
// f16 cannot hold exactly (rounding) and above 65504 (infinity).
//! buf 0 0 rand 16
//! buf 0 1 zero 16
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { uint v[]; };
layout(std430, binding = 1) buffer O { float16_t h[32]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint16_t u = uint16_t(v[i] * 67u + i * 4099u);
    int16_t s = int16_t(u);
    int8_t b = int8_t(u);
    h[i] = float16_t(u) + float16_t(b);
    h[i + 16u] = float16_t(s) - float16_t(uint8_t(b));
}
