#version 450
// 64-bit vertex attributes: a dvec3 over locations 0 and 1 (32-bit channels x.lo x.hi y.lo
// y.hi at location 0, z.lo z.hi at location 1) and a double at location 2; the flat colour
// takes differences only f64 holds (an f32 fetch would lose them).
layout(location = 0) in dvec3 p;
layout(location = 2) in double q;
layout(location = 3) in vec2 pos;
layout(location = 0) flat out vec4 v;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    v = vec4(float((p.x - 1.0) * 1099511627776.0), float((p.y - 3.0) * 34359738368.0),
             float(p.z + 1099511627776.0), float(q * 2.0));
}
