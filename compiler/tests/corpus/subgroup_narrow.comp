#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
// 8- and 16-bit integers and f16 in every subgroup class, over a workgroup of 40 (a full wave
// and 8 lanes) and under divergence. Values are built by arithmetic that leaves the registers'
// upper bits dirty (sums that wrap), so signed/unsigned min/max must extend correctly; f16
// values are small multiples of 1/4 so every partial sum is exact.
//! groups 2 1 1
//! buf 0 0 rand 80
//! buf 0 1 zero 2560
layout(local_size_x = 40) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
uint w8(int8_t v) { return uint(uint8_t(v)); }
uint w16(int16_t v) { return uint(uint16_t(v)); }
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 32u;
    uint u = x[g];
    uint id = gl_SubgroupInvocationID;
    int8_t c = int8_t(u) + int8_t(100);
    uint8_t uc = uint8_t(u * 3u) + uint8_t(200);
    int16_t h = int16_t(u * 77u) - int16_t(20000);
    uint16_t uh = uint16_t(u * 131u) + uint16_t(60000);
    float16_t f = float16_t(float(int(u % 64u) - 32) * 0.25);
    // Factors whose products are exact and in range in any order.
    float16_t p = id % 8u == 3u ? 2.0hf : (id % 8u == 6u ? 0.5hf : ((u & 1u) != 0u ? -1.0hf : 1.0hf));
    o[b + 0u] = w8(subgroupAdd(c)) | uint(subgroupMul(uc | uint8_t(1))) << 8 | w8(subgroupMin(c)) << 16 | w8(subgroupMax(c)) << 24;
    o[b + 1u] = uint(subgroupMin(uc)) | uint(subgroupMax(uc)) << 8 | uint(subgroupAnd(uc)) << 16 | uint(subgroupOr(uc) ^ subgroupXor(uc)) << 24;
    o[b + 2u] = w8(subgroupInclusiveMin(c)) | w8(subgroupExclusiveMax(c)) << 8 | uint(subgroupInclusiveMax(uc)) << 16 | uint(subgroupExclusiveMin(uc)) << 24;
    o[b + 3u] = w16(subgroupAdd(h)) | w16(subgroupInclusiveAdd(h)) << 16;
    o[b + 4u] = w16(subgroupMin(h)) | w16(subgroupMax(h)) << 16;
    o[b + 5u] = uint(subgroupMin(uh)) | uint(subgroupMax(uh)) << 16;
    o[b + 6u] = w16(subgroupExclusiveMin(h)) | uint(subgroupInclusiveMax(uh)) << 16;
    o[b + 7u] = uint(subgroupExclusiveMul(uh | uint16_t(1))) | uint(subgroupExclusiveAdd(uh)) << 16;
    o[b + 8u] = uint(float16BitsToUint16(subgroupAdd(f))) | uint(float16BitsToUint16(subgroupInclusiveAdd(f))) << 16;
    o[b + 9u] = uint(float16BitsToUint16(subgroupMin(f))) | uint(float16BitsToUint16(subgroupExclusiveMax(f))) << 16;
    o[b + 10u] = uint(float16BitsToUint16(subgroupExclusiveAdd(f))) | uint(float16BitsToUint16(subgroupMul(f16vec2(p, 1.0hf)).x)) << 16;
    f16vec3 fv = subgroupInclusiveMax(f16vec3(f, float16_t(0.5 - float(f)), float16_t(float(f) * 0.5)));
    o[b + 11u] = uint(float16BitsToUint16(fv.x)) ^ uint(float16BitsToUint16(fv.y)) << 8 ^ uint(float16BitsToUint16(fv.z)) << 16;
    i16vec2 hv = subgroupClusteredMin(i16vec2(h, -h), 4u) + subgroupClusteredMax(i16vec2(h, int16_t(uh)), 16u);
    o[b + 12u] = w16(hv.x) | w16(hv.y) << 16;
    o[b + 13u] = w8(subgroupClusteredAdd(c, 8u)) | uint(subgroupClusteredMin(uc, 2u)) << 8 | uint(subgroupClusteredMax(uh, 32u)) << 16;
    o[b + 14u] = uint(float16BitsToUint16(subgroupClusteredAdd(f, 4u))) | uint(float16BitsToUint16(subgroupClusteredMin(f, 16u))) << 16;
    // Data movement and votes.
    i8vec2 cv = subgroupShuffle(i8vec2(c, int8_t(uc)), (id * 3u + 1u) % 32u) + subgroupShuffleXor(i8vec2(int8_t(uc), c), 6u);
    o[b + 15u] = w8(cv.x) | w8(cv.y) << 8 | uint(subgroupBroadcast(uh, 7u)) << 16;
    o[b + 16u] = w16(subgroupQuadBroadcast(h, 3u)) | uint(float16BitsToUint16(subgroupQuadSwapVertical(f))) << 16;
    o[b + 17u] = uint(subgroupQuadSwapHorizontal(uc)) | uint(subgroupQuadSwapDiagonal(uh)) << 8 | w8(subgroupBroadcastFirst(c)) << 24;
    uint16_t up = subgroupShuffleUp(uh, 2u);
    f16vec2 dn = subgroupShuffleDown(f16vec2(f, float16_t(0.25 - float(f))), 1u);
    o[b + 18u] = (id >= 2u ? uint(up) : 0u) | (id < 31u ? uint(float16BitsToUint16(dn.y)) << 16 : 0u);
    o[b + 19u] = uint(subgroupAllEqual(c)) | uint(subgroupAllEqual(int8_t(u >> 10))) << 1
        | uint(subgroupAllEqual(int16_t(u >> 12) + int16_t(u & 0x10000u))) << 2 | uint(subgroupAllEqual(f16vec2(f, 1.0hf))) << 3
        | uint(subgroupAllEqual(uint16_t(h) + uint16_t(65536u - uint(uint16_t(h))))) << 4;
    if (u % 3u != 0u) {
        o[b + 20u] = w8(subgroupMin(c)) | uint(subgroupMax(uc)) << 8 | w16(subgroupInclusiveMin(h)) << 16;
        o[b + 21u] = uint(subgroupExclusiveMax(uh)) | uint(float16BitsToUint16(subgroupInclusiveAdd(f))) << 16;
        o[b + 22u] = w16(subgroupClusteredMax(h, 8u)) | uint(subgroupAllEqual(uc | uint8_t(255))) << 16;
    } else {
        o[b + 23u] = w8(subgroupExclusiveMin(c)) | uint(float16BitsToUint16(subgroupMax(f))) << 16;
    }
}
