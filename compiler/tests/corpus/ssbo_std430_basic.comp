#version 450
// The simplest SSBO kernel: y[i] = a * x[i] + y[i].
//! groups 2 1 1
//! buf 0 0 framp 128
//! buf 0 1 framp 128
//! push framp 1
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = a * x[i] + y[i];
}
