#version 450
// A fragment shader: combined and separate samplers, explicit LOD, fetch, discard.
layout(location = 0) in vec2 uv;
layout(location = 0, component = 2) in float depth;
layout(location = 1) in vec4 color;
layout(location = 2) flat in uint id;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(set = 0, binding = 2) uniform texture2D sep_tex;
layout(set = 0, binding = 3) uniform sampler samp;
layout(set = 0, binding = 4, rgba8) uniform readonly image2D img;
layout(location = 0) out vec4 frag;
layout(location = 1) out vec2 extra;
void main() {
    vec4 a = texture(tex, uv);
    vec4 b = textureLod(sampler2D(sep_tex, samp), uv * 2.0, 1.5);
    vec4 c = texelFetch(tex, ivec2(gl_FragCoord.xy), 0);
    vec4 d = imageLoad(img, ivec2(id & 7u, 0));
    ivec2 sz = textureSize(tex, 0) + imageSize(img);
    if (a.w < 0.01) discard;
    frag = (a + b + c + d) * color + vec4(float(sz.x), float(textureQueryLevels(tex)), depth, 0.0);
    extra.y = gl_FrontFacing ? 1.0 : 0.0;
}
