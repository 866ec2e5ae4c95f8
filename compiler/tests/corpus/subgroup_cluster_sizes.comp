#version 450
#extension GL_KHR_shader_subgroup_clustered : require
// Clustered reductions at every power-of-two size up to 128, each guarded by the subgroup
// size as shaders written for any subgroup size do (dEQP-VK.subgroups.clustered): clusters
// wider than the wave are valid SPIR-V and must compile, though they never run here.
//! groups 2 1 1
//! buf 0 0 rand 80
//! buf 0 1 zero 640
layout(local_size_x = 40) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint u = x[g];
    uint b = g * 8u;
    o[b + 0u] = subgroupClusteredAdd(u, 1u);
    if (gl_SubgroupSize >= 2u) o[b + 1u] = subgroupClusteredAdd(u, 2u);
    if (gl_SubgroupSize >= 4u) o[b + 2u] = subgroupClusteredXor(u, 4u);
    if (gl_SubgroupSize >= 8u) o[b + 3u] = subgroupClusteredMax(u, 8u);
    if (gl_SubgroupSize >= 16u) o[b + 4u] = subgroupClusteredAdd(u, 16u);
    if (gl_SubgroupSize >= 32u) o[b + 5u] = subgroupClusteredOr(u, 32u);
    if (gl_SubgroupSize >= 64u) o[b + 6u] = subgroupClusteredAdd(u, 64u);
    if (gl_SubgroupSize >= 128u) o[b + 7u] = subgroupClusteredMin(u, 128u);
}
