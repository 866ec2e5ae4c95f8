#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
// 64-bit integer reductions, scans and clustered reductions (add, mul, signed and unsigned
// min/max) whose operands carry across the dword boundary, plus data movement of 64-bit
// scalars and vectors, over a workgroup of 48 (a full wave and 16 lanes) and under divergence.
//! groups 2 1 1
//! buf 0 0 rand 96
//! buf 0 1 zero 3072
layout(local_size_x = 48) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void put(uint at, uint64_t v) {
    o[at] = uint(v);
    o[at + 1u] = uint(v >> 32);
}
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 32u;
    uint u = x[g];
    uint id = gl_SubgroupInvocationID;
    // Low dwords near the top so sums carry; signs differ between lanes.
    uint64_t w = uint64_t(u) << 32 | uint64_t(0xfffff000u + u * 7u);
    int64_t s = int64_t(w) - int64_t(u % 3u) * 0x0000030000000000l;
    put(b + 0u, subgroupAdd(w));
    put(b + 2u, subgroupInclusiveAdd(w));
    put(b + 4u, subgroupExclusiveAdd(w));
    put(b + 6u, subgroupMin(w) ^ subgroupMax(w));
    put(b + 8u, uint64_t(subgroupMin(s)) + uint64_t(subgroupMax(s)));
    put(b + 10u, subgroupInclusiveMin(w) ^ uint64_t(subgroupExclusiveMax(s)));
    put(b + 12u, uint64_t(subgroupInclusiveMax(s)) ^ subgroupExclusiveMin(w));
    // Products: odd 64-bit factors whose high halves matter.
    uint64_t m = w | 1ul;
    put(b + 14u, subgroupMul(m) ^ subgroupInclusiveMul(m));
    put(b + 16u, uint64_t(subgroupExclusiveMul(s | 1l)));
    put(b + 18u, subgroupClusteredAdd(w, 4u) ^ subgroupClusteredMul(m, 2u));
    put(b + 20u, uint64_t(subgroupClusteredMin(s, 8u)) + subgroupClusteredMax(w, 16u));
    // Data movement of 64-bit scalars and vectors.
    i64vec2 v = i64vec2(s, int64_t(w) * -3l);
    i64vec2 sh = subgroupShuffle(v, (id * 5u + 1u) % 32u) + subgroupShuffleXor(v, 3u);
    put(b + 22u, uint64_t(sh.x ^ sh.y));
    u64vec2 q = subgroupQuadBroadcast(u64vec2(w, m), 1u) + subgroupQuadSwapDiagonal(u64vec2(m, w));
    put(b + 24u, q.x * 3ul + q.y);
    put(b + 26u, subgroupBroadcast(w, 5u) + subgroupBroadcastFirst(m) + uint64_t(subgroupAllEqual(w >> 40)));
    if (u % 3u != 1u) {
        put(b + 28u, subgroupAdd(w) + subgroupInclusiveAdd(uint64_t(s)));
        put(b + 30u, uint64_t(subgroupExclusiveMin(s)) ^ subgroupMax(w) ^ subgroupClusteredAdd(w, 8u));
    } else {
        put(b + 28u, subgroupExclusiveAdd(m) ^ uint64_t(subgroupInclusiveMax(s)));
        put(b + 30u, uint64_t(subgroupAllEqual(s)) + subgroupShuffleUp(w, 0u));
    }
}
