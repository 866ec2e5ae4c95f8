#version 450
// Positions from a vertex buffer (R32G32_SFLOAT), depth 0.5.
layout(location = 0) in vec2 pos;
void main() {
    gl_Position = vec4(pos, 0.5, 1.0);
}
