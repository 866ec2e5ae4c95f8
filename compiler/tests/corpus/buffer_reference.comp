#version 450
#extension GL_EXT_buffer_reference : require
// Buffer device addresses from push constants: load, store, atomics through 64-bit pointers.
//! groups 2 1 1
//! global 0 framp 64
//! global 1 zero 64
//! push zero 4
//! pushaddr 0 0
//! pushaddr 8 1
layout(local_size_x = 16) in;
layout(buffer_reference, std430) buffer In { float v[]; };
layout(buffer_reference, std430) buffer Out { uint count; float v[]; };
layout(push_constant) uniform P { In src; Out dst; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    dst.v[i] = src.v[i] * 3.0;
    atomicAdd(dst.count, 1u);
}
