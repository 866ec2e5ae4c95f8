#version 450
// Projective sampling: each textureProj* result (even slots) equals the plain call on the
// coordinates and depth reference divided by q (odd slots; images.rs checks the pairs), for
// 1D with vec2 and vec4 coordinates (q in w), 2D with vec3 and vec4, explicit LODs,
// offsets, gradients and a depth comparison.
//! buf 0 0 zero 3072
//! image 0 1 float 16 1 1 1 3 frand
//! sampler 0 1 linear miplinear repeat
//! image 0 2 float 8 8 1 1 3 frand
//! sampler 0 2 linear miplinear edge
//! image 0 3 float 8 8 1 1 1 frand
//! sampler 0 3 nearest mipnearest edge compare 3
//! isa image_sample_l
//! isa image_sample_c_l
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler1D t1;
layout(set = 0, binding = 2) uniform sampler2D t2;
layout(set = 0, binding = 3) uniform sampler2DShadow sh;
void main() {
    uint i = gl_LocalInvocationID.x;
    float q = 0.5 + float(i % 5u) * 0.75;
    vec2 st = vec2(float(i % 8u) / 7.0, float(i / 8u) / 9.0) * q;
    float lod = float(i % 3u) * 0.7;
    uint b = 12u * i;
    vec2 c2 = vec2(st.x, q);
    vec4 c4 = vec4(st.x, 7.0, -3.0, q);
    o[b + 0u] = textureProjLod(t1, c2, lod);
    o[b + 1u] = textureLod(t1, c2.x / c2.y, lod);
    o[b + 2u] = textureProjLodOffset(t1, c4, lod, 1);
    o[b + 3u] = textureLodOffset(t1, c4.x / c4.w, lod, 1);
    vec3 c3 = vec3(st, q);
    o[b + 4u] = textureProjLod(t2, c3, lod);
    o[b + 5u] = textureLod(t2, c3.xy / c3.z, lod);
    vec4 d4 = vec4(st, 5.0, q);
    o[b + 6u] = textureProjGrad(t2, d4, vec2(0.1, 0.0), vec2(0.0, 0.2));
    o[b + 7u] = textureGrad(t2, d4.xy / d4.w, vec2(0.1, 0.0), vec2(0.0, 0.2));
    // The reference is divided by q too.
    vec4 s4 = vec4(st, (float(i % 7u) - 3.0) * q * 0.5, q);
    o[b + 8u] = vec4(textureProjLod(sh, s4, 0.0));
    o[b + 9u] = vec4(textureLod(sh, vec3(s4.xy / s4.w, s4.z / s4.w), 0.0));
    o[b + 10u] = textureProjLodOffset(t2, c3, lod, ivec2(-1, 2));
    o[b + 11u] = textureLodOffset(t2, c3.xy / c3.z, lod, ivec2(-1, 2));
}
