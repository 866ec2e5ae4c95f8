#version 450
// 8- and 16-bit vectors at every alignment the layouts allow (scalar: 1 and 2 bytes; std430:
// 2, 4, 8), loaded from storage and uniform buffers, push constants and shared memory, with
// divergent and uniform addresses, and stored back at the same alignments.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 8) in;
//! buf 0 0 bytes 64
//! buf 0 1 zero 128
//! buf 0 2 bytes 64
//! buf 0 3 bytes 64
//! push bytes 32
layout(scalar, binding = 0) readonly buffer In {
    uint8_t pad;
    u8vec3 a3[8];   // stride 3, byte-aligned
    i8vec2 b2;      // offset 25
    u16vec3 c3[4];  // offset 28, stride 6
    uint8_t pad2;   // 52
    i16vec2 d2;     // 54
    f16vec2 h2;     // 58
};
layout(scalar, binding = 1) buffer Out {
    uint r[20];
    u8vec3 o3[8];   // 80, stride 3
    uint8_t opad;   // 104
    u16vec3 o6[2];  // 106, stride 6
};
layout(std140, binding = 2) uniform U {
    u8vec2 u2;      // 0
    u8vec4 u4;      // 4
    i16vec3 u6;     // 8
    u8vec3 u3[2];   // 16, stride 16
};
layout(std430, binding = 3) readonly buffer S430 {
    uint8_t q0;
    u8vec2 q2[3];   // 2, stride 2
    i16vec3 q6;     // 8
    u8vec4 q4;      // 16
    f16vec3 qh;     // 24
};
layout(push_constant, scalar) uniform P {
    uint8_t p0;
    u8vec3 p3;      // 1
    u16vec2 p2;     // 4
    uint8_t p5;     // 8
    u16vec3 p6;     // 10
};
shared u8vec3 s3[9];
shared u16vec3 s6[9];

uint sum(uvec4 v) { return v.x + (v.y << 8) + (v.z << 16) + (v.w << 24); }

void main() {
    uint i = gl_LocalInvocationID.x;
    uint j = (i + 3u) & 7u;
    uint x = sum(uvec4(a3[i], 7u)) ^ sum(uvec4(a3[3], 0u)) ^ uint(b2.y) * 3u;
    x += uint(c3[i & 3u].x) ^ (uint(c3[j & 3u].z) << 16) ^ uint(int(d2.x) + int(d2.y));
    x += sum(uvec4(u2, u4.zw)) ^ uint(u6.z) ^ sum(uvec4(u3[i & 1u], 1u)) ^ sum(uvec4(q2[i % 3u], q4.yw));
    x += uint(q6.x) ^ uint(q6.z) ^ uint(float(qh[i % 3u]) * 4.0) ^ uint(float(h2[i & 1u]) * 2.0);
    x ^= sum(uvec4(p3, p0)) ^ (uint(p2.y) << 8) ^ uint(p6[i % 3u]) ^ p5;
    r[i] = x;
    r[8u + i] = sum(uvec4(a3[5], b2.x)) ^ sum(uvec4(q2[1], q4.xz)) ^ uint(d2.y) ^ uint(u3[1].z);
    s3[i] = a3[j];
    s6[i] = u16vec3(c3[i & 3u].zyx);
    barrier();
    o3[i] = s3[j] + u8vec3(1);
    if (i < 2u) {
        o6[i] = s6[j] ^ u16vec3(p6.yzx);
    }
}
