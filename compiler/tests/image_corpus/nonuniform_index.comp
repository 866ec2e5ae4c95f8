#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of descriptors indexed uniformly and per lane, and separate images and samplers.
//! buf 0 0 zero 256
//! image 0 1 float 4 4 1 1 1 frand
//! image 0 1 float 4 4 1 1 1 ramp
//! image 0 1 float 4 4 1 1 1 rand
//! image 0 1 float 4 4 1 1 1 framp
//! sampler 0 1 nearest mipnearest repeat
//! image 0 2 float 4 4 1 1 1 frand
//! image 0 2 float 4 4 1 1 1 framp
//! image 0 2 float 4 4 1 1 1 frand
//! sampler 0 3 linear mipnearest mirror
//! push ramp 4
//! isa v_cmp_eq_u32
//! isa s_and_b32 exec_lo
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D texs[4];
layout(set = 0, binding = 2) uniform texture2D imgs[3];
layout(set = 0, binding = 3) uniform sampler smp;
layout(push_constant) uniform P { uint k; } pc;
void main() {
    uint i = gl_LocalInvocationID.x;
    vec2 uv = vec2(float(i % 8u) / 8.0, float(i / 8u) / 8.0);
    vec4 a = textureLod(texs[nonuniformEXT(i % 4u)], uv, 0.0);
    vec4 b = textureLod(texs[pc.k % 4u], uv, 0.0);
    vec4 c = textureLod(sampler2D(imgs[nonuniformEXT(i % 3u)], smp), uv, 0.0);
    vec4 d = texelFetch(texs[2], ivec2(i % 4u, 1), 0);
    o[i] = a + 10.0 * b + 100.0 * c + d;
}
