#version 450
// Exact image operations (also run on the simulator): fetches, storage loads and stores of
// the same texel, sizes.
//! buf 0 0 zero 512
//! image 0 1 float 16 4 1 1 1 frand
//! sampler 0 1 nearest mipnearest repeat
//! image 0 2 uint 16 4 1 1 1 rand
//! isa image_load v
//! isa image_store v
layout(local_size_x = 16, local_size_y = 4) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(set = 0, binding = 2, rgba32ui) uniform uimage2D st;
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    uvec4 u = imageLoad(st, p);
    imageStore(st, p, u * 3u + uvec4(p, 1, 2));
    o[2u * i] = texelFetch(tex, p, 0) + texelFetch(tex, ivec2(15, 3) - p, 0);
    o[2u * i + 1u] = vec4(u) + vec4(imageSize(st), textureSize(tex, 0));
}
