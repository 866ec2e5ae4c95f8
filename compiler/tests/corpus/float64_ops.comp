#version 450
// Double precision arithmetic and conversions in std430.
//! buf 0 0 framp 32
//! buf 0 1 zero 32
layout(local_size_x = 4) in;
layout(std430, binding = 0) readonly buffer I { float f[8]; };
layout(std430, binding = 1) buffer O { dvec2 d[4]; float g[4]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    double a = double(f[i]) / 3.0lf;
    d[i] = dvec2(a * a, a + 1.0lf);
    g[i] = float(a * 2.0lf);
}
