#version 450
// Sampling whose result is exact whatever the filter precision (also run on the simulator):
// texel centres, gathers, nearest depth comparisons, offsets.
//! buf 0 0 zero 1024
//! image 0 1 float 16 4 1 1 1 frand
//! sampler 0 1 linear mipnearest edge
//! image 0 2 float 16 4 1 1 1 frand
//! sampler 0 2 nearest mipnearest repeat compare 3
//! isa image_sample_lz
//! isa image_gather4_lz
//! isa image_sample_c_lz
//! isa image_sample_lz_o
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(set = 0, binding = 2) uniform sampler2DShadow sh;
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 p = vec2(float(i % 16u), float(i / 16u));
    vec2 uv = (p + 0.5) / vec2(16.0, 4.0);
    o[4u * i] = textureLod(tex, uv, 0.0);
    o[4u * i + 1u] = textureGather(tex, uv + vec2(0.5 / 16.0, 0.5 / 4.0), 1);
    o[4u * i + 2u] = vec4(textureLod(sh, vec3(uv, float(i % 5u) - 2.0), 0.0));
    o[4u * i + 3u] = textureLodOffset(tex, uv, 0.0, ivec2(1, -1));
}
