#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
// Votes, ballots, elect and broadcasts over a workgroup of 48 (a full wave and a partial one),
// at full width and under a divergent condition (inactive lanes must not vote).
//! groups 2 1 1
//! buf 0 0 rand 96
//! buf 0 1 zero 1536
layout(local_size_x = 48) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 16u;
    uint v = x[g];
    bool odd = (v & 1u) == 1u;
    uvec4 bal = subgroupBallot(odd);
    o[b + 0u] = bal.x;
    o[b + 1u] = bal.y | bal.z | bal.w;
    o[b + 2u] = uint(subgroupElect()) | uint(subgroupAll(v < 1000u)) << 1 | uint(subgroupAny(v == 7u)) << 2;
    o[b + 3u] = subgroupBroadcastFirst(v) + subgroupBroadcast(v, 5u);
    o[b + 4u] = subgroupBallotBitCount(bal) | subgroupBallotInclusiveBitCount(bal) << 8 | subgroupBallotExclusiveBitCount(bal) << 16;
    o[b + 5u] = subgroupBallotFindLSB(bal) | subgroupBallotFindMSB(bal) << 8;
    o[b + 6u] = uint(subgroupBallotBitExtract(bal, 3u)) | uint(subgroupInverseBallot(bal)) << 1;
    o[b + 7u] = gl_SubgroupEqMask.x ^ gl_SubgroupGeMask.y;
    o[b + 8u] = gl_SubgroupGtMask.x + gl_SubgroupLeMask.x * 3u + gl_SubgroupLtMask.x * 7u;
    o[b + 9u] = gl_SubgroupInvocationID | gl_SubgroupSize << 8;
    o[b + 10u] = uint(subgroupAllEqual(v >> 10)) | uint(subgroupAllEqual(v)) << 1 | uint(subgroupAllEqual(odd)) << 2;
    if (v % 3u != 0u) {
        // Divergent: only these lanes vote, elect and broadcast.
        uvec4 db = subgroupBallot(v > 500u);
        o[b + 11u] = db.x;
        o[b + 12u] = uint(subgroupElect()) | uint(subgroupAll(v > 500u)) << 1 | uint(subgroupAny(v > 990u)) << 2;
        o[b + 13u] = subgroupBroadcastFirst(v * 2u) ^ subgroupBallotBitCount(db);
        o[b + 14u] = uint(subgroupAllEqual(v % 3u == 1u)) | uint(subgroupBroadcastFirst(odd)) << 1;
    } else {
        o[b + 15u] = subgroupBallot(true).x;
    }
}
