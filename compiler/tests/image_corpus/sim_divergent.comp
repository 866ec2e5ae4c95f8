#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Per-lane and uniform descriptor indices, separate sampler (also run on the simulator).
//! buf 0 0 zero 256
//! image 0 1 float 16 2 1 1 1 frand
//! image 0 1 float 16 2 1 1 1 framp
//! image 0 1 float 16 2 1 1 1 ramp
//! sampler 0 2 nearest mipnearest repeat
//! push ramp 4
//! isa s_and_b32 exec_lo
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform texture2D imgs[3];
layout(set = 0, binding = 2) uniform sampler smp;
layout(push_constant) uniform P { uint k; } pc;
void main() {
    uint i = gl_LocalInvocationID.x;
    ivec2 p = ivec2(i % 16u, (i / 16u) % 2u);
    vec2 uv = (vec2(p) + 0.5) / vec2(16.0, 2.0);
    vec4 a = texelFetch(sampler2D(imgs[nonuniformEXT(i % 3u)], smp), p, 0);
    vec4 b = textureLod(sampler2D(imgs[(pc.k + 1u) % 3u], smp), uv, 0.0);
    o[i] = a * 4.0 + b;
}
