#version 450
// 1D, 1D-array and 3D sampling, 1D-array sizes (layers in the hardware's z).
//! buf 0 0 zero 1024
//! image 0 1 float 16 1 1 1 3 frand
//! sampler 0 1 linear miplinear mirror
//! image 0 2 float 8 1 1 4 1 frand
//! sampler 0 2 nearest mipnearest repeat
//! image 0 3 float 4 4 4 1 2 frand
//! sampler 0 3 linear mipnearest border
//! isa dim:SQ_RSRC_IMG_1D_ARRAY
//! isa dim:SQ_RSRC_IMG_3D
//! isa dmask:0x5
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler1D t1;
layout(set = 0, binding = 2) uniform sampler1DArray t1a;
layout(set = 0, binding = 3) uniform sampler3D t3;
void main() {
    uint i = gl_LocalInvocationID.x;
    float x = float(i) / 50.0 - 0.2;
    o[4u * i] = textureLod(t1, x, float(i % 4u) * 0.5);
    o[4u * i + 1u] = textureLod(t1a, vec2(x, float(i % 5u) - 0.4), 0.0);
    o[4u * i + 2u] = textureLod(t3, vec3(x, 1.0 - x, x * 0.5), float(i & 1u));
    o[4u * i + 3u] = vec4(textureSize(t1a, 0), textureSize(t3, 1));
}
