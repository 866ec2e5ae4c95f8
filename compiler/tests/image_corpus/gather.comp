#version 450
// Gathers of each component, with constant offsets, on float and integer images.
//! buf 0 0 zero 512
//! image 0 1 float 8 4 1 1 1 frand
//! sampler 0 1 linear mipnearest repeat
//! image 0 2 uint 4 4 1 1 1 rand
//! sampler 0 2 nearest mipnearest mirror
//! isa image_gather4_lz v
//! isa image_gather4_lz_o
//! isa dmask:0x4
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(set = 0, binding = 2) uniform usampler2D utex;
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 uv = vec2(float(i % 8u) / 7.0 - 0.1, float(i / 8u) / 3.0);
    o[4u * i] = textureGather(tex, uv, 0);
    o[4u * i + 1u] = textureGather(tex, uv, 2) + textureGatherOffset(tex, uv, ivec2(1, -1), 3);
    o[4u * i + 2u] = vec4(textureGather(utex, uv * 1.5, 1));
    o[4u * i + 3u] = textureGatherOffset(tex, uv, ivec2(-2, 0));
}
