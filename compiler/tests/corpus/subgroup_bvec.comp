#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_vote : require
// Boolean vectors: every component of a bvec goes through the operation on its own (all-equal
// asks for every component), over a workgroup of 40 and under divergence.
//! groups 2 1 1
//! buf 0 0 rand 80
//! buf 0 1 zero 640
layout(local_size_x = 40) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
uint bits(bvec3 v) { return uint(v.x) | uint(v.y) << 1 | uint(v.z) << 2; }
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 8u;
    uint u = x[g];
    uint id = gl_SubgroupInvocationID;
    bvec3 v = bvec3(u > 500u, (u & 1u) == 0u, u % 7u == 3u);
    o[b + 0u] = bits(subgroupAnd(v)) | bits(subgroupOr(v)) << 4 | bits(subgroupXor(v)) << 8
        | bits(subgroupInclusiveOr(v)) << 12 | bits(subgroupExclusiveXor(v)) << 16
        | bits(subgroupClusteredAnd(v, 4u)) << 20 | bits(subgroupInclusiveAnd(v)) << 24;
    o[b + 1u] = bits(subgroupShuffle(v, (id * 3u + 2u) % 32u)) | bits(subgroupShuffleXor(v, 9u)) << 4
        | bits(subgroupBroadcast(v, 4u)) << 8 | bits(subgroupBroadcastFirst(v)) << 12
        | bits(subgroupQuadSwapDiagonal(v)) << 16 | bits(subgroupQuadBroadcast(v, 2u)) << 20;
    o[b + 2u] = uint(subgroupAllEqual(v)) | uint(subgroupAllEqual(bvec3(true, v.y, false))) << 1
        | uint(subgroupAllEqual(bvec2(u < 2000u, u > 3000u))) << 2
        | uint(subgroupAllEqual(bvec2(true, u > 500u))) << 3;
    uvec4 bal = subgroupBallot(v.y);
    o[b + 3u] = bal.x;
    if (u % 3u != 0u) {
        o[b + 4u] = bits(subgroupOr(v)) | bits(subgroupExclusiveAnd(v)) << 4 | bits(subgroupBroadcastFirst(v)) << 8
            | uint(subgroupAllEqual(v.xz)) << 12;
    }
}
