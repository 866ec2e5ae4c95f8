#version 450
// textureQueryLod at two scales of a 2x2 single-level texture: uv moving 2 per pixel is 4
// texels per pixel (computed level 2), uv moving 1/256 per pixel is 1/128 texel (level -7);
// the level accessed is clamped to the one level there is (0).
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(textureQueryLod(tex, gl_FragCoord.xy * 2.0), textureQueryLod(tex, gl_FragCoord.xy / 256.0));
}
