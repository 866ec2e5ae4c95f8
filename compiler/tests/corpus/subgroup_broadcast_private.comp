#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
// The shape of the CTS's subgroups.ballot_broadcast.*.subgroupbroadcast_<8/16-bit type>: every
// lane's value broadcast with constant ids into private arrays of 8- and 16-bit scalars and
// f16vec3, which are then read (and one element written) at divergent dynamic indices. The
// arrays are too large for VGPRs, so they live in scratch memory: byte and short scratch
// loads and stores, a store never touching its neighbours.
//! groups 2 1 1
//! buf 0 0 rand 64
//! buf 0 1 zero 512
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
#define B(i) cs[i] = subgroupBroadcast(c, i); hs[i] = subgroupBroadcast(h, i); fs[i] = subgroupBroadcast(f, i);
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint u = x[g];
    uint id = gl_SubgroupInvocationID;
    int8_t c = int8_t(u);
    uint16_t h = uint16_t(u >> 9);
    f16vec3 f = f16vec3(float16_t(float(u % 64u) * 0.25), float16_t(-float(u % 13u)), float16_t(0.5));
    int8_t cs[32];
    uint16_t hs[32];
    f16vec3 fs[32];
    B(0u)
    B(1u)
    B(2u)
    B(3u)
    B(4u)
    B(5u)
    B(6u)
    B(7u)
    B(8u)
    B(9u)
    B(10u)
    B(11u)
    B(12u)
    B(13u)
    B(14u)
    B(15u)
    B(16u)
    B(17u)
    B(18u)
    B(19u)
    B(20u)
    B(21u)
    B(22u)
    B(23u)
    B(24u)
    B(25u)
    B(26u)
    B(27u)
    B(28u)
    B(29u)
    B(30u)
    B(31u)
    cs[(id + 3u) % 32u] = int8_t(u >> 3);
    hs[(id + 5u) % 32u] = uint16_t(u >> 17);
    fs[(id + 7u) % 32u].y = float16_t(1.5);
    for (uint k = 0u; k < 4u; k++) {
        uint j = (id * 5u + k * 11u) % 32u;
        o[g * 8u + 2u * k] = uint(uint8_t(cs[j])) | uint(hs[j] & uint16_t(0xff)) << 8 | uint(float16BitsToUint16(fs[j].y)) << 16;
        o[g * 8u + 2u * k + 1u] = uint(float16BitsToUint16(fs[j].x)) | uint(float16BitsToUint16(fs[j].z)) << 16;
    }
}
