#version 450
// switch with fallthrough, default and a while loop.
//! buf 0 0 zero 16
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer O { int o[]; };
void main() {
    int i = int(gl_LocalInvocationID.x);
    int r = 0;
    int k = i;
    while (k >= 0) {
        switch (k % 5) {
        case 0: r += 1;
        case 1: r += 10; break;
        case 3: r -= 7; break;
        default: r *= 2;
        }
        k -= 3;
    }
    o[i] = r;
}
