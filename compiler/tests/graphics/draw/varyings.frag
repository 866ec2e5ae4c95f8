#version 450
// Reads varyings.vert's outputs: packed components, flat integers, a dynamically indexed
// array, a struct, a matrix and a noperspective vector, folded into one colour.
struct S {
    vec3 p;
    float q;
};
layout(location = 0) in float a;
layout(location = 0, component = 1) in vec2 b;
layout(location = 0, component = 3) in float c;
layout(location = 1) flat in ivec2 i2;
layout(location = 1, component = 2) flat in uint u;
layout(location = 1, component = 3) flat in int j;
layout(location = 2) in vec4 arr[2];
layout(location = 4) in S s;
layout(location = 6) in mat2 m;
layout(location = 8) noperspective in vec3 np;
layout(location = 0) out vec4 o;
void main() {
    int k = int(gl_FragCoord.x) % 2;
    o = vec4(a + b.x * c, float(i2.x + i2.y) + float(u) * 0.5 + float(j),
             arr[k].y + s.p.x * s.q + m[1][0], np.x + np.z * 0.5 + arr[1 - k].w);
}
