#version 450
#extension GL_ARB_shader_draw_parameters : require
// gl_BaseVertex, gl_BaseInstance and gl_DrawID (flat), on color.vert's triangle.
layout(location = 0) out vec4 v;
void main() {
    int i = gl_VertexIndex - gl_BaseVertexARB;
    float x = i == 0 ? -0.8 : (i == 1 ? 0.9 : -0.5);
    float y = i == 0 ? -0.8 : (i == 1 ? -0.6 : 0.9);
    gl_Position = vec4(x, y, 0.5, 1.0);
    v = vec4(float(gl_BaseVertexARB), float(gl_BaseInstanceARB), float(gl_DrawIDARB),
             float(gl_InstanceIndex - gl_BaseInstanceARB));
}
