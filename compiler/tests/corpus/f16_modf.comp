#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// modf on f16 and f32 scalars and vectors: the whole part written through the out parameter
// (a function variable, a vector component, and a buffer element), with negative values,
// integers, signed zeros and infinities on some lanes.
//! buf 0 0 rand 32
//! buf 0 1 zero 256
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { uint v[32]; };
layout(std430, binding = 1) buffer O { uint o[128]; float wf[128]; };

float16_t half_of(uint r) {
    return uint16BitsToFloat16(uint16_t((r & 0x83ffu) | (((r >> 16) % 12u + 10u) << 10)));
}

uint bits(float16_t x) {
    return uint(float16BitsToUint16(x));
}

void main() {
    uint i = gl_LocalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    float16_t a = half_of(r);
    a = (i % 8u == 2u) ? uint16BitsToFloat16(uint16_t(0xfc00u)) : a;
    a = (i % 8u == 5u) ? float16_t(-float(i)) : a;
    float16_t ip;
    float16_t fr = modf(a, ip);
    o[i * 4u] = bits(fr) | bits(ip) << 16;
    f16vec2 w;
    f16vec2 fv = modf(f16vec2(a * float16_t(3.0), -a), w);
    o[i * 4u + 1u] = bits(fv.x) | bits(fv.y) << 16;
    o[i * 4u + 2u] = bits(w.x) | bits(w.y) << 16;
    vec3 fw;
    float f = float(a) * 1.7 + float(i);
    f = (i == 9u) ? uintBitsToFloat(0x7f800000u) : f;
    float ff = modf(f, wf[i]);
    o[i * 4u + 3u] = floatBitsToUint(ff);
    vec3 g = modf(vec3(f, -f, f * 0.25), fw.zxy);
    wf[i + 32u] = g.x + g.y + g.z + fw.x + fw.y * 0.5 + fw.z * 0.25;
}
