//! The colour back end: every blend factor and equation (Vulkan's tables, evaluated here),
//! dual-source blending, constants, write masks, logic ops, colour formats with their
//! component swaps and sRGB, and the 16-bit export formats.

mod common;

use common::asm::{Asm, Op};
use common::gfx::*;
use ferrum_isa::Inst;
use ferrum_isa::Operand::{Literal, Vgpr};
use ferrum_regs::gfx103::*;

fn full_screen() -> Vec<ferrum_sim::gfx::SetupPrim> {
    vec![
        tri2([[0.0, 0.0], [64.0, 0.0], [0.0, 64.0]], 0.0),
        tri2([[64.0, 0.0], [64.0, 64.0], [0.0, 64.0]], 0.0),
    ]
}

/// A shader exporting `src` to MRT0 and `src1` to MRT1 (32_ABGR both).
fn dual_source_shader(s: &mut Scene, src: [f32; 4], src1: [f32; 4]) {
    let mut p = Asm::new();
    for i in 0..4u8 {
        p.vop1(Op::V_MOV_B32, Vgpr(4 + i), Literal(f(src[i as usize])));
        p.vop1(Op::V_MOV_B32, Vgpr(8 + i), Literal(f(src1[i as usize])));
    }
    p.i(Inst::Exp(ferrum_isa::Exp {
        target: 0,
        en: 0xf,
        src: [4, 5, 6, 7],
        compr: false,
        done: false,
        vm: false,
    }));
    export(&mut p, 1, [8, 9, 10, 11], false).endpgm();
    s.set(SPI_SHADER_COL_FORMAT, 9 | 9 << 4);
    s.shader(&mut p, 16);
}

fn fill_rgba32f(s: &Scene, d: [f32; 4]) {
    let b: Vec<u8> = d.iter().flat_map(|v| v.to_le_bytes()).collect();
    s.fill_color(&b);
}

/// Vulkan's blend factor table (VkBlendFactor), by the hardware's BlendOp numbering.
fn factor(f: u32, c: usize, s: [f32; 4], s1: [f32; 4], d: [f32; 4], k: [f32; 4]) -> f32 {
    match f {
        0 => 0.0,
        1 => 1.0,
        2 => s[c],
        3 => 1.0 - s[c],
        4 => s[3],
        5 => 1.0 - s[3],
        6 => d[3],
        7 => 1.0 - d[3],
        8 => d[c],
        9 => 1.0 - d[c],
        10 => {
            if c == 3 {
                1.0
            } else {
                s[3].min(1.0 - d[3])
            }
        }
        13 => k[c],
        14 => 1.0 - k[c],
        15 => s1[c],
        16 => 1.0 - s1[c],
        17 => s1[3],
        18 => 1.0 - s1[3],
        19 => k[3],
        20 => 1.0 - k[3],
        _ => unreachable!(),
    }
}

const S: [f32; 4] = [0.25, 0.5, 0.75, 0.375];
const S1: [f32; 4] = [0.125, 0.625, 0.875, 0.3125];
const D: [f32; 4] = [0.5, 0.25, 0.125, 0.6875];
const K: [f32; 4] = [0.0625, 0.9375, 0.4375, 0.8125];

fn blend_scene(control: u32) -> Scene {
    let mut s = Scene::new();
    dual_source_shader(&mut s, S, S1);
    fill_rgba32f(&s, D);
    for (r, v) in [CB_BLEND_RED, CB_BLEND_GREEN, CB_BLEND_BLUE, CB_BLEND_ALPHA].iter().zip(K) {
        s.set(*r, f(v));
    }
    s.set(CB_BLEND0_CONTROL, control | CB_BLEND0_CONTROL::ENABLE.val(1));
    s
}

#[test]
fn every_blend_factor_as_source_and_destination() {
    let factors = [0u32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16, 17, 18, 19, 20];
    for &fac in &factors {
        for as_src in [true, false] {
            let (sf, df) = if as_src { (fac, 1) } else { (1, fac) };
            let mut s = blend_scene(
                CB_BLEND0_CONTROL::COLOR_SRCBLEND.val(sf)
                    | CB_BLEND0_CONTROL::COLOR_DESTBLEND.val(df),
            );
            s.draw(full_screen()).unwrap();
            let got = s.rgba(5, 9);
            for c in 0..4 {
                let want = S[c] * factor(sf, c, S, S1, D, K) + D[c] * factor(df, c, S, S1, D, K);
                assert_eq!(
                    got[c],
                    want,
                    "factor {fac} as {} component {c}",
                    if as_src { "src" } else { "dst" }
                );
            }
        }
    }
}

#[test]
fn every_blend_equation_and_separate_alpha() {
    for func in 0..5u32 {
        let ctl = CB_BLEND0_CONTROL::COLOR_SRCBLEND.val(4)
            | CB_BLEND0_CONTROL::COLOR_DESTBLEND.val(5)
            | CB_BLEND0_CONTROL::COLOR_COMB_FCN.val(func)
            | CB_BLEND0_CONTROL::SEPARATE_ALPHA_BLEND.val(1)
            | CB_BLEND0_CONTROL::ALPHA_SRCBLEND.val(0)
            | CB_BLEND0_CONTROL::ALPHA_DESTBLEND.val(1)
            | CB_BLEND0_CONTROL::ALPHA_COMB_FCN.val(0);
        let mut s = blend_scene(ctl);
        s.draw(full_screen()).unwrap();
        let got = s.rgba(63, 63);
        for c in 0..3 {
            let (a, b) = (S[c] * S[3], D[c] * (1.0 - S[3]));
            let want = match func {
                0 => a + b,
                1 => a - b,
                2 => S[c].min(D[c]),
                3 => S[c].max(D[c]),
                _ => b - a,
            };
            assert_eq!(got[c], want, "func {func} component {c}");
        }
        assert_eq!(got[3], D[3], "alpha: 0 * As + 1 * Ad");
    }
}

#[test]
fn unorm_targets_clamp_and_round() {
    let mut s = Scene::new();
    s.target(10, 0, 0); // 8_8_8_8 UNORM RGBA
    let mut p = Asm::new();
    export_const(&mut p, [f(-0.5), f(0.5), f(1.5), f(0.25)]).endpgm();
    s.shader(&mut p, 8);
    s.draw(full_screen()).unwrap();
    assert_eq!(
        s.pixel_bytes(0, 0),
        vec![0, 128, 255, 64],
        "clamp; 127.5 -> 128 (even); 63.75 -> 64"
    );
}

#[test]
fn formats_swaps_and_srgb() {
    let c = [0.2f32, 0.4, 0.6, 0.8];
    let un = |v: f32, bits: u32| (v * ((1u32 << bits) - 1) as f32).round_ties_even() as u32;
    let srgb = |l: f32| {
        let l = l as f64;
        let e = if l <= 0.0031308 { 12.92 * l } else { 1.055 * l.powf(1.0 / 2.4) - 0.055 };
        (e * 255.0).round_ties_even() as u32
    };
    let cases: Vec<(u32, u32, u32, u32)> = vec![
        // (FORMAT, NUMBER_TYPE, COMP_SWAP, expected 32-bit word)
        (10, 0, 0, un(c[0], 8) | un(c[1], 8) << 8 | un(c[2], 8) << 16 | un(c[3], 8) << 24),
        (10, 0, 1, un(c[2], 8) | un(c[1], 8) << 8 | un(c[0], 8) << 16 | un(c[3], 8) << 24),
        (10, 6, 0, srgb(c[0]) | srgb(c[1]) << 8 | srgb(c[2]) << 16 | un(c[3], 8) << 24),
        (16, 0, 2, un(c[2], 5) | un(c[1], 6) << 5 | un(c[0], 5) << 11),
        (9, 0, 0, un(c[0], 10) | un(c[1], 10) << 10 | un(c[2], 10) << 20 | un(c[3], 2) << 30),
        (5, 7, 0, h16(c[0]) | h16(c[1]) << 16),
    ];
    for (format, number, swap, want) in cases {
        let mut s = Scene::new();
        s.target(format, number, swap);
        let mut p = Asm::new();
        export_const(&mut p, c.map(f)).endpgm();
        s.shader(&mut p, 8);
        s.draw(full_screen()).unwrap();
        let b = s.pixel_bytes(7, 7);
        let mut w = [0u8; 4];
        w[..b.len().min(4)].copy_from_slice(&b[..b.len().min(4)]);
        assert_eq!(u32::from_le_bytes(w), want, "format {format} number {number} swap {swap}");
    }
}

#[test]
fn write_masks_keep_masked_components() {
    let mut s = Scene::new();
    s.target(10, 0, 1); // BGRA8
    s.fill_color(&[1, 2, 3, 4]);
    s.set(CB_TARGET_MASK, 0b1010); // G and A
    let mut p = Asm::new();
    export_const(&mut p, [f(1.0); 4]).endpgm();
    s.shader(&mut p, 8);
    s.draw(full_screen()).unwrap();
    // Memory order B, G, R, A: B and R keep 1 and 3.
    assert_eq!(s.pixel_bytes(3, 3), vec![1, 255, 3, 255]);
}

#[test]
fn every_logic_op() {
    // VkLogicOp in order and its result for (s, d) bits, from the Vulkan spec table.
    type LogicOp = fn(u32, u32) -> u32;
    let ops: [(u32, LogicOp); 16] = [
        (0x00, |_, _| 0),
        (0x88, |s, d| s & d),
        (0x44, |s, d| s & !d),
        (0xcc, |s, _| s),
        (0x22, |s, d| !s & d),
        (0xaa, |_, d| d),
        (0x66, |s, d| s ^ d),
        (0xee, |s, d| s | d),
        (0x11, |s, d| !(s | d)),
        (0x99, |s, d| !(s ^ d)),
        (0x55, |_, d| !d),
        (0xdd, |s, d| s | !d),
        (0x33, |s, _| !s),
        (0xbb, |s, d| !s | d),
        (0x77, |s, d| !(s & d)),
        (0xff, |_, _| u32::MAX),
    ];
    let (src, dst) = (0x5a_c3_0f_f0u32, 0x33_55_ff_00u32);
    for (code, op) in ops {
        let mut s = Scene::new();
        s.target(4, 4, 0); // 32 UINT
        s.set(SPI_SHADER_COL_FORMAT, 1);
        s.set(CB_COLOR_CONTROL, CB_COLOR_CONTROL::MODE.val(1) | CB_COLOR_CONTROL::ROP3.val(code));
        s.fill_color(&dst.to_le_bytes());
        let mut p = Asm::new();
        p.vop1(Op::V_MOV_B32, Vgpr(4), Literal(src));
        export(&mut p, 0, [4, 0, 0, 0], false).endpgm();
        s.shader(&mut p, 8);
        s.draw(full_screen()).unwrap();
        let got = u32::from_le_bytes(s.pixel_bytes(1, 2).try_into().unwrap());
        assert_eq!(got, op(src, dst), "ROP3 {code:#x}");
    }
}

#[test]
fn sixteen_bit_export_formats_are_unpacked() {
    // FP16_ABGR: v4 = (g << 16) | r, v5 = (a << 16) | b, exported compressed.
    let h = h16;
    let mut s = Scene::new();
    s.set(SPI_SHADER_COL_FORMAT, 4);
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, Vgpr(4), Literal(h(0.5) | h(-2.0) << 16));
    p.vop1(Op::V_MOV_B32, Vgpr(5), Literal(h(65504.0) | h(0.25) << 16));
    export(&mut p, 0, [4, 5, 0, 0], true).endpgm();
    s.shader(&mut p, 8);
    s.draw(full_screen()).unwrap();
    assert_eq!(s.rgba(0, 0), [0.5, -2.0, 65504.0, 0.25]);
    // UNORM16_ABGR: 0xffff is 1.0, 0x8000 is 32768/65535.
    s.set(SPI_SHADER_COL_FORMAT, 5);
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, Vgpr(4), Literal(0xffff | 0x8000 << 16));
    p.vop1(Op::V_MOV_B32, Vgpr(5), Literal(0));
    export(&mut p, 0, [4, 5, 0, 0], true).endpgm();
    s.shader(&mut p, 8);
    s.draw(full_screen()).unwrap();
    assert_eq!(s.rgba(0, 0), [1.0, (32768.0f64 / 65535.0) as f32, 0.0, 0.0]);
}

#[test]
fn a_compr_mismatch_with_the_export_format_is_an_error() {
    let mut s = Scene::new();
    s.set(SPI_SHADER_COL_FORMAT, 4);
    let mut p = Asm::new();
    export_const(&mut p, [0; 4]).endpgm();
    s.shader(&mut p, 8);
    assert!(s.draw(full_screen()).is_err());
}

/// f32 to IEEE half for normal values, round to nearest even (written from the format's
/// definition: 1 sign, 5 exponent bits biased by 15, 10 mantissa bits).
fn h16(v: f32) -> u32 {
    let sign = if v < 0.0 { 0x8000 } else { 0 };
    let a = v.abs() as f64;
    let mut e = a.log2().floor() as i32;
    let mut m = (a / 2f64.powi(e) * 1024.0).round_ties_even() as u32;
    if m == 2048 {
        m = 1024;
        e += 1;
    }
    sign | ((e + 15) as u32) << 10 | (m - 1024)
}
