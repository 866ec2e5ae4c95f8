//! f32 and f16 OpFDiv in the fast form (`spirv/fast_div.rs`: x * frcp(y), `v_rcp` and `v_mul`):
//! a table of results computed by hand (zeros, infinities, NaN, denormal divisors and
//! quotients, 1/3 and 5/3, huge over huge), the spec's bound (2.5 ULP for |y| in [2^-126,
//! 2^126]; the fast form's error is at most about 1 ULP) against the host's correctly rounded
//! division on pseudo-random operands, and which execution modes keep the exact sequence. The
//! interpreter and the simulator must agree bit for bit everywhere.

mod common;

use common::gpu::Gpu;
use common::spvgen::{assemble, module_in_modes, run, Form, OpCase, Source, Ty};
use ferrum_compiler::{amd, ir::Stage};

fn fdiv(bits: u8) -> OpCase {
    OpCase {
        form: Form::Core("FDiv"),
        result: Ty::Float(bits),
        operands: vec![Ty::Float(bits), Ty::Float(bits)],
    }
}

fn is_nan(bits: u8, w: u64) -> bool {
    if bits == 16 {
        w & 0x7c00 == 0x7c00 && w & 0x3ff != 0
    } else {
        f32::from_bits(w as u32).is_nan()
    }
}

/// Runs `x / y` for each table row, divergent and uniform, and checks both the interpreter
/// and the simulator against the row's result (any NaN matches a NaN).
fn check_table(bits: u8, table: &[(u64, u64, u64)]) {
    let gpu = Gpu::new();
    let inputs: Vec<Vec<u64>> = table.iter().map(|t| vec![t.0, t.1]).collect();
    let mut bad = Vec::new();
    for src in [Source::Divergent, Source::Uniform] {
        let (interp, sim) = run(&gpu, &fdiv(bits), src, &inputs).unwrap();
        for (k, &(x, y, w)) in table.iter().enumerate() {
            for (who, got) in [("interpreter", interp[k]), ("simulator", sim[k])] {
                if got != w && !(is_nan(bits, w) && is_nan(bits, got)) {
                    bad.push(format!("{src:?} {who}: {x:#x} / {y:#x} = {got:#x}, want {w:#x}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn f32_fast_division_edges_by_hand() {
    check_table(
        32,
        &[
            (0x3f80_0000, 0x4040_0000, 0x3eaa_aaab), // 1/3: RN(1/3), as exact division
            (0x40a0_0000, 0x4040_0000, 0x3fd5_5556), // 5/3: 5 * RN(1/3), 1 ulp above RN(5/3)
            (0x0000_0000, 0x0000_0000, 0x7fc0_0000), // 0/0 = 0 * inf: NaN
            (0x8000_0000, 0x3f80_0000, 0x8000_0000), // -0/1 = -0
            (0x3f80_0000, 0x8000_0000, 0xff80_0000), // 1/-0 = 1 * -inf
            (0x0000_0000, 0x7f80_0000, 0x0000_0000), // 0/inf = 0 * 0
            (0xbf80_0000, 0x7f80_0000, 0x8000_0000), // -1/inf = -0
            (0x7f80_0000, 0x7f80_0000, 0x7fc0_0000), // inf/inf = inf * 0: NaN
            (0x7f80_0000, 0xc000_0000, 0xff80_0000), // inf/-2 = -inf
            (0x7fc0_0000, 0x3f80_0000, 0x7fc0_0000), // NaN/1
            (0x3f80_0000, 0x7fc0_0000, 0x7fc0_0000), // 1/NaN
            // 2^126/2^126: the range's end, reciprocal 2^-126 exact.
            (0x7e80_0000, 0x7e80_0000, 0x3f80_0000),
            // MAX/MAX, outside the range: RN(1/MAX) = 2^-128 (denormal), MAX * 2^-128 = 1 - 2^-24.
            (0x7f7f_ffff, 0x7f7f_ffff, 0x3f7f_ffff),
            // A denormal divisor 2^-127 (outside the range): the reciprocal 2^127 as the
            // simulator's v_rcp_f32 computes it with denormals preserved.
            (0x3f80_0000, 0x0040_0000, 0x7f00_0000),
            (0x3f80_0000, 0x0000_0001, 0x7f80_0000), // 1/2^-149: the reciprocal overflows
            (0x0080_0000, 0x4080_0000, 0x0020_0000), // 2^-126/4 = 2^-128, a denormal quotient
            (0x0000_0003, 0x4040_0000, 0x0000_0001), // 3·2^-149 / 3 rounds to 2^-149
            (0xc2c8_0000, 0x4120_0000, 0xc120_0000), // -100/10 = -100 * RN(0.1): -10 exactly
        ],
    );
}

#[test]
fn f16_fast_division_edges_by_hand() {
    check_table(
        16,
        &[
            (0x3c00, 0x4200, 0x3555), // 1/3
            (0x4500, 0x4200, 0x3eaa), // 5/3: 5 * 0x3555 = 1706.25 ulps, 1 below RN(5/3) = 0x3eab
            (0x0000, 0x0000, 0x7e00), // 0/0
            (0x3c00, 0x8000, 0xfc00), // 1/-0
            (0xbc00, 0x7c00, 0x8000), // -1/inf
            (0x7c00, 0x7c00, 0x7e00), // inf/inf
            (0x7bff, 0x7bff, 0x3bff), // 65504/65504: RN(1/65504) = 2^-16 (denormal), 1 - 2^-11
            (0x3c00, 0x0001, 0x7c00), // 1/2^-24: the reciprocal overflows
            (0x0003, 0x4000, 0x0002), // 3·2^-24 / 2: a tie, to even
        ],
    );
}

/// Pseudo-random operands whose divisor lies in the spec's range and whose quotient is a
/// normal f32: the fast form is within 2 ulps of the correctly rounded quotient (so within
/// the spec's 2.5 ULP of the exact one), interpreter and simulator identical.
#[test]
fn f32_fast_division_is_within_the_spec_bound() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut inputs = Vec::new();
    while inputs.len() < 2048 {
        let (x, y) = (next() as u32 & 0xbfff_ffff, next() as u32 & 0xbfff_ffff);
        let (xf, yf) = (f32::from_bits(x ^ 0x2000_0000), f32::from_bits(y ^ 0x2000_0000));
        let q = xf / yf;
        let y_in_range = (2f32.powi(-126)..=2f32.powi(126)).contains(&yf.abs());
        if y_in_range && q.is_normal() {
            inputs.push(vec![u64::from(xf.to_bits()), u64::from(yf.to_bits())]);
        }
    }
    let gpu = Gpu::new();
    let (interp, sim) = run(&gpu, &fdiv(32), Source::Divergent, &inputs).unwrap();
    assert_eq!(interp, sim, "interpreter and simulator differ");
    let mut worst = 0i64;
    for (k, op) in inputs.iter().enumerate() {
        let exact = f32::from_bits(op[0] as u32) / f32::from_bits(op[1] as u32);
        let ordered =
            |b: u32| if b >> 31 == 1 { -i64::from(b & 0x7fff_ffff) } else { i64::from(b) };
        let d = (ordered(sim[k] as u32) - ordered(exact.to_bits())).abs();
        assert!(d <= 2, "{:#x} / {:#x}: {:#x}, exact {:#x}", op[0], op[1], sim[k], exact.to_bits());
        worst = worst.max(d);
    }
    assert!(worst >= 1, "no operand pair shows the fast form at all");
}

/// Which execution modes keep the exact sequence: DenormPreserve 32 (v_rcp_f32 would flush a
/// denormal divisor) and RoundingModeRTZ 32; with none or DenormFlushToZero 32 it is
/// `v_rcp_f32` and `v_mul_f32`. f16 takes `v_rcp_f16` under every mode.
#[test]
fn execution_modes_choose_the_division() {
    let isa = |bits: u8, modes: &[(&str, u32)]| {
        let text = module_in_modes(&fdiv(bits), Source::Divergent, 32, modes);
        let words = assemble(&text, &format!("fdiv-modes-{bits}-{}", modes.len()));
        let ir =
            ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
                .unwrap();
        amd::compile(&ir, &amd::default_layout(&ir)).unwrap().isa_text
    };
    for (modes, exact) in [
        (&[][..], false),
        (&[("DenormFlushToZero", 32)][..], false),
        (&[("DenormPreserve", 32)][..], true),
        (&[("RoundingModeRTZ", 32)][..], true),
        (&[("DenormPreserve", 16)][..], false),
    ] {
        let t = isa(32, modes);
        assert_eq!(t.contains("v_div_scale_f32"), exact, "{modes:?}\n{t}");
        assert!(t.contains("v_rcp_f32"), "{modes:?}\n{t}");
        if !exact {
            assert!(!t.contains("v_div_fixup"), "{modes:?}\n{t}");
        }
    }
    let t = isa(16, &[("DenormPreserve", 16)]);
    assert!(t.contains("v_rcp_f16") && !t.contains("v_div_scale"), "{t}");
}
