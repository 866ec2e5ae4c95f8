#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Geometric and angle functions on f16 vectors and, for the GLSL.std.450 instructions added with
// them (radians, degrees, faceforward, refract), on f32: dot products at the operands'
// precision, refract's total-internal-reflection branch (k < 0) on some lanes, smoothstep,
// ldexp, and packFloat2x16 / unpackFloat2x16.
//! buf 0 0 rand 64
//! buf 0 1 zero 1024
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint v[64]; };
layout(std430, binding = 1) buffer O { uint o[]; };

float16_t half_of(uint r) {
    return uint16BitsToFloat16(uint16_t((r & 0x83ffu) | (((r >> 16) % 5u + 12u) << 10)));
}

uint bits(float16_t x) {
    return uint(float16BitsToUint16(x));
}

void main() {
    uint i = gl_LocalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    f16vec3 a = f16vec3(half_of(r), half_of(r * 3u), half_of(r * 5u));
    f16vec3 b = f16vec3(half_of(r * 7u), half_of(r * 11u), half_of(r * 13u));
    f16vec3 n = normalize(f16vec3(0.6, 0.0, 0.8) + f16vec3(float16_t(i) * float16_t(0.0625)));
    float16_t eta = (i % 3u == 0u) ? float16_t(1.5) : float16_t(0.75);
    uint base = i * 32u;
    f16vec3 rf = refract(a * float16_t(0.25), n, eta);
    o[base + 0u] = bits(rf.x);
    o[base + 1u] = bits(rf.y);
    o[base + 2u] = bits(rf.z);
    f16vec3 ff = faceforward(n, a, b);
    o[base + 3u] = bits(ff.x) | bits(ff.z) << 16;
    f16vec3 rl = reflect(a, n);
    o[base + 4u] = bits(rl.y);
    f16vec3 cr = cross(a, b);
    o[base + 5u] = bits(cr.x) | bits(cr.y) << 16;
    o[base + 6u] = bits(cr.z);
    o[base + 7u] = bits(distance(a.xy, b.xy));
    o[base + 8u] = bits(dot(a, b));
    o[base + 9u] = bits(radians(a.x));
    o[base + 10u] = bits(degrees(b.y));
    o[base + 11u] = bits(smoothstep(float16_t(-1.0), float16_t(2.0), a.z));
    o[base + 12u] = bits(ldexp(a.x, int(r % 9u) - 4));
    o[base + 13u] = packFloat2x16(f16vec2(a.y, b.z));
    f16vec2 up = unpackFloat2x16((v[i + 32u] * 2654435761u) & 0xbbffbbffu);
    o[base + 14u] = bits(up.x * float16_t(0.5)) | bits(up.y * float16_t(0.5)) << 16;
    // The f32 forms.
    vec3 fa = vec3(a) * 0.37;
    vec3 fn = vec3(n);
    vec3 frf = refract(fa * 0.5, fn, float(eta));
    o[base + 15u] = floatBitsToUint(frf.x);
    o[base + 16u] = floatBitsToUint(frf.y);
    o[base + 17u] = floatBitsToUint(frf.z);
    vec3 fff = faceforward(fn, fa, vec3(b));
    o[base + 18u] = floatBitsToUint(fff.y);
    o[base + 19u] = floatBitsToUint(radians(fa.x));
    o[base + 20u] = floatBitsToUint(degrees(fa.y));
}
