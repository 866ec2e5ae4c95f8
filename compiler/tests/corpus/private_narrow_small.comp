#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// Small private arrays of 8- and 16-bit integers (20 bytes: kept in VGPRs, one per dword)
// written and read at dynamic indices, at element offsets that are not dword aligned.
//! groups 2 1 1
//! buf 0 0 rand 64
//! buf 0 1 zero 128
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint u = x[g];
    uint16_t hs[6];
    int8_t bs[8];
    for (uint i = 0u; i < 6u; i++) {
        hs[i] = uint16_t(u * (i + 1u));
    }
    for (uint i = 0u; i < 8u; i++) {
        bs[i] = int8_t(u >> i);
    }
    hs[u % 6u] = uint16_t(0xabcd);
    bs[(u >> 4) % 8u] = int8_t(-5);
    o[g * 2u] = uint(hs[(u >> 3) % 6u]) | uint(hs[1]) << 16;
    o[g * 2u + 1u] = uint(uint8_t(bs[(u >> 5) % 8u])) | uint(uint8_t(bs[3])) << 8 | uint(hs[u % 6u]) << 16;
}
