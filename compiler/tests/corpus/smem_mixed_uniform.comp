#version 450
// The same uniform buffer read with constant (uniform, scalar) and per-lane (vector) indices,
// in two blocks of a divergent branch: only the scalar loads of one block merge.
//! buf 0 0 framp 32
//! buf 0 1 zero 8
layout(local_size_x = 8) in;
layout(std140, binding = 0) uniform U { vec4 v[4]; vec4 extra[4]; } u;
layout(std430, binding = 1) buffer O { float o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    float r = u.v[i & 3u].x + u.v[0].y;
    if ((i & 1u) == 0u) {
        r += u.v[1].x * u.v[1].y + u.v[1].z - u.v[1].w;
        r += u.extra[i >> 1].w;
    } else {
        r -= u.v[2].z + u.v[2].w + u.v[3].x;
    }
    o[i] = r + u.v[0].x;
}
