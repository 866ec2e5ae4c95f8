//! V_LDEXP_F32/F64: `S0 * 2^S1` with S1 a signed 32-bit integer, rounded once. Scaling by a
//! power of two computed in the operand's own type is wrong at the ends of the range (2^-150
//! is 0 in f32 and 2^130 is inf, although ldexp(2^100, -150) and ldexp(2^-100, 130) are
//! ordinary numbers), so f32 scales in f64 (exact: every f32 times 2^±300 is a normal f64)
//! and f64 scales in two exact steps before the one rounding multiplication.

/// `x * 2^e` rounded once to f32 (x as the mode's input flushing left it).
pub(super) fn ldexp_f32(x: f32, e: i32) -> f32 {
    // |e| beyond 300 saturates every finite non-zero f32 (its exponents span 2^-149..2^128).
    (f64::from(x) * 2f64.powi(e.clamp(-300, 300))) as f32
}

/// `x * 2^e` rounded once to f64.
pub(super) fn ldexp_f64(x: f64, e: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    // Every finite non-zero f64 lies within 2^-1074..2^1024: beyond ±2200 the result is
    // saturated either way.
    let mut e = e.clamp(-2200, 2200);
    let mut x = x;
    if e >= 0 {
        // Scaling up is exact until it overflows, which saturates as the whole product would.
        while e > 1000 {
            x *= 2f64.powi(1000);
            e -= 1000;
        }
        return x * 2f64.powi(e);
    }
    // Scaling down: first as far as x stays normal (exact), then one multiplication by a
    // representable power of two rounds once.
    if x.abs() < f64::MIN_POSITIVE {
        x *= 2f64.powi(64);
        e -= 64;
    }
    let exp = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mut first = e.max(-1022 - exp);
    let rest = e - first;
    // In steps whose powers of two are normal numbers themselves.
    while first < -1000 {
        x *= 2f64.powi(-1000);
        first += 1000;
    }
    x *= 2f64.powi(first);
    if rest < -1074 {
        // x < 2^-1021 here, so the exact result is below 2^-2095: it rounds to zero.
        return 0.0f64.copysign(x);
    }
    x * pow2_f64(rest)
}

/// 2^k for k in -1074..=0, denormal powers included (powi would lose them).
fn pow2_f64(k: i32) -> f64 {
    if k >= -1022 {
        2f64.powi(k)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_scales_across_the_whole_range_rounding_once() {
        let p = |k: i32| 2f64.powi(k) as f32;
        let cases = [
            (p(100), -150, p(-50)),
            (p(-100), 130, p(30)),
            (1.0, 127, p(127)),
            (1.0, 128, f32::INFINITY),
            (-1.0, 128, f32::NEG_INFINITY),
            (1.0, -149, p(-149)),
            // 2^-150 is half the smallest denormal: a tie, to even (zero).
            (1.0, -150, 0.0),
            // 1.5 * 2^-149 is a tie between 2^-149 and 2^-148: to even (2 steps).
            (1.5, -149, p(-148)),
            // 1.25 * 2^-149 rounds down to one step.
            (1.25, -149, p(-149)),
            (p(-149), 149 + 127, p(127)),
            (p(-149), i32::MAX, f32::INFINITY),
            (p(127), i32::MIN, 0.0),
            (-3.0, 0, -3.0),
        ];
        for (x, e, want) in cases {
            let got = ldexp_f32(x, e);
            assert_eq!(got.to_bits(), want.to_bits(), "ldexp({x:e}, {e}) = {got:e}, want {want:e}");
        }
        assert_eq!(ldexp_f32(-0.0, 50).to_bits(), (-0.0f32).to_bits());
        assert!(ldexp_f32(f32::NAN, -5).is_nan());
        assert_eq!(ldexp_f32(f32::NEG_INFINITY, -500), f32::NEG_INFINITY);
    }

    #[test]
    fn f64_scales_across_the_whole_range_rounding_once() {
        let p = |k: i32| if k >= -1022 { 2f64.powi(k) } else { f64::from_bits(1 << (k + 1074)) };
        let cases = [
            (p(1000), -2000, p(-1000)),
            (p(-1000), 2000, p(1000)),
            (p(-1074), 1074 + 1023, p(1023)),
            (p(-1074), 2200, f64::INFINITY),
            (1.0, 1024, f64::INFINITY),
            (1.0, -1074, p(-1074)),
            // Ties at the bottom, to even.
            (1.0, -1075, 0.0),
            (1.5, -1074, p(-1073)),
            (1.25, -1074, p(-1074)),
            // A denormal scaled further down, then back up.
            (p(-1070), -3, p(-1073)),
            (p(-1070), 1000, p(-70)),
            // 3 * 2^-1076 = 0.75 step: rounds up to the smallest denormal.
            (3.0, -1076, p(-1074)),
            (p(1023), i32::MIN, 0.0),
            (-p(-1022), -52, -p(-1074)),
        ];
        for (x, e, want) in cases {
            let got = ldexp_f64(x, e);
            assert_eq!(got.to_bits(), want.to_bits(), "ldexp({x:e}, {e}) = {got:e}, want {want:e}");
        }
        assert_eq!(ldexp_f64(-0.0, 9).to_bits(), (-0.0f64).to_bits());
        assert_eq!(ldexp_f64(-p(-1000), -1000).to_bits(), (-0.0f64).to_bits());
        assert!(ldexp_f64(f64::NAN, 1).is_nan());
    }
}
