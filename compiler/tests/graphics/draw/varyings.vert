#version 450
// Varyings of every 32-bit type packed into locations with `component`, an array indexed
// dynamically, a struct and a matrix; the triangle of color.vert.
struct S {
    vec3 p;
    float q;
};
layout(location = 0) out float a;
layout(location = 0, component = 1) out vec2 b;
layout(location = 0, component = 3) out float c;
layout(location = 1) out ivec2 i2;
layout(location = 1, component = 2) out uint u;
layout(location = 1, component = 3) out int j;
layout(location = 2) out vec4 arr[2];
layout(location = 4) out S s;
layout(location = 6) out mat2 m;
layout(location = 8) out vec3 np;
void main() {
    int i = gl_VertexIndex;
    float x = i == 0 ? -0.8 : (i == 1 ? 0.9 : -0.5);
    float y = i == 0 ? -0.8 : (i == 1 ? -0.6 : 0.9);
    float w = float(i + 1);
    gl_Position = vec4(x * w, y * w, 0.5 * w, w);
    a = float(i);
    b = vec2(x, y);
    c = w * 0.25;
    i2 = ivec2(i * 3 - 4, -i);
    u = uint(i) * 5u + 1u;
    j = 100 - i;
    arr[0] = vec4(0.0);
    arr[1] = vec4(1.0, 2.0, 3.0, 4.0);
    arr[i % 2] = vec4(x, y, w, 1.0);
    s.p = vec3(y, x, 0.5);
    s.q = x * y;
    m = mat2(x, 1.0, y, w);
    np = vec3(i == 0 ? 1.0 : 0.0, i == 1 ? 1.0 : 0.0, i == 2 ? 1.0 : 0.0);
}
