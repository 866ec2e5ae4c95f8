#version 450
// A 64-bit vertex attribute: not implemented (needs two locations' fetches), must be refused.
layout(location = 0) in dvec2 pos;
void main() {
    gl_Position = vec4(vec2(pos), 0.0, 1.0);
}
