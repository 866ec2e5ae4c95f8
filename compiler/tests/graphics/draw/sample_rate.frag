#version 450
// Per-sample interpolation (SampleRateShading: the shader runs once per sample).
layout(location = 0) sample in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(color, 1.0);
}
