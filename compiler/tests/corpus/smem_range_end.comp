#version 450
// Uniform buffers whose last dwords are read: merged loads reach past NUM_RECORDS, where the
// scalar unit returns zero per dword, so every dword the shader reads keeps its value.
//! buf 0 0 ramp 5
//! buf 0 1 ramp 3
//! buf 0 2 zero 8
layout(local_size_x = 4) in;
layout(std140, binding = 0) uniform A { uint a0; uint a1; uint a2; uint a3; uint a4; } a;
layout(std140, binding = 1) uniform B { uint b0; uint b1; uint b2; } b;
layout(std430, binding = 2) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i] = a.a0 + 2u * a.a1 + 4u * a.a2 + 8u * a.a3 + 16u * a.a4 + i;
    o[i + 4u] = b.b0 * 100u + b.b1 * 10u + b.b2 + i;
}
