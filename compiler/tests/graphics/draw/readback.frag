#version 450
// Reads readback.vert's `x` only.
layout(location = 2) in vec4 x;
layout(location = 0) out vec4 o;
void main() {
    o = x;
}
