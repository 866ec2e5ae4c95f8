#version 450
#extension GL_ARB_shader_stencil_export : require
// gl_FragStencilRefARB (VK_EXT_shader_stencil_export): mrtz's second register, with depth
// in the first (SPI_SHADER_Z_FORMAT 32_GR).
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(color, 1.0);
    gl_FragStencilRefARB = int(color.r * 255.0) ^ int(gl_FragCoord.x);
    gl_FragDepth = color.g;
}
