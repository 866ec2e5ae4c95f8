#version 450
// Typed buffer loads and stores of the same element, sizes (also run on the simulator).
//! buf 0 0 zero 256
//! texbuf 0 1 float 40 frand
//! texbuf 0 2 uint 64 rand
//! isa buffer_load_format_xyzw
//! isa buffer_store_format_xyzw
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform samplerBuffer ub;
layout(set = 0, binding = 2, rgba32ui) uniform uimageBuffer sb;
void main() {
    int i = int(gl_LocalInvocationID.x);
    vec4 a = texelFetch(ub, i % 40);
    uvec4 b = imageLoad(sb, i);
    imageStore(sb, i, b * 5u + uvec4(1, 2, 3, 4));
    o[i] = a + vec4(b) + vec4(textureSize(ub), imageSize(sb), 0, 0);
}
