#version 450
// Shared-memory atomics counted per workgroup.
//! groups 3 1 1
//! buf 0 0 zero 8
layout(local_size_x = 32) in;
shared uint hist[4];
layout(std430, binding = 0) buffer O { uint out_[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 4u) hist[l] = 0u;
    barrier();
    atomicAdd(hist[l & 3u], l);
    atomicMax(hist[3], l * gl_WorkGroupID.x);
    barrier();
    if (l < 2u) atomicAdd(out_[l], hist[l] + hist[l + 2u]);
}
