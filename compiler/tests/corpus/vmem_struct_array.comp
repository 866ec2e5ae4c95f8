#version 450
#extension GL_EXT_buffer_reference : require
// Arrays of structs: members at constant offsets from one element address, through a
// descriptor buffer (std430 and std140 layouts) and through a buffer device address (GLOBAL
// with immediate offsets).
//! groups 2 1 1
//! buf 0 0 ramp 512
//! buf 0 1 zero 512
//! global 0 framp 512
//! push zero 2
//! pushaddr 0 0
layout(local_size_x = 32) in;
struct P { vec3 pos; float w; uvec2 id; float pad[2]; };
layout(std430, binding = 0) readonly buffer I { P ps[]; };
layout(std430, binding = 1) buffer O { P outs[]; };
layout(buffer_reference, std430) buffer G { vec4 v[]; };
layout(push_constant) uniform PC { G g; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    P p = ps[i];
    vec4 q = g.v[i * 2u];
    vec4 r = g.v[i * 2u + 1u];
    p.pos += q.xyz + vec3(p.id, 1.0);
    p.w = r.w + float(p.id.y);
    p.id += uvec2(3u, 5u);
    p.pad[1] = q.w;
    outs[i] = p;
    g.v[i * 2u + 1u] = vec4(p.pos, p.w);
}
