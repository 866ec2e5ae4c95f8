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
//! quotient use the exact high product. The bounds were checked against a model of this
//! sequence on tens of millions of operands with the reciprocal perturbed by ±2 ulp;
//! `tests/div_random.rs` checks the machine code itself.
//!
//! Everything is straight-line code, so divergent operands need no branches. A uniform
//! divisor gets its reciprocal refined on the scalar unit (only the float estimate needs the
//! vector unit); uniform dividend and divisor run entirely there. Division by zero gives what
//! the IR defines: all ones, and the dividend as the remainder (which the remainder
//! arithmetic produces by itself, as `q * 0 = 0` and corrections subtract zero).

use ferrum_isa::Opcode as O;

use super::alu::all_scalar;
use super::alu_int::split;
use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::amd::mir::{RegClass, RegRef, Slot};
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

impl Isel<'_> {
    /// (quotient, remainder) of `n / d`, both 64-bit; `uniform` when the result is.
    /// Results nobody reads are removed later by dead-code elimination.
    pub(super) fn udivmod64(
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
        let (mut rem, _) = self.sub64_scalar(n, qd)?;
        for _ in 0..2 {
            let q1 = self.add64(q, MVal::Const(1), true)?;
            let (t, borrow) = self.sub64_scalar(rem, d)?;
            let b = MVal::Reg(borrow, RegClass::S);
            rem = self.cselect64(b, rem, t)?;
            q = self.cselect64(b, q, q1)?;
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
        let (neg_d, _) = self.sub64_scalar(MVal::Const(0), d)?;
        let mut r = MVal::Reg(s, RegClass::S);
        for exact in [false, true] {
            let e = self.mullo64_scalar(neg_d, r)?;
            let h = self.mulhi64_scalar(r, e, exact)?;
            r = self.add64(r, h, true)?;
        }
        Ok(r)
    }

    /// `x - y` over 64 bits on the vector unit, and the final borrow's lane mask.
    pub(super) fn sub64(&mut self, x: MVal, y: MVal) -> Result<(MVal, RegRef), BackendError> {
        self.sub64_halves(split(x), split(y))
    }

    /// `x + y` over 64 bits on the vector unit, from separate halves.
    pub(super) fn add64_halves(
        &mut self,
        (xl, xh): (MVal, MVal),
        (yl, yh): (MVal, MVal),
    ) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::V, 2);
        let (c0, c1) = (self.vreg(RegClass::S, 1), self.vreg(RegClass::S, 1));
        let mut lo = [self.src(xl)?, self.src(yl)?];
        self.limit_bus(&mut lo);
        self.emit(build::vop3(O::V_ADD_CO_U32, Some(r), Some(c0), &lo, 0));
        let hi = self.with_carry(xh, yh, c0)?;
        self.emit(build::vop3(O::V_ADD_CO_CI_U32, Some(r.at(1)), Some(c1), &hi, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    pub(super) fn sub64_halves(
        &mut self,
        (xl, xh): (MVal, MVal),
        (yl, yh): (MVal, MVal),
    ) -> Result<(MVal, RegRef), BackendError> {
        let r = self.vreg(RegClass::V, 2);
        let b0 = self.vreg(RegClass::S, 1);
        let mut lo = [self.src(xl)?, self.src(yl)?];
        self.limit_bus(&mut lo);
        self.emit(build::vop3(O::V_SUB_CO_U32, Some(r), Some(b0), &lo, 0));
        let b1 = self.vreg(RegClass::S, 1);
        let hi = self.with_carry(xh, yh, b0)?;
        self.emit(build::vop3(O::V_SUB_CO_CI_U32, Some(r.at(1)), Some(b1), &hi, 0));
        Ok((MVal::Reg(r, RegClass::V), b1))
    }

    /// `x - y` over 64 bits on the scalar unit, and the final borrow as an all-ones or zero
    /// word. The borrow shares the difference's register so that dead-code elimination,
    /// which cannot see SCC, keeps the subtraction whenever the borrow is read.
    fn sub64_scalar(&mut self, x: MVal, y: MVal) -> Result<(MVal, RegRef), BackendError> {
        let ((xl, xh), (yl, yh)) = (split(x), split(y));
        let r = self.sgpr_pair_plus_one();
        let (a, b) = (self.src(xl)?, self.src(yl)?);
        self.emit(build::sop2(O::S_SUB_U32, Some(r), a, b, 1));
        let (a, b) = (self.src(xh)?, self.src(yh)?);
        self.emit(build::sop2(O::S_SUBB_U32, Some(r.at(1)), a, b, 1));
        let all = Src::I(u32::MAX);
        self.emit(build::sop2(O::S_CSELECT_B32, Some(r.at(2)), all, Src::I(0), 1));
        Ok((MVal::Reg(r, RegClass::S), r.at(2)))
    }

    /// Three SGPRs whose first two are a 64-bit operand (so aligned like a pair).
    fn sgpr_pair_plus_one(&mut self) -> RegRef {
        let r = self.vreg(RegClass::S, 3);
        self.mf.vregs[r.vreg.0 as usize].align = 2;
        r
    }

    /// SCC from a 64-bit scalar compare, as an all-ones or zero word.
    fn sopc64(&mut self, op: O, x: MVal, y: MVal) -> Result<MVal, BackendError> {
        let (a, b) = (self.src64s(x)?, self.src64s(y)?);
        let mut mi = build::sopc(op, a, b);
        for u in mi.uses.iter_mut() {
            u.dwords = 2;
        }
        self.emit(mi);
        let m = self.vreg(RegClass::S, 1);
        self.emit(build::sop2(O::S_CSELECT_B32, Some(m), Src::I(u32::MAX), Src::I(0), 1));
        Ok(MVal::Reg(m, RegClass::S))
    }

    /// `mask ? t : f` over 64 bits on the scalar unit, for an all-ones or zero `mask`.
    fn cselect64(&mut self, mask: MVal, t: MVal, f: MVal) -> Result<MVal, BackendError> {
        let m = self.src(mask)?;
        self.emit(build::sopc(O::S_CMP_LG_U32, m, Src::I(0)));
        let (t, f) = (self.src64s(t)?, self.src64s(f)?);
        let r = self.vreg(RegClass::S, 2);
        self.emit(build::sop2(O::S_CSELECT_B64, Some(r), t, f, 2));
        Ok(MVal::Reg(r, RegClass::S))
    }

    /// A 64-bit scalar operand: registers as they are, small integers inline, others in
    /// SGPRs.
    fn src64s(&mut self, v: MVal) -> Result<Src, BackendError> {
        match v {
            MVal::Const(c) if (c as i64) >= -16 && (c as i64) <= 64 => Ok(Src::I(c as u32)),
            MVal::Reg(r, cl) => Ok(Src::R(r, cl)),
            other => match self.in_sgpr(other, 2, true)? {
                Some(r) => Ok(Src::R(r, RegClass::S)),
                None => Err(crate::amd::error::unsupported("a 64-bit scalar operand")),
            },
        }
    }

    /// Sources `[a, b, carry]` of an add/sub with carry-in, within the constant-bus limit
    /// (the carry mask takes one of the two slots).
    fn with_carry(&mut self, a: MVal, b: MVal, carry: RegRef) -> Result<[Src; 3], BackendError> {
        let (a, mut b) = (self.src(a)?, self.src(b)?);
        if a.uses_const_bus() && b.uses_const_bus() {
            let t = self.vreg(RegClass::V, 1);
            self.emit(build::vop1(O::V_MOV_B32, t, b));
            b = Src::R(t, RegClass::V);
        }
        Ok([a, b, Src::R(carry, RegClass::S)])
    }

    /// `mask ? t : f` over 64 bits on the vector unit, into one register pair.
    pub(super) fn vsel64(&mut self, mask: MVal, t: MVal, f: MVal) -> Result<MVal, BackendError> {
        let MVal::Reg(m, _) = mask else {
            return Ok(if mask == MVal::Const(0) { f } else { t });
        };
        let r = self.vreg(RegClass::V, 2);
        let ((tl, th), (fl, fh)) = (split(t), split(f));
        for (i, (t, f)) in [(tl, fl), (th, fh)].into_iter().enumerate() {
            // The mask takes one constant-bus slot.
            let [f, t, _] = self.with_carry(f, t, m)?;
            let srcs = [f, t, Src::R(m, RegClass::S)];
            self.emit(build::vop3(O::V_CNDMASK_B32, Some(r.at(i as u8)), None, &srcs, 0));
        }
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// `q + 1 - borrow` over 64 bits: `q - (-1) - borrow`, whose low-half borrow is the
    /// inverse of the carry into the high half.
    fn add_not_borrow(&mut self, q: MVal, borrow: RegRef) -> Result<MVal, BackendError> {
        let (ql, qh) = split(q);
        let r = self.vreg(RegClass::V, 2);
        let (b0, b1) = (self.vreg(RegClass::S, 1), self.vreg(RegClass::S, 1));
        let lo = self.with_carry(ql, MVal::Const(u64::from(u32::MAX)), borrow)?;
        self.emit(build::vop3(O::V_SUB_CO_CI_U32, Some(r), Some(b0), &lo, 0));
        let hi = self.with_carry(qh, MVal::Const(u64::from(u32::MAX)), b0)?;
        self.emit(build::vop3(O::V_SUB_CO_CI_U32, Some(r.at(1)), Some(b1), &hi, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// `q + c` over 64 bits for a lane mask `c` (one where set).
    fn add_carry_in(&mut self, q: MVal, c: RegRef) -> Result<MVal, BackendError> {
        let (ql, qh) = split(q);
        let r = self.vreg(RegClass::V, 2);
        let (c0, c1) = (self.vreg(RegClass::S, 1), self.vreg(RegClass::S, 1));
        let lo = self.with_carry(ql, MVal::Const(0), c)?;
        self.emit(build::vop3(O::V_ADD_CO_CI_U32, Some(r), Some(c0), &lo, 0));
        let hi = self.with_carry(qh, MVal::Const(0), c0)?;
        self.emit(build::vop3(O::V_ADD_CO_CI_U32, Some(r.at(1)), Some(c1), &hi, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// `v_mad_u64_u32 dst, a * b + c` with `c` a 64-bit source; returns the carry-out mask.
    fn mad64(&mut self, dst: RegRef, a: MVal, b: MVal, c: Src) -> Result<RegRef, BackendError> {
        let mut srcs = [self.src(a)?, self.src(b)?, c];
        self.limit_bus(&mut srcs[..2]);
        if c.uses_const_bus() && srcs[0].uses_const_bus() && srcs[1].uses_const_bus() {
            let t = self.vreg(RegClass::V, 1);
            self.emit(build::vop1(O::V_MOV_B32, t, srcs[1]));
            srcs[1] = Src::R(t, RegClass::V);
        }
        let carry = self.vreg(RegClass::S, 1);
        let mut mi = build::vop3w(O::V_MAD_U64_U32, Some((dst, 2)), Some(carry), &srcs, 1, 0);
        if let Some(u) = mi.uses.iter_mut().find(|u| u.slot == Slot::Src2) {
            u.dwords = 2;
        }
        self.emit(mi);
        Ok(carry)
    }

    /// The low 64 bits of `x * y` on the vector unit.
    pub(super) fn mullo64(&mut self, x: MVal, y: MVal) -> Result<MVal, BackendError> {
        let ((x0, x1), (y0, y1)) = (split(x), split(y));
        let r = self.vreg(RegClass::V, 2);
        self.mad64(r, x0, y0, Src::I(0))?;
        // Cross products into the high half, leaving out those with a zero factor.
        let mut srcs = vec![Src::R(r.at(1), RegClass::V)];
        for (a, b) in [(x0, y1), (x1, y0)] {
            if a != MVal::Const(0) && b != MVal::Const(0) {
                let c = self.bin(None, O::V_MUL_LO_U32, false, a, b)?;
                srcs.push(self.src(c)?);
            }
        }
        let op = match srcs.len() {
            1 => return Ok(MVal::Reg(r, RegClass::V)),
            2 => O::V_ADD_NC_U32,
            _ => O::V_ADD3_U32,
        };
        self.limit_bus(&mut srcs);
        self.emit(build::vop3(op, Some(r.at(1)), None, &srcs, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// The low 64 bits of `x * y` on the scalar unit.
    fn mullo64_scalar(&mut self, x: MVal, y: MVal) -> Result<MVal, BackendError> {
        let ((x0, x1), (y0, y1)) = (split(x), split(y));
        let r = self.vreg(RegClass::S, 2);
        let (a, b) = (self.src(x0)?, self.src(y0)?);
        self.emit(build::sop2(O::S_MUL_I32, Some(r), a, b, 1));
        let h = self.smul(O::S_MUL_HI_U32, x0, y0)?;
        let c1 = self.smul(O::S_MUL_I32, x0, y1)?;
        let c2 = self.smul(O::S_MUL_I32, x1, y0)?;
        let t = self.smul(O::S_ADD_U32, h, c1)?;
        let (a, b) = (self.src(t)?, self.src(c2)?);
        self.emit(build::sop2(O::S_ADD_U32, Some(r.at(1)), a, b, 1));
        Ok(MVal::Reg(r, RegClass::S))
    }

    /// A two-source scalar op into a fresh SGPR.
    fn smul(&mut self, op: O, a: MVal, b: MVal) -> Result<MVal, BackendError> {
        self.bin(Some(op), O::V_NOP, false, a, b)
    }

    /// The high 64 bits of the 128-bit `x * y` on the vector unit; without `exact`, the
    /// lowest partial product is left out, which can make the result one or two smaller.
    pub(super) fn mulhi64(&mut self, x: MVal, y: MVal, exact: bool) -> Result<MVal, BackendError> {
        let ((x0, x1), (y0, y1)) = (split(x), split(y));
        // a = x0 * y1 (+ the high half of x0 * y0); b = a + x1 * y0 is the middle column,
        // whose carry-out is bit 32 of what it adds to the top column: t = (b.hi, carry).
        let a = self.vreg(RegClass::V, 2);
        let a_in = if exact {
            let p = self.vreg(RegClass::V, 2);
            let mut srcs = [self.src(x0)?, self.src(y0)?];
            self.limit_bus(&mut srcs);
            self.emit(build::vop3(O::V_MUL_HI_U32, Some(p), None, &srcs, 0));
            self.emit(build::vop1(O::V_MOV_B32, p.at(1), Src::I(0)));
            Src::R(p, RegClass::V)
        } else {
            Src::I(0)
        };
        self.mad64(a, x0, y1, a_in)?;
        let t = self.vreg(RegClass::V, 3);
        let carry = self.mad64(t, x1, y0, Src::R(a, RegClass::V))?;
        let bit = [Src::I(0), Src::I(1), Src::R(carry, RegClass::S)];
        self.emit(build::vop3(O::V_CNDMASK_B32, Some(t.at(2)), None, &bit, 0));
        let r = self.vreg(RegClass::V, 2);
        self.mad64(r, x1, y1, Src::R(t.at(1), RegClass::V))?;
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// [`Self::mulhi64`] on the scalar unit, from 32x32 products and carry chains. Each
    /// carry's producer shares a register with its consumer's result, so dead-code
    /// elimination (blind to SCC) keeps the chain whole.
    fn mulhi64_scalar(&mut self, x: MVal, y: MVal, exact: bool) -> Result<MVal, BackendError> {
        let ((x0, x1), (y0, y1)) = (split(x), split(y));
        let sr = |v: MVal| match v {
            MVal::Reg(r, c) => Src::R(r, c),
            MVal::Const(c) => Src::I(c as u32),
            MVal::Res(_) => Src::I(0),
        };
        let al = self.smul(O::S_MUL_I32, x0, y1)?;
        let ah = self.smul(O::S_MUL_HI_U32, x0, y1)?;
        let bl = self.smul(O::S_MUL_I32, x1, y0)?;
        let bh = self.smul(O::S_MUL_HI_U32, x1, y0)?;
        let cl = self.smul(O::S_MUL_I32, x1, y1)?;
        let ch = self.smul(O::S_MUL_HI_U32, x1, y1)?;
        // mid = (column 1 sum, its carry into column 2 added to ah + bh).
        let mid = self.vreg(RegClass::S, 2);
        if exact {
            let t0 = self.smul(O::S_MUL_HI_U32, x0, y0)?;
            let m0 = self.vreg(RegClass::S, 2);
            self.emit(build::sop2(O::S_ADD_U32, Some(m0), sr(t0), sr(al), 1));
            self.emit(build::sop2(O::S_ADDC_U32, Some(m0.at(1)), sr(ah), Src::I(0), 1));
            let (m, h) = (Src::R(m0, RegClass::S), Src::R(m0.at(1), RegClass::S));
            self.emit(build::sop2(O::S_ADD_U32, Some(mid), m, sr(bl), 1));
            self.emit(build::sop2(O::S_ADDC_U32, Some(mid.at(1)), h, sr(bh), 1));
        } else {
            self.emit(build::sop2(O::S_ADD_U32, Some(mid), sr(al), sr(bl), 1));
            self.emit(build::sop2(O::S_ADDC_U32, Some(mid.at(1)), sr(ah), sr(bh), 1));
        }
        // The column-2 carry goes to the top word first, then the low word adds cl.
        let out = self.sgpr_pair_plus_one();
        self.emit(build::sop2(O::S_ADDC_U32, Some(out.at(2)), sr(ch), Src::I(0), 1));
        let h = Src::R(mid.at(1), RegClass::S);
        self.emit(build::sop2(O::S_ADD_U32, Some(out), h, sr(cl), 1));
        let top = Src::R(out.at(2), RegClass::S);
        self.emit(build::sop2(O::S_ADDC_U32, Some(out.at(1)), top, Src::I(0), 1));
        Ok(MVal::Reg(out, RegClass::S))
    }

    /// Signed 64-bit division, remainder (sign of the dividend) and modulo (sign of the
    /// divisor) by a register: magnitudes divided, signs fixed, and the IR's values for
    /// division by zero and for `i64::MIN / -1` (all ones; remainder the dividend; modulo 0).
    pub(super) fn sdivmod64(
        &mut self,
        op: AluOp,
        a: MVal,
        b: MVal,
        uniform: bool,
    ) -> Result<MVal, BackendError> {
        use AluOp::*;
        let (sa, abs_a) = self.abs64(a)?;
        let (sb, abs_b) = self.abs64(b)?;
        let (q, r) = self.udivmod64_raw(abs_a, abs_b, uniform)?;
        match op {
            Idiv => {
                let s = self.bin(None, O::V_XOR_B32, false, sa, sb)?;
                let q = self.apply_sign(q, s)?;
                let zero = self.vcmp64(Ieq, b, MVal::Const(0))?;
                let overflow = self.is_min_by_minus_one(abs_a, b)?;
                let bad = self.bool_op(Ior, &[zero, overflow])?;
                self.vsel64(bad, MVal::Const(u64::MAX), q)
            }
            Irem => {
                // |b| = 0 leaves |a| as the remainder, which the sign fix turns back into a.
                let rem = self.apply_sign(r, sa)?;
                let overflow = self.is_min_by_minus_one(abs_a, b)?;
                self.vsel64(overflow, a, rem)
            }
            _ => {
                // Imod: a non-zero remainder whose sign differs from the divisor's moves by
                // one divisor (the overflow case has remainder 0, as the IR defines; a zero
                // divisor adds nothing to the dividend).
                let rem = self.apply_sign(r, sa)?;
                let nz = self.vcmp64(Ine, rem, MVal::Const(0))?;
                let (_, rh) = split(rem);
                let (_, bh) = split(b);
                let sx = self.bin(None, O::V_XOR_B32, false, rh, bh)?;
                let differ = self.compare(Ilt, 32, &[sx, MVal::Const(0)], false)?;
                let fix = self.bool_op(Iand, &[nz, differ])?;
                let sum = self.add64(rem, b, false)?;
                self.vsel64(fix, sum, rem)
            }
        }
    }

    /// A 64-bit compare on the vector unit.
    pub(super) fn vcmp64(&mut self, op: AluOp, x: MVal, y: MVal) -> Result<MVal, BackendError> {
        let m = self.vreg(RegClass::S, 1);
        self.compare64(op, &[x, y], m)
    }

    /// `a == i64::MIN && b == -1`, given `|a|` (whose sign bit is set only for `i64::MIN`).
    fn is_min_by_minus_one(&mut self, abs_a: MVal, b: MVal) -> Result<MVal, BackendError> {
        let m1 = self.vcmp64(AluOp::Ieq, b, MVal::Const(u64::MAX))?;
        let min = self.vcmp64(AluOp::Ilt, abs_a, MVal::Const(0))?;
        self.bool_op(AluOp::Iand, &[m1, min])
    }

    /// (sign word: 0 or all ones, magnitude) of a 64-bit integer.
    pub(super) fn abs64(&mut self, x: MVal) -> Result<(MVal, MVal), BackendError> {
        let (_, xh) = split(x);
        let s = self.bin(None, O::V_ASHRREV_I32, false, MVal::Const(31), xh)?;
        Ok((s, self.apply_sign(x, s)?))
    }

    /// `x` negated where the sign word `s` is all ones: `(x ^ s) - s`.
    pub(super) fn apply_sign(&mut self, x: MVal, s: MVal) -> Result<MVal, BackendError> {
        let (xl, xh) = split(x);
        let lo = self.bin(None, O::V_XOR_B32, false, xl, s)?;
        let hi = self.bin(None, O::V_XOR_B32, false, xh, s)?;
        Ok(self.sub64_halves((lo, hi), (s, s))?.0)
    }
}
