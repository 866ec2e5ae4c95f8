#version 450
// Mandelbrot set in 4.12 fixed point: integer arithmetic only, so every conforming driver
// produces the same bytes. One invocation per pixel, RGBA8 out.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Image { uint pixels[]; };
layout(push_constant) uniform View {
    uint width;
    uint height;
    int x0;        // left edge, 4.12
    int y0;        // top edge, 4.12
    int step;      // 4.12 per pixel
    uint max_iter;
};

const int ONE = 4096;

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= width || p.y >= height) return;
    int cx = x0 + int(p.x) * step;
    int cy = y0 + int(p.y) * step;
    int zx = 0;
    int zy = 0;
    uint n = 0u;
    while (n < max_iter) {
        int xx = (zx * zx) >> 12;
        int yy = (zy * zy) >> 12;
        if (xx + yy > 4 * ONE) break;
        int xy = (zx * zy) >> 12;
        zx = xx - yy + cx;
        zy = 2 * xy + cy;
        n++;
    }
    uint r = 0u, g = 0u, b = 0u;
    if (n < max_iter) {
        r = (n * 9u) & 255u;
        g = (n * 5u + 40u) & 255u;
        b = (255u - n * 3u) & 255u;
    }
    pixels[p.y * width + p.x] = r | (g << 8) | (b << 16) | (255u << 24);
}
