#version 450
// gl_SampleID and gl_SamplePosition (the shader runs per sample).
layout(location = 0) out vec4 o;
void main() {
    o = vec4(float(gl_SampleID), gl_SamplePosition, gl_FragCoord.x);
}
