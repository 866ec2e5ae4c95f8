#version 450
// gl_FrontFacing (the FRONT_FACE input after POS_*) and gl_FragDepth (the mrtz export).
layout(location = 0) out vec4 o;
void main() {
    o = vec4(gl_FrontFacing ? 1.0 : 0.0, gl_FragCoord.xy, 1.0);
    gl_FragDepth = gl_FrontFacing ? gl_FragCoord.x / 128.0 : 0.75;
}
