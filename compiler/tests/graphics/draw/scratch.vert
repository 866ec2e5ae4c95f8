#version 450
// Two triangles covering the target, their corners from a constant table indexed by
// gl_VertexIndex, and a flat colour from a per-vertex array written in a loop: each array is
// 24 dwords, too big for VGPRs; the per-vertex array lives in the scratch ring, the constant
// table in the shader's constant data. The index wraps at 6 so
// every vertex index stays in bounds (the interpreter's per-pass check draws 40 vertices).
const vec4 P[6] = vec4[](vec4(-1, -1, 0, 1), vec4(1, -1, 0, 1), vec4(-1, 1, 0, 1),
                         vec4(1, 1, 0, 1), vec4(-1, 1, 0, 1), vec4(1, -1, 0, 1));
layout(location = 0) flat out vec4 color;
void main() {
    vec4 c[6];
    int v = gl_VertexIndex % 6;
    for (int i = 0; i < 6; i++) {
        c[i] = vec4(float(i) * 0.125, float(v) * 0.0625, 0.25, 1.0);
    }
    gl_Position = P[v];
    color = c[5 - v];
}
