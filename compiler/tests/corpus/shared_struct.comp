#version 450
// Shared arrays of structs, written by one invocation and read by another.
//! buf 0 0 ramp 64
//! buf 0 1 zero 64
layout(local_size_x = 16) in;
struct T { uint a; uvec3 b; };
shared T t[16];
shared uint total;
layout(std430, binding = 0) readonly buffer I { uint x[]; };
layout(std430, binding = 1) buffer O { uvec4 o[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l == 0u) total = 0u;
    t[l].a = x[l];
    t[l].b = uvec3(l, l * 2u, x[l + 16u]);
    barrier();
    atomicAdd(total, t[15u - l].a);
    barrier();
    o[l] = uvec4(t[15u - l].b, total);
}
