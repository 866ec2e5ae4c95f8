//! `OpQuantizeToF16` and `OpFRem` at their edges, expected values worked out by hand from the
//! SPIR-V definitions: QuantizeToF16 rounds to the nearest f16 (ties to even), overflows to
//! infinity, keeps infinities and NaN, and gives ±0 for a magnitude below f16's smallest
//! normal (2^-14); FRem is Vulkan's x - y * trunc(x / y) (the sign of x). The interpreter and
//! the simulator must both give them, with divergent and uniform operands.

mod common;

use common::gpu::Gpu;
use common::spvgen::{run, Form, OpCase, Source, Ty};

/// Expected results: a bit pattern, any NaN, or a zero of either sign.
#[derive(Clone, Copy)]
enum Want {
    Bits(u32),
    Nan,
    Zero,
}

fn check(gpu: &Gpu, op: &'static str, rows: &[(Vec<u32>, Want)]) -> Vec<String> {
    let n = rows[0].0.len();
    let case =
        OpCase { form: Form::Core(op), result: Ty::Float(32), operands: vec![Ty::Float(32); n] };
    let inputs: Vec<Vec<u64>> =
        rows.iter().map(|(x, _)| x.iter().map(|&w| u64::from(w)).collect()).collect();
    let mut bad = Vec::new();
    for src in [Source::Divergent, Source::Uniform] {
        let (interp, sim) =
            run(gpu, &case, src, &inputs).unwrap_or_else(|e| panic!("{case:?}: {e}"));
        for (k, (x, want)) in rows.iter().enumerate() {
            for (who, got) in [("interpreter", interp[k]), ("simulator", sim[k])] {
                let got = got as u32;
                let ok = match *want {
                    Want::Bits(w) => got == w,
                    Want::Nan => f32::from_bits(got).is_nan(),
                    Want::Zero => got & 0x7fff_ffff == 0,
                };
                if !ok {
                    bad.push(format!("{op} {src:?} {who}: {x:x?} -> {got:#x}"));
                }
            }
        }
    }
    bad
}

#[test]
fn quantize_to_f16_rounds_saturates_and_flushes() {
    use Want::*;
    let rows = [
        (0x3f80_0000, Bits(0x3f80_0000)), // 1
        (0x3f80_1000, Bits(0x3f80_0000)), // 1 + 2^-11: the tie, to even (1)
        (0x3f80_3000, Bits(0x3f80_4000)), // 1 + 3 * 2^-11: the tie, to even (1 + 2^-9)
        (0x3f80_1001, Bits(0x3f80_2000)), // just above the tie: up
        (0x477f_e000, Bits(0x477f_e000)), // 65504, the largest f16
        (0x477f_efff, Bits(0x477f_e000)), // just below 65520: down to 65504
        (0x477f_f000, Bits(0x7f80_0000)), // 65520: the tie with overflow, to infinity
        (0xd01502f9, Bits(0xff80_0000)),  // -1e10: -infinity
        (0x7f80_0000, Bits(0x7f80_0000)), // +inf
        (0xff80_0000, Bits(0xff80_0000)), // -inf
        (0x7fc0_0000, Nan),
        (0xffa0_0001, Nan),
        (0x3880_0000, Bits(0x3880_0000)), // 2^-14, the smallest normal f16
        (0xb880_0000, Bits(0xb880_0000)), // -2^-14
        (0x387f_e000, Bits(0x3880_0000)), // 2^-14 - 2^-25: a tie, to even (2^-14)
        (0x387f_c000, Zero),              // 2^-14 - 2^-24: an f16 denormal
        (0x3800_0000, Zero),              // 2^-15
        (0xb800_0000, Zero),              // -2^-15
        (0x0000_0001, Zero),              // the smallest f32 denormal
        (0x0000_0000, Zero),
        (0x8000_0000, Zero),
    ];
    let rows: Vec<(Vec<u32>, Want)> = rows.iter().map(|&(x, w)| (vec![x], w)).collect();
    let bad = check(&Gpu::new(), "QuantizeToF16", &rows);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn frem_takes_the_sign_of_the_dividend() {
    use Want::*;
    let f = |x: f32| x.to_bits();
    let rows = [
        (5.5, 2.0, Bits(f(1.5))),
        (-5.5, 2.0, Bits(f(-1.5))),
        (5.5, -2.0, Bits(f(1.5))),
        (-5.5, -2.0, Bits(f(-1.5))),
        (7.0, 2.5, Bits(f(2.0))),
        (100.0, 7.0, Bits(f(2.0))),
        (-100.0, 7.0, Bits(f(-2.0))),
        (0.75, 2.0, Bits(f(0.75))), // |x| < |y|: x itself
        (-0.75, 2.0, Bits(f(-0.75))),
        (6.0, 3.0, Zero),
        (16_777_218.0, 3.0, Zero),         // 2^24 + 2 = 3 * 5,592,406
        (16_777_216.0, 7.0, Bits(f(1.0))), // 2^24 = 7 * 2,396,745 + 1
        (f32::NAN, 2.0, Nan),
        (2.0, f32::NAN, Nan),
        (f32::INFINITY, 2.0, Nan),
    ];
    let rows: Vec<(Vec<u32>, Want)> = rows.iter().map(|&(x, y, w)| (vec![f(x), f(y)], w)).collect();
    let bad = check(&Gpu::new(), "FRem", &rows);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
