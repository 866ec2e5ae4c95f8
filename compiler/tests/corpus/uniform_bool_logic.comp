#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Uniform booleans from vector compares (a uniform value loaded into VGPRs) combined with
// not, ==, !=, ^^ and ?: and then branched on uniformly, in a wave whose upper lanes are off
// (one invocation, as dEQP-VK.binding_model.buffer_device_address.*.convertchecku64 runs):
// the lane mask of such a boolean must not turn on for the lanes that do not run.
//! buf 0 0 ramp 16
//! buf 0 1 zero 16
//! push ramp 4
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer I { uint64_t v[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
layout(push_constant, std430) uniform P { int identity[4]; } pc;
void main() {
    // a == b (both v[0]), c = v[1] differs, none is zero.
    uint64_t a = v[0], b = v[pc.identity[1] - 1], c = v[1], z = uint64_t(0);
    uint r = 0u;
    // "All equal" is false, so its negation is true.
    if (!(a == b && b == c && a == c)) r |= 1u;
    // A true conjunction negated is false.
    if (!(a == b && b != c)) r |= 2u;
    if (a == z || c == z) r |= 4u;
    // Boolean equality and inequality of two compares.
    bool p = a == b, q = c == z;
    if (p == q) r |= 8u;
    if (p != q) r |= 16u;
    if (p ^^ !q) r |= 32u;
    // A select between booleans, then negated.
    bool s = (c != z) ? q : p;
    if (!s) r |= 64u;
    if (s) r |= 128u;
    // The same through values, not branches.
    o[0] = r;
    o[1] = uint(!(a == b && b == c)) + 2u * uint(p == q) + 4u * uint(!s);
    o[2] = (!p) ? 7u : 9u;
}
