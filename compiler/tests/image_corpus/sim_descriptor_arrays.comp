#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of sampled and storage images indexed by dynamically uniform values (a push
// constant, a loop counter) and per lane (also run on the simulator): the descriptor is
// loaded from the indexed slot of set memory, once per distinct index.
//! buf 0 0 zero 1024
//! image 0 1 float 4 4 1 1 1 frand
//! image 0 1 float 4 4 1 1 1 framp
//! image 0 1 float 4 4 1 1 1 rand
//! sampler 0 1 nearest mipnearest repeat
//! image 0 2 uint 8 8 1 1 1 rand
//! image 0 2 uint 8 8 1 1 1 ramp
//! push ramp 4
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D texs[3];
layout(set = 0, binding = 2, rgba32ui) uniform uimage2D imgs[2];
layout(push_constant) uniform P { uint k; } pc;
void main() {
    uint i = gl_LocalInvocationID.x;
    ivec2 p = ivec2(i % 8u, i / 8u);
    vec4 acc = texelFetch(texs[(pc.k + 1u) % 3u], p % 4, 0);
    for (uint j = 0u; j < 3u; j++) {
        acc += float(j + 1u) * texelFetch(texs[j], (p + ivec2(j)) % 4, 0);
    }
    acc += 100.0 * texelFetch(texs[nonuniformEXT(i % 3u)], p % 4, 0);
    uvec4 u = imageLoad(imgs[pc.k % 2u], p);
    imageStore(imgs[(pc.k + 1u) % 2u], p, u * 5u + uvec4(i));
    o[2u * i] = acc;
    o[2u * i + 1u] = vec4(u);
}
