#version 450
// Workgroup tree reduction in shared memory with barriers.
//! groups 2 1 1
//! buf 0 0 framp 128
//! buf 0 1 zero 2
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer I { float x[]; };
layout(std430, binding = 1) buffer O { float sums[]; };
shared float s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = x[gl_GlobalInvocationID.x];
    barrier();
    for (uint w = 32u; w > 0u; w >>= 1) {
        if (l < w) s[l] += s[l + w];
        barrier();
    }
    if (l == 0u) sums[gl_WorkGroupID.x] = s[0];
}
