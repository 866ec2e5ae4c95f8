//! VK_KHR_shader_subgroup_extended_types through the loader, validation layer on: subgroup
//! arithmetic, broadcast and shuffle on 8-, 16- and 64-bit integers, f16 and f64 (scalars
//! and vectors) in a compute shader, on Ferrum and on lavapipe. Every invocation writes its
//! subgroup and invocation id beside the results, so the expected values are computed on the
//! host from the spec's definitions for whatever subgroup size the driver has (Ferrum's 32,
//! lavapipe's 4 to 16): sums wrap at the type's width, minimum and maximum follow its
//! signedness, and the f16/f64 values are small multiples of 1/4, so every sum is exact in
//! any order.

use std::collections::BTreeMap;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::run_with_one_buffer;
use ferrum_tests::shaders::glsl_spirv_for;
use ferrum_tests::{entry_with_lavapipe, Harness};

/// A multiple of every subgroup size of both drivers, so no subgroup is partial.
const WORKGROUP: u32 = 64;
const WORKGROUPS: u32 = 2;
/// Result words per invocation.
const WORDS: usize = 16;

const SHADER: &str = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint b = g * 16u;
    uint id = gl_SubgroupInvocationID;
    int8_t c = int8_t(int(g * 37u % 256u) - 128);
    uint8_t uc = uint8_t(g * 91u + 7u);
    int16_t h = int16_t(int(g * 5003u % 65536u) - 32768);
    float16_t f = float16_t(float(int(g % 29u) - 14) * 0.25);
    int64_t l = int64_t(g) * -3000000000l + 0x123456789l;
    double d = double(int(g % 23u) - 11) * 0.25;
    o[b + 0u] = gl_SubgroupID << 16 | id;
    o[b + 1u] = uint(uint8_t(subgroupAdd(c))) | uint(uint8_t(subgroupMin(c))) << 8
        | uint(uint8_t(subgroupMax(c))) << 16 | uint(subgroupExclusiveAdd(uc)) << 24;
    o[b + 2u] = uint(subgroupMax(uc)) | uint(subgroupShuffleXor(uc, 1u)) << 8
        | uint(uint8_t(subgroupBroadcastFirst(c))) << 16 | uint(subgroupBroadcast(uc, 1u)) << 24;
    o[b + 3u] = uint(uint16_t(subgroupAdd(h))) | uint(uint16_t(subgroupInclusiveMin(h))) << 16;
    i16vec2 hv = subgroupMax(i16vec2(h, -h));
    o[b + 4u] = uint(uint16_t(hv.x)) | uint(uint16_t(hv.y)) << 16;
    o[b + 5u] = uint(float16BitsToUint16(subgroupAdd(f)))
        | uint(float16BitsToUint16(subgroupInclusiveMax(f))) << 16;
    f16vec3 fv = subgroupExclusiveAdd(f16vec3(f, -f, f * 2.0hf));
    o[b + 6u] = uint(float16BitsToUint16(fv.x)) | uint(float16BitsToUint16(fv.z)) << 16;
    o[b + 7u] = uint(float16BitsToUint16(subgroupShuffle(f, id ^ 3u)));
    uint64_t s = uint64_t(subgroupAdd(l));
    o[b + 8u] = uint(s);
    o[b + 9u] = uint(s >> 32);
    uint64_t m = uint64_t(subgroupMin(l));
    o[b + 10u] = uint(m);
    o[b + 11u] = uint(m >> 32);
    uvec2 fd = unpackDouble2x32(subgroupAdd(d));
    o[b + 12u] = fd.x;
    o[b + 13u] = fd.y;
    uvec2 fe = unpackDouble2x32(subgroupExclusiveMin(d));
    o[b + 14u] = fe.x;
    o[b + 15u] = fe.y;
}
";

/// The per-invocation inputs, as the shader builds them from the global index `g`.
struct Inputs {
    c: i8,
    uc: u8,
    h: i16,
    f: f64,
    l: i64,
    d: f64,
}

fn inputs(g: u32) -> Inputs {
    Inputs {
        c: ((g * 37 % 256) as i32 - 128) as i8,
        uc: (g.wrapping_mul(91).wrapping_add(7)) as u8,
        h: ((g * 5003 % 65536) as i32 - 32768) as i16,
        f: f64::from((g % 29) as i32 - 14) * 0.25,
        l: i64::from(g).wrapping_mul(-3_000_000_000).wrapping_add(0x1_2345_6789),
        d: f64::from((g % 23) as i32 - 11) * 0.25,
    }
}

/// The f16 bits of `v`, a multiple of 1/4 well inside f16's normal range, or +0 (no sum
/// below can be -0: no term is).
fn f16_bits(v: f64) -> u32 {
    if v == 0.0 {
        return 0;
    }
    let (sign, a) = (u32::from(v < 0.0) << 15, v.abs());
    let e = a.log2().floor() as i32;
    let mantissa = ((a / 2f64.powi(e) - 1.0) * 1024.0) as u32;
    sign | ((e + 15) as u32) << 10 | mantissa
}

fn low_high(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// The expected words of invocation `me` (global index) in a subgroup whose members, by
/// invocation id, are the global indices `members`.
fn expected(me: u32, members: &[u32]) -> [u32; WORDS] {
    let all: Vec<Inputs> = members.iter().map(|&g| inputs(g)).collect();
    let pos = members.iter().position(|&g| g == me).unwrap();
    let before = &all[..pos];
    let upto = &all[..=pos];
    let b8 = |v: i8| u32::from(v as u8);
    let b16 = |v: i16| u32::from(v as u16);
    let add8 = all.iter().fold(0i8, |a, x| a.wrapping_add(x.c));
    let min8 = all.iter().map(|x| x.c).min().unwrap();
    let max8 = all.iter().map(|x| x.c).max().unwrap();
    let exadd_u8 = before.iter().fold(0u8, |a, x| a.wrapping_add(x.uc));
    let maxu8 = all.iter().map(|x| x.uc).max().unwrap();
    let shuffled = all[pos ^ 1].uc;
    let add16 = all.iter().fold(0i16, |a, x| a.wrapping_add(x.h));
    let inmin16 = upto.iter().map(|x| x.h).min().unwrap();
    let maxh = all.iter().map(|x| x.h).max().unwrap();
    let maxneg = all.iter().map(|x| x.h.wrapping_neg()).max().unwrap();
    let addf: f64 = all.iter().map(|x| x.f).sum();
    let inmaxf = upto.iter().map(|x| x.f).fold(f64::NEG_INFINITY, f64::max);
    // Exclusive add of the first invocation is the identity, +0.
    let exf: f64 = before.iter().map(|x| x.f).sum();
    let shuffle_f = all[pos ^ 3].f;
    let addl = all.iter().fold(0i64, |a, x| a.wrapping_add(x.l));
    let minl = all.iter().map(|x| x.l).min().unwrap();
    let addd: f64 = all.iter().map(|x| x.d).sum();
    // Exclusive min of the first invocation is the identity, +inf.
    let exmind = before.iter().map(|x| x.d).fold(f64::INFINITY, f64::min);
    let [s0, s1] = low_high(addl as u64);
    let [m0, m1] = low_high(minl as u64);
    let [d0, d1] = low_high(addd.to_bits());
    let [e0, e1] = low_high(exmind.to_bits());
    [
        pos as u32, // patched with the subgroup id by the caller
        b8(add8) | b8(min8) << 8 | b8(max8) << 16 | u32::from(exadd_u8) << 24,
        u32::from(maxu8)
            | u32::from(shuffled) << 8
            | b8(all[0].c) << 16
            | u32::from(all[1].uc) << 24,
        b16(add16) | b16(inmin16) << 16,
        b16(maxh) | b16(maxneg) << 16,
        f16_bits(addf) | f16_bits(inmaxf) << 16,
        f16_bits(exf) | f16_bits(before.iter().map(|x| x.f * 2.0).sum()) << 16,
        f16_bits(shuffle_f),
        s0,
        s1,
        m0,
        m1,
        d0,
        d1,
        e0,
        e1,
    ]
}

/// Runs the shader on `pd` with the extended-types feature and everything its types need.
fn run(h: &Harness, pd: vk::PhysicalDevice) -> Vec<u32> {
    let mut ext = vk::PhysicalDeviceShaderSubgroupExtendedTypesFeatures::default()
        .shader_subgroup_extended_types(true);
    let mut f16 = vk::PhysicalDeviceShaderFloat16Int8Features::default()
        .shader_float16(true)
        .shader_int8(true);
    let core = vk::PhysicalDeviceFeatures::default()
        .shader_int16(true)
        .shader_int64(true)
        .shader_float64(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .features(core)
        .push_next(&mut ext)
        .push_next(&mut f16);
    let exts = [c"VK_KHR_shader_subgroup_extended_types", c"VK_KHR_shader_float16_int8"];
    let gpu = Gpu::with_feature_chain(&h.instance, pd, 0, &exts, &mut f2);
    let code = glsl_spirv_for(SHADER, "comp", "vulkan1.1");
    run_with_one_buffer(
        &gpu,
        &code,
        WORKGROUPS,
        u64::from(WORKGROUP * WORKGROUPS) * WORDS as u64 * 4,
    )
}

/// Compares `words` with the expected values of subgroups of `size` lanes; the number of
/// invocations that differ, with the first few described.
fn check(words: &[u32], size: u32) -> Result<(), String> {
    let at = |g: u32| &words[g as usize * WORDS..(g as usize + 1) * WORDS];
    let mut errors = Vec::new();
    for wg in 0..WORKGROUPS {
        // (subgroup id) -> members by invocation id.
        let mut groups: BTreeMap<u32, BTreeMap<u32, u32>> = BTreeMap::new();
        for g in wg * WORKGROUP..(wg + 1) * WORKGROUP {
            let (sg, id) = (at(g)[0] >> 16, at(g)[0] & 0xffff);
            if id >= size || groups.entry(sg).or_default().insert(id, g).is_some() {
                return Err(format!("invocation {g}: subgroup {sg} id {id} (size {size})"));
            }
        }
        for members in groups.values() {
            if members.len() != size as usize {
                return Err(format!("a subgroup of {} lanes, size {size}", members.len()));
            }
            let members: Vec<u32> = members.values().copied().collect();
            for &g in &members {
                let mut want = expected(g, &members);
                want[0] = at(g)[0];
                if at(g) != want {
                    errors.push(format!("invocation {g}: got {:08x?}\n  want {want:08x?}", at(g)));
                }
            }
        }
    }
    match errors.len() {
        0 => Ok(()),
        n => Err(format!("{n} invocations differ:\n{}", errors[..n.min(4)].join("\n"))),
    }
}

fn supported(h: &Harness, pd: vk::PhysicalDevice) -> (bool, u32) {
    let mut ext = vk::PhysicalDeviceShaderSubgroupExtendedTypesFeatures::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut ext);
    // SAFETY: a live physical device and a valid output chain.
    unsafe { h.instance.get_physical_device_features2(pd, &mut f2) };
    let on = ext.shader_subgroup_extended_types == vk::TRUE;
    let mut sg = vk::PhysicalDeviceSubgroupProperties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut sg);
    // SAFETY: as above.
    unsafe { h.instance.get_physical_device_properties2(pd, &mut p2) };
    let ops = vk::SubgroupFeatureFlags::ARITHMETIC
        | vk::SubgroupFeatureFlags::BALLOT
        | vk::SubgroupFeatureFlags::SHUFFLE;
    (on && sg.supported_operations.contains(ops), sg.subgroup_size)
}

#[test]
fn subgroup_operations_on_extended_types_match_the_spec_on_ferrum_and_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        let (on, size) = supported(&h, pd);
        assert!(on, "{name} lacks shaderSubgroupExtendedTypes or a class the test uses");
        let words = run(&h, pd);
        check(&words, size).unwrap_or_else(|e| panic!("{name} (subgroup size {size}): {e}"));
    }
    h.assert_clean();
}
