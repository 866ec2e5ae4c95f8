#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Buffer references turned back into integers: uint64_t(ref) (OpConvertPtrToU) and uvec2(ref)
// (OpBitcast to two halves), of references loaded from a std140 block and from memory they
// point to, compared and stored (dEQP-VK.binding_model.buffer_device_address.*.convertuvec2).
//! global 0 ramp 32
//! global 1 ramp 32
//! global 2 ramp 32
//! buf 0 0 zero 32
//! bufaddr 0 0 48 0
//! bufaddr 0 0 64 1
//! bufaddr 0 0 80 2
//! buf 0 1 zero 40
//! push ramp 4
layout(local_size_x = 1) in;
layout(buffer_reference) buffer T1;
layout(buffer_reference, std140) buffer T1 {
    layout(offset = 0) int a[2];
    layout(offset = 32) int b;
    layout(offset = 48) T1 c[2];
    layout(offset = 80) T1 d;
};
layout(set = 0, binding = 0, std140) buffer T2 {
    layout(offset = 0) int a[2];
    layout(offset = 32) int b;
    layout(offset = 48) T1 c[2];
    layout(offset = 80) T1 d;
} x;
layout(set = 0, binding = 1, std430) buffer O { uint64_t o[]; };
layout(push_constant, std430) uniform P { int identity[4]; } pc;
void main() {
    uint64_t a = uint64_t(x.c[0]);
    uint64_t b = uint64_t(x.c[pc.identity[1]]);
    uint64_t d = uint64_t(x.d);
    // Addresses differ between drivers: only relations between them are stored.
    o[0] = uint64_t(a != uint64_t(x.c[1]) ? 1 : 0);
    o[1] = uint64_t(d != b ? 1 : 0) + uint64_t(d != 0ul ? 2 : 0);
    o[2] = uint64_t((a == 0ul ? 1 : 0) | (a == b ? 2 : 0) | (b == d ? 4 : 0) | (a == d ? 8 : 0));
    uvec2 h = uvec2(x.c[pc.identity[1]]);
    o[3] = ((uint64_t(h.y) << 32) | uint64_t(h.x)) - b;
    uint64_t e = uint64_t(x.c[0].c[0]);
    uint64_t f = uint64_t(x.c[0].c[pc.identity[1]]);
    uint64_t g = uint64_t(x.c[0].d);
    o[4] = e; o[5] = f; o[6] = g;
    o[7] = uint64_t((e == f ? 1 : 0) | (f == g ? 2 : 0) | (e == g ? 4 : 0));
    uvec2 k = uvec2(x.d.c[0]);
    o[8] = uint64_t(k.x) + uint64_t(k.y);
    o[9] = uint64_t(x.c[pc.identity[1]].b) + uint64_t(x.d.a[pc.identity[1]]);
}
