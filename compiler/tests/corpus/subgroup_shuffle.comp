#version 450
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Shuffles (by index, xor, up, down), clustered reductions and quad operations over a workgroup
// of 64 and, under divergence, only from lanes that are themselves active.
//! groups 2 1 1
//! buf 0 0 rand 128
//! buf 0 1 zero 2048
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 16u;
    uint v = x[g];
    uint id = gl_SubgroupInvocationID;
    o[b + 0u] = subgroupShuffle(v, (id * 7u + 3u) % 32u);
    o[b + 1u] = subgroupShuffleXor(v, 5u) + subgroupShuffleXor(v, 16u);
    uint up = subgroupShuffleUp(v, 3u);
    o[b + 2u] = id >= 3u ? up : 0u;
    uint dn = subgroupShuffleDown(v, 2u);
    o[b + 3u] = id < 30u ? dn : 0u;
    o[b + 4u] = subgroupClusteredAdd(v, 4u) | subgroupClusteredMax(v, 8u) << 16;
    o[b + 5u] = subgroupClusteredMin(v, 16u) ^ subgroupClusteredXor(v, 2u) ^ subgroupClusteredOr(v, 32u);
    o[b + 6u] = subgroupQuadBroadcast(v, 2u) + subgroupQuadSwapHorizontal(v) * 3u;
    o[b + 7u] = subgroupQuadSwapVertical(v) ^ subgroupQuadSwapDiagonal(v) << 4;
    dvec2 wide = dvec2(double(v) * 0.25, double(id));
    o[b + 8u] = uint(subgroupShuffleXor(wide, 1u).x * 4.0) + uint(subgroupQuadSwapVertical(wide).y);
    bool big = v > 400u;
    o[b + 13u] = uint(subgroupShuffleXor(big, 3u)) | uint(subgroupBroadcast(big, 9u)) << 1
        | uint(subgroupInclusiveOr(big)) << 2 | uint(subgroupExclusiveAnd(big)) << 3
        | uint(subgroupClusteredXor(big, 4u)) << 4 | uint(subgroupQuadSwapDiagonal(big)) << 5;
    if ((id & 2u) == 0u) {
        // Half the lanes; every source lane below is active too.
        o[b + 9u] = subgroupShuffleXor(v, 1u);
        o[b + 10u] = subgroupShuffleXor(v, 8u) + subgroupClusteredAdd(v, 4u);
        o[b + 11u] = subgroupQuadSwapHorizontal(v);
        o[b + 12u] = subgroupShuffle(v, id ^ 17u);
    }
}
