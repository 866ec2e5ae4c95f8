#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// Demote pixels with (x + 2y) % 3 == 0 to helpers, then take derivatives: the demoted lanes
// still run, so fine derivatives of p = x * y stay exact in their quads; and helper status
// (helperInvocationEXT, gl_HelperInvocation) reaches the live neighbours through dFdx/dFdy.
layout(location = 0) out vec4 o;
void main() {
    ivec2 i = ivec2(gl_FragCoord.xy);
    if ((i.x + 2 * i.y) % 3 == 0) {
        demote;
    }
    float p = gl_FragCoord.x * gl_FragCoord.y;
    float h = helperInvocationEXT() ? 1.0 : 0.0;
    float g = gl_HelperInvocation ? 1.0 : 0.0;
    o = vec4(dFdxFine(p), dFdyFine(p), dFdxFine(h), dFdyFine(g));
}
