#version 450
// A function-local array indexed dynamically: stays in memory (scratch) after vars_to_ssa.
//! buf 0 0 ramp 16
//! buf 0 1 zero 16
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint t[8];
    for (uint k = 0u; k < 8u; k++) t[k] = x[k] * (i + 1u);
    t[i & 7u] += 100u;
    o[i] = t[(i * 3u) & 7u] + t[7u - (i & 7u)];
}
