#version 450
// discard (OpKill) and an output component overwritten in divergent control flow.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    if (color.x > color.y) {
        discard;
    }
    o = vec4(color, 1.0);
    if (color.z > 0.5) {
        o.w = 0.25;
    }
}
