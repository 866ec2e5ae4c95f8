#version 450
// gl_FragCoord and an input read only in part (.y of location 0).
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(gl_FragCoord.x / 128.0, gl_FragCoord.y / 128.0, gl_FragCoord.z, color.y);
}
