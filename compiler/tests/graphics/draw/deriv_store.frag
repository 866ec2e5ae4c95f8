#version 450
// Whole-quad mode around a storage-buffer write: derivatives need helper lanes, the atomic
// must count only the covered pixels (exact mode).
layout(set = 0, binding = 0) buffer Counter { uint n; };
layout(location = 0) out vec4 o;
void main() {
    atomicAdd(n, 1u);
    o = vec4(dFdx(gl_FragCoord.x * gl_FragCoord.x), 0.0, 0.0, 1.0);
}
