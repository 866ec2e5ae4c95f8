#version 450
// Storage images in compute: read, write, atomics and size queries.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;
layout(set = 0, binding = 2) uniform sampler2D src;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint old = imageAtomicAdd(counts, p, 1u);
    vec4 s = textureLod(src, vec2(p) / vec2(imageSize(dst)), 0.0);
    imageStore(dst, p, s * float(old));
}
