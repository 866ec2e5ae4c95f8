#version 450
// Redundant loads and stores on buffers and shared memory: forwarding and dead stores,
// plus stores through dynamic indices that may alias.
//! buf 0 0 ramp 64
//! buf 0 1 zero 64
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer A { uint a[]; };
layout(std430, binding = 1) buffer B { uvec4 b[]; };
shared uint s[8];
void main() {
    uint i = gl_LocalInvocationID.x;
    b[i].x = 1u;
    b[i].x = a[i] + 2u;
    b[i].y = b[i].x * 3u;
    a[i + 8u] = a[i];
    a[a[i] & 15u] += 1u;
    b[i].z = a[i + 8u] + a[i];
    s[i] = b[i].y;
    s[i] = s[i] + 1u;
    barrier();
    b[i].w = s[(i + 1u) & 7u] + s[i];
}
