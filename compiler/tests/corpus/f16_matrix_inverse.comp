#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// determinant() and inverse() (GLSL.std.450 33/34) on 2x2, 3x3 and 4x4 matrices of f32 and f16,
// with values that make the products exact enough to be interesting but not degenerate.
//! buf 0 0 frand 64
//! buf 0 1 zero 512
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { float x[64]; };
layout(std430, binding = 1) buffer O { float o[512]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    vec4 a = vec4(x[i], x[(i + 3u) & 63u], x[(i + 7u) & 63u], x[(i + 11u) & 63u]);
    vec4 b = vec4(x[i + 16u], x[i + 32u], x[i + 48u], x[(i + 5u) & 63u]);
    mat4 m = mat4(a + vec4(3.0, 0.0, 0.0, 0.0), b + vec4(0.0, 3.0, 0.0, 0.0),
                  a.wzyx + vec4(0.0, 0.0, 3.0, 0.0), b.yxwz + vec4(0.0, 0.0, 0.0, 3.0));
    mat4 mi = inverse(m);
    uint base = i * 32u;
    o[base] = determinant(m);
    for (int c = 0; c < 4; c++) {
        o[base + 1u + uint(c) * 4u] = mi[c].x;
        o[base + 2u + uint(c) * 4u] = mi[c].y;
        o[base + 3u + uint(c) * 4u] = mi[c].z;
        o[base + 4u + uint(c) * 4u] = mi[c].w;
    }
    mat3 m3 = mat3(m);
    mat3 i3 = inverse(m3);
    o[base + 17u] = determinant(m3);
    o[base + 18u] = i3[0].x + i3[1].y * 2.0 + i3[2].z * 4.0 + i3[2].x * 8.0;
    mat2 m2 = mat2(a.xy, b.xy);
    mat2 i2 = inverse(m2);
    o[base + 19u] = determinant(m2);
    o[base + 20u] = i2[0].y + i2[1].x * 2.0;
    f16mat3 h3 = f16mat3(m3);
    f16mat3 hi = inverse(h3);
    o[base + 21u] = float(determinant(h3));
    o[base + 22u] = float(hi[1].z);
    o[base + 23u] = float(determinant(f16mat2(m2)));
}
