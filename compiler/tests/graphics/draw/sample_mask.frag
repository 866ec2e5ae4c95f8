#version 450
// gl_SampleMask with one sample per pixel: pixels with (x + y) % 4 == 0 export every bit but
// bit 0 (sample 0, the only one: dropped), the others only bit 0 (kept); gl_SampleMaskIn
// is the covered sample, 1.
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    gl_SampleMask[0] = (p.x + p.y) % 4 == 0 ? -2 : 1;
    o = vec4(float(gl_SampleMaskIn[0]), 0.5, 0.25, 1.0);
}
