#version 450
// Cube maps: sampling by direction (v_cube*), cube arrays, sizes, cube storage loads.
//! buf 0 0 zero 1024
//! image 0 1 float 4 4 1 6 3 frand
//! sampler 0 1 linear miplinear edge
//! image 0 2 float 4 4 1 12 1 frand
//! sampler 0 2 nearest mipnearest edge
//! image 0 3 float 4 4 1 6 1 frand
//! isa v_cubeid_f32
//! isa v_cubema_f32
//! isa dim:SQ_RSRC_IMG_CUBE
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform samplerCube cube;
layout(set = 0, binding = 2) uniform samplerCubeArray cubes;
layout(set = 0, binding = 3, rgba32f) uniform readonly imageCube scube;
void main() {
    uint i = gl_LocalInvocationID.x;
    vec3 d = vec3(float(i % 4u) - 1.5, float((i / 4u) % 4u) - 1.7, float(i / 16u) - 1.9);
    o[4u * i] = textureLod(cube, d, float(i % 3u) * 0.6);
    o[4u * i + 1u] = textureLod(cubes, vec4(d.zxy, float(i & 1u)), 0.0);
    o[4u * i + 2u] = imageLoad(scube, ivec3(i % 4u, (i / 4u) % 4u, i % 6u));
    o[4u * i + 3u] = vec4(textureSize(cubes, 0), imageSize(scube).x);
}
