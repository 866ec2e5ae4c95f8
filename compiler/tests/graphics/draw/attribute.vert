#version 450
// A vertex attribute: vertex-buffer fetch is not implemented yet and must be refused.
layout(location = 0) in vec4 pos;
void main() {
    gl_Position = pos;
}
