#version 450
// Derivatives of noperspective (screen-affine) inputs: the constant screen gradients.
layout(location = 0) noperspective in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(dFdx(color.x), dFdy(color.x), fwidth(color.y), dFdx(gl_FragCoord.x));
}
