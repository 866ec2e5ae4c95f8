//! GLSL.std.450 Ldexp at the ends of each float format, with 8/16/32/64-bit exponents.
//! Every expected result is worked out by hand from the definition (x * 2^e, the exact product
//! rounded once to nearest even): denormal results and their ties, overflow to infinity,
//! exponents far beyond any format's range (a 64-bit exponent that a truncation to 32 bits
//! would turn into 1, a 32-bit one that a truncation to f16's 16-bit field would turn into 0),
//! signed zeros, infinities and NaNs. The interpreter, and the simulator running the compiled
//! shader with divergent and uniform operands, must all give them.

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

/// Runs ldexp on f`fbits` with i`ebits` exponents over `rows` of (x, e, want).
fn check(gpu: &Gpu, fbits: u8, ebits: u8, rows: &[(u64, i64, u64)]) -> Vec<String> {
    let case = OpCase {
        form: Form::Glsl("Ldexp"),
        result: Ty::Float(fbits),
        operands: vec![Ty::Float(fbits), Ty::Int(ebits)],
    };
    let inputs: Vec<Vec<u64>> = rows.iter().map(|&(x, e, _)| vec![x, e as u64]).collect();
    let mut bad = Vec::new();
    for src in [Source::Divergent, Source::Uniform] {
        let (interp, sim) =
            run(gpu, &case, src, &inputs).unwrap_or_else(|e| panic!("{case:?}: {e}"));
        for (k, &(x, e, want)) in rows.iter().enumerate() {
            for (who, got) in [("interpreter", interp[k]), ("simulator", sim[k])] {
                if got != want && !(is_nan(fbits, want) && is_nan(fbits, got)) {
                    bad.push(format!(
                        "f{fbits} i{ebits} {src:?} {who}: ldexp({x:#x}, {e}) = {got:#x}, want {want:#x}"
                    ));
                }
            }
        }
    }
    bad
}

const I32_MIN: i64 = i32::MIN as i64;
const I32_MAX: i64 = i32::MAX as i64;

#[test]
fn ldexp_f32_edges() {
    let gpu = Gpu::new();
    let mut bad = check(
        &gpu,
        32,
        32,
        &[
            (0x3f80_0000, 0, 0x3f80_0000),
            // 2^100 * 2^-150 = 2^-50, although 2^-150 itself is zero in f32.
            (0x7180_0000, -150, 0x2680_0000),
            // 2^-100 * 2^130 = 2^30, although 2^130 itself is infinite in f32.
            (0x0d80_0000, 130, 0x4e80_0000),
            (0x3f80_0000, 127, 0x7f00_0000),
            (0x3f80_0000, 128, 0x7f80_0000),
            (0xbf80_0000, 128, 0xff80_0000),
            (0x3f80_0000, -126, 0x0080_0000),
            (0x3f80_0000, -127, 0x0040_0000),
            (0x3f80_0000, -149, 0x0000_0001),
            // Half the smallest denormal: a tie, to even (zero).
            (0x3f80_0000, -150, 0),
            // 1.5 and 1.75 smallest denormals round to two, 1.25 to one.
            (0x3fc0_0000, -149, 0x0000_0002),
            (0xbfe0_0000, -149, 0x8000_0002),
            (0x3fa0_0000, -149, 0x0000_0001),
            (0x7f7f_ffff, 1, 0x7f80_0000),
            (0x7f7f_ffff, -1, 0x7eff_ffff),
            // Denormal inputs scale up exactly.
            (0x0000_0001, 149, 0x3f80_0000),
            (0x0000_0001, 200, 0x5900_0000),
            (0x0000_0003, 1, 0x0000_0006),
            (0x0000_0003, -1, 0x0000_0002),
            (0x0000_0000, 100, 0),
            (0x8000_0000, -100, 0x8000_0000),
            (0x7f80_0000, -1000, 0x7f80_0000),
            (0x7fc0_0000, 5, 0x7fc0_0000),
            (0x3f80_0000, I32_MAX, 0x7f80_0000),
            (0x3f80_0000, I32_MIN, 0),
            (0xbf80_0000, I32_MIN, 0x8000_0000),
            (0x0000_0001, I32_MAX, 0x7f80_0000),
            (0x7f7f_ffff, I32_MIN, 0),
        ],
    );
    bad.extend(check(
        &gpu,
        32,
        64,
        &[
            (0x3f80_0000, 1 << 40, 0x7f80_0000),
            (0x3f80_0000, -(1 << 40), 0),
            (0x3f80_0000, i64::MIN, 0),
            (0x3f80_0000, i64::MAX, 0x7f80_0000),
            // 2^32 + 1: truncated to 32 bits it would be 1 (giving 2.0).
            (0x3f80_0000, (1 << 32) + 1, 0x7f80_0000),
            (0x3f80_0000, -126, 0x0080_0000),
        ],
    ));
    bad.extend(check(
        &gpu,
        32,
        8,
        &[
            (0x3f80_0000, -128, 0x0020_0000),
            (0x3f80_0000, 127, 0x7f00_0000),
            (0x4000_0000, -1, 0x3f80_0000),
        ],
    ));
    bad.extend(check(
        &gpu,
        32,
        16,
        &[
            (0x3f80_0000, -32768, 0),
            (0x3f80_0000, 32767, 0x7f80_0000),
            (0x3f80_0000, -3, 0x3e00_0000),
        ],
    ));
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn ldexp_f64_edges() {
    let gpu = Gpu::new();
    const ONE: u64 = 0x3ff0_0000_0000_0000;
    const INF: u64 = 0x7ff0_0000_0000_0000;
    const MAX: u64 = 0x7fef_ffff_ffff_ffff;
    let mut bad = check(
        &gpu,
        64,
        32,
        &[
            (ONE, 1, 0x4000_0000_0000_0000),
            (ONE, 1023, 0x7fe0_0000_0000_0000),
            (ONE, 1024, INF),
            (ONE, -1022, 0x0010_0000_0000_0000),
            (0x0010_0000_0000_0000, -1, 0x0008_0000_0000_0000),
            (ONE, -1074, 1),
            // Half the smallest denormal: a tie, to even (zero).
            (ONE, -1075, 0),
            (0x3ff8_0000_0000_0000, -1074, 2),
            // -3 * 2^-1075 = -1.5 smallest denormals: a tie, to even (-2).
            (0xc008_0000_0000_0000, -1075, 0x8000_0000_0000_0002),
            (1, 1074, ONE),
            (1, 2097, 0x7fe0_0000_0000_0000),
            // (2 - 2^-52) * 2^-1074 rounds to two smallest denormals, half of it to one.
            (MAX, -2097, 2),
            (MAX, -2098, 1),
            (MAX, 1, INF),
            (MAX, -1, 0x7fdf_ffff_ffff_ffff),
            (0x8000_0000_0000_0000, 5, 0x8000_0000_0000_0000),
            (0xfff0_0000_0000_0000, -5, 0xfff0_0000_0000_0000),
            (0x7ff8_0000_0000_0000, 0, 0x7ff8_0000_0000_0000),
            (ONE, I32_MIN, 0),
            (ONE, I32_MAX, INF),
            (1, I32_MAX, INF),
            (MAX, I32_MIN, 0),
        ],
    );
    bad.extend(check(
        &gpu,
        64,
        64,
        &[
            (ONE, 1 << 40, INF),
            (ONE, (1 << 32) + 1, INF),
            (ONE, -(1 << 40), 0),
            (ONE, i64::MIN, 0),
            (ONE, -1022, 0x0010_0000_0000_0000),
            (ONE, 1023, 0x7fe0_0000_0000_0000),
        ],
    ));
    bad.extend(check(
        &gpu,
        64,
        8,
        &[(ONE, -128, 0x37f0_0000_0000_0000), (ONE, 127, 0x47e0_0000_0000_0000)],
    ));
    bad.extend(check(&gpu, 64, 16, &[(ONE, -32768, 0), (1, 1074, ONE)]));
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn ldexp_f16_edges() {
    let gpu = Gpu::new();
    let mut bad = check(
        &gpu,
        16,
        32,
        &[
            (0x3c00, 15, 0x7800),
            (0x3c00, 16, 0x7c00),
            (0x3c00, -14, 0x0400),
            (0x3c00, -24, 0x0001),
            // Half the smallest denormal: a tie, to even (zero).
            (0x3c00, -25, 0),
            (0x3e00, -24, 0x0002),
            (0x3d00, -24, 0x0001),
            (0x0001, 24, 0x3c00),
            (0x0001, 39, 0x7800),
            (0x8001, 1, 0x8002),
            (0x7bff, -1, 0x77ff),
            (0x7bff, 1, 0x7c00),
            // Exponents that 16 bits cannot hold: 65536 would be 0 and -65535 1 if truncated.
            (0x3c00, 65536, 0x7c00),
            (0x3c00, -65535, 0),
            (0x3c00, 40000, 0x7c00),
            (0x3c00, I32_MIN, 0),
            (0xbc00, I32_MIN, 0x8000),
            (0x0001, I32_MAX, 0x7c00),
            (0x8000, 3, 0x8000),
            (0xfc00, -3, 0xfc00),
            (0x7e00, 1, 0x7e00),
        ],
    );
    bad.extend(check(
        &gpu,
        16,
        16,
        &[(0x3c00, -32768, 0), (0x3c00, 32767, 0x7c00), (0x4000, -2, 0x3800)],
    ));
    bad.extend(check(&gpu, 16, 8, &[(0x3c00, -128, 0), (0x3c00, 3, 0x4800)]));
    bad.extend(check(&gpu, 16, 64, &[(0x3c00, (1 << 32) + 1, 0x7c00), (0x3c00, -(1 << 33), 0)]));
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}
