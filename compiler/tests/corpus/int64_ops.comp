#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integer arithmetic, shifts, comparisons and conversions.
//! buf 0 0 rand 32
//! buf 0 1 zero 32
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { uint64_t a[8]; int64_t b[8]; };
layout(std430, binding = 1) buffer O { uint64_t r[8]; int64_t s[8]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint64_t x = a[i] * 0x100000001ul + (uint64_t(i) << 40);
    r[i] = (x >> 3) ^ (x / 7ul) + uint64_t(x > a[(i + 1u) & 7u]);
    s[i] = b[i] - int64_t(i) * 1000000000000l;
}
