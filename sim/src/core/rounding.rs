//! f32 results under the MODE register's FP_ROUND[1:0] (0 nearest-even, 1 toward +inf,
//! 2 toward -inf, 3 toward zero).
//!
//! The host only rounds to nearest, so a directed result is derived from an exact
//! representation: products of two f32 are exact in f64, and a sum of two f64 is exact as the
//! TwoSum pair `hi + lo`. Rounding that pair to f32 needs only the f32 nearest to `hi` and the
//! sign of the exact remainder, which f64 arithmetic gives without error. Operations whose
//! results are approximations on the hardware anyway (reciprocals, square roots,
//! transcendentals) keep nearest rounding.

/// FP_ROUND for f32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    NearestEven,
    Up,
    Down,
    Zero,
}

impl Round {
    /// From MODE bits 1:0.
    pub fn from_mode(mode: u32) -> Round {
        match mode & 3 {
            0 => Round::NearestEven,
            1 => Round::Up,
            2 => Round::Down,
            _ => Round::Zero,
        }
    }
}

/// `(s, e)` with `s = fl(a + b)` and `s + e == a + b` exactly.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Rounds the exact value `hi + lo` (`|lo|` at most half an f64 ulp of `hi`) to f32.
pub fn round_pair(hi: f64, lo: f64, r: Round) -> f32 {
    let f = hi as f32;
    if r == Round::NearestEven || !hi.is_finite() {
        return f;
    }
    let fd = f as f64;
    // Sign of (hi + lo) - f: exact, since a rounded f64 difference keeps the exact sign.
    let above = if fd == hi { lo > 0.0 } else { hi > fd };
    let below = if fd == hi { lo < 0.0 } else { hi < fd };
    if !above && !below {
        return f;
    }
    let up = match r {
        Round::Up => true,
        Round::Down => false,
        // Toward zero: down for positive values, up for negative ones.
        _ => hi < 0.0,
    };
    match (up, above) {
        (true, true) => step(f, true),
        (false, false) if below => step(f, false),
        _ => f,
    }
}

/// The next f32 above (`up`) or below `f`, for finite `f` or toward finite values from an
/// infinity (the workspace's MSRV predates `f32::next_up`).
fn step(f: f32, up: bool) -> f32 {
    if f == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let bits = f.to_bits();
    // Moving away from zero increments the magnitude bits; toward zero decrements them.
    let away = up == f.is_sign_positive();
    f32::from_bits(if away { bits + 1 } else { bits - 1 })
}

/// The sign of an exact zero sum: +0 unless both addends are -0, or -0 when rounding down.
fn zero_sum(a: f64, b: f64, r: Round) -> f32 {
    let negative = if a == 0.0 && b == 0.0 && a.is_sign_negative() == b.is_sign_negative() {
        a.is_sign_negative()
    } else {
        r == Round::Down
    };
    if negative {
        -0.0
    } else {
        0.0
    }
}

pub fn add(a: f32, b: f32, r: Round) -> f32 {
    if r == Round::NearestEven {
        return a + b;
    }
    let (s, e) = two_sum(a as f64, b as f64);
    if s == 0.0 && e == 0.0 {
        return zero_sum(a as f64, b as f64, r);
    }
    round_pair(s, e, r)
}

pub fn mul(a: f32, b: f32, r: Round) -> f32 {
    round_pair(a as f64 * b as f64, 0.0, r)
}

pub fn fma(a: f32, b: f32, c: f32, r: Round) -> f32 {
    if r == Round::NearestEven {
        return a.mul_add(b, c);
    }
    let p = a as f64 * b as f64;
    let (s, e) = two_sum(p, c as f64);
    if s == 0.0 && e == 0.0 {
        return zero_sum(p, c as f64, r);
    }
    round_pair(s, e, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPSILON_BELOW_ONE: f32 = f32::EPSILON / 2.0;

    /// `x * 2^scale` as an exact integer (`x` finite and a multiple of `2^-scale`).
    fn scaled(x: f32, scale: i32) -> i128 {
        let bits = x.to_bits();
        let (exp, man) = ((bits >> 23 & 0xff) as i32, (bits & 0x7f_ffff) as i128);
        let (m, e) = if exp == 0 { (man, -149) } else { (man | 1 << 23, exp - 150) };
        let shift = e + scale;
        assert!(shift >= 0, "{x} is finer than 2^-{scale}");
        let v = m << shift;
        if x.is_sign_negative() {
            -v
        } else {
            v
        }
    }

    /// A random f32 with an exponent in `-range..range`.
    fn random_f32(seed: &mut u64, range: i32) -> f32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let r = *seed >> 16;
        let exp = (r % (2 * range as u64)) as i32 - range + 127;
        let bits = (r >> 20 & 1) << 31 | (exp as u64) << 23 | (r >> 24 & 0x7f_ffff);
        f32::from_bits(bits as u32)
    }

    /// Checks `r` against the exact value `exact` (both scaled by `2^scale`): `r` is the
    /// directed neighbour of `exact` in the f32 grid.
    fn check(r: f32, exact: i128, scale: i32, mode: Round, what: &str) {
        let rs = scaled(r, scale);
        let below = scaled(step(r, false), scale);
        let above = scaled(step(r, true), scale);
        let ok = match mode {
            Round::Down => rs <= exact && exact < above,
            Round::Up => below < exact && exact <= rs,
            Round::Zero if exact >= 0 => rs <= exact && exact < above,
            Round::Zero => below < exact && exact <= rs,
            Round::NearestEven => 2 * (rs - exact).abs() <= (above - rs).max(rs - below),
        };
        assert!(ok, "{what}: {r:e} is not the {mode:?} rounding of {exact} / 2^{scale}");
    }

    /// Directed sums and products against exact integer arithmetic (an oracle independent of
    /// the TwoSum construction).
    #[test]
    fn directed_rounding_matches_exact_integer_arithmetic() {
        let mut seed = 0x5eed;
        for _ in 0..20_000 {
            let (a, b) = (random_f32(&mut seed, 30), random_f32(&mut seed, 30));
            let sum = scaled(a, 60) + scaled(b, 60);
            let (c, d) = (random_f32(&mut seed, 15), random_f32(&mut seed, 15));
            let prod = scaled(c, 40) * scaled(d, 40);
            for mode in [Round::NearestEven, Round::Up, Round::Down, Round::Zero] {
                let r = add(a, b, mode);
                if r != 0.0 {
                    check(r, sum, 60, mode, &format!("{a:e} + {b:e}"));
                }
                check(mul(c, d, mode), prod, 80, mode, &format!("{c:e} * {d:e}"));
            }
        }
    }

    #[test]
    fn directed_sums() {
        let eps = f32::EPSILON;
        // 1 + eps/4 lies between 1 and 1 + eps.
        assert_eq!(add(1.0, eps / 4.0, Round::NearestEven), 1.0);
        assert_eq!(add(1.0, eps / 4.0, Round::Up), 1.0 + eps);
        assert_eq!(add(1.0, eps / 4.0, Round::Down), 1.0);
        assert_eq!(add(-1.0, -eps / 4.0, Round::Zero), -1.0);
        assert_eq!(add(-1.0, -eps / 4.0, Round::Down), -1.0 - eps);
        // A far smaller addend than f64 can hold next to 1.0 still decides the direction.
        assert_eq!(add(1.0, 1e-30, Round::Up), 1.0 + eps);
        assert_eq!(add(1.0, -1e-30, Round::Down), 1.0 - eps / 2.0);
        assert_eq!(add(1.0, -1e-30, Round::Zero), 1.0 - eps / 2.0);
        // Exact results are untouched; exact cancellation gives -0 only when rounding down.
        assert_eq!(add(1.5, 2.25, Round::Up), 3.75);
        assert!(add(1.0, -1.0, Round::Down).is_sign_negative());
        assert!(add(1.0, -1.0, Round::Up).is_sign_positive());
    }

    #[test]
    fn directed_products_overflow_and_fma() {
        let third = 1.0f32 / 3.0;
        let lo = mul(third, 3.0, Round::Down);
        let hi = mul(third, 3.0, Round::Up);
        assert!(lo < hi && (lo as f64) < third as f64 * 3.0 && (hi as f64) > third as f64 * 3.0);
        assert_eq!(mul(f32::MAX, 2.0, Round::Zero), f32::MAX);
        assert_eq!(mul(f32::MAX, 2.0, Round::Up), f32::INFINITY);
        assert_eq!(mul(-f32::MAX, 2.0, Round::Up), -f32::MAX);
        // fma keeps the product exact: (1 + eps) * (1 - eps) - 1 = -eps^2.
        let e = f32::EPSILON;
        assert_eq!(fma(1.0 + e, 1.0 - e, -1.0, Round::Up), -(e * e));
        assert_eq!(fma(1.0, 1.0, 1e-30, Round::Up), 1.0 + e);
        assert_eq!(round_pair(3.0, 0.0, Round::Down), 3.0);
        assert_eq!(step(f32::INFINITY, false), f32::MAX);
        assert_eq!(step(-0.0, false), -f32::from_bits(1));
        assert_eq!(step(-1.0, true), -1.0 + EPSILON_BELOW_ONE);
        assert_eq!(round_pair(f64::NAN, 0.0, Round::Up).to_bits(), f32::NAN.to_bits());
    }
}
