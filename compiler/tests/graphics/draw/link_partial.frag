#version 450
// Reads a few of varyings.vert's outputs (a struct member's last component, two components
// of a noperspective vector, one flat packed component): a pipeline linking the two stages
// drops every other output of the vertex shader.
struct S {
    vec3 p;
    float q;
};
layout(location = 1, component = 2) flat in uint u;
layout(location = 4) in S s;
layout(location = 8) noperspective in vec3 np;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(s.q, np.x, np.z, float(u));
}
