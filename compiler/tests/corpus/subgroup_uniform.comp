#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
// Reductions of wave-uniform operands (workgroup ids, uniform-buffer values, constants), which
// the backend folds from the active-lane count, over a workgroup of 40, under divergence and
// in a loop whose lanes leave at different trips; the counting idiom feeds an atomic.
//! groups 3 1 1
//! buf 0 0 rand 120
//! buf 0 1 rand 4
//! buf 0 2 zero 1920
//! buf 0 3 zero 4
layout(local_size_x = 40) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std140, binding = 1) uniform U { uint k; };
layout(std430, binding = 2) buffer O { uint o[]; };
layout(std430, binding = 3) buffer C { uint counter; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 16u;
    uint u = x[g];
    uint w = gl_WorkGroupID.x * 1000u + k;
    int s = int(k) - 700;
    o[b + 0u] = subgroupAdd(1u) | subgroupAdd(w) << 8;
    o[b + 1u] = subgroupXor(w) ^ subgroupMin(w) ^ subgroupMax(uint(s)) ^ uint(subgroupMin(s));
    o[b + 2u] = subgroupAnd(w | 5u) + subgroupOr(k) + subgroupClusteredMax(w, 4u);
    o[b + 3u] = uint(subgroupAdd(uint16_t(w) * uint16_t(999))) | uint(subgroupMax(int16_t(s))) << 16;
    uint64_t wide = uint64_t(w) << 33 | uint64_t(k);
    o[b + 4u] = uint(subgroupAdd(wide) >> 20) ^ uint(subgroupMax(wide) >> 33) ^ uint(subgroupOr(wide));
    if (u % 3u != 0u) {
        o[b + 5u] = subgroupAdd(w) ^ subgroupXor(7u) << 24;
        o[b + 6u] = subgroupMax(w) + subgroupAdd(2u);
        atomicAdd(counter, subgroupAdd(1u) * (subgroupElect() ? 1u : 0u));
    }
    uint acc = 0u;
    for (uint t = 0u; t < u % 4u + 1u; t++) {
        acc += subgroupAdd(t + w) + subgroupXor(t);
    }
    o[b + 7u] = acc;
}
