//! 64-bit unsigned division and remainder by a register, expanded the way AMD's compilers do
//! it, since the hardware has no 64-bit divide:
//!
//! 1. a single-precision reciprocal of the divisor, scaled to `2^64 / d` and split into two
//!    dwords, good to about 20 bits;
//! 2. two Newton–Raphson steps `r += mulhi(r, -d * r)` in 64-bit integer arithmetic, each
//!    squaring the relative error;
//! 3. the quotient estimate `q = mulhi(n, r)`, its remainder `n - q * d`, and two corrections
//!    that each add one to `q` while the remainder still reaches `d`.
//!
//! The float scale is `2^64 * (1 - 2^-20)`, not the `1 - 2^-22` one could get away with on
//! paper: the estimate must never exceed `2^64 / d` (a Newton step from above wraps around),
//! and the margin absorbs `v_rcp_f32`'s 1-ulp error plus the roundings of the divisor's
//! conversion with room to spare. Newton steps from below stay below, so the quotient
//! estimate is low by at most two. The first Newton step drops the lowest partial product
//! (its result only feeds a step that squares the error away); the second step and the
//! quotient use the exact high product. The unit test below runs a model of the sequence
//! with the reciprocal perturbed by ±2 ulp (checked on tens of millions of operands while
//! choosing the constants); `tests/div_random.rs` checks the machine code itself.
//!
//! Everything is straight-line code, so divergent operands need no branches. A uniform
//! divisor gets its reciprocal refined on the scalar unit (only the float estimate needs the
//! vector unit); uniform dividend and divisor run entirely there. Division by zero gives what
//! the IR defines: all ones, and the dividend as the remainder (which the remainder
//! arithmetic produces by itself, as `q * 0 = 0` and corrections subtract zero). Signed
//! forms divide magnitudes and fix the signs. The 64-bit building blocks are in
//! [`super::arith64`].

use ferrum_isa::Opcode as O;

use super::alu::all_scalar;
use super::alu_int::split;
use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::amd::mir::{RegClass, RegRef};
use crate::ir::ops::AluOp;

/// `2^32` as an f32.
const F32_2P32: u64 = 0x4f80_0000;
/// `-2^32` as an f32.
const F32_M2P32: u64 = 0xcf80_0000;
/// `2^-32` as an f32.
const F32_2PM32: u64 = 0x2f80_0000;
/// `2^64 * (1 - 2^-20)` as an f32: scales `1/d` to a 64-bit fixed-point reciprocal that is
/// always below the true `2^64 / d` (see the module docs).
const F32_RCP_SCALE: u64 = 0x5f7f_fff0;

/// A division already selected in a machine block: its operands and results (for the signed
/// forms, the operands' signs and magnitudes too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CachedDivision {
    block: usize,
    signed: bool,
    scalar: bool,
    n: MVal,
    d: MVal,
    parts: [MVal; 5],
}

impl Isel<'_> {
    /// The cached results of a division in the current block.
    fn cached_division(&self, signed: bool, scalar: bool, n: MVal, d: MVal) -> Option<[MVal; 5]> {
        self.div_cache
            .iter()
            .find(|c| {
                c.block == self.cur
                    && c.signed == signed
                    && c.scalar == scalar
                    && c.n == n
                    && c.d == d
            })
            .map(|c| c.parts)
    }

    fn cache_division(&mut self, signed: bool, scalar: bool, n: MVal, d: MVal, parts: [MVal; 5]) {
        let block = self.cur;
        self.div_cache.push(CachedDivision { block, signed, scalar, n, d, parts });
    }

    /// (quotient, remainder) of `n / d`, both 64-bit; `uniform` when the result is.
    /// Results nobody reads are removed later by dead-code elimination; a division of the
    /// same operands earlier in the same block is reused.
    pub(super) fn udivmod64(
        &mut self,
        n: MVal,
        d: MVal,
        uniform: bool,
    ) -> Result<(MVal, MVal), BackendError> {
        if let Some([q, r, ..]) = self.cached_division(false, uniform, n, d) {
            return Ok((q, r));
        }
        let (q, r) = self.udivmod64_fixed(n, d, uniform)?;
        let none = MVal::Const(0);
        self.cache_division(false, uniform, n, d, [q, r, none, none, none]);
        Ok((q, r))
    }

    fn udivmod64_fixed(
        &mut self,
        n: MVal,
        d: MVal,
        uniform: bool,
    ) -> Result<(MVal, MVal), BackendError> {
        let (q, r) = self.udivmod64_raw(n, d, uniform)?;
        if let MVal::Reg(_, RegClass::S) = q {
            let zero = self.sopc64(O::S_CMP_EQ_U64, d, MVal::Const(0))?;
            return Ok((self.cselect64(zero, MVal::Const(u64::MAX), q)?, r));
        }
        let zero = self.vreg(RegClass::S, 1);
        let zero = self.compare64(AluOp::Ieq, &[d, MVal::Const(0)], zero)?;
        Ok((self.vsel64(zero, MVal::Const(u64::MAX), q)?, r))
    }

    /// [`Self::udivmod64`] without the fix-up for division by zero (the quotient is then
    /// unspecified; the remainder is still the dividend).
    pub(super) fn udivmod64_raw(
        &mut self,
        n: MVal,
        d: MVal,
        uniform: bool,
    ) -> Result<(MVal, MVal), BackendError> {
        let d_scalar = !matches!(d, MVal::Reg(_, RegClass::V));
        let r = self.recip64(d, d_scalar)?;
        if uniform && d_scalar && all_scalar(&[n]) {
            return self.udivmod64_scalar(n, d, r);
        }
        let q = self.mulhi64(n, r, true)?;
        let qd = self.mullo64(q, d)?;
        let (rem, _) = self.sub64(n, qd)?;
        // First correction: the borrow of `rem - d` says whether `rem` reached `d`.
        let (t, borrow) = self.sub64(rem, d)?;
        let rem = self.vsel64(MVal::Reg(borrow, RegClass::S), rem, t)?;
        let q = self.add_not_borrow(q, borrow)?;
        // The second on whichever of the two is read: a compare is cheaper when only the
        // quotient is.
        let c = self.vreg(RegClass::S, 1);
        self.compare64(AluOp::Uge, &[rem, d], c)?;
        let (t, _) = self.sub64(rem, d)?;
        let rem = self.vsel64(MVal::Reg(c, RegClass::S), t, rem)?;
        Ok((self.add_carry_in(q, c)?, rem))
    }

    /// The quotient estimate and its corrections on the scalar unit, given the reciprocal.
    fn udivmod64_scalar(
        &mut self,
        n: MVal,
        d: MVal,
        r: MVal,
    ) -> Result<(MVal, MVal), BackendError> {
        let mut q = self.mulhi64_scalar(n, r, true)?;
        let qd = self.mullo64_scalar(q, d)?;
        let mut rem = self.sub64_scalar(n, qd)?;
        for _ in 0..2 {
            // w = (q + 1, rem - d); the subtraction's borrow in SCC picks between them and
            // the old values. One register for all four words keeps dead-code elimination
            // (blind to SCC) from dropping the subtraction while a selection reads SCC.
            let w = self.sgpr_group(4, 2);
            let ((ql, qh), (rl, rh), (dl, dh)) = (split(q), split(rem), split(d));
            let steps = [
                (O::S_ADD_U32, 0, ql, MVal::Const(1)),
                (O::S_ADDC_U32, 1, qh, MVal::Const(0)),
                (O::S_SUB_U32, 2, rl, dl),
                (O::S_SUBB_U32, 3, rh, dh),
            ];
            for (op, at, a, b) in steps {
                let (a, b) = (self.src(a)?, self.src(b)?);
                self.emit(build::sop2(op, Some(w.at(at)), a, b, 1));
            }
            let pick = |s: &mut Self, t: MVal, f: RegRef| -> Result<MVal, BackendError> {
                let r = s.vreg(RegClass::S, 2);
                let t = s.src64s(t)?;
                s.emit(build::sop2(O::S_CSELECT_B64, Some(r), t, Src::R(f, RegClass::S), 2));
                Ok(MVal::Reg(r, RegClass::S))
            };
            rem = pick(self, rem, w.at(2))?;
            q = pick(self, q, w)?;
        }
        Ok((q, rem))
    }

    /// The 64-bit fixed-point reciprocal `r <= 2^64 / d`, exact to a unit or two, refined on
    /// the scalar unit when `d` is uniform.
    fn recip64(&mut self, d: MVal, scalar: bool) -> Result<MVal, BackendError> {
        let (dl, dh) = split(d);
        let fl = self.v1(O::V_CVT_F32_U32, dl)?;
        let fh = self.v1(O::V_CVT_F32_U32, dh)?;
        let fd = self.v3(O::V_FMA_F32, &[fh, MVal::Const(F32_2P32), fl], 0)?;
        let rc = self.v1(O::V_RCP_F32, fd)?;
        let m = self.bin(None, O::V_MUL_F32, false, MVal::Const(F32_RCP_SCALE), rc)?;
        let mh = self.bin(None, O::V_MUL_F32, false, MVal::Const(F32_2PM32), m)?;
        let th = self.v1(O::V_TRUNC_F32, mh)?;
        // Exact: `th * 2^32` is `m` with its low bits cleared.
        let tl = self.v3(O::V_FMA_F32, &[th, MVal::Const(F32_M2P32), m], 0)?;
        let v = self.vreg(RegClass::V, 2);
        self.emit(build::vop1(O::V_CVT_U32_F32, v, self.src(tl)?));
        self.emit(build::vop1(O::V_CVT_U32_F32, v.at(1), self.src(th)?));
        if !scalar {
            let (neg_d, _) = self.sub64(MVal::Const(0), d)?;
            let mut r = MVal::Reg(v, RegClass::V);
            for exact in [false, true] {
                let e = self.mullo64(neg_d, r)?;
                let h = self.mulhi64(r, e, exact)?;
                r = self.add64(r, h, false)?;
            }
            return Ok(r);
        }
        let s = self.vreg(RegClass::S, 2);
        self.emit(build::readfirstlane(s, v));
        self.emit(build::readfirstlane(s.at(1), v.at(1)));
        let neg_d = self.sub64_scalar(MVal::Const(0), d)?;
        let mut r = MVal::Reg(s, RegClass::S);
        for exact in [false, true] {
            let e = self.mullo64_scalar(neg_d, r)?;
            let h = self.mulhi64_scalar(r, e, exact)?;
            r = self.add64(r, h, true)?;
        }
        Ok(r)
    }

    /// Signed 64-bit division, remainder (sign of the dividend) and modulo (sign of the
    /// divisor) by a register: magnitudes divided, signs fixed, and the IR's values for
    /// division by zero and for `i64::MIN / -1` (all ones; remainder the dividend; modulo 0).
    /// Uniform operands in SGPRs stay on the scalar unit throughout.
    pub(super) fn sdivmod64(
        &mut self,
        op: AluOp,
        a: MVal,
        b: MVal,
        uniform: bool,
    ) -> Result<MVal, BackendError> {
        use AluOp::*;
        let sc = uniform && all_scalar(&[a, b]);
        let [sa, sb, abs_a, q, r] = match self.cached_division(true, sc, a, b) {
            Some(parts) => parts,
            None => {
                let (sa, abs_a) = self.abs64(a, sc)?;
                let (sb, abs_b) = self.abs64(b, sc)?;
                let (q, r) = self.udivmod64_raw(abs_a, abs_b, sc)?;
                self.cache_division(true, sc, a, b, [sa, sb, abs_a, q, r]);
                [sa, sb, abs_a, q, r]
            }
        };
        match op {
            Idiv => {
                let s = self.xor32(sa, sb, sc)?;
                let q = self.apply_sign(q, s, sc)?;
                let zero = self.cmp64(Ieq, b, MVal::Const(0), sc)?;
                let overflow = self.is_min_by_minus_one(abs_a, b, sc)?;
                let bad = self.bool_op(Ior, &[zero, overflow])?;
                self.sel64(bad, MVal::Const(u64::MAX), q, sc)
            }
            Irem => {
                // |b| = 0 leaves |a| as the remainder, which the sign fix turns back into a.
                let rem = self.apply_sign(r, sa, sc)?;
                let overflow = self.is_min_by_minus_one(abs_a, b, sc)?;
                self.sel64(overflow, a, rem, sc)
            }
            _ => {
                // Imod: a non-zero remainder whose sign differs from the divisor's moves by
                // one divisor (the overflow case has remainder 0, as the IR defines; a zero
                // divisor adds nothing to the dividend).
                let rem = self.apply_sign(r, sa, sc)?;
                let nz = self.cmp64(Ine, rem, MVal::Const(0), sc)?;
                let sx = self.xor32(split(rem).1, split(b).1, sc)?;
                let differ = self.compare(Ilt, 32, &[sx, MVal::Const(0)], sc)?;
                let fix = self.bool_op(Iand, &[nz, differ])?;
                let sum = self.add64(rem, b, sc)?;
                self.sel64(fix, sum, rem, sc)
            }
        }
    }

    /// A 64-bit compare on the vector unit.
    pub(super) fn vcmp64(&mut self, op: AluOp, x: MVal, y: MVal) -> Result<MVal, BackendError> {
        let m = self.vreg(RegClass::S, 1);
        self.compare64(op, &[x, y], m)
    }

    /// `x == y` or `x != y` over 64 bits: a lane mask, or on the scalar unit an all-ones or
    /// zero word.
    fn cmp64(&mut self, op: AluOp, x: MVal, y: MVal, scalar: bool) -> Result<MVal, BackendError> {
        match (scalar, op) {
            (true, AluOp::Ieq) => self.sopc64(O::S_CMP_EQ_U64, x, y),
            (true, _) => self.sopc64(O::S_CMP_LG_U64, x, y),
            _ => self.vcmp64(op, x, y),
        }
    }

    /// `mask ? t : f` over 64 bits on either unit.
    fn sel64(&mut self, mask: MVal, t: MVal, f: MVal, scalar: bool) -> Result<MVal, BackendError> {
        if scalar {
            self.cselect64(mask, t, f)
        } else {
            self.vsel64(mask, t, f)
        }
    }

    fn xor32(&mut self, a: MVal, b: MVal, scalar: bool) -> Result<MVal, BackendError> {
        self.bin(Some(O::S_XOR_B32).filter(|_| scalar), O::V_XOR_B32, false, a, b)
    }

    /// `a == i64::MIN && b == -1`, given `|a|` (whose sign bit is set only for `i64::MIN`).
    fn is_min_by_minus_one(
        &mut self,
        abs_a: MVal,
        b: MVal,
        scalar: bool,
    ) -> Result<MVal, BackendError> {
        let m1 = self.cmp64(AluOp::Ieq, b, MVal::Const(u64::MAX), scalar)?;
        let min = self.compare(AluOp::Ilt, 32, &[split(abs_a).1, MVal::Const(0)], scalar)?;
        self.bool_op(AluOp::Iand, &[m1, min])
    }

    /// (sign word: 0 or all ones, magnitude) of a 64-bit integer.
    pub(super) fn abs64(&mut self, x: MVal, scalar: bool) -> Result<(MVal, MVal), BackendError> {
        let (_, xh) = split(x);
        let s = if scalar {
            self.bin(Some(O::S_ASHR_I32), O::V_NOP, false, xh, MVal::Const(31))?
        } else {
            self.bin(None, O::V_ASHRREV_I32, false, MVal::Const(31), xh)?
        };
        Ok((s, self.apply_sign(x, s, scalar)?))
    }

    /// `x` negated where the sign word `s` is all ones: `(x ^ s) - s`.
    pub(super) fn apply_sign(
        &mut self,
        x: MVal,
        s: MVal,
        scalar: bool,
    ) -> Result<MVal, BackendError> {
        let (xl, xh) = split(x);
        let lo = self.xor32(xl, s, scalar)?;
        let hi = self.xor32(xh, s, scalar)?;
        if scalar {
            return self.sub64_scalar_halves((lo, hi), (s, s));
        }
        Ok(self.sub64_halves((lo, hi), (s, s))?.0)
    }
}

#[cfg(test)]
mod tests {
    use super::F32_RCP_SCALE;

    fn mulhi(a: u64, b: u64) -> u64 {
        ((u128::from(a) * u128::from(b)) >> 64) as u64
    }

    /// `mulhi` without the lowest partial product, as the first Newton step computes it.
    fn mulhi_approx(x: u64, y: u64) -> u64 {
        let (x0, x1, y0, y1) = (x & 0xffff_ffff, x >> 32, y & 0xffff_ffff, y >> 32);
        let mid = u128::from(x0 * y1) + u128::from(x1 * y0);
        (u128::from(x1 * y1) + (mid >> 32)) as u64
    }

    /// `v_cvt_u32_f32`: NaN and negatives to 0, saturating above.
    fn cvt_u32(f: f32) -> u32 {
        if f.is_nan() || f <= 0.0 {
            0
        } else if f >= 4294967295.0 {
            u32::MAX
        } else {
            f as u32
        }
    }

    /// The expansion's quotient estimate (before corrections) with `v_rcp_f32` off by `ulp`.
    fn estimate(n: u64, d: u64, ulp: i32) -> u64 {
        let fd = ((d >> 32) as u32 as f32).mul_add(4294967296.0, d as u32 as f32);
        let rc = f32::from_bits((1.0 / fd).to_bits().wrapping_add_signed(ulp));
        let m = rc * f32::from_bits(F32_RCP_SCALE as u32);
        let th = (m * f32::from_bits(0x2f80_0000)).trunc();
        let tl = th.mul_add(-4294967296.0, m);
        let mut r = u64::from(cvt_u32(th)) << 32 | u64::from(cvt_u32(tl));
        for exact in [false, true] {
            let e = d.wrapping_neg().wrapping_mul(r);
            r = r.wrapping_add(if exact { mulhi(r, e) } else { mulhi_approx(r, e) });
        }
        mulhi(n, r)
    }

    /// The estimate is never above the quotient and at most two below, with the reciprocal
    /// up to two ulp off either way, for edge and random operands.
    #[test]
    fn quotient_estimate_needs_at_most_two_corrections() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut pairs = Vec::new();
        for _ in 0..40_000 {
            let (a, b) = (next(), next());
            let (sa, sb) = ((a >> 58) as u32, (b >> 58) as u32);
            let n = [a, a >> sa, u64::MAX - (a >> sa)][(a % 3) as usize];
            let d = [b >> sb, 1 << sb, (1u64 << sb).wrapping_sub(1 + (a & 3)), (1 << sb) + (a & 7)]
                [(b % 4) as usize];
            pairs.push((n, d.max(1)));
        }
        pairs.extend([(u64::MAX, 1), (u64::MAX, 3), (u64::MAX, u64::MAX), (1 << 63, 1 << 32)]);
        for (n, d) in pairs {
            for ulp in -2..=2 {
                let q = estimate(n, d, ulp);
                assert!(q <= n / d && n / d - q <= 2, "{n:#x} / {d:#x} ({ulp} ulp): {q:#x}");
            }
        }
    }
}
