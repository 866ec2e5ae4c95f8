#version 450
// Gathers and scatters at constant offsets from one per-invocation base: four neighbouring
// floats read and written through separate indices (one address, dwordx4 accesses), a strided
// read at offsets near the MUBUF immediate's limit, and a signed index plus a constant.
//! groups 2 1 1
//! buf 0 0 framp 1400
//! buf 0 1 zero 256
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer I { float x[]; };
layout(std430, binding = 1) buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float a = x[i * 4u + 0u];
    float b = x[i * 4u + 1u];
    float c = x[i * 4u + 2u];
    float d = x[i * 4u + 3u];
    // 1023 floats = 4092 bytes: the last offset the 12-bit immediate holds; 1024 is past it.
    float far = x[i + 1023u] + x[i + 1024u];
    int j = int(i) - 1;
    float prev = x[j + 1];
    o[i * 4u + 0u] = d + far;
    o[i * 4u + 1u] = c * prev;
    o[i * 4u + 2u] = b;
    o[i * 4u + 3u] = a;
}
