#version 450
// Local arrays of structs and of vectors indexed dynamically (scratch), including a
// dynamic component of a dynamically indexed vector.
//! buf 0 0 ramp 32
//! buf 0 1 zero 32
layout(local_size_x = 8) in;
struct P { uint a; uvec3 b; };
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uvec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    P ps[4];
    uvec4 vs[3];
    for (uint k = 0u; k < 4u; k++) { ps[k].a = x[k] + i; ps[k].b = uvec3(k, x[k + 4u], i); }
    for (uint k = 0u; k < 3u; k++) vs[k] = uvec4(k * 10u + i);
    vs[i % 3u][i & 3u] = 777u;
    ps[i & 3u].b[i % 3u] += 5u;
    o[i] = uvec4(ps[(i + 1u) & 3u].a, ps[i & 3u].b.y + ps[i & 3u].b[i % 3u], vs[(i + 2u) % 3u][i & 3u], vs[i % 3u].w);
}
