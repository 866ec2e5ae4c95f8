#version 450
// Discards on every invocation's path (conditional kills in straight-line code) around one
// in a divergent branch (a kill block), in whole-quad mode (a derivative taken before them):
// the colour is stored between the kills, and an output component written in a branch.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    float d = dFdxFine(color.y);
    if (color.x > 0.6) {
        discard;
    }
    o = vec4(color, 1.0);
    if (color.y < 0.2) {
        o.w = d * 16.0;
        if (color.z > 0.7) {
            discard;
        }
    }
    if (color.x + color.y < 0.3) {
        discard;
    }
}
