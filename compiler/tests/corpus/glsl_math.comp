#version 450
// GLSL.std.450 float functions.
//! buf 0 0 frand 64
//! buf 0 1 zero 64
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer I { vec4 x[]; };
layout(std430, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    vec4 a = x[i];
    vec4 b = x[(i + 5u) & 15u];
    vec4 r = clamp(a, -1.0, 1.5) + mix(a, b, 0.25) + step(a, b) + smoothstep(-2.0, 2.0, a);
    r += floor(a) + ceil(b) + fract(a) + abs(b) + sign(a) + min(a, b) + max(a, b);
    r += vec4(length(a), distance(a, b), dot(a, b), exp2(a.x * 0.5));
    r += sqrt(abs(a)) + inversesqrt(abs(b) + 1.0) + fma(a, b, a) + roundEven(a) + trunc(b);
    r.xyz += cross(a.xyz, b.xyz) + normalize(a.xyz + vec3(5.0)) + reflect(a.xyz, vec3(0.0, 1.0, 0.0));
    o[i] = r;
}
