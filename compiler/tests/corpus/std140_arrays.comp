#version 450
// std140 arrays of scalars, vec2 and vec3 (every element padded to 16 bytes).
//! buf 0 0 framp 64
//! buf 0 1 zero 32
layout(local_size_x = 4) in;
layout(std140, binding = 0) uniform U { float f[4]; vec2 v2[4]; vec3 v3[2]; uint k; } u;
layout(std430, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    o[i] = vec4(u.f[i], u.v2[i], u.v3[i & 1u].z + float(u.k & 7u));
}
