#version 450
// Depth comparison: explicit-LOD shadow lookups and a comparison gather.
//! buf 0 0 zero 128
//! image 0 1 float 8 8 1 1 2 frand
//! sampler 0 1 linear mipnearest edge compare 3
//! image 0 2 float 8 8 1 2 1 frand
//! sampler 0 2 nearest mipnearest mirror compare 4
//! isa image_sample_c_lz
//! isa image_sample_c_l v
//! isa image_gather4_c_lz
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { float o[]; };
layout(set = 0, binding = 1) uniform sampler2DShadow sh;
layout(set = 0, binding = 2) uniform sampler2DArrayShadow sha;
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 uv = vec2(float(i % 8u) / 7.3, float(i / 8u) / 6.1);
    float ref = float(i % 9u) - 4.0;
    vec4 g = textureGather(sha, vec3(uv, float(i & 1u)), ref);
    o[2u * i] = textureLod(sh, vec3(uv, ref), 0.0) + textureLod(sh, vec3(uv, ref * 0.5), 1.0);
    o[2u * i + 1u] = g.x + 2.0 * g.y + 4.0 * g.z + 8.0 * g.w;
}
