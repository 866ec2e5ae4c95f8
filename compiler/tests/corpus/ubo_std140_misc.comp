#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// std140 bools, ivec3 followed by a scalar, a 16-bit push constant and dynamic vector reads.
//! buf 0 0 ramp 32
//! buf 0 1 zero 16
//! push bytes 2
layout(local_size_x = 4) in;
layout(std140, binding = 0) uniform U { bool flag; ivec3 v; int after; bvec2 bb; vec4 arr[2]; } u;
layout(push_constant) uniform P { uint16_t scale; uint16_t bias; } pc;
layout(std430, binding = 1) buffer O { int o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    int r = u.flag ? u.v[i % 3u] : u.after;
    if (u.bb.y) r += 1000;
    r += int(u.arr[i & 1u][i]) * int(pc.scale) + int(pc.bias);
    o[i] = r;
}
