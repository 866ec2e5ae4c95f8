#version 450
// A triangle whose vertices have different clip w (so perspective matters), a smooth colour
// and a flat integer built from gl_VertexIndex and gl_InstanceIndex.
layout(location = 0) out vec3 color;
layout(location = 1) flat out int id;
void main() {
    int i = gl_VertexIndex;
    float x = i == 0 ? -0.8 : (i == 1 ? 0.9 : -0.5);
    float y = i == 0 ? -0.8 : (i == 1 ? -0.6 : 0.9);
    float w = float(i + 1);
    gl_Position = vec4(x * w, y * w, 0.5 * w, w);
    color = vec3(i == 0 ? 1.0 : 0.0, i == 1 ? 1.0 : 0.0, i == 2 ? 1.0 : 0.0);
    id = i + 10 * gl_InstanceIndex + 7;
}
