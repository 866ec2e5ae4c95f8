#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Signed 64-bit division and remainder by run-time divisors of both signs, with zero and
// the overflowing INT64_MIN / -1 on some lanes.
//! buf 0 0 rand 16
//! buf 0 1 zero 48
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { int64_t a[8]; };
layout(std430, binding = 1) buffer O { int64_t q[8]; int64_t r[8]; int64_t m[8]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    int64_t x = a[i] * -7046029254386353131l + (int64_t(i) << 59);
    int64_t d = a[(i + 3u) & 7u] - 500l;
    d = (i == 1u) ? d << 37 : d;
    d = (i == 2u) ? -x : d;
    d = (i == 3u) ? 0l : d;
    x = (i == 4u) ? int64_t(0x8000000000000000ul) : x;
    d = (i == 4u) ? -1l : d;
    d = (i == 5u) ? (d | int64_t(0x8000000000000000ul)) : d;
    x = (i == 6u) ? -x : x;
    q[i] = x / d;
    r[i] = x % d;
    m[i] = (x >> 3) % (d + int64_t(i));
}
