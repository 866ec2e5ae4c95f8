#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// 8-bit storage: byte loads and stores, sign and zero extension.
//! buf 0 0 bytes 16
//! buf 0 1 zero 16
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { uint8_t u[32]; int8_t s[32]; };
layout(std430, binding = 1) buffer O { uint o[8]; uint8_t b[32]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    b[i] = uint8_t(u[i] + u[i + 16u]);
    b[i + 16u] = uint8_t(int(s[i]) >> 1);
    if (i < 8u) o[i] = uint(int(s[i * 4u]) + 1000);
}
