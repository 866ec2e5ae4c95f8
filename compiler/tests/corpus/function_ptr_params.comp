#version 450
// Functions with inout/out parameters (pointer parameters) including arrays and structs.
//! buf 0 0 framp 64
//! buf 0 1 zero 64
layout(local_size_x = 4) in;
struct S { vec2 a; float b[3]; };
layout(std430, binding = 0) readonly buffer I { float x[]; };
layout(std430, binding = 1) buffer O { vec4 o[]; };
void bump(inout S s, float k) { s.a += vec2(k); s.b[1] *= k; }
void fill(out float arr[4], float base) { for (int j = 0; j < 4; j++) arr[j] = base + float(j); }
float sum(in float arr[4]) { return arr[0] + arr[1] + arr[2] + arr[3]; }
void main() {
    uint i = gl_LocalInvocationID.x;
    S s;
    s.a = vec2(x[i], x[i + 4u]);
    s.b[0] = 1.0; s.b[1] = x[i + 8u]; s.b[2] = 3.0;
    bump(s, 2.0);
    bump(s, x[i]);
    float arr[4];
    fill(arr, x[i + 12u]);
    o[i] = vec4(s.a, s.b[1], sum(arr));
}
