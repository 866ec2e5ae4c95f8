//! The division helpers `v_div_scale`, `v_div_fmas` and `v_div_fixup` (f32 and f64).
//!
//! A compiler divides n / d as: d' = div_scale(d, d, n); n', VCC = div_scale(n, d, n);
//! Newton–Raphson on d' and n'; div_fmas (the last correction, which undoes the scaling where
//! VCC says only one operand was scaled); div_fixup(q, d, n) for the special operands.
//! div_scale follows the ISA guide's definition: when the denominator is denormal or the
//! numerator tiny, both operands are scaled by 2^64 (2^128 for f64) and the quotient does not
//! change; when the quotient would overflow or be denormal, only one of them is scaled and VCC
//! asks div_fmas to scale the result back. Two details of the guide's text are not taken
//! literally, because they contradict the scheme they belong to:
//! - Its "1/d and n/d both denormal" branch scales a denominator above 2^126 *up* by 2^64,
//!   which overflows it; the RDNA3 guide evaluates that test in f64, where it can never hold
//!   for f32. It is left out: such operands reach the "n/d denormal" branch instead.
//! - It gives div_fmas's scale as a fixed 2^32 (2^64 for f64), which undoes neither scaling.
//!   Here it is the inverse of div_scale's: 2^64 when the scaled quotient is large (only the
//!   denominator was scaled up), 2^-64 when it is small (only the numerator was).

use super::valu_ops::{f64r, f64v, map3, Out, F32};
use super::wave::{Wide, LANES, R};

/// Parameters of one format: exponent-field width, mantissa bits, the scale exponent and the
/// guide's thresholds.
struct Fmt {
    /// Biased exponent of a finite value's field (0 for zeros and denormals).
    exp: fn(f64) -> i32,
    /// Smallest normal magnitude.
    min_normal: f64,
    /// Largest magnitude whose reciprocal is still normal.
    rcp_normal_max: f64,
    /// Scale exponent (64 or 128).
    scale: i32,
    /// "n / d near the largest finite value" when exp(n) - exp(d) reaches this.
    big_gap: i32,
    /// "Numerator tiny" at or below this biased exponent.
    tiny_num: i32,
}

const F32_FMT: Fmt = Fmt {
    exp: |x| ((x as f32).to_bits() >> 23 & 0xff) as i32,
    min_normal: f32::MIN_POSITIVE as f64,
    rcp_normal_max: 8.507_059_173_023_462e37, // 2^126
    scale: 64,
    big_gap: 96,
    tiny_num: 23,
};

const F64_FMT: Fmt = Fmt {
    exp: |x| (x.to_bits() >> 52 & 0x7ff) as i32,
    min_normal: f64::MIN_POSITIVE,
    rcp_normal_max: 4.494_232_837_155_79e307, // 2^1022
    scale: 128,
    big_gap: 768,
    tiny_num: 53,
};

/// `v_div_scale(s0, d, n)`: the scaled s0 (in f64, exact for both formats) and the VCC bit.
fn scale(fmt: &Fmt, s0: f64, d: f64, n: f64) -> (f64, bool) {
    let up = |x: f64| x * 2f64.powi(fmt.scale);
    if n == 0.0 || d == 0.0 {
        return (f64::NAN, false);
    }
    let (ed, en) = ((fmt.exp)(d), (fmt.exp)(n));
    let q = (n / d).abs();
    if en - ed >= fmt.big_gap {
        // The quotient is near or past the largest value: the denominator alone goes up.
        (if s0 == d { up(s0) } else { s0 }, true)
    } else if d.abs() < fmt.min_normal {
        (up(s0), false)
    } else if d.abs() > fmt.rcp_normal_max {
        // 1/d would be denormal: both go down, and the quotient does not change.
        (s0 * 2f64.powi(-fmt.scale), false)
    } else if q > 0.0 && q < fmt.min_normal {
        // A denormal quotient: the numerator alone goes up, so that the steps stay normal.
        (if s0 == n { up(s0) } else { s0 }, true)
    } else if en <= fmt.tiny_num {
        (up(s0), false)
    } else {
        (s0, false)
    }
}

/// div_fmas's scale for a lane whose VCC bit is set: the inverse of the one-sided scaling,
/// told apart by the scaled quotient's magnitude (far above 2 or far below it).
fn fmas_scale(fmt: &Fmt, q: f64) -> f64 {
    2f64.powi(if q.abs() >= 2.0 { fmt.scale } else { -fmt.scale })
}

/// div_scale, div_fmas and div_fixup; `None` for any other opcode.
pub(super) fn eval(
    op: ferrum_isa::Opcode,
    f: F32,
    vcc: u32,
    s: &[Wide; 3],
    out: &mut Wide,
) -> Option<R<Out>> {
    use ferrum_isa::Opcode as O;
    let (a, b, c) = (&s[0], &s[1], &s[2]);
    let g = |x: u64| f.get(x) as f64;
    Some(match op {
        O::V_DIV_SCALE_F32 | O::V_DIV_SCALE_F64 => {
            let wide = op == O::V_DIV_SCALE_F64;
            let mut carry = 0u32;
            for l in 0..LANES {
                let (r, bit) = if wide {
                    let (r, bit) = scale(&F64_FMT, f64v(a[l]), f64v(b[l]), f64v(c[l]));
                    (f64r(r), bit)
                } else {
                    let (r, bit) = scale(&F32_FMT, g(a[l]), g(b[l]), g(c[l]));
                    (f.put(r as f32), bit)
                };
                out[l] = r;
                carry |= u32::from(bit) << l;
            }
            Ok(Out::Vector { carry: Some(carry) })
        }
        O::V_DIV_FMAS_F32 => {
            for l in 0..LANES {
                out[l] = if vcc >> l & 1 == 0 {
                    f.fma(a[l], b[l], c[l])
                } else {
                    // The product of two f32 values is exact in f64 and the scale is a power
                    // of two: one rounding to f32 (the f64 sum's own rounding aside).
                    let exact = g(a[l]).mul_add(g(b[l]), g(c[l]));
                    f.round(exact * fmas_scale(&F32_FMT, g(c[l])))
                };
            }
            Ok(Out::Vector { carry: None })
        }
        O::V_DIV_FMAS_F64 => {
            for l in 0..LANES {
                let (x, y, z) = (f64v(a[l]), f64v(b[l]), f64v(c[l]));
                let r = x.mul_add(y, z);
                out[l] = f64r(if vcc >> l & 1 == 0 { r } else { r * fmas_scale(&F64_FMT, z) });
            }
            Ok(Out::Vector { carry: None })
        }
        // The guide's special cases: a NaN operand gives NaN; a zero or infinite denominator
        // or an infinite numerator decides the result alone (x/0 = ±inf, x/±inf = ±0, 0/0
        // and inf/inf = NaN), which is what the host's division of n by d gives for them; a
        // quotient below 2^-150 (2^-1075) is the signed zero it rounds to; a NaN quotient of finite
        // operands is an overflow (the steps computed inf - inf), which the guide's text leaves out.
        O::V_DIV_FIXUP_F32 => map3(out, a, b, c, |q, d, n| {
            let (q, d, n) = (f.get(q), f.get(d), f.get(n));
            f.put(fixup(&F32_FMT, q as f64, d as f64, n as f64, 150) as f32)
        }),
        O::V_DIV_FIXUP_F64 => {
            map3(out, a, b, c, |q, d, n| f64r(fixup(&F64_FMT, f64v(q), f64v(d), f64v(n), 1075)))
        }
        _ => return None,
    })
}

fn fixup(fmt: &Fmt, q: f64, d: f64, n: f64, underflow_gap: i32) -> f64 {
    let neg = d.is_sign_negative() != n.is_sign_negative();
    let signed = |x: f64| if neg { -x.abs() } else { x.abs() };
    // Finite operands whose quotient is NaN: the scaled steps overflowed (inf - inf), and
    // the quotient is the infinity it rounds to.
    if d.is_nan() || n.is_nan() {
        f64::NAN
    } else if d == 0.0 || d.is_infinite() || n.is_infinite() {
        n / d
    } else if n == 0.0 || (fmt.exp)(n) - (fmt.exp)(d) < -underflow_gap {
        signed(0.0)
    } else if q.is_nan() {
        signed(f64::INFINITY)
    } else {
        signed(q)
    }
}

#[cfg(test)]
mod tests {
    use super::super::rounding::Round;
    use super::*;
    use ferrum_isa::Opcode as O;

    const F: F32 = F32 { ftz: false, round: Round::NearestEven };

    /// One lane of `op` with VCC bit `vcc`: (result bits, carry bit).
    fn run(op: O, vcc: bool, x: u32, y: u32, z: u32) -> (u32, bool) {
        let lane = |v: u32| {
            let mut w = [0u64; LANES];
            w[0] = v as u64;
            w
        };
        let mut out = [0u64; LANES];
        let r = eval(op, F, vcc as u32, &[lane(x), lane(y), lane(z)], &mut out).unwrap();
        let carry = matches!(r, Ok(Out::Vector { carry: Some(c) }) if c & 1 != 0);
        (out[0] as u32, carry)
    }

    fn fma(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }

    /// n / d through the sequence compilers emit (LLVM's, and Ferrum's `fdiv32`).
    fn divide(n: f32, d: f32) -> f32 {
        let (ds, _) = run(O::V_DIV_SCALE_F32, false, d.to_bits(), d.to_bits(), n.to_bits());
        let (ns, vcc) = run(O::V_DIV_SCALE_F32, false, n.to_bits(), d.to_bits(), n.to_bits());
        let (ds, ns) = (f32::from_bits(ds), f32::from_bits(ns));
        let r0 = 1.0 / ds;
        let r = fma(fma(-ds, r0, 1.0), r0, r0);
        let q0 = ns * r;
        let q1 = fma(fma(-ds, q0, ns), r, q0);
        let e = fma(-ds, q1, ns);
        let (q, _) = run(O::V_DIV_FMAS_F32, vcc, e.to_bits(), r.to_bits(), q1.to_bits());
        let (q, _) = run(O::V_DIV_FIXUP_F32, false, q, d.to_bits(), n.to_bits());
        f32::from_bits(q)
    }

    #[test]
    fn div_scale_f32_cases_by_hand() {
        let b = |x: f32| x.to_bits();
        let p = |e: i32| 2f32.powi(e);
        // Denormal denominator 3 * 2^-149 and a numerator with exponent field below 96 (2^-40):
        // both operands go up by 2^64, VCC clear.
        assert_eq!(run(O::V_DIV_SCALE_F32, false, 3, 3, b(p(-40))), (b(3.0 * p(-85)), false));
        assert_eq!(run(O::V_DIV_SCALE_F32, false, b(p(-40)), 3, b(p(-40))), (b(p(24)), false));
        // The same denominator under 1.0 is a quotient near the top: it alone goes up.
        assert_eq!(run(O::V_DIV_SCALE_F32, false, 3, 3, b(1.0)), (b(3.0 * p(-85)), true));
        assert_eq!(run(O::V_DIV_SCALE_F32, false, b(1.0), 3, b(1.0)), (b(1.0), true));
        // A quotient near the top (exp(n) - exp(d) >= 96): the denominator alone goes up.
        assert_eq!(
            run(O::V_DIV_SCALE_F32, false, b(0.5), b(0.5), b(f32::MAX)),
            (b(2f32.powi(63)), true)
        );
        assert_eq!(
            run(O::V_DIV_SCALE_F32, false, b(f32::MAX), b(0.5), b(f32::MAX)),
            (b(f32::MAX), true)
        );
        // A denormal quotient: the numerator alone goes up.
        assert_eq!(run(O::V_DIV_SCALE_F32, false, b(1e20), b(1e20), b(1e-30)), (b(1e20), true));
        assert_eq!(
            run(O::V_DIV_SCALE_F32, false, b(1e-30), b(1e20), b(1e-30)),
            (b(1e-30 * 2f32.powi(64)), true)
        );
        // A denominator above 2^126 (its reciprocal is denormal): both go down by 2^64.
        assert_eq!(
            run(O::V_DIV_SCALE_F32, false, b(f32::MAX), b(f32::MAX), b(1e30)).0,
            b(f32::MAX / 2f32.powi(64))
        );
        // A tiny numerator (exponent field <= 23): both go up.
        let tiny = 2f32.powi(-110);
        assert_eq!(
            run(O::V_DIV_SCALE_F32, false, b(2.0), b(2.0), b(tiny)),
            (b(2f32.powi(65)), false)
        );
        // Ordinary operands pass through; a zero operand gives NaN.
        assert_eq!(run(O::V_DIV_SCALE_F32, false, b(3.0), b(3.0), b(7.0)), (b(3.0), false));
        assert!(f32::from_bits(run(O::V_DIV_SCALE_F32, false, b(3.0), b(0.0), b(7.0)).0).is_nan());
    }

    #[test]
    fn div_fmas_scales_back_only_with_vcc() {
        let b = |x: f32| x.to_bits();
        // fma(0.5, 4, 1) = 3; with VCC the scaled quotient 1 (< 2) goes down by 2^64.
        assert_eq!(run(O::V_DIV_FMAS_F32, false, b(0.5), b(4.0), b(1.0)).0, b(3.0));
        assert_eq!(run(O::V_DIV_FMAS_F32, true, b(0.5), b(4.0), b(1.0)).0, b(3.0 * 2f32.powi(-64)));
        // A large scaled quotient goes up, and may overflow to inf.
        assert_eq!(run(O::V_DIV_FMAS_F32, true, b(0.0), b(1.0), b(4.0)).0, b(2f32.powi(66)));
        assert_eq!(run(O::V_DIV_FMAS_F32, true, b(0.0), b(1.0), b(f32::MAX)).0, b(f32::INFINITY));
        // A result scaled into the denormals is rounded once: 1.5 * 2^-149 ties to even (2^-148).
        let q = 1.5 * 2f32.powi(-149 + 64);
        assert_eq!(run(O::V_DIV_FMAS_F32, true, b(0.0), b(1.0), b(q)).0, 2);
    }

    #[test]
    fn div_fixup_underflows_far_below_the_smallest_denormal() {
        let b = |x: f32| x.to_bits();
        // exp(n) - exp(d) < -150: ±0 whatever q is (here a wrong NaN from an overflowed step).
        let (n, d) = (2f32.powi(-110), 2f32.powi(100));
        assert_eq!(run(O::V_DIV_FIXUP_F32, false, b(f32::NAN), b(d), b(n)).0, 0);
        assert_eq!(run(O::V_DIV_FIXUP_F32, false, b(f32::NAN), b(-d), b(n)).0, 0x8000_0000);
        // Otherwise the quotient keeps its magnitude and takes the sign of n / d.
        assert_eq!(run(O::V_DIV_FIXUP_F32, false, b(2.5), b(-2.0), b(5.0)).0, b(-2.5));
        assert_eq!(run(O::V_DIV_FIXUP_F32, false, b(7.0), b(0.0), b(-1.0)).0, b(f32::NEG_INFINITY));
    }

    /// The whole sequence is IEEE division on edge operands: denormal and huge denominators,
    /// denormal and overflowing quotients, tiny numerators, zeros, infinities and NaN.
    #[test]
    fn division_sequence_matches_ieee_on_edges() {
        let vals: Vec<f32> = vec![
            0.0,
            -0.0,
            1.0,
            -3.0,
            7.0,
            0.1,
            1e-30,
            1e30,
            2f32.powi(-110),
            2f32.powi(127),
            f32::MAX,
            -f32::MAX,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(0x0000_0003),
            f32::from_bits(0x007f_ffff),
            f32::from_bits(0x8040_0001),
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for &n in &vals {
            for &d in &vals {
                let (got, want) = (divide(n, d), n / d);
                let ok = got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
                assert!(ok, "{n:e} / {d:e}: got {got:e} ({:#x}), want {want:e}", got.to_bits());
            }
        }
    }
}
