#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit division with uniform operands from a uniform buffer: a uniform divisor (its
// reciprocal refined on the scalar unit) with divergent dividends, and uniform dividend and
// divisor (all scalar), unsigned and signed, 64- and 32-bit, including a zero divisor. The words are
// small, so each 64-bit value is about 2^41.
//! buf 0 0 rand 16
//! buf 0 1 zero 128
layout(local_size_x = 8) in;
layout(std140, binding = 0) uniform U { u64vec2 u[4]; };
layout(std430, binding = 1) buffer O { uint64_t q[8]; uint64_t r[8]; int64_t s[8]; uint64_t uq[8]; uint64_t ur[8]; int64_t sm[8]; int64_t sq[8]; uint w[8]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint64_t d = u[1].x;
    uint64_t z = u[2].y - u[2].y;
    uint64_t x = u[0].x * 0xd1b54a32d192ed03ul + (uint64_t(i) << 60);
    q[i] = x / d;
    r[i] = x % d;
    s[i] = int64_t(x) / -int64_t(d);
    uint64_t ux = u[3].y;
    uq[i] = (i == 2u) ? ux / z : ux / d;
    ur[i] = ux % d;
    sm[i] = int64_t(ux) % -int64_t(d >> 20);
    // Signed and 32-bit forms with both operands in SGPRs.
    int64_t sux = int64_t(ux), sd = int64_t(d);
    sq[i] = (i < 4u) ? sux / sd : sux % sd;
    uint ul = uint(ux), dl = uint(d);
    w[i] = (i < 4u) ? ul / dl + ul % dl : uint(int(ul) / -int(dl) + int(ul) % -int(dl));
}
