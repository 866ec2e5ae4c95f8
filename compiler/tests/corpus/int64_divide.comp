#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit unsigned division and remainder by run-time divisors: small and large, above 2^63,
// equal to the dividend, zero on some lanes, divergent and uniform.
//! buf 0 0 rand 16
//! buf 0 1 zero 64
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { uint64_t a[8]; };
layout(std430, binding = 1) buffer O { uint64_t q[16]; uint64_t r[16]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint64_t x = a[i] * 0x9e3779b97f4a7c15ul + (uint64_t(i) << 61);
    uint64_t d = a[(i + 3u) & 7u];
    d = (i == 1u) ? d << 35 : d;
    d = (i == 2u) ? x : d;
    d = (i == 4u) ? 0ul : d;
    d = (i == 5u) ? (d | 0x8000000000000000ul) : d;
    d = (i == 6u) ? ~x : d;
    uint64_t u = a[2] * 977ul + 3ul;
    q[i] = x / d;
    r[i] = x % d;
    q[i + 8u] = x / u;
    r[i + 8u] = (x >> 7) % u;
}
