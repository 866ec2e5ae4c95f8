#version 450
// Vertex attributes of several formats and input rates. Each triangle (three vertices) lands
// in its own 10 x 10 pixel cell: the cell's column from the per-vertex position, its row from
// a per-instance offset. The triangle's flat colour is one attribute, chosen by the triangle.
layout(location = 0) in vec2 pos;      // R32G32_SFLOAT, per vertex
layout(location = 1) in vec2 offset;   // R32G32_SFLOAT, per instance
layout(location = 2) in vec4 unorm;    // R8G8B8A8_UNORM
layout(location = 3) in vec4 snorm;    // R8G8_SNORM: (x, y, 0, 1)
layout(location = 4) in ivec4 sint;    // R16G16_SINT: (x, y, 0, 1)
layout(location = 5) in vec4 uscaled;  // R16G16B16A16_USCALED
layout(location = 6) in vec4 inst;     // R32G32B32A32_SFLOAT, per instance, divisor 2
layout(location = 7) in vec4 same;     // R32G32B32A32_SFLOAT, stride 0
layout(location = 8) in uvec4 first;   // R32_UINT, per instance, divisor 0: (x, 0, 0, 1)
layout(location = 0) flat out vec4 v;
void main() {
    gl_Position = vec4(pos + offset, 0.0, 1.0);
    int t = gl_VertexIndex / 3;
    switch (t % 8) {
    case 0: v = unorm; break;
    case 1: v = snorm; break;
    case 2: v = vec4(sint); break;
    case 3: v = uscaled; break;
    case 4: v = inst; break;
    case 5: v = same; break;
    case 6: v = vec4(first); break;
    default: v = vec4(gl_VertexIndex, gl_InstanceIndex, unorm.x, snorm.w); break;
    }
}
