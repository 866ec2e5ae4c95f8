#version 450
#extension GL_EXT_nonuniform_qualifier : enable
// An array of uniform blocks indexed dynamically: the index selects the descriptor.
//! buf 0 0 framp 8 0
//! buf 0 0 ramp 8 1
//! buf 0 0 rand 8 2
//! buf 0 1 zero 16
layout(local_size_x = 6) in;
layout(std140, binding = 0) uniform U { vec4 a; uvec4 b; } u[3];
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i] = floatBitsToUint(u[i % 3u].a[i & 3u]) + u[(i + 1u) % 3u].b.w;
}
