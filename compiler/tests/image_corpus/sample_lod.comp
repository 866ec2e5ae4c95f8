#version 450
// Explicit-LOD sampling of a mipmapped 2D image: linear filtering, linear mips, repeat.
//! groups 1 1 1
//! buf 0 0 zero 256
//! image 0 1 float 8 8 1 1 4 frand
//! sampler 0 1 linear miplinear repeat
//! isa image_sample_l v
//! isa image_sample_lz
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D tex;
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 uv = vec2(float(i % 8u) * 0.137 - 0.3, float(i / 8u) * 0.173 + 0.05);
    float lod = float(i % 5u) * 0.8 - 0.5;
    o[i] = textureLod(tex, uv, lod) + textureLod(tex, uv * 2.0, 0.0);
}
