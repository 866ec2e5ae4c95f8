#version 450
#extension GL_EXT_scalar_block_layout : require
// std430 rules on a uniform block (uniformBufferStandardLayout without scalarBlockLayout):
// a vec3 followed by a float in its padding, and a vec2 array with an 8-byte stride.
//! buf 0 0 framp 16
//! buf 0 1 zero 8
layout(local_size_x = 4) in;
layout(std430, binding = 0) uniform U { vec3 a; float b; vec2 c[4]; float d; } u;
layout(std430, binding = 1) buffer O { float o[8]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i] = u.c[i].y * u.a[i % 3u] + u.b;
    o[i + 4u] = u.c[3u - i].x - u.d;
}
