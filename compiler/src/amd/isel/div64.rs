//! 64-bit unsigned division and remainder by a register. There is no 64-bit divide or
//! reciprocal, so this is restoring (shift-subtract) division unrolled over the 64 quotient
//! bits: straight-line VALU code, so divergent divisors need no control flow, and division by
//! zero falls out as the IR defines it (all-ones quotient, the dividend as remainder).
//! Signed forms divide magnitudes and fix the signs, with the IR's values for division by
//! zero and for `i64::MIN / -1`.

use ferrum_isa::Opcode as O;

use super::alu_int::split;
use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::amd::mir::RegClass;
use crate::ir::ops::AluOp;

impl Isel<'_> {
    /// (quotient, remainder) of `n / d`, both 64-bit. The running remainder is kept as two
    /// single-dword values (no register pairs), and one subtract-with-borrow gives both the
    /// trial difference and whether the remainder reached the divisor.
    pub(super) fn udivmod64(&mut self, n: MVal, d: MVal) -> Result<(MVal, MVal), BackendError> {
        let (nl, nh) = split(n);
        let (dl, dh) = split(d);
        let (dl, dh) = (self.src(dl)?, self.src(dh)?);
        let (mut rl, mut rh) = (MVal::Const(0), MVal::Const(0));
        let mut q = [MVal::Const(0), MVal::Const(0)];
        for i in (0..64u32).rev() {
            // r = r << 1 | bit i of n; the bit shifted out of r means r >= 2^64 > d.
            let out = self.compare(AluOp::Ilt, 32, &[rh, MVal::Const(0)], false)?;
            rh = self.v3(O::V_ALIGNBIT_B32, &[rh, rl, MVal::Const(31)], 0)?;
            let word = if i >= 32 { nh } else { nl };
            let pos = MVal::Const(u64::from(i % 32));
            let bit = self.v3(O::V_BFE_U32, &[word, pos, MVal::Const(1)], 0)?;
            rl = self.v3(O::V_LSHL_OR_B32, &[rl, MVal::Const(1), bit], 0)?;
            let (sl, sh) = (self.vreg(RegClass::V, 1), self.vreg(RegClass::V, 1));
            let (borrow, under) = (self.vreg(RegClass::S, 1), self.vreg(RegClass::S, 1));
            let lo = [self.src(rl)?, dl];
            self.emit(build::vop3(O::V_SUB_CO_U32, Some(sl), Some(borrow), &lo, 0));
            let hi = [self.src(rh)?, dh, Src::R(borrow, RegClass::S)];
            self.emit(build::vop3(O::V_SUB_CO_CI_U32, Some(sh), Some(under), &hi, 0));
            // Subtract when the shifted-out bit was set or there was no final borrow.
            let take = self.vreg(RegClass::S, 1);
            let (o, u) = (self.src(out)?, Src::R(under, RegClass::S));
            self.emit(build::sop2(O::S_ORN2_B32, Some(take), o, u, 1));
            let take = MVal::Reg(take, RegClass::S);
            rl = self.select(&[take, MVal::Reg(sl, RegClass::V), rl], false)?;
            rh = self.select(&[take, MVal::Reg(sh, RegClass::V), rh], false)?;
            let w = (i / 32) as usize;
            let b = self.select(&[take, MVal::Const(1 << (i % 32)), MVal::Const(0)], false)?;
            q[w] = match q[w] {
                MVal::Const(0) => b,
                acc => self.bin(None, O::V_OR_B32, false, acc, b)?,
            };
        }
        let q = self.pair(q[0], q[1])?;
        let r = self.pair(rl, rh)?;
        Ok((q, r))
    }

    /// Signed 64-bit division, remainder (sign of the dividend) and modulo (sign of the
    /// divisor) by a register.
    pub(super) fn sdivmod64(&mut self, op: AluOp, a: MVal, b: MVal) -> Result<MVal, BackendError> {
        use AluOp::*;
        let (sa, abs_a) = self.abs64(a)?;
        let (sb, abs_b) = self.abs64(b)?;
        let (q, r) = self.udivmod64(abs_a, abs_b)?;
        let r_min = self.vreg(RegClass::S, 1);
        let is_min = self.compare64(Ieq, &[a, MVal::Const(1 << 63)], r_min)?;
        let r_m1 = self.vreg(RegClass::S, 1);
        let is_m1 = self.compare64(Ieq, &[b, MVal::Const(u64::MAX)], r_m1)?;
        let overflow = self.bool_op(Iand, &[is_min, is_m1])?;
        match op {
            Idiv => {
                let s = self.bin(None, O::V_XOR_B32, false, sa, sb)?;
                let q = self.apply_sign(q, s)?;
                let r_zero = self.vreg(RegClass::S, 1);
                let zero = self.compare64(Ieq, &[b, MVal::Const(0)], r_zero)?;
                let bad = self.bool_op(Ior, &[zero, overflow])?;
                self.select_wide(&[bad, MVal::Const(u64::MAX), q], false, 64)
            }
            Irem => {
                let rem = self.apply_sign(r, sa)?;
                self.select_wide(&[overflow, a, rem], false, 64)
            }
            _ => {
                // Imod: a non-zero remainder whose sign differs from the divisor's moves by
                // one divisor (the overflow case has remainder 0, as the IR defines).
                let rem = self.apply_sign(r, sa)?;
                let r_nz = self.vreg(RegClass::S, 1);
                let nz = self.compare64(Ine, &[rem, MVal::Const(0)], r_nz)?;
                let (_, rh) = split(rem);
                let (_, bh) = split(b);
                let sx = self.bin(None, O::V_XOR_B32, false, rh, bh)?;
                let differ = self.compare(Ilt, 32, &[sx, MVal::Const(0)], false)?;
                let fix = self.bool_op(Iand, &[nz, differ])?;
                let sum = self.add64(rem, b, false)?;
                self.select_wide(&[fix, sum, rem], false, 64)
            }
        }
    }

    /// (sign word: 0 or all ones, magnitude) of a 64-bit integer.
    fn abs64(&mut self, x: MVal) -> Result<(MVal, MVal), BackendError> {
        let (_, xh) = split(x);
        let s = self.bin(None, O::V_ASHRREV_I32, false, MVal::Const(31), xh)?;
        Ok((s, self.apply_sign(x, s)?))
    }

    /// `x` negated where the sign word `s` is all ones: `(x ^ s) - s`.
    fn apply_sign(&mut self, x: MVal, s: MVal) -> Result<MVal, BackendError> {
        let (xl, xh) = split(x);
        let lo = self.bin(None, O::V_XOR_B32, false, xl, s)?;
        let hi = self.bin(None, O::V_XOR_B32, false, xh, s)?;
        let flipped = self.pair(lo, hi)?;
        let ss = self.pair(s, s)?;
        self.alu_wide(AluOp::Isub, 64, 64, &[flipped, ss], false)
    }
}
