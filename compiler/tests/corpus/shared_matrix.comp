#version 450
// Matrices and 2D arrays in shared memory (natural layout), dynamic indices.
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 4, local_size_y = 4) in;
shared mat4 sm;
shared float grid[4][4];
layout(std430, binding = 0) readonly buffer I { vec4 x[]; };
layout(std430, binding = 1) buffer O { float o[]; };
void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    if (l.x == 0u) sm[l.y] = x[l.y];
    grid[l.y][l.x] = float(l.x * 4u + l.y);
    barrier();
    o[l.y * 4u + l.x] = sm[l.x][l.y] + grid[l.x][l.y] + (sm * x[4])[l.x];
}
