//! 64-bit integer building blocks for division, from 32-bit halves: add/sub with carry
//! chains, 64x64 multiplies (low and high halves), selects and compares, on the vector unit
//! (`v_mad_u64_u32`, carry lane masks) or the scalar unit (`s_mul_hi_u32`, SCC chains).
//!
//! Results are built directly in register pairs, so no copies join separate halves. The
//! scalar carry chains pass SCC between adjacent instructions; dead-code elimination cannot
//! see SCC, so every SCC producer here writes part of a register its consumer's result
//! shares (a chain is then kept or dropped as a whole).

use ferrum_isa::Opcode as O;

use super::alu_int::split;
use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::amd::mir::{RegClass, RegRef, Slot};

impl Isel<'_> {
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
        let lo = [self.src(xl)?, self.src(yl)?];
        self.emit(build::vop3(O::V_ADD_CO_U32, Some(r), Some(c0), &lo, 0));
        let hi = self.with_carry(xh, yh, c0)?;
        self.emit(build::vop3(O::V_ADD_CO_CI_U32, Some(r.at(1)), Some(c1), &hi, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// [`Self::sub64`] from separate halves.
    pub(super) fn sub64_halves(
        &mut self,
        (xl, xh): (MVal, MVal),
        (yl, yh): (MVal, MVal),
    ) -> Result<(MVal, RegRef), BackendError> {
        let r = self.vreg(RegClass::V, 2);
        let b0 = self.vreg(RegClass::S, 1);
        let lo = [self.src(xl)?, self.src(yl)?];
        self.emit(build::vop3(O::V_SUB_CO_U32, Some(r), Some(b0), &lo, 0));
        let b1 = self.vreg(RegClass::S, 1);
        let hi = self.with_carry(xh, yh, b0)?;
        self.emit(build::vop3(O::V_SUB_CO_CI_U32, Some(r.at(1)), Some(b1), &hi, 0));
        Ok((MVal::Reg(r, RegClass::V), b1))
    }

    /// `x - y` over 64 bits on the scalar unit.
    pub(super) fn sub64_scalar(&mut self, x: MVal, y: MVal) -> Result<MVal, BackendError> {
        self.sub64_scalar_halves(split(x), split(y))
    }

    /// [`Self::sub64_scalar`] from separate halves.
    pub(super) fn sub64_scalar_halves(
        &mut self,
        (xl, xh): (MVal, MVal),
        (yl, yh): (MVal, MVal),
    ) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::S, 2);
        let (a, b) = (self.src(xl)?, self.src(yl)?);
        self.emit(build::sop2(O::S_SUB_U32, Some(r), a, b, 1));
        let (a, b) = (self.src(xh)?, self.src(yh)?);
        self.emit(build::sop2(O::S_SUBB_U32, Some(r.at(1)), a, b, 1));
        Ok(MVal::Reg(r, RegClass::S))
    }

    /// `size` SGPRs allocated together at the given alignment (2 when a 64-bit operand
    /// starts at an even offset in them, 1 when they only keep an SCC chain together).
    pub(super) fn sgpr_group(&mut self, size: u8, align: u8) -> RegRef {
        let r = self.vreg(RegClass::S, size);
        self.mf.vregs[r.vreg.0 as usize].align = align;
        r
    }

    /// SCC from a 64-bit scalar compare, as an all-ones or zero word.
    pub(super) fn sopc64(&mut self, op: O, x: MVal, y: MVal) -> Result<MVal, BackendError> {
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
    pub(super) fn cselect64(&mut self, mask: MVal, t: MVal, f: MVal) -> Result<MVal, BackendError> {
        let m = self.src(mask)?;
        self.emit(build::sopc(O::S_CMP_LG_U32, m, Src::I(0)));
        let (t, f) = (self.src64s(t)?, self.src64s(f)?);
        let r = self.vreg(RegClass::S, 2);
        self.emit(build::sop2(O::S_CSELECT_B64, Some(r), t, f, 2));
        Ok(MVal::Reg(r, RegClass::S))
    }

    /// A 64-bit scalar operand: registers as they are, small integers inline, others in
    /// SGPRs.
    pub(super) fn src64s(&mut self, v: MVal) -> Result<Src, BackendError> {
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
    pub(super) fn with_carry(
        &mut self,
        a: MVal,
        b: MVal,
        carry: RegRef,
    ) -> Result<[Src; 3], BackendError> {
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
    pub(super) fn add_not_borrow(&mut self, q: MVal, borrow: RegRef) -> Result<MVal, BackendError> {
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
    pub(super) fn add_carry_in(&mut self, q: MVal, c: RegRef) -> Result<MVal, BackendError> {
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
    pub(super) fn mad64(
        &mut self,
        dst: RegRef,
        a: MVal,
        b: MVal,
        c: Src,
    ) -> Result<RegRef, BackendError> {
        let mut srcs = [self.src(a)?, self.src(b)?, c];
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
        self.emit(build::vop3(op, Some(r.at(1)), None, &srcs, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// The low 64 bits of `x * y` on the scalar unit.
    pub(super) fn mullo64_scalar(&mut self, x: MVal, y: MVal) -> Result<MVal, BackendError> {
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
    pub(super) fn smul(&mut self, op: O, a: MVal, b: MVal) -> Result<MVal, BackendError> {
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
            let srcs = [self.src(x0)?, self.src(y0)?];
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

    /// [`Self::mulhi64`] on the scalar unit, from 32x32 products and carry chains. A carry
    /// whose producer's own result is unread (the middle column's low word) shares a
    /// register with the consumer's result, so dead-code elimination (blind to SCC) keeps
    /// the chain whole.
    pub(super) fn mulhi64_scalar(
        &mut self,
        x: MVal,
        y: MVal,
        exact: bool,
    ) -> Result<MVal, BackendError> {
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
        let mid = self.sgpr_group(2, 1);
        if exact {
            let t0 = self.smul(O::S_MUL_HI_U32, x0, y0)?;
            let m0 = self.sgpr_group(2, 1);
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
        let top = self.vreg(RegClass::S, 1);
        self.emit(build::sop2(O::S_ADDC_U32, Some(top), sr(ch), Src::I(0), 1));
        let out = self.vreg(RegClass::S, 2);
        let h = Src::R(mid.at(1), RegClass::S);
        self.emit(build::sop2(O::S_ADD_U32, Some(out), h, sr(cl), 1));
        let top = Src::R(top, RegClass::S);
        self.emit(build::sop2(O::S_ADDC_U32, Some(out.at(1)), top, Src::I(0), 1));
        Ok(MVal::Reg(out, RegClass::S))
    }
}
