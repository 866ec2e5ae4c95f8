#version 450
// Texel fetches (levels, offsets, out of range), size and level queries.
//! buf 0 0 zero 1024
//! image 0 1 float 8 8 1 1 4 frand
//! sampler 0 1 nearest mipnearest repeat
//! image 0 2 uint 4 4 4 1 2 rand
//! sampler 0 2 nearest mipnearest repeat
//! isa image_load_mip
//! isa image_load v
//! isa image_get_resinfo
//! isa dmask:0x8
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(set = 0, binding = 2) uniform usampler3D vol;
void main() {
    uint i = gl_LocalInvocationID.x;
    ivec2 p = ivec2(i % 9u, i / 7u);
    int lod = int(i % 5u);
    o[4u * i] = texelFetch(tex, p, lod) + texelFetch(tex, p, 0);
    o[4u * i + 1u] = texelFetchOffset(tex, p, 1, ivec2(-1, 1));
    o[4u * i + 2u] = vec4(texelFetch(vol, ivec3(p.x, p.y, int(i % 4u)) / 2, int(i & 1u)));
    o[4u * i + 3u] = vec4(textureSize(tex, lod % 4), textureSize(vol, 1).z, textureQueryLevels(tex));
}
