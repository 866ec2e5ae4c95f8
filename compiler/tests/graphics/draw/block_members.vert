#version 450
// An output block whose members carry their own locations (out of declaration order, one
// with a component) and interpolation qualifiers; the triangle of color.vert.
layout(location = 0) out Block {
    layout(location = 3) vec3 a;
    flat int id;
    layout(location = 1) noperspective vec2 b;
    layout(location = 2, component = 1) centroid float c;
} blk;
void main() {
    int i = gl_VertexIndex;
    float x = i == 0 ? -0.8 : (i == 1 ? 0.9 : -0.5);
    float y = i == 0 ? -0.8 : (i == 1 ? -0.6 : 0.9);
    float w = float(i + 1);
    gl_Position = vec4(x * w, y * w, 0.5 * w, w);
    blk.a = vec3(i == 0 ? 1.0 : 0.0, i == 1 ? 1.0 : 0.0, i == 2 ? 1.0 : 0.0);
    blk.id = 3 * i + 5;
    blk.b = vec2(x, w * 0.25);
    blk.c = y * 0.5 + 0.5;
}
