//! Edges of three instructions the conformance suite caught: OpConvertSToF/OpConvertUToF from
//! 64-bit (and 8/16-bit) integers to every float width, f16 and f32 OpFDiv with zero and
//! infinite operands and denormal results, and 8/16/64-bit OpSMulExtended/OpUMulExtended. The
//! expected values are computed here (Rust's integer-to-float casts round once to nearest
//! even; products in i128) or written out by hand; the interpreter and the simulator must both
//! give them, with divergent and uniform operands.

mod common;

use common::gpu::Gpu;
use common::spvgen::{run, Form, OpCase, Source, Ty};

const SOURCES: [Source; 2] = [Source::Divergent, Source::Uniform];

fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The low `bits` of `v` as a signed or unsigned integer.
fn value(v: u64, bits: u8, signed: bool) -> i128 {
    let v = v & mask(bits);
    if signed && bits < 128 && v >> (bits - 1) & 1 == 1 {
        i128::from(v) - (1i128 << bits)
    } else {
        i128::from(v)
    }
}

fn is_nan(bits: u8, w: u64) -> bool {
    match bits {
        16 => w & 0x7c00 == 0x7c00 && w & 0x3ff != 0,
        32 => f32::from_bits(w as u32).is_nan(),
        _ => f64::from_bits(w).is_nan(),
    }
}

/// Runs `case` on `inputs` and checks both the interpreter and the simulator against
/// `want` (any NaN matches a NaN).
fn check(gpu: &Gpu, case: &OpCase, inputs: &[Vec<u64>], want: &[u64]) -> Vec<String> {
    let mut bad = Vec::new();
    for src in SOURCES {
        let (interp, sim) = run(gpu, case, src, inputs).unwrap_or_else(|e| panic!("{case:?}: {e}"));
        for (k, w) in want.iter().enumerate() {
            for (who, got) in [("interpreter", interp[k]), ("simulator", sim[k])] {
                let bits = case.result.bits();
                let nan = matches!(case.result, Ty::Float(_)) && is_nan(bits, *w);
                if got != *w && !(nan && is_nan(bits, got)) {
                    bad.push(format!(
                        "{:?} {src:?} {who}: {:x?} -> {got:#x}, want {w:#x}",
                        case.form, inputs[k]
                    ));
                }
            }
        }
    }
    bad
}

/// Integers at the rounding edges of f32 and f16 and at the ends of each width.
fn conversion_inputs() -> Vec<u64> {
    vec![
        0,
        1,
        u64::MAX,
        i64::MAX as u64,
        i64::MIN as u64,
        (1 << 60) + (1 << 36),
        (1 << 60) + (1 << 36) + 1,
        (1 << 60) + 3 * (1 << 36),
        (1 << 24) + 1,
        (1 << 24) + 3,
        (1 << 32) - 1,
        1 << 32,
        (1 << 32) + 1,
        2049,
        2051,
        65504,
        65519,
        65520,
        0x8000_0000_0000_0001,
        0x7f,
        0x80,
        0xff,
        0x7fff,
        0x8000,
        0xffff,
        0xdead_beef_0123_4567,
    ]
}

#[test]
fn integer_to_float_conversions_round_once_to_nearest_even() {
    let gpu = Gpu::new();
    let inputs: Vec<Vec<u64>> = conversion_inputs().into_iter().map(|v| vec![v]).collect();
    let mut bad = Vec::new();
    for (op, signed) in [("ConvertSToF", true), ("ConvertUToF", false)] {
        for sbits in [64, 16, 8] {
            for dbits in [32, 64] {
                let case = OpCase {
                    form: Form::Core(op),
                    result: Ty::Float(dbits),
                    operands: vec![Ty::Int(sbits)],
                };
                let want: Vec<u64> = inputs
                    .iter()
                    .map(|v| {
                        let n = value(v[0], sbits, signed);
                        match dbits {
                            32 => u64::from((n as f32).to_bits()),
                            _ => (n as f64).to_bits(),
                        }
                    })
                    .collect();
                bad.extend(check(&gpu, &case, &inputs, &want));
            }
        }
    }
    bad.truncate(30);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Hand-computed f32 results of the 64-bit edges (independent of the host's casts).
#[test]
fn int64_to_f32_edges_by_hand() {
    let gpu = Gpu::new();
    let table: [(u64, u64, u64); 8] = [
        // (input, signed result, unsigned result)
        (i64::MAX as u64, 0x5f00_0000, 0x5f00_0000),
        (i64::MIN as u64, 0xdf00_0000, 0x5f00_0000),
        (u64::MAX, 0xbf80_0000, 0x5f80_0000),
        // 2^60 + half an ulp: a tie, to even (down); one more: up; three halves: tie, up.
        ((1 << 60) + (1 << 36), 0x5d80_0000, 0x5d80_0000),
        ((1 << 60) + (1 << 36) + 1, 0x5d80_0001, 0x5d80_0001),
        ((1 << 60) + 3 * (1 << 36), 0x5d80_0002, 0x5d80_0002),
        ((1 << 24) + 1, 0x4b80_0000, 0x4b80_0000),
        ((1 << 24) + 3, 0x4b80_0002, 0x4b80_0002),
    ];
    let inputs: Vec<Vec<u64>> = table.iter().map(|t| vec![t.0]).collect();
    let mut bad = Vec::new();
    for (op, signed) in [("ConvertSToF", true), ("ConvertUToF", false)] {
        let case =
            OpCase { form: Form::Core(op), result: Ty::Float(32), operands: vec![Ty::Int(64)] };
        let want: Vec<u64> = table.iter().map(|t| if signed { t.1 } else { t.2 }).collect();
        bad.extend(check(&gpu, &case, &inputs, &want));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// 64-bit integers to f16, by hand: ties to even at 2049 and 2051, the largest finite value,
/// the first value that overflows, and both ends of the 64-bit ranges.
#[test]
fn int64_to_f16_edges_by_hand() {
    let gpu = Gpu::new();
    let table: [(u64, u64, u64); 9] = [
        (0, 0, 0),
        (1, 0x3c00, 0x3c00),
        (u64::MAX, 0xbc00, 0x7c00),
        (2049, 0x6800, 0x6800),
        (2051, 0x6802, 0x6802),
        (65519, 0x7bff, 0x7bff),
        (65520, 0x7c00, 0x7c00),
        (i64::MAX as u64, 0x7c00, 0x7c00),
        (i64::MIN as u64, 0xfc00, 0x7c00),
    ];
    let inputs: Vec<Vec<u64>> = table.iter().map(|t| vec![t.0]).collect();
    let mut bad = Vec::new();
    for (op, signed) in [("ConvertSToF", true), ("ConvertUToF", false)] {
        let case =
            OpCase { form: Form::Core(op), result: Ty::Float(16), operands: vec![Ty::Int(64)] };
        let want: Vec<u64> = table.iter().map(|t| if signed { t.1 } else { t.2 }).collect();
        bad.extend(check(&gpu, &case, &inputs, &want));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// f16 division by hand: finite over ±inf is a signed zero, inf/inf and 0/0 are NaN, x/±0 a
/// signed infinity, and denormal quotients round to nearest even.
#[test]
fn f16_division_edges_by_hand() {
    let gpu = Gpu::new();
    let table: [(u64, u64, u64); 14] = [
        (0x6ff4, 0x8000, 0xfc00),
        (0x0000, 0x7c00, 0x0000),
        (0x8000, 0x7c00, 0x8000),
        (0x3c00, 0x7c00, 0x0000),
        (0xbc00, 0x7c00, 0x8000),
        (0x7bff, 0xfc00, 0x8000),
        (0x0401, 0x7c00, 0x0000),
        (0x7c00, 0x7c00, 0x7e00),
        (0x0000, 0x0000, 0x7e00),
        (0x7c00, 0x3c00, 0x7c00),
        (0x3c00, 0x4200, 0x3555),
        (0x3c00, 0x0001, 0x7c00),
        // 2^-24 / 2 is a tie between 0 and 2^-24 (to 0); 3·2^-24 / 2 a tie between 1 and 2
        // (to 2).
        (0x0001, 0x4000, 0x0000),
        (0x0003, 0x4000, 0x0002),
    ];
    let case = OpCase {
        form: Form::Core("FDiv"),
        result: Ty::Float(16),
        operands: vec![Ty::Float(16), Ty::Float(16)],
    };
    let inputs: Vec<Vec<u64>> = table.iter().map(|t| vec![t.0, t.1]).collect();
    let want: Vec<u64> = table.iter().map(|t| t.2).collect();
    let bad = check(&gpu, &case, &inputs, &want);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// f32 division with zero and infinite operands against the host's IEEE division.
#[test]
fn f32_division_by_zero_and_infinity() {
    let gpu = Gpu::new();
    let vals =
        [1.0f32, -3.5, f32::MAX, f32::MIN_POSITIVE, 0.0, -0.0, f32::INFINITY, -f32::INFINITY];
    let mut inputs = Vec::new();
    let mut want = Vec::new();
    for &x in &vals {
        for &y in &vals {
            inputs.push(vec![u64::from(x.to_bits()), u64::from(y.to_bits())]);
            want.push(u64::from((x / y).to_bits()));
        }
    }
    let case = OpCase {
        form: Form::Core("FDiv"),
        result: Ty::Float(32),
        operands: vec![Ty::Float(32), Ty::Float(32)],
    };
    let bad = check(&gpu, &case, &inputs, &want);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Division at the ends of the exponent range against the host's IEEE division, f32 and f64:
/// denormal denominators (whose reciprocal overflows), denominators whose reciprocal is
/// denormal, tiny numerators, quotients that overflow or are denormal or round to zero.
#[test]
fn division_at_the_exponent_ends() {
    let gpu = Gpu::new();
    let mut bad = Vec::new();
    let f32s = [
        1.0f32,
        -3.0,
        0.1,
        1e-30,
        -1e30,
        2f32.powi(-110),
        2f32.powi(127),
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0003),
        f32::from_bits(0x007f_ffff),
        f32::from_bits(0x0040_0001),
        0.0,
        f32::INFINITY,
    ];
    let f64s = [
        1.0f64,
        -3.0,
        0.1,
        1e-300,
        -1e300,
        2f64.powi(-1000),
        2f64.powi(1023),
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::from_bits(0x8000_0000_0000_0003),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        0.0,
        f64::NEG_INFINITY,
    ];
    let grid = |vals: &[u64], div: &dyn Fn(u64, u64) -> u64| {
        let mut inputs = Vec::new();
        let mut want = Vec::new();
        for &x in vals {
            for &y in vals {
                inputs.push(vec![x, y]);
                want.push(div(x, y));
            }
        }
        (inputs, want)
    };
    let b32: Vec<u64> = f32s.iter().map(|x| u64::from(x.to_bits())).collect();
    let b64: Vec<u64> = f64s.iter().map(|x| x.to_bits()).collect();
    let div32 = |x: u64, y: u64| {
        let q = f32::from_bits(x as u32) / f32::from_bits(y as u32);
        u64::from(q.to_bits())
    };
    let div64 = |x: u64, y: u64| (f64::from_bits(x) / f64::from_bits(y)).to_bits();
    for (bits, vals, div) in [(32u8, &b32, &div32 as &dyn Fn(u64, u64) -> u64), (64, &b64, &div64)]
    {
        let (inputs, want) = grid(vals, div);
        let case = OpCase {
            form: Form::Core("FDiv"),
            result: Ty::Float(bits),
            operands: vec![Ty::Float(bits), Ty::Float(bits)],
        };
        bad.extend(check(&gpu, &case, &inputs, &want));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Both halves of OpSMulExtended and OpUMulExtended on 8-, 16- and 64-bit integers.
#[test]
fn mul_extended_halves() {
    let gpu = Gpu::new();
    let mut bad = Vec::new();
    for bits in [8u8, 16, 64] {
        let m = mask(bits);
        let vals = [0, 1, m, 1 << (bits - 1), m >> 1, 0x5a & m, 0xa5c3_0123_4567_89ab & m, 3];
        let inputs: Vec<Vec<u64>> =
            vals.iter().flat_map(|&x| vals.iter().map(move |&y| vec![x, y])).collect();
        for (op, signed) in [("SMulExtended", true), ("UMulExtended", false)] {
            for member in [0u32, 1] {
                let case = OpCase {
                    form: Form::Member(op, member),
                    result: Ty::Int(bits),
                    operands: vec![Ty::Int(bits), Ty::Int(bits)],
                };
                let want: Vec<u64> = inputs
                    .iter()
                    .map(|v| {
                        let p = value(v[0], bits, signed).wrapping_mul(value(v[1], bits, signed));
                        ((p >> (u32::from(bits) * member)) as u64) & m
                    })
                    .collect();
                bad.extend(check(&gpu, &case, &inputs, &want));
            }
        }
    }
    bad.truncate(30);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// OpConvertFToS/OpConvertFToU to 64 bits from f64 and f32 against Rust's casts (which
/// truncate, saturate out-of-range values and give 0 for NaN, as the IR's reference does), and
/// from f16 by hand.
#[test]
fn float_to_int64_conversions_truncate_and_saturate() {
    let gpu = Gpu::new();
    let f64s = [
        0.0,
        -0.0,
        0.999,
        -0.999,
        -1.5,
        1234.75,
        4294967295.5,
        4294967296.0,
        -4294967297.0,
        9007199254740993.0,
        9.223372036854775e18,
        -9.223372036854776e18,
        (u64::MAX - 2047) as f64,
        1.8446744073709552e19,
        1e30,
        -1e30,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let mut bad = Vec::new();
    for (op, signed) in [("ConvertFToS", true), ("ConvertFToU", false)] {
        for sbits in [64u8, 32] {
            let case = OpCase {
                form: Form::Core(op),
                result: Ty::Int(64),
                operands: vec![Ty::Float(sbits)],
            };
            let inputs: Vec<Vec<u64>> = f64s
                .iter()
                .map(|&f| {
                    vec![if sbits == 64 { f.to_bits() } else { u64::from((f as f32).to_bits()) }]
                })
                .collect();
            let want: Vec<u64> = f64s
                .iter()
                .map(|&f| {
                    let f = if sbits == 64 { f } else { f64::from(f as f32) };
                    if signed {
                        f as i64 as u64
                    } else {
                        f as u64
                    }
                })
                .collect();
            bad.extend(check(&gpu, &case, &inputs, &want));
        }
        // f16: 65504, -65504, 1234 (0x64d2), -0.5, inf, NaN.
        let table: [(u64, u64, u64); 6] = [
            (0x7bff, 65504, 65504),
            (0xfbff, (-65504i64) as u64, 0),
            (0x64d2, 1234, 1234),
            (0xb800, 0, 0),
            (0x7c00, i64::MAX as u64, u64::MAX),
            (0x7e00, 0, 0),
        ];
        let case =
            OpCase { form: Form::Core(op), result: Ty::Int(64), operands: vec![Ty::Float(16)] };
        let inputs: Vec<Vec<u64>> = table.iter().map(|t| vec![t.0]).collect();
        let want: Vec<u64> = table.iter().map(|t| if signed { t.1 } else { t.2 }).collect();
        bad.extend(check(&gpu, &case, &inputs, &want));
    }
    bad.truncate(30);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
