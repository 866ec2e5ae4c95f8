#version 450
// Swizzles, dynamic vector indexing and component stores into buffer vectors.
//! buf 0 0 framp 64
//! buf 0 1 framp 64
layout(local_size_x = 4) in;
layout(std430, binding = 0) readonly buffer I { vec4 x[]; };
layout(std430, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    vec4 a = x[i];
    vec4 b = a.wzyx + a.xxyy * a.zwzw;
    b[i] = a[(i + 1u) & 3u];
    o[i].yz = b.xw;
    o[i + 4u][i] = b[3u - i];
    o[i + 8u].x = dot(a.xy, b.zw);
}
