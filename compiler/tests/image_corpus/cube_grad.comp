#version 450
// textureGrad on cube maps: the direction's gradient becomes the
// gradient of the selected face's coordinates by the quotient rule (Vulkan "Cube Map
// Derivative Transformation"). Nearest texels and mips; every lane's LOD is an integer and
// its face coordinates sit away from texel edges at every level, so the result is exact.
//! buf 0 0 zero 1024
//! image 0 1 float 16 16 1 6 5 frand
//! sampler 0 1 nearest mipnearest edge
//! isa image_sample_d
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 o[]; };
layout(set = 0, binding = 1) uniform samplerCube cube;

// The point (or gradient: the map is linear) with face-plane coordinates (a, b) = (sc, tc)
// and major-axis magnitude m on `face`, from Vulkan's cube face table.
vec3 on_face(uint face, float a, float b, float m) {
    switch (face) {
    case 0u: return vec3(m, -b, -a);
    case 1u: return vec3(-m, -b, a);
    case 2u: return vec3(a, m, b);
    case 3u: return vec3(a, -m, -b);
    case 4u: return vec3(a, -b, m);
    default: return vec3(-a, -b, -m);
    }
}

void main() {
    uint i = gl_LocalInvocationID.x;
    uint face = i % 6u;
    float lod = float((i / 6u) % 5u);
    uint variant = i / 30u;
    // (a, b) = (0.8, -0.8) with m = 2: s = 0.7, t = 0.3.
    vec3 r = on_face(face, 0.8, -0.8, 2.0);
    float k = exp2(lod);
    vec3 dx;
    vec3 dy = vec3(0.0);
    if (variant == 0u) {
        // Along sc only: ds = da / (2 m) = k / 16.
        dx = on_face(face, k / 4.0, 0.0, 0.0);
    } else if (variant == 1u) {
        // The major axis grows: ds = −0.1 dm, dt = 0.1 dm, length 16 · 0.1 √2 |dm| = k.
        dx = on_face(face, 0.0, 0.0, k / (1.6 * sqrt(2.0)));
    } else {
        // The major axis shrinks (dm = −1) while sc moves: dt = 0, ds = k / 16, in x; the
        // y gradient is half as long.
        dx = on_face(face, k / 4.0 - 0.4, 0.4, -1.0);
        dy = 0.5 * dx;
    }
    o[i] = textureGrad(cube, r, dx, dy);
}
