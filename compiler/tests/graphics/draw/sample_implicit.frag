#version 450
// Implicit-LOD sampling: the level comes from the quad differences of uv.
layout(location = 0) noperspective in vec3 color;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) out vec4 o;
void main() {
    o = texture(tex, color.xy * 8.0);
}
