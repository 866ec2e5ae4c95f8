#version 450
// Multisampled images: per-sample fetches and sample counts.
//! buf 0 0 zero 128
//! image 0 1 float 4 4 1 1 1 frand ms 4
//! sampler 0 1 nearest mipnearest repeat
//! isa dim:SQ_RSRC_IMG_2D_MSAA
//! isa s_bfe_u32
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2DMS ms;
void main() {
    uint i = gl_LocalInvocationID.x;
    ivec2 p = ivec2(i % 4u, (i / 4u) % 4u);
    o[i] = texelFetch(ms, p, int(i / 16u) + 1) + vec4(textureSamples(ms));
}
