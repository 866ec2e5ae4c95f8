#version 450
// Implicit-LOD sampling, magnified: uv moves 1/256 per pixel (LOD -7), so the MAG filter
// (nearest) applies.
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) out vec4 o;
void main() {
    o = texture(tex, gl_FragCoord.xy / 256.0);
}
