//! Float narrowing at the rounding edges: f64 → f16 rounded once to nearest even (through
//! f32 it would round twice: a value just off an f16 tie lands on the tie, then goes to even),
//! and `OpFConvert` decorated `FPRoundingMode RTZ` (finite values saturate at the largest
//! finite value instead of overflowing). Every expected value is worked out by hand from the
//! bit patterns; the interpreter and the simulator must both give it, with divergent and
//! uniform operands.

mod common;

use common::gpu::Gpu;
use common::spvgen::{run, Form, OpCase, Source, Ty};

fn is_nan(bits: u8, w: u64) -> bool {
    match bits {
        16 => w & 0x7c00 == 0x7c00 && w & 0x3ff != 0,
        32 => f32::from_bits(w as u32).is_nan(),
        _ => f64::from_bits(w).is_nan(),
    }
}

fn check(gpu: &Gpu, form: Form, from: u8, to: u8, rows: &[(u64, u64)]) -> Vec<String> {
    let case = OpCase { form, result: Ty::Float(to), operands: vec![Ty::Float(from)] };
    let inputs: Vec<Vec<u64>> = rows.iter().map(|&(x, _)| vec![x]).collect();
    let mut bad = Vec::new();
    for src in [Source::Divergent, Source::Uniform] {
        let (interp, sim) =
            run(gpu, &case, src, &inputs).unwrap_or_else(|e| panic!("{case:?}: {e}"));
        for (k, &(x, want)) in rows.iter().enumerate() {
            for (who, got) in [("interpreter", interp[k]), ("simulator", sim[k])] {
                if got != want && !(is_nan(to, want) && is_nan(to, got)) {
                    bad.push(format!(
                        "{form:?} f{from}->f{to} {src:?} {who}: {x:#x} -> {got:#x}, want {want:#x}"
                    ));
                }
            }
        }
    }
    bad
}

#[test]
fn f64_to_f16_rounds_once() {
    let gpu = Gpu::new();
    let bad = check(
        &gpu,
        Form::Core("FConvert"),
        64,
        16,
        &[
            // 1 + 2^-11 + 2^-40: just above the tie between 1 and 1 + 2^-10 (through f32:
            // the tie, then even: 1.0).
            (0x3ff0_0200_0000_1000, 0x3c01),
            // 1 + 2^-11: the tie itself, to even.
            (0x3ff0_0200_0000_0000, 0x3c00),
            // 1 + 3 * 2^-11 - 2^-40: just below the tie between 0x3c01 and 0x3c02.
            (0x3ff0_05ff_ffff_f000, 0x3c01),
            (0x3ff0_0600_0000_0000, 0x3c02),
            // 65520 is the tie between 65504 and the overflow: inf. Just below it stays
            // 65504 (through f32 it becomes 65520 first).
            (0x40ef_fe00_0000_0000, 0x7c00),
            (0x40ef_fdff_ffff_ffff, 0x7bff),
            (0xc0ef_fdff_ffff_ffff, 0xfbff),
            // 2^-25 is half the smallest denormal (tie, to zero); 2^-25 (1 + 2^-35) is above.
            (0x3e60_0000_0000_0000, 0),
            (0x3e60_0000_0002_0000, 0x0001),
            (0x8000_0000_0000_0000, 0x8000),
            (0x7ff0_0000_0000_0000, 0x7c00),
            (0x7ff8_0000_0000_0000, 0x7e00),
            // 1e300 and -1e-300.
            (0x7e37_e43c_8800_759c, 0x7c00),
            (0x81a5_6e1f_c2f8_f359, 0x8000),
        ],
    );
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn fconvert_toward_zero_truncates_and_saturates() {
    let gpu = Gpu::new();
    let rtz = Form::Rounded("FConvert", "RTZ");
    let mut bad = check(
        &gpu,
        rtz,
        32,
        16,
        &[
            // 65520 and 1e10 overflow to nearest, but toward zero they stay at 65504.
            (0x477f_f000, 0x7bff),
            (0x5015_02f9, 0x7bff),
            (0xd015_02f9, 0xfbff),
            (0x7f80_0000, 0x7c00),
            (0xff80_0000, 0xfc00),
            // 1 + 2^-11 and 1 + 1023 * 2^-10 + 2^-11: cut to 1 and to 0x3fff.
            (0x3f80_1000, 0x3c00),
            (0x3fff_e000, 0x3fff),
            (0xbfff_e000, 0xbfff),
            // 1.5 * 2^-24 and 2^-26: one smallest denormal and zero.
            (0x33c0_0000, 0x0001),
            (0x3280_0000, 0),
            (0x8000_0000, 0x8000),
            (0x7fc0_0000, 0x7e00),
        ],
    );
    bad.extend(check(
        &gpu,
        rtz,
        64,
        32,
        &[
            // 1 + 2^-24 + 2^-40 (nearest: 1 + 2^-23) and -(1 + 2^-23 + 2^-30).
            (0x3ff0_0000_1000_1000, 0x3f80_0000),
            (0xbff0_0000_2040_0000, 0xbf80_0001),
            // 1e300 and -1e300 saturate.
            (0x7e37_e43c_8800_759c, 0x7f7f_ffff),
            (0xfe37_e43c_8800_759c, 0xff7f_ffff),
            (0x7ff0_0000_0000_0000, 0x7f80_0000),
            // 2^-149 * (1.5 + 2^-11): one smallest denormal (nearest: two).
            (0x36a8_0200_0000_0000, 0x0000_0001),
            (0x3ff0_0000_0000_0000, 0x3f80_0000),
            (0x7ff8_0000_0000_0000, 0x7fc0_0000),
        ],
    ));
    bad.extend(check(
        &gpu,
        rtz,
        64,
        16,
        &[
            (0x40ef_fe00_0000_0000, 0x7bff),
            (0x3ff0_0200_0000_1000, 0x3c00),
            (0xfe37_e43c_8800_759c, 0xfbff),
            (0x3ff0_05ff_ffff_f000, 0x3c01),
        ],
    ));
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}
