#version 450
// The input side of block_members.vert: member locations and per-member interpolation
// (flat, noperspective, centroid) must match the vertex stage's by location.
layout(location = 0) in Block {
    layout(location = 3) vec3 a;
    flat int id;
    layout(location = 1) noperspective vec2 b;
    layout(location = 2, component = 1) centroid float c;
} blk;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(blk.a.x + blk.b.x, blk.a.y * blk.c, blk.b.y + blk.a.z, float(blk.id) / 16.0);
}
