#version 450
// Implicit-LOD sampling, minified: uv moves 2 per pixel over a 2-texel-wide texture (4 texels
// per pixel, LOD 2), so the MIN filter (bilinear) applies.
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) out vec4 o;
void main() {
    o = texture(tex, gl_FragCoord.xy * 2.0);
}
