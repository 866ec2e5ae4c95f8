#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
// Buffer references built from uvec2 addresses stored in a descriptor buffer.
//! global 0 ramp 16
//! buf 0 0 zero 4
//! bufaddr 0 0 0 0
//! buf 0 1 zero 16
layout(local_size_x = 16) in;
layout(buffer_reference, std430) buffer R { uint v[]; };
layout(std430, binding = 0) readonly buffer A { uvec2 addr; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    R r = R(addr);
    o[i] = r.v[15u - i] + 1u;
}
