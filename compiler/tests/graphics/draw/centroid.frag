#version 450
// linear.frag with centroid qualifiers: the same code with one sample per pixel.
layout(location = 0) centroid noperspective in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(color, gl_FragCoord.x);
}
