#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Signed 64-bit division and modulo by constants of both signs: powers of two (shift and
// bias), -1 (with INT64_MIN on one lane), INT64_MIN, and general divisors through the
// magic-number path on the magnitude; unsigned constants needing each magic form.
//! buf 0 0 rand 16
//! buf 0 1 zero 256
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { int64_t a[8]; };
layout(std430, binding = 1) buffer O { int64_t o[8][16]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    int64_t x = a[i] * -7046029254386353131l + (int64_t(i) << 59);
    x = (i == 3u) ? int64_t(0x8000000000000000ul) : x;
    x = (i == 5u) ? -x : x;
    o[i][0] = x / 8l;
    o[i][1] = x % 8l;
    o[i][2] = x / -4294967296l;
    o[i][3] = x % -4294967296l;
    o[i][4] = x / -1l;
    o[i][5] = x % -1l;
    o[i][6] = x / 7l;
    o[i][7] = x % 7l;
    o[i][8] = x / -1000000007l;
    o[i][9] = x % -1000000007l;
    o[i][10] = x / int64_t(0x8000000000000000ul);
    o[i][11] = x % int64_t(0x8000000000000000ul);
    o[i][12] = x / 0x123456789abl;
    uint64_t u = uint64_t(x);
    o[i][13] = int64_t(u / 7ul);
    o[i][14] = int64_t(u / 3ul);
    o[i][15] = int64_t(u % 0x100000001ul);
}
