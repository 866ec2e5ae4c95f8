#version 450
// Conversions between floats and signed/unsigned integers, bit casts.
//! buf 0 0 frand 32
//! buf 0 1 zero 64
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer I { float x[]; };
layout(std430, binding = 1) buffer O { ivec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    float a = x[i] * 10.0;
    int s = int(a);
    uint u = uint(abs(a));
    o[i] = ivec4(s, int(u), floatBitsToInt(float(s) * 0.5), int(uintBitsToFloat(u | 0x3f800000u) * 8.0));
}
