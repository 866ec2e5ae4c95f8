#version 450
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit atomics on shared memory (shaderSharedInt64Atomics); every operation commutes, so
// the result does not depend on invocation order.
//! groups 2 1 1
//! buf 0 0 zero 16
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer O { uint64_t r[2][4]; };
shared uint64_t sum, mx, x;
shared int64_t mn;
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l == 0u) { sum = 0ul; mx = 0ul; x = 0ul; mn = 0l; }
    barrier();
    uint64_t i = uint64_t(gl_GlobalInvocationID.x);
    atomicAdd(sum, (i << 35) + i);
    atomicMax(mx, i * 0x100000001ul);
    atomicMin(mn, -int64_t(i) * 3000000000l);
    atomicXor(x, 1ul << (i + 20ul));
    barrier();
    if (l == 0u) {
        uint g = gl_WorkGroupID.x;
        r[g][0] = sum; r[g][1] = mx; r[g][2] = uint64_t(mn); r[g][3] = x;
    }
}
