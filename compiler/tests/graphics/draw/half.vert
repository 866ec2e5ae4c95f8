#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// 16-bit varyings (storageInputOutput16): each 16-bit component takes a whole 32-bit one,
// widened on export; a smooth f16vec3, a noperspective float16_t, a flat i16vec2 and a
// flat uint16_t sharing a location by components; the triangle of color.vert.
layout(location = 0) out f16vec3 c;
layout(location = 1) noperspective out float16_t h;
layout(location = 2) flat out i16vec2 iv;
layout(location = 2, component = 2) flat out uint16_t u;
void main() {
    int i = gl_VertexIndex;
    float x = i == 0 ? -0.8 : (i == 1 ? 0.9 : -0.5);
    float y = i == 0 ? -0.8 : (i == 1 ? -0.6 : 0.9);
    float w = float(i + 1);
    gl_Position = vec4(x * w, y * w, 0.5 * w, w);
    c = f16vec3(i == 0 ? 1.0hf : 0.0hf, i == 1 ? 0.5hf : 0.0hf, i == 2 ? 0.25hf : 65504.0hf);
    h = float16_t(x * 3.0);
    iv = i16vec2(int16_t(-30000 + i), int16_t(i * 7 - 2));
    u = uint16_t(65535 - i);
}
