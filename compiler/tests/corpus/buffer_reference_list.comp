#version 450
#extension GL_EXT_buffer_reference : require
// A linked list in buffer-device-address memory: pointers loaded from memory.
//! global 0 zero 16
//! global 1 zero 4
//! globaladdr 0 0 0
//! push zero 4
//! pushaddr 0 0
//! pushaddr 8 1
layout(local_size_x = 1) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430) buffer Node { Node next; uint value; };
layout(buffer_reference, std430) buffer Out { uint total; uint hops; };
layout(push_constant) uniform P { Node head; Out o; };
void main() {
    // The node at global 0 points to itself; walk it a few times.
    Node n = head;
    n.value = 5u;
    uint t = 0u;
    for (uint k = 0u; k < 4u; k++) { t += n.value + k; n = n.next; }
    o.total = t;
    o.hops = 4u;
}
