#version 450
#extension GL_ARB_gpu_shader_int64 : require
// Reads double_varyings.vert's 64-bit varyings. Each pixel shows the 64 bits of one of the
// 15 values, chosen by its position, as four 16-bit pieces (exact in the f32 colour); the
// double array is read through a dynamic index.
layout(location = 0) flat in dvec3 a;
layout(location = 1, component = 2) flat in double b;
layout(location = 2) flat in dvec2 c;
layout(location = 3) flat in int64_t e;
layout(location = 3, component = 2) flat in uint64_t u;
layout(location = 4) flat in dvec4 d;
layout(location = 6) flat in double arr[2];
layout(location = 0) out vec4 o;
void main() {
    int j = int(gl_FragCoord.y) & 1;
    uvec2 bits[15] = uvec2[](
        unpackDouble2x32(a.x), unpackDouble2x32(a.y), unpackDouble2x32(a.z),
        unpackDouble2x32(b), unpackDouble2x32(c.x), unpackDouble2x32(c.y),
        unpackUint2x32(uint64_t(e)), unpackUint2x32(u),
        unpackDouble2x32(d.x), unpackDouble2x32(d.y), unpackDouble2x32(d.z),
        unpackDouble2x32(d.w), unpackDouble2x32(arr[j]), unpackDouble2x32(arr[1 - j]),
        unpackDouble2x32(arr[0] + arr[1]));
    uvec2 p = bits[(int(gl_FragCoord.x) + 4 * int(gl_FragCoord.y)) % 15];
    o = vec4(float(p.x & 0xffffu), float(p.x >> 16), float(p.y & 0xffffu), float(p.y >> 16));
}
