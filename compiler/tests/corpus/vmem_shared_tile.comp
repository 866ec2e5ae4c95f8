#version 450
// A shared-memory tile read and written at constant offsets from each invocation's row:
// neighbouring LDS dwords (ds_read2/ds_write2 pairs), a far pair beyond ds_read2's reach, and a
// vec2 row in a buffer. Row index from the local id, so every offset folds into the DS field.
//! groups 2 1 1
//! buf 0 0 framp 512
//! buf 0 1 zero 256
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { vec2 x[]; };
layout(std430, binding = 1) buffer O { float o[]; };
shared float tile[16][20];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint g = gl_GlobalInvocationID.x;
    vec2 a = x[g * 2u];
    vec2 b = x[g * 2u + 1u];
    tile[l][0] = a.x;
    tile[l][1] = a.y;
    tile[l][2] = b.x;
    tile[l][3] = b.y;
    tile[l][19] = a.x - b.y;
    barrier();
    uint r = 15u - l;
    float s = tile[r][0] + tile[r][1] * 2.0 + tile[r][2] * 3.0 + tile[r][3] * 4.0;
    float far = tile[r][19] + tile[(r + 8u) & 15u][19];
    o[g * 4u + 0u] = s;
    o[g * 4u + 1u] = far;
    o[g * 4u + 2u] = tile[r][1];
    o[g * 4u + 3u] = tile[l][2];
}
