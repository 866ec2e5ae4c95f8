#version 450
// color.vert's triangle cut by two user clip planes, x_ndc >= 0.1 and y_ndc <= 0.3 (clip
// distances in clip space: x - 0.1 w and 0.3 w - y), written through a dynamic index in a
// loop, plus a third distance exactly 0 at every vertex (0 is inside). The cull distance
// is negative at every vertex of instance 1 (culled whole) but at only one vertex of
// instance 0 (kept). The colour says which instance drew.
layout(location = 0) out vec4 color;
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[3];
    float gl_CullDistance[1];
};
void main() {
    int i = gl_VertexIndex;
    float x = i == 0 ? -0.8 : (i == 1 ? 0.9 : -0.5);
    float y = i == 0 ? -0.8 : (i == 1 ? -0.6 : 0.9);
    float w = float(i + 1);
    gl_Position = vec4(x * w, y * w, 0.5 * w, w);
    for (int k = 0; k < 3; k++) {
        gl_ClipDistance[k] = k == 0 ? (x - 0.1) * w : (k == 1 ? (0.3 - y) * w : 0.0);
    }
    gl_CullDistance[0] = gl_InstanceIndex == 1 || i == 0 ? -1.0 : 1.0;
    color = vec4(float(gl_InstanceIndex), 1.0, 0.0, 1.0);
}
