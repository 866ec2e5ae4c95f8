#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
// f64 values built with packDouble2x32 (halves, integers, infinities and NaNs among them) through
// sign, fract, round, sqrt, inversesqrt, isnan and isinf, results read back with
// unpackDouble2x32.
//! buf 0 0 rand 64
//! buf 0 1 zero 512
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint v[64]; };
layout(std430, binding = 1) buffer O { uvec2 o[256]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    // Sign, exponent 2^-8 .. 2^23 and mantissa from r.
    uint hi = (r & 0x800fffffu) | ((((r >> 9) % 32u) + 1015u) << 20);
    double d = packDouble2x32(uvec2(r * 69069u, hi));
    d = (i % 8u == 1u) ? double(int(i) - 16) + 0.5lf : d;
    d = (i == 2u) ? -0.0lf : d;
    d = (i == 3u) ? packDouble2x32(uvec2(0u, 0xfff00000u)) : d;
    uint base = i * 8u;
    o[base] = unpackDouble2x32(sign(d));
    o[base + 1u] = unpackDouble2x32(fract(d));
    o[base + 2u] = unpackDouble2x32(round(d));
    o[base + 3u] = unpackDouble2x32(sqrt(abs(d)));
    o[base + 4u] = unpackDouble2x32(inversesqrt(abs(d) + 1.0lf));
    double n = packDouble2x32(uvec2(r, 0x7ff00000u | (i & 1u) << 31 | (i & 2u)));
    o[base + 5u] = uvec2(isnan(n) ? 1u : 0u, isinf(n) ? 1u : 0u);
    o[base + 6u] = uvec2(isnan(d) ? 1u : 0u, isinf(d) ? 1u : 0u);
    o[base + 7u] = unpackDouble2x32(round(d * 0.25lf) + sign(-d));
}
