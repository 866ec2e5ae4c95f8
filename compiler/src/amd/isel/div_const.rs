//! 64-bit division, remainder and modulo by constants, without any divide:
//!
//! - unsigned: multiply-high by a rounded reciprocal (Granlund and Montgomery). When some
//!   shift `p` makes `m = ceil(2^(64+p) / d)` fit in 64 bits with a small enough rounding
//!   error, `q = mulhi(n, m) >> p`; otherwise the 65-bit reciprocal's top bit is added back
//!   as `(t + ((n - t) >> 1)) >> (l - 1)`. Powers of two are shifts and masks.
//! - signed: powers of two (either sign) are the usual arithmetic shift after adding
//!   `2^k - 1` to negative dividends; other divisors divide the dividend's magnitude through
//!   the unsigned path and fix the signs. `i64::MIN / -1` gives what the IR defines (all
//!   ones, remainder the dividend, modulo 0), as does a zero divisor (all ones; the dividend).

use ferrum_isa::Opcode as O;

use super::alu_int::split;
use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::amd::mir::RegClass;
use crate::ir::ops::AluOp;

/// How to divide by an unsigned 64-bit constant `d` (not 0, not a power of two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Magic {
    /// `q = mulhi(n, m) >> shift`.
    Simple { m: u64, shift: u32 },
    /// `t = mulhi(n, m); q = (t + ((n - t) >> 1)) >> shift`.
    AddBack { m: u64, shift: u32 },
}

fn magic(d: u64) -> Magic {
    let l = 64 - (d - 1).leading_zeros();
    let d128 = u128::from(d);
    for p in 0..l {
        // m * d = 2^(64+p) + e with 0 <= e <= 2^p keeps floor(n * m / 2^(64+p)) exact
        // for every n < 2^64.
        let m = (1u128 << (64 + p)).div_ceil(d128);
        let e = m * d128 - (1u128 << (64 + p));
        if m >> 64 == 0 && e <= 1u128 << p {
            return Magic::Simple { m: m as u64, shift: p };
        }
    }
    let m = ((1u128 << 64) * ((1u128 << l) - d128) / d128 + 1) as u64;
    Magic::AddBack { m, shift: l - 1 }
}

impl Isel<'_> {
    /// 64-bit unsigned division and remainder by a constant.
    pub(super) fn udiv64_const(
        &mut self,
        op: AluOp,
        n: MVal,
        d: u64,
    ) -> Result<MVal, BackendError> {
        match d {
            0 => return Ok(if op == AluOp::Udiv { MVal::Const(u64::MAX) } else { n }),
            1 => return Ok(if op == AluOp::Udiv { n } else { MVal::Const(0) }),
            _ if d.is_power_of_two() && op == AluOp::Umod => return self.low_bits64(n, d - 1),
            _ => {}
        }
        let q = self.udiv64_by(n, d)?;
        if op == AluOp::Udiv {
            return Ok(q);
        }
        let qd = self.mullo64(q, MVal::Const(d))?;
        Ok(self.sub64(n, qd)?.0)
    }

    /// `n / d` for a constant `d > 1`.
    fn udiv64_by(&mut self, n: MVal, d: u64) -> Result<MVal, BackendError> {
        if d.is_power_of_two() {
            return self.shift64(AluOp::Ushr, n, d.trailing_zeros());
        }
        match magic(d) {
            Magic::Simple { m, shift } => {
                let t = self.mulhi64(n, MVal::Const(m), true)?;
                self.shift64(AluOp::Ushr, t, shift)
            }
            Magic::AddBack { m, shift } => {
                let t = self.mulhi64(n, MVal::Const(m), true)?;
                let (diff, _) = self.sub64(n, t)?;
                let half = self.shift64(AluOp::Ushr, diff, 1)?;
                let sum = self.add64(t, half, false)?;
                self.shift64(AluOp::Ushr, sum, shift)
            }
        }
    }

    /// `x` shifted by a constant (none for 0).
    fn shift64(&mut self, op: AluOp, x: MVal, k: u32) -> Result<MVal, BackendError> {
        if k == 0 {
            return Ok(x);
        }
        self.alu_wide(op, 64, 64, &[x, MVal::Const(u64::from(k))], false)
    }

    /// The halves of `x & mask`, computing only those the mask changes.
    fn and64_halves(&mut self, x: MVal, mask: u64) -> Result<(MVal, MVal), BackendError> {
        let (xl, xh) = split(x);
        let half = |s: &mut Self, v: MVal, m: u64| -> Result<MVal, BackendError> {
            match m {
                0 => Ok(MVal::Const(0)),
                0xffff_ffff => Ok(v),
                _ => s.bin(None, O::V_AND_B32, false, v, MVal::Const(m)),
            }
        };
        Ok((half(self, xl, mask & 0xffff_ffff)?, half(self, xh, mask >> 32)?))
    }

    /// `x & mask` over 64 bits, built in one register pair.
    fn low_bits64(&mut self, x: MVal, mask: u64) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::V, 2);
        for (i, (v, m)) in [split(x).0, split(x).1].into_iter().zip([mask, mask >> 32]).enumerate()
        {
            let (d, m) = (r.at(i as u8), (m & 0xffff_ffff) as u32);
            let v = self.src(v)?;
            self.emit(match m {
                0 => build::vop1(O::V_MOV_B32, d, Src::I(0)),
                u32::MAX => build::vop1(O::V_MOV_B32, d, v),
                _ => build::vop2(O::V_AND_B32, d, Src::I(m), v),
            });
        }
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// 64-bit signed division, remainder and modulo by a constant.
    pub(super) fn sdiv64_const(
        &mut self,
        op: AluOp,
        a: MVal,
        c: i64,
    ) -> Result<MVal, BackendError> {
        use AluOp::*;
        match c {
            0 => return Ok(if op == Idiv { MVal::Const(u64::MAX) } else { a }),
            1 => return Ok(if op == Idiv { a } else { MVal::Const(0) }),
            -1 => return self.sdiv64_minus_one(op, a),
            _ => {}
        }
        let mag = c.unsigned_abs();
        if mag.is_power_of_two() {
            return self.sdiv64_pow2(op, a, c);
        }
        let (sa, abs_a) = self.abs64(a, false)?;
        let q = self.udiv64_by(abs_a, mag)?;
        if op == Idiv {
            let (ql, qh) = split(q);
            let lo = self.bin(None, O::V_XOR_B32, false, ql, sa)?;
            let hi = self.bin(None, O::V_XOR_B32, false, qh, sa)?;
            // (q ^ s) - s negates for a negative dividend; s - (q ^ s) for a negative
            // divisor as well.
            let (x, y) = if c > 0 { ((lo, hi), (sa, sa)) } else { ((sa, sa), (lo, hi)) };
            return Ok(self.sub64_halves(x, y)?.0);
        }
        let qd = self.mullo64(q, MVal::Const(mag))?;
        let (r, _) = self.sub64(abs_a, qd)?;
        let rem = self.apply_sign(r, sa, false)?;
        if op == Irem {
            return Ok(rem);
        }
        // Modulo: a remainder of the other sign than the divisor moves by one divisor.
        let fix = if c > 0 {
            self.vcmp64(Ilt, rem, MVal::Const(0))?
        } else {
            self.vcmp64(Ilt, MVal::Const(0), rem)?
        };
        let sum = self.add64(rem, MVal::Const(c as u64), false)?;
        self.vsel64(fix, sum, rem)
    }

    /// Division by -1: negation, with `i64::MIN / -1` all ones and `i64::MIN % -1` the
    /// dividend, as the IR defines; the modulo is always 0.
    fn sdiv64_minus_one(&mut self, op: AluOp, a: MVal) -> Result<MVal, BackendError> {
        if op == AluOp::Imod {
            return Ok(MVal::Const(0));
        }
        let is_min = self.vcmp64(AluOp::Ieq, a, MVal::Const(1 << 63))?;
        if op == AluOp::Irem {
            let hi = self.select(&[is_min, MVal::Const(0x8000_0000), MVal::Const(0)], false)?;
            return self.pair(MVal::Const(0), hi);
        }
        let (neg, _) = self.sub64(MVal::Const(0), a)?;
        self.vsel64(is_min, MVal::Const(u64::MAX), neg)
    }

    /// Division by `±2^k` (k >= 1): `(a + bias) >> k` with `bias = 2^k - 1` for negative
    /// dividends, so the shift rounds toward zero.
    fn sdiv64_pow2(&mut self, op: AluOp, a: MVal, c: i64) -> Result<MVal, BackendError> {
        use AluOp::*;
        let k = c.unsigned_abs().trailing_zeros();
        let low = (1u64 << k) - 1;
        if op == Imod && c > 0 {
            return self.low_bits64(a, low);
        }
        if op == Imod {
            // The low bits are the modulo by 2^k; by -2^k a non-zero one moves down by 2^k.
            let r = self.low_bits64(a, low)?;
            let nz = self.vcmp64(Ine, r, MVal::Const(0))?;
            let sum = self.add64(r, MVal::Const(c as u64), false)?;
            return self.vsel64(nz, sum, r);
        }
        let (_, ah) = split(a);
        let s = self.bin(None, O::V_ASHRREV_I32, false, MVal::Const(31), ah)?;
        let shr = |x: &mut Self, sh: u32| {
            if sh == 0 {
                Ok(s)
            } else {
                x.bin(None, O::V_LSHRREV_B32, true, s, MVal::Const(u64::from(sh)))
            }
        };
        let bias =
            if k <= 32 { (shr(self, 32 - k)?, MVal::Const(0)) } else { (s, shr(self, 64 - k)?) };
        let t = self.add64_halves(split(a), bias)?;
        if op == Irem {
            // a - (t with its low k bits cleared).
            let cleared = self.and64_halves(t, !low)?;
            return Ok(self.sub64_halves(split(a), cleared)?.0);
        }
        let q = self.shift64(Ishr, t, k)?;
        if c > 0 {
            return Ok(q);
        }
        Ok(self.sub64(MVal::Const(0), q)?.0)
    }
}

#[cfg(test)]
mod tests {
    use super::{magic, Magic};

    fn apply(mg: Magic, n: u64) -> u64 {
        let hi = |m: u64| ((u128::from(n) * u128::from(m)) >> 64) as u64;
        match mg {
            Magic::Simple { m, shift } => hi(m) >> shift,
            Magic::AddBack { m, shift } => {
                let t = hi(m);
                (t + ((n - t) >> 1)) >> shift
            }
        }
    }

    /// Both forms divide exactly, at the edges of the dividend range and at random.
    #[test]
    fn magic_numbers_divide_exactly() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut divisors = vec![3, 5, 6, 7, 10, 641, 1 << 33 | 1, u64::MAX, u64::MAX - 2];
        divisors.extend((0..200).map(|_| next() >> (next() % 62)).filter(|d| *d > 2));
        for d in divisors.into_iter().filter(|d| !d.is_power_of_two()) {
            let mg = magic(d);
            for n in
                [0, 1, d - 1, d, d.wrapping_add(1), u64::MAX, u64::MAX - 1, u64::MAX / d * d - 1]
                    .into_iter()
                    .chain((0..50).map(|_| next()))
            {
                assert_eq!(apply(mg, n), n / d, "{n} / {d} with {mg:?}");
            }
        }
        // 7 needs the add-back form; 3 does not.
        assert!(matches!(magic(7), Magic::AddBack { .. }));
        assert!(matches!(magic(3), Magic::Simple { .. }));
    }
}
