#version 450
// Per-sample reads of a multisampled input attachment: samples 0 and 3 at the fragment's
// pixel, and an integer input attachment beside it.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS ms;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform usubpassInput ids;
layout(location = 0) out vec4 o;
void main() {
    o = subpassLoad(ms, 0) + subpassLoad(ms, 3) + vec4(subpassLoad(ids));
}
