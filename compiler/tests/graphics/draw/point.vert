#version 450
// Points with a per-vertex size (the misc vector) and a flat colour.
layout(location = 0) in vec2 pos;
layout(location = 0) flat out vec4 v;
void main() {
    gl_Position = vec4(pos, 0.5, 1.0);
    gl_PointSize = 4.0 + 2.0 * float(gl_VertexIndex);
    v = vec4(1.0, float(gl_VertexIndex), 0.0, 1.0);
}
