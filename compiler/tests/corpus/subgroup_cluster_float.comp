#version 450
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
// Clustered float and double reductions at every cluster size, on values whose sums and
// products are exact in any order (integers below 2^8, signed powers of two), so the lane
// order of the hardware's butterflies and the interpreter's lane-by-lane fold must agree.
// A partial second wave (40 invocations) leaves lanes inactive inside some clusters.
//! groups 2 1 1
//! buf 0 0 rand 80
//! buf 0 1 zero 2560
//! buf 0 2 zero 1920
layout(local_size_x = 40) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { float o[]; };
layout(std430, binding = 2) buffer D { double d[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    float v = float(int(x[g] & 255u) - 128);
    float p = float(1u << (x[g] >> 30)) * ((x[g] & 256u) != 0u ? -1.0 : 1.0);
    double w = double(v) * 0.5lf;
    uint b = g * 8u;
    uint c = g * 3u;
    o[b + 0u] = subgroupClusteredAdd(v, 1u);
    if (gl_SubgroupSize >= 2u) o[b + 1u] = subgroupClusteredMin(v, 2u);
    if (gl_SubgroupSize >= 4u) o[b + 2u] = subgroupClusteredMax(v, 4u);
    if (gl_SubgroupSize >= 8u) o[b + 3u] = subgroupClusteredAdd(v, 8u);
    if (gl_SubgroupSize >= 16u) o[b + 4u] = subgroupClusteredMul(p, 16u);
    if (gl_SubgroupSize >= 32u) o[b + 5u] = subgroupClusteredAdd(v, 32u);
    if (gl_SubgroupSize >= 8u) o[b + 6u] = subgroupClusteredMul(p, 8u);
    if (gl_SubgroupSize >= 16u) o[b + 7u] = subgroupClusteredMin(v, 16u);
    d[c] = subgroupClusteredAdd(w, 4u);
    if (gl_SubgroupSize >= 16u) d[c + 1u] = subgroupClusteredMax(w, 16u);
    if (gl_SubgroupSize >= 32u) d[c + 2u] = subgroupClusteredMin(w, 32u);
}
