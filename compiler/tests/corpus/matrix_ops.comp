#version 450
// Matrix products, transpose, outer product, matrix * scalar in std430 buffers.
//! buf 0 0 frand 64
//! buf 0 1 zero 64
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer I { mat4 a; mat4 b; vec4 v; vec3 w; };
layout(std430, binding = 1) buffer O { mat4 r; mat4 t; mat3 op; };
void main() {
    r = a * b * 0.5;
    t = transpose(a) + matrixCompMult(a, b);
    op = outerProduct(w, v.xyz) - mat3(1.0);
}
