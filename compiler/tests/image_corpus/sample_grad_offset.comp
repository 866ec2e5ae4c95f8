#version 450
#extension GL_ARB_sparse_texture_clamp : enable
// Gradients, constant offsets and LOD clamps on a layered image (nearest, clamp to edge).
//! buf 0 0 zero 256
//! image 0 1 float 16 16 1 3 5 frand
//! sampler 0 1 nearest mipnearest edge
//! isa image_sample_d_cl
//! isa image_sample_l_o
//! isa image_sample_d_o
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2DArray tex;
void main() {
    uint i = gl_LocalInvocationID.x;
    vec3 c = vec3(float(i % 8u) / 7.0, float(i / 8u) / 9.0, float(i % 4u) * 0.7);
    vec2 dx = vec2(float(i % 3u) * 0.05, 0.01);
    vec2 dy = vec2(0.0, float(i % 7u) * 0.03);
    o[i] = textureGradClampARB(tex, c, dx, dy, 1.0)
         + textureLodOffset(tex, c, float(i % 3u), ivec2(1, -2))
         + textureGradOffset(tex, c, dx, dy, ivec2(-3, 2));
}
