#version 450
// Three colour targets, one of them integer.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out uvec4 o2;
void main() {
    o0 = vec4(color, 1.0);
    o1 = vec4(color.zyx * 2.0, 0.5);
    o2 = uvec4(gl_FragCoord.xy, 7u, 9u);
}
