#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit varyings (flat; each 64-bit component takes two 32-bit ones, Vulkan "Location
// Assignment"): a dvec3 over location 0 and location 1's first two components, a double in
// location 1's last two, a dvec2 filling location 2, an int64_t and a uint64_t sharing
// location 3, a dvec4 over locations 4 and 5, and a double array at locations 6 and 7 (its
// element 1 written through a dynamic index, so the old value is read back). The values are
// bit patterns only f64 holds (±0, the smallest and largest denormals, ±inf, NaNs with
// payloads, ±max, 1 + 2^-52, 2^63 and 2^64 - 1 as integers) built from integer halves so no
// arithmetic touches them, plus two products; the vertex index changes every non-provoking
// vertex's bits. The triangle is color.vert's.
layout(location = 0) flat out dvec3 a;
layout(location = 1, component = 2) flat out double b;
layout(location = 2) flat out dvec2 c;
layout(location = 3) flat out int64_t e;
layout(location = 3, component = 2) flat out uint64_t u;
layout(location = 4) flat out dvec4 d;
layout(location = 6) flat out double arr[2];
void main() {
    int i = gl_VertexIndex;
    float x = i == 0 ? -0.8 : (i == 1 ? 0.9 : -0.5);
    float y = i == 0 ? -0.8 : (i == 1 ? -0.6 : 0.9);
    float w = float(i + 1);
    gl_Position = vec4(x * w, y * w, 0.5 * w, w);
    uint v = uint(i);
    a = dvec3(packDouble2x32(uvec2(v, 0x80000000u)),
              packDouble2x32(uvec2(1u + v, 0u)),
              packDouble2x32(uvec2(0xffffffffu - v, 0x000fffffu)));
    b = packDouble2x32(uvec2(0u, 0xfff00000u - (v << 20)));
    c = dvec2(packDouble2x32(uvec2(1u + v, 0x7ff00000u)),
              packDouble2x32(uvec2(0x9abcdef0u ^ v, 0xfff81234u)));
    e = int64_t(0x8000000000000000ul) + int64_t(i);
    u = 0xfffffffffffffffful - uint64_t(i);
    d = dvec4(packDouble2x32(uvec2(0xffffffffu, 0x7fefffffu - v)),
              packDouble2x32(uvec2(0xffffffffu - v, 0xffefffffu)),
              packDouble2x32(uvec2(1u + v, 0x3ff00000u)),
              packDouble2x32(uvec2(v, 0x7ff00000u)));
    arr[0] = double(i + 1) * 0.1lf;
    arr[1] = 1.0lf / 3.0lf;
    arr[i & 1] = arr[i & 1] * -3.0lf;
}
