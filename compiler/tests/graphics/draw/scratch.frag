#version 450
// A per-pixel array too big for VGPRs (the scratch ring), filled from gl_FragCoord.y and read
// at indices from gl_FragCoord.x: every lane's private memory holds different values.
layout(location = 0) out vec4 o;
void main() {
    int x = int(gl_FragCoord.x);
    int y = int(gl_FragCoord.y);
    float t[24];
    for (int i = 0; i < 24; i++) {
        t[i] = float(i) / 64.0 + float(y) / 4.0;
    }
    o = vec4(t[x % 24], t[(x + y) % 24], 0.5, 1.0);
}
