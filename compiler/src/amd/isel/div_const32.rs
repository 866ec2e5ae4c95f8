//! 32-bit division, remainder and modulo by constants, without any divide (the 64-bit forms
//! are in [`super::div_const`]):
//!
//! - unsigned: `q = mulhi(n, m) >> p` with `m = ceil(2^(32+p) / d)` (Granlund and
//!   Montgomery). With `e = m*d - 2^(32+p)`, `n*m / 2^(32+p)` exceeds `n/d` by `n*e / (d *
//!   2^(32+p))`, which must stay below what the fraction of `n/d` leaves to the next integer
//!   (see [`floor_exact`]): so a bound on the dividend (from [`crate::analysis::bounds`])
//!   picks the smallest shift that stays exact up to it, and a dividend below 2^31 never needs
//!   the 33-bit reciprocal `(t + ((n - t) >> 1)) >> (l - 1)` the full range may. A dividend
//!   that stays below the divisor is its own remainder. Powers of two are shifts and masks.
//! - signed: a reciprocal `m` of `|d|` read as a signed number by `mulhi_i32` (when its top
//!   bit is set that reads `m - 2^32`, and adding `n` back gives `floor(n*m / 2^32)`), then an
//!   arithmetic shift by `p`: `t = floor(n*m / 2^(32+p))`, which is `n / |d|` rounded down.
//!   Adding one to a negative `t` rounds toward zero instead: for `n = -k`,
//!   `t = -ceil(k/|d| + k*e/(|d|*2^(32+p)))`, and `m` is chosen so that this excess is above 0
//!   (`|d|` is no power of two) and small enough to leave the ceiling alone except on
//!   multiples of `|d|`. The remainder is `n - q*|d|`; the modulo moves a remainder of the
//!   other sign than `d` by `d`. A dividend known to be non-negative takes the unsigned forms.
//! - the quotient is kept per block, so `n / d` and `n % d` of the same operands share it.

use ferrum_isa::Opcode as O;

use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::ir::ops::AluOp;

/// A quotient computed in a block, for the remainder or modulo of the same operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CachedQuotient {
    block: usize,
    signed: bool,
    scalar: bool,
    n: MVal,
    d: u32,
    q: MVal,
}

/// The multiplier `m` and shift `p` with `n / d == (n * m) >> (32 + p)` for every `n` up to
/// `nmax`, with `m` below 2^32 (`d` not a power of two; see the module documentation).
fn magic32(d: u32, nmax: u64) -> Option<(u32, u32)> {
    magic_where(d, |e, two| floor_exact(u128::from(d), e, two, u128::from(nmax)))
}

/// The multiplier and shift of [`magic32`] for the signed form: `floor(n*m / 2^(32+p))` is
/// `floor(n / d)` for `0 <= n < 2^31`, and `ceil(k*m / 2^(32+p))` is `ceil(k / d)` for
/// `0 < k <= 2^31` when `d` does not divide `k`, else one more.
fn signed_magic32(d: u32) -> (u32, u32) {
    let d128 = u128::from(d);
    magic_where(d, |e, two| {
        floor_exact(d128, e, two, (1 << 31) - 1) && ceil_exact(d128, e, two, 1 << 31)
    })
    .expect("a 31-bit magnitude has a 32-bit reciprocal")
}

/// The first shift `p` (and its `m = ceil(2^(32+p) / d)`, below 2^32) whose rounding error
/// `e = m*d - 2^(32+p)` passes `ok(e, 2^(32+p))`. At `p = ceil(log2 d) - 1` the error is
/// below `2^(p+1)`, which passes both tests for dividends up to 2^31.
fn magic_where(d: u32, ok: impl Fn(u128, u128) -> bool) -> Option<(u32, u32)> {
    let d = u128::from(d);
    (0..32).find_map(|p| {
        let two = 1u128 << (32 + p);
        let m = two.div_ceil(d);
        (m >> 32 == 0 && ok(m * d - two, two)).then_some((m as u32, p))
    })
}

/// The largest `n <= nmax` with `n mod d == d - 1`, if any.
fn last_of_top_residue(d: u128, nmax: u128) -> Option<u128> {
    (nmax + 1 >= d).then(|| nmax - (nmax + 1) % d)
}

/// Whether `floor(n*m / two) == floor(n / d)` for every `0 <= n <= nmax`, with `m*d = two + e`:
/// the excess `n*e / (d*two)` must stay below the `(d - n mod d) / d` left to the next
/// integer. Residue `d - 1` leaves the least; every other residue leaves at least `2/d`.
fn floor_exact(d: u128, e: u128, two: u128, nmax: u128) -> bool {
    last_of_top_residue(d, nmax).is_none_or(|n| n * e < two) && nmax * e < 2 * two
}

/// Whether `ceil(k*m / two)` is `ceil(k / d)` for `0 < k <= kmax` not divisible by `d` and
/// `k/d + 1` for multiples of `d` (`e > 0`): the excess `k*e / (d*two)` must be positive and
/// at most `(d - k mod d) / d`.
fn ceil_exact(d: u128, e: u128, two: u128, kmax: u128) -> bool {
    e > 0 && last_of_top_residue(d, kmax).is_none_or(|k| k * e <= two) && kmax * e <= 2 * two
}

impl Isel<'_> {
    /// The scalar opcode `s` when the operation runs on the scalar unit, and the vector `v`.
    fn op_for(sc: bool, s: O, v: O) -> (Option<O>, O) {
        (Some(s).filter(|_| sc), v)
    }

    fn cached_quotient(&self, signed: bool, scalar: bool, n: MVal, d: u32) -> Option<MVal> {
        let block = self.cur;
        let key = |c: &&CachedQuotient| {
            c.block == block && c.signed == signed && c.scalar == scalar && c.n == n && c.d == d
        };
        self.quotients.iter().find(key).map(|c| c.q)
    }

    /// 32-bit division, remainder or modulo of `a` by the constant `d` (its 32 bits), with
    /// `bound` an upper bound of `a` as an unsigned number when one is known.
    pub(super) fn div_const32(
        &mut self,
        op: AluOp,
        a: MVal,
        d: u32,
        bound: Option<u64>,
        sc: bool,
    ) -> Result<MVal, BackendError> {
        let nmax = bound.map_or(u64::from(u32::MAX), |b| b.min(u64::from(u32::MAX)));
        match op {
            AluOp::Udiv | AluOp::Umod => self.udiv_const(op, a, d, nmax, sc),
            _ => self.sdiv_const(op, a, d as i32, nmax, sc),
        }
    }

    /// Unsigned division and remainder by a constant, for dividends up to `nmax`.
    pub(super) fn udiv_const(
        &mut self,
        op: AluOp,
        a: MVal,
        d: u32,
        nmax: u64,
        sc: bool,
    ) -> Result<MVal, BackendError> {
        if d == 0 {
            // The IR's reference semantics: all ones, and the dividend as the remainder.
            return Ok(if op == AluOp::Udiv { MVal::Const(u64::from(u32::MAX)) } else { a });
        }
        if nmax < u64::from(d) {
            return Ok(if op == AluOp::Udiv { MVal::Const(0) } else { a });
        }
        if d.is_power_of_two() {
            return if op == AluOp::Udiv {
                let (s, v) = Self::op_for(sc, O::S_LSHR_B32, O::V_LSHRREV_B32);
                self.bin(s, v, true, a, MVal::Const(u64::from(d.trailing_zeros())))
            } else {
                let (s, v) = Self::op_for(sc, O::S_AND_B32, O::V_AND_B32);
                self.bin(s, v, false, a, MVal::Const(u64::from(d - 1)))
            };
        }
        let q = self.udiv_quotient(a, d, nmax, sc)?;
        if op == AluOp::Udiv {
            return Ok(q);
        }
        self.minus_multiple(a, q, d, sc)
    }

    /// `a - q * d`.
    fn minus_multiple(&mut self, a: MVal, q: MVal, d: u32, sc: bool) -> Result<MVal, BackendError> {
        if q == MVal::Const(0) {
            return Ok(a);
        }
        let (s, v) = Self::op_for(sc, O::S_MUL_I32, O::V_MUL_LO_U32);
        let qd = self.bin(s, v, false, q, MVal::Const(u64::from(d)))?;
        let (s, v) = Self::op_for(sc, O::S_SUB_U32, O::V_SUB_NC_U32);
        self.bin(s, v, false, a, qd)
    }

    /// `a / d` for `a` up to `nmax` and `d` no power of two.
    fn udiv_quotient(
        &mut self,
        a: MVal,
        d: u32,
        nmax: u64,
        sc: bool,
    ) -> Result<MVal, BackendError> {
        if let Some(q) = self.cached_quotient(false, sc, a, d) {
            return Ok(q);
        }
        let q = match magic32(d, nmax) {
            Some((m, p)) => {
                let (s, v) = Self::op_for(sc, O::S_MUL_HI_U32, O::V_MUL_HI_U32);
                let t = self.bin(s, v, false, a, MVal::Const(u64::from(m)))?;
                self.shift(sc, O::S_LSHR_B32, O::V_LSHRREV_B32, t, p)?
            }
            None => self.udiv_addback(a, d, sc)?,
        };
        self.remember_quotient(false, sc, a, d, q);
        Ok(q)
    }

    fn remember_quotient(&mut self, signed: bool, scalar: bool, n: MVal, d: u32, q: MVal) {
        let block = self.cur;
        self.quotients.push(CachedQuotient { block, signed, scalar, n, d, q });
    }

    /// `x` shifted right by a constant (no instruction for 0).
    fn shift(&mut self, sc: bool, s: O, v: O, x: MVal, k: u32) -> Result<MVal, BackendError> {
        if k == 0 {
            return Ok(x);
        }
        let (s, v) = Self::op_for(sc, s, v);
        self.bin(s, v, true, x, MVal::Const(u64::from(k)))
    }

    /// `a / d` for a divisor whose 33-bit reciprocal needs its top bit added back:
    /// `t = mulhi(a, m); q = (t + ((a - t) >> 1)) >> (l - 1)`.
    fn udiv_addback(&mut self, a: MVal, d: u32, sc: bool) -> Result<MVal, BackendError> {
        let l = 32 - (d - 1).leading_zeros();
        let m = ((1u64 << 32) * ((1u64 << l) - u64::from(d)) / u64::from(d) + 1) as u32;
        let (s, v) = Self::op_for(sc, O::S_MUL_HI_U32, O::V_MUL_HI_U32);
        let t1 = self.bin(s, v, false, a, MVal::Const(u64::from(m)))?;
        let (s, v) = Self::op_for(sc, O::S_SUB_U32, O::V_SUB_NC_U32);
        let t2 = self.bin(s, v, false, a, t1)?;
        let t3 = self.shift(sc, O::S_LSHR_B32, O::V_LSHRREV_B32, t2, 1)?;
        let (s, v) = Self::op_for(sc, O::S_ADD_U32, O::V_ADD_NC_U32);
        let t4 = self.bin(s, v, false, t1, t3)?;
        self.shift(sc, O::S_LSHR_B32, O::V_LSHRREV_B32, t4, l - 1)
    }

    /// Signed division, remainder and modulo by a nonzero constant `d`, for dividends whose
    /// unsigned value is at most `nmax` (below 2^31: non-negative).
    fn sdiv_const(
        &mut self,
        op: AluOp,
        a: MVal,
        d: i32,
        nmax: u64,
        sc: bool,
    ) -> Result<MVal, BackendError> {
        use AluOp::*;
        if d == 0 {
            // The IR's reference semantics: all ones; the dividend as remainder and modulo.
            return Ok(if op == Idiv { MVal::Const(u64::from(u32::MAX)) } else { a });
        }
        let nonneg = nmax < 1 << 31;
        let ad = d.unsigned_abs();
        match d {
            1 => return Ok(if op == Idiv { a } else { MVal::Const(0) }),
            // i32::MIN / -1 wraps to i32::MIN, as the IR defines it.
            -1 if op == Idiv => return self.negate(a, sc),
            -1 => return Ok(MVal::Const(0)),
            _ => {}
        }
        let q = if nonneg {
            self.udiv_const(Udiv, a, ad, nmax, sc)?
        } else if ad.is_power_of_two() {
            if op == Imod && d > 0 {
                // Two's complement low bits are the modulo by a positive power of two.
                let (s, v) = Self::op_for(sc, O::S_AND_B32, O::V_AND_B32);
                return self.bin(s, v, false, a, MVal::Const(u64::from(ad - 1)));
            }
            self.sdiv_pow2(a, ad, sc)?
        } else {
            self.sdiv_quotient(a, ad, sc)?
        };
        if op == Idiv {
            return if d > 0 { Ok(q) } else { self.negate(q, sc) };
        }
        let r = if nonneg && ad.is_power_of_two() {
            let (s, v) = Self::op_for(sc, O::S_AND_B32, O::V_AND_B32);
            self.bin(s, v, false, a, MVal::Const(u64::from(ad - 1)))?
        } else {
            self.minus_multiple(a, q, ad, sc)?
        };
        if op == Irem {
            return Ok(r);
        }
        // Modulo takes the divisor's sign: a nonzero remainder of the other sign moves by d.
        let fix = if d > 0 {
            if nonneg {
                return Ok(r);
            }
            self.compare(Ilt, 32, &[r, MVal::Const(0)], sc)?
        } else {
            self.compare(Ilt, 32, &[MVal::Const(0), r], sc)?
        };
        let (s, v) = Self::op_for(sc, O::S_ADD_U32, O::V_ADD_NC_U32);
        let sum = self.bin(s, v, false, r, MVal::Const(u64::from(d as u32)))?;
        self.select(&[fix, sum, r], sc)
    }

    fn negate(&mut self, x: MVal, sc: bool) -> Result<MVal, BackendError> {
        let (s, v) = Self::op_for(sc, O::S_SUB_U32, O::V_SUB_NC_U32);
        self.bin(s, v, false, MVal::Const(0), x)
    }

    /// `a / ad` rounded toward zero for any signed `a` and `ad` (at least 3) no power of two.
    fn sdiv_quotient(&mut self, a: MVal, ad: u32, sc: bool) -> Result<MVal, BackendError> {
        if let Some(q) = self.cached_quotient(true, sc, a, ad) {
            return Ok(q);
        }
        let (m, p) = signed_magic32(ad);
        let (s, v) = Self::op_for(sc, O::S_MUL_HI_I32, O::V_MUL_HI_I32);
        let mut t = self.bin(s, v, false, a, MVal::Const(u64::from(m)))?;
        if m >> 31 != 0 {
            let (s, v) = Self::op_for(sc, O::S_ADD_U32, O::V_ADD_NC_U32);
            t = self.bin(s, v, false, t, a)?;
        }
        let t = self.shift(sc, O::S_ASHR_I32, O::V_ASHRREV_I32, t, p)?;
        let sign = self.shift(sc, O::S_LSHR_B32, O::V_LSHRREV_B32, t, 31)?;
        let (s, v) = Self::op_for(sc, O::S_ADD_U32, O::V_ADD_NC_U32);
        let q = self.bin(s, v, false, t, sign)?;
        self.remember_quotient(true, sc, a, ad, q);
        Ok(q)
    }

    /// `a / 2^k` rounded toward zero (`ad = 2^k`, k >= 1): `2^k - 1` added to negative
    /// dividends before the arithmetic shift.
    fn sdiv_pow2(&mut self, a: MVal, ad: u32, sc: bool) -> Result<MVal, BackendError> {
        let k = ad.trailing_zeros();
        let sign = self.shift(sc, O::S_ASHR_I32, O::V_ASHRREV_I32, a, 31)?;
        let bias = self.shift(sc, O::S_LSHR_B32, O::V_LSHRREV_B32, sign, 32 - k)?;
        let (s, v) = Self::op_for(sc, O::S_ADD_U32, O::V_ADD_NC_U32);
        let t = self.bin(s, v, false, a, bias)?;
        self.shift(sc, O::S_ASHR_I32, O::V_ASHRREV_I32, t, k)
    }
}

#[cfg(test)]
mod tests {
    use super::{magic32, signed_magic32};
    use fastrand::Rng;

    /// The signed sequence as the hardware runs it, for `ad` no power of two.
    fn signed(n: i32, ad: u32) -> i32 {
        let (m, p) = signed_magic32(ad);
        let mut t = ((i64::from(n) * i64::from(m as i32)) >> 32) as i32;
        if m >> 31 != 0 {
            t = t.wrapping_add(n);
        }
        let t = t >> p;
        t.wrapping_add(((t as u32) >> 31) as i32)
    }

    fn dividends(d: u32, rng: &mut Rng) -> Vec<u32> {
        let mut v = vec![
            0,
            1,
            d - 1,
            d,
            d + 1,
            u32::MAX,
            u32::MAX - 1,
            1 << 31,
            (1 << 31) + 1,
            (1 << 31) - 1,
            (u32::MAX / d) * d,
            (u32::MAX / d) * d - 1,
            d.wrapping_neg(),
            d.wrapping_neg().wrapping_add(1),
            d.wrapping_neg().wrapping_sub(1),
            // The largest dividends of residue d - 1 on either side and overall.
            0x7fff_ffffu32.wrapping_sub(0x8000_0000 % d),
            0x8000_0000u32.wrapping_sub((0x8000_0001u64 % u64::from(d)) as u32).wrapping_neg(),
            u32::MAX - ((u64::from(u32::MAX) + 1) % u64::from(d)) as u32,
        ];
        v.extend((0..400).map(|_| (rng.u64(..) >> (rng.u64(..) % 33)) as u32));
        v
    }

    /// Both the unsigned forms (by bound) and the signed form divide exactly at the edges of
    /// the dividend range and at random; the signed one rounds toward zero.
    #[test]
    fn magic_numbers_divide_exactly() {
        let mut rng = Rng::with_seed(0x9e37_79b9_7f4a_7c15);
        let mut divisors = vec![3, 5, 6, 7, 9, 10, 11, 25, 125, 641, 0x7fff_ffff, 0x4000_0001];
        divisors.extend([0xffff_fffe, 0x8000_0001, 1_000_000_007, 0x5555_5556]);
        divisors.extend((0..300).map(|_| (rng.u64(..) >> (rng.u64(..) % 62)) as u32));
        for d in divisors.into_iter().filter(|d| *d > 2 && !d.is_power_of_two()) {
            let ns = dividends(d, &mut rng);
            for nmax in [u64::from(u32::MAX), 1 << 31, 0xffff, 1023, u64::from(d) * 3 - 1] {
                let Some((m, p)) = magic32(d, nmax) else {
                    assert!(nmax > 1 << 31, "{d}: a bound up to 2^31 always fits");
                    continue;
                };
                for &n in ns.iter().filter(|&&n| u64::from(n) <= nmax) {
                    let q = ((u64::from(n) * u64::from(m)) >> 32 >> p) as u32;
                    assert_eq!(q, n / d, "{n} / {d} with m={m:#x} p={p} (bound {nmax})");
                }
            }
            if d <= 1 << 31 {
                for &n in &ns {
                    let n = n as i32;
                    assert_eq!(signed(n, d), n.wrapping_div(d as i32), "{n} / {d} signed");
                }
            }
        }
        // A small bound needs no shift where the full range does; the signed range takes
        // 3's reciprocal without a shift or an add.
        assert_eq!(magic32(3, 1023).map(|(_, p)| p), Some(0));
        assert_eq!(magic32(3, u64::from(u32::MAX)).map(|(_, p)| p), Some(1));
        assert_eq!(signed_magic32(3), (0x5555_5556, 0));
        // 7 needs the 33-bit reciprocal over the full range, not below 2^31.
        assert_eq!(magic32(7, u64::from(u32::MAX)), None);
        assert!(magic32(7, 1 << 31).is_some());
    }
}
