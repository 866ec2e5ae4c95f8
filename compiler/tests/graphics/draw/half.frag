#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// The input side of half.vert: 16-bit inputs narrowed from 32-bit components (an
// interpolated f32 rounds once to f16).
layout(location = 0) in f16vec3 c;
layout(location = 1) noperspective in float16_t h;
layout(location = 2) flat in i16vec2 iv;
layout(location = 2, component = 2) flat in uint16_t u;
layout(location = 0) out vec4 o;
void main() {
    float16_t s = c.x + c.y * 2.0hf;
    o = vec4(float(s), float(c.z) / 65504.0, float(h) + float(iv.x) / 32768.0,
             float(iv.y) + float(u) / 65536.0);
}
