#version 450
// std140 arrays of scalars (16-byte stride, three unread dwords after each element) next to a
// vec3 + float pair: the pair merges, sparse array elements stay separate loads.
//! buf 0 0 ramp 48
//! buf 0 1 zero 16
layout(local_size_x = 4) in;
layout(std140, binding = 0) uniform U { float f[4]; vec3 v; float w; int k[3]; ivec2 q; } u;
layout(std430, binding = 1) buffer O { float o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    float r = u.f[0] + 2.0 * u.f[1] + 4.0 * u.f[3];
    r += dot(u.v, vec3(1.0, 10.0, 100.0)) * u.w;
    r += float(u.k[2] - u.k[0] + u.q.y * u.q.x);
    o[i] = r + float(i);
}
