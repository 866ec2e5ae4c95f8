#version 450
#extension GL_EXT_multiview : require
// gl_ViewIndex in a fragment shader.
layout(location = 0) out vec4 o;
void main() {
    o = vec4(float(gl_ViewIndex), gl_FragCoord.xy, 1.0);
}
