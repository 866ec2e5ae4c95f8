#version 450
#extension GL_EXT_scalar_block_layout : require
// Scalar block layout: vec3 members and arrays of vec3 are packed with 4-byte alignment.
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 4) in;
struct P { vec3 pos; float w; vec3 n[2]; };
layout(scalar, binding = 0) readonly buffer I { float pad; P p[]; };
layout(scalar, binding = 1) buffer O { vec3 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i * 2u] = p[i].pos + p[i].n[1] * pad;
    o[i * 2u + 1u] = vec3(p[i].w, p[i].n[0].yz);
}
