#version 450
// A noperspective input (LINEAR_CENTER barycentrics) next to gl_FragCoord, whose VGPRs
// move up by two.
layout(location = 0) noperspective in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(color, gl_FragCoord.x);
}
