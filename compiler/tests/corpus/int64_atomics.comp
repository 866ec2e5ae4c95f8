#version 450
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit atomics on a storage buffer.
//! groups 2 1 1
//! buf 0 0 zero 8
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer C { uint64_t sum; uint64_t mx; int64_t mn; uint64_t x; };
void main() {
    uint64_t i = uint64_t(gl_GlobalInvocationID.x);
    atomicAdd(sum, i << 33);
    atomicMax(mx, i * 0x100000001ul);
    atomicMin(mn, -int64_t(i));
    atomicXor(x, 1ul << i);
}
