#version 450
#extension GL_ARB_gpu_shader_fp64 : require
// packDouble2x32 / unpackDouble2x32 (GLSL.std.450 59 and 65): bit casts between a double and
// its two dwords (low first), on divergent and on uniform values, with arithmetic in between so
// the casts are not folded away.
//! buf 0 0 rand 64
//! buf 0 1 zero 128
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { uint v[64]; };
layout(std430, binding = 1) buffer O { uvec2 o[64]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uvec2 w = uvec2(v[i] * 2654435761u, (v[i + 16u] % 512u) + 0x3fe00000u);
    double d = packDouble2x32(w);
    o[i] = unpackDouble2x32(d * 3.0 + 0.25);
    o[i + 16u] = unpackDouble2x32(-d);
    // Uniform: every invocation reads the same words.
    double u = packDouble2x32(uvec2(v[40] * 40503u, v[41] + 0x40100000u));
    o[i + 32u] = unpackDouble2x32(u - double(i));
    uvec2 back = unpackDouble2x32(packDouble2x32(uvec2(v[i + 32u], i)));
    o[i + 48u] = back.yx;
}
