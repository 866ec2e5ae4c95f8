#version 450
#extension GL_EXT_shader_image_load_formatted : require
// Reads and writes of storage images declared without a format, with integer results too.
//! buf 0 0 zero 128
//! image 0 1 float 8 8 1 1 1 frand
//! image 0 2 sint 8 4 1 1 1 rand
//! isa image_load v
//! isa image_store v
layout(local_size_x = 8, local_size_y = 4) in;
layout(std430, set = 0, binding = 0) buffer Out { ivec4 o[]; };
layout(set = 0, binding = 1) uniform image2D img;
layout(set = 0, binding = 2) uniform iimage2D iimg;
void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    vec4 v = imageLoad(img, p + ivec2(0, 4));
    ivec4 w = imageLoad(iimg, p);
    imageStore(img, p, v.wzyx);
    o[gl_LocalInvocationIndex] = w + ivec4(v);
    imageStore(iimg, p.yx, w * 3);
}
