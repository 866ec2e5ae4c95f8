#version 450
// An input attachment read at the fragment's pixel, swizzled so that a read of the wrong
// texel or channel order shows.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput inp;
layout(location = 0) out vec4 o;
void main() {
    o = subpassLoad(inp).wzyx;
}
