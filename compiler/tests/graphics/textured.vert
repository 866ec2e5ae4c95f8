#version 450
// A vertex shader: matrices from a UBO, several outputs with component packing.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 color;
layout(set = 0, binding = 0) uniform Camera { mat4 mvp; vec4 tint; } cam;
layout(location = 0) out vec2 out_uv;
layout(location = 0, component = 2) out float out_depth;
layout(location = 1) out vec4 out_color;
layout(location = 2) flat out uint out_id;
void main() {
    gl_Position = cam.mvp * vec4(pos, 1.0);
    out_uv = uv;
    out_depth = gl_Position.z;
    out_color = color * cam.tint;
    out_id = uint(gl_VertexIndex) + uint(gl_InstanceIndex) * 1000u;
}
