#version 450
// The deepest workgroup the device reports (maxComputeWorkGroupSize[2] = 1024, the only shape
// with z = 1024): local and global ids, the flattened index and shared memory across all 32
// waves of a 1x1x1024 group, in two groups. The depth is a specialization constant because
// glslang's default limits stop at GL's 64.
//! buf 0 0 zero 2048
//! groups 2 1 1
//! spec 0 1024
layout(local_size_x = 1, local_size_y = 1, local_size_z_id = 0) in;
layout(std430, binding = 0) buffer O { uint o[]; };
shared uint s[1024];
void main() {
    uint z = gl_LocalInvocationID.z;
    s[z] = z * 7u + gl_WorkGroupID.x * 100000u;
    barrier();
    uint i = gl_WorkGroupID.x * 1024u + gl_LocalInvocationIndex;
    o[i] = s[1023u - z] + gl_GlobalInvocationID.z * 16777216u
        + (gl_LocalInvocationID.x + gl_LocalInvocationID.y + gl_GlobalInvocationID.y) * 3u;
}
