#version 450
// A 96-dword private array indexed dynamically: too large for VGPR select chains, so it lives
// in the scratch ring (SCRATCH_EN, FLAT_SCRATCH from the ABI's ring address and wave offset).
//! buf 0 0 ramp 96
//! buf 0 1 zero 64
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint t[96];
    for (uint k = 0u; k < 96u; k++) t[k] = x[k] ^ (i * 7u + k);
    t[(i * 5u) % 96u] += 1000u;
    uint acc = 0u;
    for (uint k = 0u; k < 24u; k++) acc += t[(i + k * 13u) % 96u] * (k + 1u);
    o[i] = acc + t[95u - (i % 96u)];
}
