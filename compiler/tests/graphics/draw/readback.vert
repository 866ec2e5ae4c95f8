#version 450
// Outputs read back: a dynamically indexed output array (its store keeps the other element by
// reading it back) and an output computed from the array's elements, the triangle of
// color.vert. readback.frag reads only `x`, so linking must keep what `x` reads.
layout(location = 0) out vec4 arr[2];
layout(location = 2) out vec4 x;
void main() {
    int i = gl_VertexIndex;
    float px = i == 0 ? -0.8 : (i == 1 ? 0.9 : -0.5);
    float py = i == 0 ? -0.8 : (i == 1 ? -0.6 : 0.9);
    float w = float(i + 1);
    gl_Position = vec4(px * w, py * w, 0.5 * w, w);
    arr[0] = vec4(0.5);
    arr[1] = vec4(0.25);
    arr[i % 2] = vec4(px, py, w, 1.0);
    x = arr[0] + arr[1] * 2.0;
}
