#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
// Indexing a buffer reference is OpPtrAccessChain: stride from the pointer type's ArrayStride.
//! global 0 framp 64
//! global 1 zero 64
//! push zero 4
//! pushaddr 0 0
//! pushaddr 8 1
layout(local_size_x = 8) in;
struct Item { vec2 p; float w; float pad; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ItemRef { Item it; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer FRef { float f; };
layout(push_constant) uniform P { ItemRef items; FRef out_; };
void main() {
    uint i = gl_LocalInvocationID.x;
    ItemRef r = items[i];
    out_[i].f = r.it.p.x * r.it.w + r.it.p.y;
    (out_ + 8)[i].f = items[7 - i].it.pad;
}
