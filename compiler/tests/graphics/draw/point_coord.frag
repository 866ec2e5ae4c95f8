#version 450
// The point sprite coordinates: (0, 0) at the point's top-left corner, (1, 1) at its
// bottom-right.
layout(location = 0) flat in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(gl_PointCoord, v.y, 1.0);
}
