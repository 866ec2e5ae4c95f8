#version 450
// Booleans stored in buffers are 32-bit; bvec loads and stores.
//! buf 0 0 ramp 16
//! buf 0 1 zero 16
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { bool flags[8]; bvec2 pairs[4]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    flags[i] = (x[i] & 1u) == 1u;
    if (i < 4u) pairs[i] = bvec2(x[i] > 1u, x[i] < 3u);
}
