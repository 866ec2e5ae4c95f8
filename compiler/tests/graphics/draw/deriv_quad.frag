#version 450
// Fine and coarse derivatives of p = x * y (gl_FragCoord): fine d/dx is the pixel's own row
// y, coarse d/dx the quad's top row; d/dy likewise with columns. Every value is exact in f32.
layout(location = 0) out vec4 o;
void main() {
    float p = gl_FragCoord.x * gl_FragCoord.y;
    o = vec4(dFdxFine(p), dFdyFine(p), dFdxCoarse(p), dFdyCoarse(p));
}
