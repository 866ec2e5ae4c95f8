#version 450
// Bitonic sort of 64 keys in shared memory.
//! buf 0 0 rand 64
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer K { uint keys[]; };
shared uint s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = keys[l];
    for (uint k = 2u; k <= 64u; k <<= 1) {
        for (uint j = k >> 1; j > 0u; j >>= 1) {
            barrier();
            uint p = l ^ j;
            uint a = s[l], b = s[p];
            barrier();
            bool up = (l & k) == 0u;
            if (p > l) s[l] = up ? min(a, b) : max(a, b);
            else s[l] = up ? max(a, b) : min(a, b);
        }
    }
    barrier();
    keys[l] = s[l];
}
