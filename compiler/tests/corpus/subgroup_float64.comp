#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
// f64 reductions, scans and clustered reductions of scalars and vectors (values exact in any
// order: multiples of 1/8 with small magnitudes, products of powers of two), and data movement
// of dvec3, over a workgroup of 40 and under divergence.
//! groups 2 1 1
//! buf 0 0 rand 80
//! buf 0 1 zero 2560
layout(local_size_x = 40) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void put(uint at, double v) {
    uint64_t w = doubleBitsToUint64(v);
    o[at] = uint(w);
    o[at + 1u] = uint(w >> 32);
}
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 32u;
    uint u = x[g];
    uint id = gl_SubgroupInvocationID;
    double d = double(int(u) - 500) * 0.125;
    double p = id % 8u == 3u ? 2.0 : (id % 8u == 6u ? 0.5 : ((u & 1u) != 0u ? -1.0 : 1.0));
    put(b + 0u, subgroupMin(d));
    put(b + 2u, subgroupMax(d));
    put(b + 4u, subgroupInclusiveMin(d) + subgroupExclusiveMin(d + 1.0) * 0.0);
    put(b + 6u, subgroupInclusiveMax(d));
    put(b + 8u, subgroupMul(p) + subgroupInclusiveMul(p) * 3.0);
    put(b + 10u, subgroupExclusiveMul(p));
    dvec2 dv = subgroupAdd(dvec2(d, -d * 2.0)) + subgroupExclusiveAdd(dvec2(p, d));
    put(b + 12u, dv.x);
    put(b + 14u, dv.y);
    put(b + 16u, subgroupClusteredAdd(d, 4u) + subgroupClusteredMin(d, 16u));
    put(b + 18u, subgroupClusteredMax(d, 32u) - subgroupClusteredMul(p, 8u));
    dvec3 m = subgroupShuffle(dvec3(d, p, double(id)), (id + 7u) % 32u) + subgroupQuadSwapHorizontal(dvec3(p, d, 1.0));
    put(b + 20u, m.x + m.y * 1024.0 + m.z * 65536.0);
    put(b + 22u, subgroupBroadcast(d, 2u) + subgroupBroadcastFirst(p) + double(subgroupAllEqual(p * 0.0)));
    // All-equal on floats is an ordered compare: -0 equals +0, a NaN equals nothing.
    float z = (u & 1u) != 0u ? 0.0 : -0.0;
    float nan = uintBitsToFloat(0x7fc00000u + (u & 1u));
    o[b + 30u] = uint(subgroupAllEqual(z)) | uint(subgroupAllEqual(double(z))) << 1
        | uint(subgroupAllEqual(vec2(1.0, nan))) << 2 | uint(subgroupAllEqual(nan * 0.0)) << 3
        | uint(subgroupAllEqual(f16vec2(float16_t(z), 2.0hf))) << 4 | uint(subgroupAllEqual(z + 1.0)) << 5;
    if (u % 4u != 2u) {
        put(b + 24u, subgroupMin(d) + subgroupInclusiveAdd(d));
        put(b + 26u, subgroupExclusiveMax(d) + subgroupClusteredAdd(p, 2u));
    } else {
        put(b + 28u, subgroupMax(d) * subgroupMul(p));
    }
}
