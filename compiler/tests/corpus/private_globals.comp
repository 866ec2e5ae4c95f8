#version 450
// Module-scope (Private) variables used from functions.
//! buf 0 0 ramp 16
//! buf 0 1 zero 16
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
uint counter;
uint table[4];
void tick(uint k) { counter += k; table[k & 3u] = counter; }
void main() {
    counter = gl_LocalInvocationID.x;
    for (uint k = 0u; k < 4u; k++) table[k] = 0u;
    tick(x[gl_LocalInvocationID.x]);
    tick(3u);
    o[gl_LocalInvocationID.x] = counter + table[0] + table[3] * 2u;
}
