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
