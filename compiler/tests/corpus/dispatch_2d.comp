#version 450
// A 2D dispatch using every compute built-in.
//! groups 2 3 1
//! buf 0 0 zero 512
layout(local_size_x = 4, local_size_y = 2, local_size_z = 1) in;
layout(std430, binding = 0) buffer O { uvec4 o[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint idx = g.y * (gl_NumWorkGroups.x * gl_WorkGroupSize.x) + g.x;
    o[idx] = uvec4(gl_LocalInvocationIndex, gl_WorkGroupID.x * 100u + gl_WorkGroupID.y, gl_LocalInvocationID.y, gl_NumWorkGroups.y);
}
