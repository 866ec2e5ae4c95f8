#version 450
// Specialization constants: one overridden (id 0), one default, one derived, local size by id.
//! spec 0 3
//! spec 2 4
//! buf 0 0 zero 16
layout(local_size_x_id = 2) in;
layout(constant_id = 0) const uint SCALE = 1u;
layout(constant_id = 1) const uint OFFSET = 7u;
const uint BOTH = SCALE * 10u + OFFSET;
layout(std430, binding = 0) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i] = i * SCALE + OFFSET + BOTH + gl_WorkGroupSize.x;
}
