#version 450
// Functions with several returns, nested calls and struct results.
//! buf 0 0 ramp 32
//! buf 0 1 zero 32
layout(local_size_x = 16) in;
struct R { uint q; uint r; };
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uvec2 o[]; };
uint clampit(uint v) { if (v > 20u) return 20u; if (v < 3u) return 3u; return v; }
R divmod(uint a, uint b) { R r; if (b == 0u) { r.q = 0u; r.r = a; return r; } r.q = a / b; r.r = a % b; return r; }
void main() {
    uint i = gl_LocalInvocationID.x;
    R r = divmod(x[i + 16u], clampit(x[i]) - 3u);
    o[i] = uvec2(r.q, r.r + clampit(i * 2u));
}
