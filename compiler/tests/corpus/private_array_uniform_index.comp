#version 450
// Private arrays of vectors in scratch memory, indexed by uniform (push-constant) and divergent
// values: the uniform index reaches the scratch instruction as an SGPR offset, the divergent one
// as a VGPR offset; one array is larger than the 2 KiB reach of an immediate offset.
//! buf 0 0 ramp 64
//! buf 0 1 zero 256
//! push rand 2
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { vec4 x[]; };
layout(std430, binding = 1) buffer O { vec4 o[]; };
layout(push_constant) uniform P { uint a; uint b; } pc;
void main() {
    uint i = gl_LocalInvocationID.x;
    uint a = pc.a % 160u, b = pc.b % 20u;
    vec4 big[160];
    uvec2 small[20];
    for (uint k = 0u; k < 160u; k++) big[k] = x[k % 16u] + vec4(float(i), float(k), 0.5, -1.0);
    for (uint k = 0u; k < 20u; k++) small[k] = uvec2(k * i, k + i);
    big[a] = vec4(float(small[i % 20u].x));
    big[(i * 7u) % 160u] *= 2.0;
    small[b] = uvec2(99u, 98u);
    o[i] = big[b + i] + big[159u] + big[a];
    o[i + 32u] = vec4(small[(i + b) % 20u], small[b]);
}
