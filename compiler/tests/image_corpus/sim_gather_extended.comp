#version 450
// Gathers with non-constant offsets and with four constant offsets (textureGatherOffsets:
// each result component is the (i0, j0) texel of its own offset's footprint, the fourth
// component of that gather), also on the simulator. Coordinates sit between texel centres,
// so every footprint is exact.
//! buf 0 0 zero 1024
//! image 0 1 float 16 4 1 1 1 frand
//! sampler 0 1 linear mipnearest repeat
//! push ramp 4
//! isa image_gather4_lz_o
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(push_constant) uniform P { int k; } pc;
const ivec2 offs[4] = ivec2[4](ivec2(0, 0), ivec2(1, -1), ivec2(-2, 1), ivec2(3, 2));
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 uv = (vec2(float(i % 16u), float(i / 16u)) + 1.0) / vec2(16.0, 4.0);
    ivec2 dyn = ivec2(int(i % 5u) - 2, pc.k % 3 - 1);
    o[3u * i] = textureGatherOffset(tex, uv, dyn, 1);
    o[3u * i + 1u] = textureGatherOffsets(tex, uv, offs, 2);
    o[3u * i + 2u] = vec4(textureGatherOffset(tex, uv, offs[0]).w,
                          textureGatherOffset(tex, uv, offs[1]).w,
                          textureGatherOffset(tex, uv, offs[2]).w,
                          textureGatherOffset(tex, uv, offs[3]).w);
}
