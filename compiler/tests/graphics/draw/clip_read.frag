#version 450
// The interpolated clip and cull distances clip.vert writes.
in float gl_ClipDistance[3];
in float gl_CullDistance[1];
layout(location = 0) out vec4 o;
void main() {
    o = vec4(gl_ClipDistance[0], gl_ClipDistance[1], gl_ClipDistance[2], gl_CullDistance[0]);
}
