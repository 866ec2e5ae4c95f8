#version 450
// A 64-bit vertex attribute (R64G64_SFLOAT: four 32-bit channels at one location).
layout(location = 0) in dvec2 pos;
void main() {
    gl_Position = vec4(vec2(pos), 0.0, 1.0);
}
