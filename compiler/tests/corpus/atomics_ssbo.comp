#version 450
// Every SSBO atomic, with results used.
//! groups 2 1 1
//! buf 0 0 ramp 16
//! buf 0 1 zero 64
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer C { uint add; int mn; int mx; uint umn; uint umx; uint a; uint o; uint x; uint xchg; uint cas; };
layout(std430, binding = 1) buffer O { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint old = atomicAdd(add, i);
    atomicMin(mn, int(i) - 20);
    atomicMax(mx, int(i) - 20);
    atomicMin(umn, i + 3u);
    atomicMax(umx, i * 3u);
    atomicAnd(a, ~(1u << (i & 31u)));
    atomicOr(o, 1u << (i & 31u));
    atomicXor(x, i * 7u);
    uint c = atomicCompSwap(cas, 9u, 100u + i);
    r[i] = (old >= 0u ? 1u : 0u) + (c == 9u ? 2u : 0u);
}
