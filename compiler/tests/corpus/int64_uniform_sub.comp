#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit subtraction with both operands uniform (scalar borrow chain), one uniform and one
// per lane, and a constant on either side, with borrows across the 32-bit halves.
//! buf 0 0 rand 16
//! buf 0 1 zero 256
layout(local_size_x = 8) in;
layout(std140, binding = 0) uniform U { u64vec2 u[4]; };
layout(std430, binding = 1) buffer O { uint64_t a[8]; uint64_t b[8]; uint64_t c[8]; int64_t d[8]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint64_t x = u[0].x * 0x9e3779b97f4a7c15ul;
    uint64_t y = u[1].y * 0xbf58476d1ce4e5b9ul;
    // Straight from scalar loads: the scalar unit's borrow chain (the inputs are below 1000,
    // so u[1].y - u[3].x borrows across the halves about half the time).
    uint64_t s = (u[1].y - u[3].x) - (u[2].y - 0x100000000ul);
    a[i] = s - (uint64_t(i) << 33);
    b[i] = (uint64_t(i) * 0x100000001ul) - x;
    c[i] = 0x100000000ul - (y >> 7) - uint64_t(i);
    d[i] = int64_t(u[2].x) - 5000000000l - int64_t(i) * 3l;
}
