#version 450
// Push constants read member by member: the scalar loads merge into s_load_dwordx2/x4/x8,
// never past the last dword read (the push block has no range check).
//! push ramp 15
//! buf 0 0 zero 16
layout(local_size_x = 4) in;
layout(push_constant) uniform P { uvec4 a; uint b; uint c; uvec2 d; uint e[3]; uint f; uint g; uint h; } pc;
layout(std430, binding = 0) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint r = pc.a.x + 3u * pc.a.y + 5u * pc.a.z + 7u * pc.a.w;
    r = r * 11u + pc.b * pc.c + pc.d.x - pc.d.y;
    r += pc.e[0] * 13u + pc.e[2] + pc.f * pc.g + pc.h;
    o[i] = r + i;
}
