#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
// frexp on f16, f32 and f64: normals of both signs, subnormals (scaled into range first),
// zeros, infinities and NaNs (returned unchanged with exponent 0), and ldexp undoing it.
//! buf 0 0 rand 32
//! buf 0 1 zero 256
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint v[32]; };
layout(std430, binding = 1) buffer O { uint o[256]; };

uint bits(float16_t x) {
    return uint(float16BitsToUint16(x));
}

void main() {
    uint i = gl_LocalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    // Every exponent field value of f16 over the lanes (0 = zero/subnormal, 31 = inf/NaN).
    uint16_t hb = uint16_t((r & 0x83ffu) | (i << 10));
    hb = (i == 4u) ? uint16_t(0x8000u) : hb;
    float16_t h = uint16BitsToFloat16(hb);
    int e;
    float16_t m = frexp(h, e);
    o[i * 8u] = bits(m) | uint(e) << 16;
    // f32: subnormals on some lanes, large and small normals elsewhere.
    uint fb = (r & 0x807fffffu) | (((i * 9u) % 256u) << 23);
    fb = (i == 5u) ? 0x80000000u : fb;
    float f = uintBitsToFloat(fb);
    ivec2 e2;
    vec2 m2 = frexp(vec2(f, -f * 0.5), e2);
    o[i * 8u + 1u] = floatBitsToUint(m2.x);
    o[i * 8u + 2u] = uint(e2.x);
    o[i * 8u + 3u] = floatBitsToUint(m2.y) ^ uint(e2.y);
    // f64 through the bit pattern, including subnormals.
    uvec2 db = uvec2(r * 69069u, (r & 0x800fffffu) | (((i * 67u) % 2048u) << 20));
    db = (i == 6u) ? uvec2(1u, 0u) : db;
    double d = packDouble2x32(db);
    int e3;
    double m3 = frexp(d, e3);
    uvec2 mb = unpackDouble2x32(m3);
    o[i * 8u + 4u] = mb.x;
    o[i * 8u + 5u] = mb.y;
    o[i * 8u + 6u] = uint(e3);
    o[i * 8u + 7u] = isnan(m) ? 1u : bits(ldexp(m, e));
}
