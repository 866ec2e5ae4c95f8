#version 450
#extension GL_KHR_shader_subgroup_basic : require
// The basic class: subgroup ids and counts, elect, and subgroup barriers ordering a
// workgroup-memory exchange between the lanes of one subgroup, over a workgroup of 72 (two full
// waves and 8 lanes) and inside a divergent branch.
//! groups 2 1 1
//! buf 0 0 rand 144
//! buf 0 1 zero 576
layout(local_size_x = 72) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
shared uint s[72];
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationIndex;
    uint b = g * 4u;
    uint v = x[g];
    uint id = gl_SubgroupInvocationID;
    uint first = gl_SubgroupID * gl_SubgroupSize;
    uint count = min(gl_SubgroupSize, 72u - first);
    o[b + 0u] = gl_SubgroupID | gl_NumSubgroups << 8 | gl_SubgroupSize << 16 | uint(subgroupElect()) << 24;
    s[l] = v * 3u;
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    // A lane of the same subgroup wrote this.
    o[b + 1u] = s[first + (id + 5u) % count];
    subgroupBarrier();
    if (v % 2u == 0u) {
        s[l] = v + id;
        subgroupMemoryBarrier();
        o[b + 2u] = uint(subgroupElect()) | id << 8;
    }
    subgroupBarrier();
    o[b + 3u] = s[l];
}
