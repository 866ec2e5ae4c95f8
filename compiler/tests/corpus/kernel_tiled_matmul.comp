#version 450
// Tiled 8x8 matrix multiply with shared-memory tiles and a 2D workgroup.
//! groups 2 2 1
//! buf 0 0 frand 256
//! buf 0 1 frand 256
//! buf 0 2 zero 256
layout(local_size_x = 4, local_size_y = 4) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) buffer C { float c[]; };
shared float ta[4][4];
shared float tb[4][4];
const uint N = 8u;
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    uvec2 l = gl_LocalInvocationID.xy;
    float acc = 0.0;
    for (uint t = 0u; t < N / 4u; t++) {
        ta[l.y][l.x] = a[g.y * N + t * 4u + l.x];
        tb[l.y][l.x] = b[(t * 4u + l.y) * N + g.x];
        barrier();
        for (uint k = 0u; k < 4u; k++) acc += ta[l.y][k] * tb[k][l.x];
        barrier();
    }
    c[g.y * N + g.x] = acc;
}
