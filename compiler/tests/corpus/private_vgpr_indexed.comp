#version 450
// Private arrays small enough for VGPRs (`uvec2 p[4]`, `vec4 q[2]`: 16 dwords in all), indexed
// by uniform (push-constant) and divergent values, read and written: the uniform index moves
// through M0 straight into `v_movrels`/`v_movreld`, the divergent one through a waterfall loop
// over the distinct indices; elements 0 and the last are read at a run-time index too.
//! buf 0 0 ramp 64
//! buf 0 1 zero 384
//! push rand 2
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uvec4 o[]; };
layout(push_constant) uniform P { uint a; uint b; } pc;
void main() {
    uint i = gl_LocalInvocationID.x;
    uint a = pc.a % 4u, b = pc.b % 2u;
    uvec2 p[4];
    vec4 q[2];
    for (uint k = 0u; k < 4u; k++) p[k] = uvec2(x[k] * (i + 1u), x[k + 12u] + i);
    for (uint k = 0u; k < 2u; k++) q[k] = vec4(float(k), float(i), float(x[k]), -1.0);
    p[a] = uvec2(a + 1000u, i);
    p[(i * 5u) % 4u].y += 7u;
    q[b].zw = vec2(float(i) * 0.5, float(b));
    q[i % 2u].x -= 2.0;
    uint z = i / 31u * 3u; // 0 in every lane but the last, which reads element 3
    o[i] = uvec4(p[(i + a) % 4u], p[a].x, p[z].y);
    o[i + 32u] = floatBitsToUint(q[(i + b) % 2u] + q[b]);
    o[i + 64u] = uvec4(p[3u - z], floatBitsToUint(q[z / 3u].xy));
}
