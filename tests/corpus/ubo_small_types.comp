#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// 8- and 16-bit members of a uniform block at constant and dynamic indices, and 8-bit
// arithmetic (uniformAndStorageBuffer8/16BitAccess, shaderInt8).
//! buf 0 0 bytes 64
//! buf 0 1 zero 48
layout(local_size_x = 16) in;
layout(std140, binding = 0) uniform U {
    u8vec4 a[4];
    i16vec4 b[4];
    int8_t s;
    uint16_t t;
    i8vec2 c;
} u;
layout(std430, binding = 1) buffer O { uint o[32]; uint8_t bytes[16]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint j = i & 3u, k = i >> 2;
    int8_t m = int8_t(u.a[j][k]) * int8_t(3) + u.c[i & 1u];
    o[i] = uint(u.a[j][k]) | (uint(int(u.b[j][k]) & 0xffff) << 8) | (uint(uint8_t(m)) << 24);
    float16_t h = float16_t(float(u.b[k][j])) * 0.5hf;
    o[i + 16u] = floatBitsToUint(float(h)) ^ uint(int(u.s)) ^ (uint(u.t) << 16);
    bytes[i] = uint8_t(u.a[k][j]) >> 1;
}
