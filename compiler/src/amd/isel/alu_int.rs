//! Integer selection that needs sequences: 32-bit division and remainder by registers
//! (through a refined float reciprocal; by constants see [`super::div_const32`]), and 64-bit
//! integer arithmetic, logic, shifts and compares built from 32-bit halves. 64-bit division
//! lives in [`super::div64`] (by registers) and [`super::div_const`] (by constants).

use ferrum_isa::Opcode as O;

use super::alu::all_scalar;
use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{RegClass, RegRef};
use crate::ir::ops::AluOp;

impl Isel<'_> {
    /// Unsigned 32-bit division with remainder by a register: reciprocal estimate refined by
    /// one Newton step, then two corrections (the classic AMDGPU expansion). Division by zero
    /// gives all ones and the dividend, as the IR's reference semantics define.
    pub(super) fn udivmod(&mut self, x: MVal, y: MVal) -> Result<(MVal, MVal), BackendError> {
        let fy = self.v1(O::V_CVT_F32_U32, y)?;
        let rcp = self.v1(O::V_RCP_IFLAG_F32, fy)?;
        let scaled = self.bin(None, O::V_MUL_F32, false, MVal::Const(0x4f7f_fffe), rcp)?;
        let mut z = self.v1(O::V_CVT_U32_F32, scaled)?;
        let negy = self.bin(None, O::V_SUB_NC_U32, false, MVal::Const(0), y)?;
        let nyz = self.bin(None, O::V_MUL_LO_U32, false, negy, z)?;
        let corr = self.bin(None, O::V_MUL_HI_U32, false, z, nyz)?;
        z = self.bin(None, O::V_ADD_NC_U32, false, z, corr)?;
        let mut q = self.bin(None, O::V_MUL_HI_U32, false, x, z)?;
        let qy = self.bin(None, O::V_MUL_LO_U32, false, q, y)?;
        let mut r = self.bin(None, O::V_SUB_NC_U32, false, x, qy)?;
        for _ in 0..2 {
            // The borrow of `r - y` says whether `r` had reached `y`; `q - (-1) - borrow`
            // adds one otherwise.
            let t = self.vreg(RegClass::V, 1);
            let borrow = self.vreg(RegClass::S, 1);
            let srcs = [self.src(r)?, self.src(y)?];
            self.emit(build::vop3(O::V_SUB_CO_U32, Some(t), Some(borrow), &srcs, 0));
            let b = MVal::Reg(borrow, RegClass::S);
            r = self.select(&[b, r, MVal::Reg(t, RegClass::V)], false)?;
            let q1 = self.vreg(RegClass::V, 1);
            let srcs = self.with_carry(q, MVal::Const(u64::from(u32::MAX)), borrow)?;
            let unused = self.vreg(RegClass::S, 1);
            self.emit(build::vop3(O::V_SUB_CO_CI_U32, Some(q1), Some(unused), &srcs, 0));
            q = MVal::Reg(q1, RegClass::V);
        }
        let zero = self.compare(AluOp::Ieq, 32, &[y, MVal::Const(0)], false)?;
        q = self.select(&[zero, MVal::Const(u64::from(u32::MAX)), q], false)?;
        Ok((q, r))
    }
    /// [`Self::udivmod`] for operands in SGPRs: only the reciprocal estimate needs the
    /// vector unit; its refinement, the quotient and the corrections run on the scalar unit.
    fn udivmod_scalar(&mut self, x: MVal, y: MVal) -> Result<(MVal, MVal), BackendError> {
        let fy = self.v1(O::V_CVT_F32_U32, y)?;
        let rcp = self.v1(O::V_RCP_IFLAG_F32, fy)?;
        let scaled = self.bin(None, O::V_MUL_F32, false, MVal::Const(0x4f7f_fffe), rcp)?;
        let MVal::Reg(zv, _) = self.v1(O::V_CVT_U32_F32, scaled)? else { unreachable!() };
        let z = self.vreg(RegClass::S, 1);
        self.emit(build::readfirstlane(z, zv));
        let z = MVal::Reg(z, RegClass::S);
        let s = |s: &mut Self, op: O, a: MVal, b: MVal| s.bin(Some(op), O::V_NOP, false, a, b);
        let negy = s(self, O::S_SUB_U32, MVal::Const(0), y)?;
        let nyz = s(self, O::S_MUL_I32, negy, z)?;
        let corr = s(self, O::S_MUL_HI_U32, z, nyz)?;
        let z = s(self, O::S_ADD_U32, z, corr)?;
        let mut q = s(self, O::S_MUL_HI_U32, x, z)?;
        let qy = s(self, O::S_MUL_I32, q, y)?;
        let mut r = s(self, O::S_SUB_U32, x, qy)?;
        let (ys, cs) = (self.src(y)?, |s: &mut Self, t: MVal, f: MVal| {
            let (t, f) = (s.src(t)?, s.src(f)?);
            let d = s.vreg(RegClass::S, 1);
            s.emit(build::sop2(O::S_CSELECT_B32, Some(d), t, f, 1));
            Ok::<_, BackendError>(MVal::Reg(d, RegClass::S))
        });
        for _ in 0..2 {
            // SCC = the borrow of `r - y`; `q - (-1) - SCC` adds one unless it was set. The
            // difference and the new quotient share a register so dead-code elimination
            // (blind to SCC) keeps the subtraction whenever the quotient is read.
            let w = self.sgpr_group(2, 1);
            let rs = self.src(r)?;
            self.emit(build::sop2(O::S_SUB_U32, Some(w), rs, ys, 1));
            r = cs(self, r, MVal::Reg(w, RegClass::S))?;
            let qs = self.src(q)?;
            self.emit(build::sop2(O::S_SUBB_U32, Some(w.at(1)), qs, Src::I(u32::MAX), 1));
            q = MVal::Reg(w.at(1), RegClass::S);
        }
        self.emit(build::sopc(O::S_CMP_EQ_U32, ys, Src::I(0)));
        q = cs(self, MVal::Const(u64::from(u32::MAX)), q)?;
        Ok((q, r))
    }

    /// Integer division and remainders by a register (see [`Self::udivmod`]); signed forms
    /// divide magnitudes and fix the signs. Operands in SGPRs (uniform by construction) stay
    /// on the scalar unit.
    pub(super) fn divmod(&mut self, op: AluOp, a: MVal, b: MVal) -> Result<MVal, BackendError> {
        use AluOp::*;
        let sc = all_scalar(&[a, b]);
        let unsigned = |s: &mut Self, x: MVal, y: MVal| {
            if sc {
                s.udivmod_scalar(x, y)
            } else {
                s.udivmod(x, y)
            }
        };
        if matches!(op, Udiv | Umod) {
            let (q, r) = unsigned(self, a, b)?;
            return Ok(if op == Udiv { q } else { r });
        }
        let pick = |s: O, v: O| (Some(s).filter(|_| sc), v);
        let (abs_a, abs_b) = if sc {
            (self.sop1v(O::S_ABS_I32, a)?, self.sop1v(O::S_ABS_I32, b)?)
        } else {
            let na = self.bin(None, O::V_SUB_NC_U32, false, MVal::Const(0), a)?;
            let nb = self.bin(None, O::V_SUB_NC_U32, false, MVal::Const(0), b)?;
            let abs_a = self.bin(None, O::V_MAX_I32, false, a, na)?;
            (abs_a, self.bin(None, O::V_MAX_I32, false, b, nb)?)
        };
        let (q, r) = unsigned(self, abs_a, abs_b)?;
        let (s_sub, v_sub) = pick(O::S_SUB_U32, O::V_SUB_NC_U32);
        match op {
            Idiv => {
                let (s_xor, v_xor) = pick(O::S_XOR_B32, O::V_XOR_B32);
                let sign = self.bin(s_xor, v_xor, false, a, b)?;
                let neg = self.compare(Ilt, 32, &[sign, MVal::Const(0)], sc)?;
                let nq = self.bin(s_sub, v_sub, false, MVal::Const(0), q)?;
                let q = self.select(&[neg, nq, q], sc)?;
                let zero = self.compare(Ieq, 32, &[b, MVal::Const(0)], sc)?;
                self.select(&[zero, MVal::Const(u64::from(u32::MAX)), q], sc)
            }
            _ => {
                let a_neg = self.compare(Ilt, 32, &[a, MVal::Const(0)], sc)?;
                let nr = self.bin(s_sub, v_sub, false, MVal::Const(0), r)?;
                let rem = self.select(&[a_neg, nr, r], sc)?;
                if op == Irem {
                    return Ok(rem);
                }
                // Imod: the result takes the divisor's sign.
                let nz = self.compare(Ine, 32, &[rem, MVal::Const(0)], sc)?;
                let (s_xor, v_xor) = pick(O::S_XOR_B32, O::V_XOR_B32);
                let sx = self.bin(s_xor, v_xor, false, rem, b)?;
                let differ = self.compare(Ilt, 32, &[sx, MVal::Const(0)], sc)?;
                let fix = self.bool_op(Iand, &[nz, differ])?;
                let (s_add, v_add) = pick(O::S_ADD_U32, O::V_ADD_NC_U32);
                let sum = self.bin(s_add, v_add, false, rem, b)?;
                self.select(&[fix, sum, rem], sc)
            }
        }
    }
    /// 64-bit integer add/sub (addresses, int64) and the conversions between widths.
    pub(super) fn alu_wide(
        &mut self,
        op: AluOp,
        bits: u8,
        sbits: u8,
        a: &[MVal],
        uniform: bool,
    ) -> Result<MVal, BackendError> {
        use AluOp::*;
        match (op, bits, sbits) {
            (Iadd, 64, 64) => self.add64(a[0], a[1], uniform),
            // One borrow chain: s_sub_u32/s_subb_u32 or v_sub_co/v_sub_co_ci.
            (Isub, 64, 64) if uniform && all_scalar(a) => self.sub64_scalar(a[0], a[1]),
            (Isub, 64, 64) => Ok(self.sub64(a[0], a[1])?.0),
            (Imul, 64, 64) => self.mul64(a[0], a[1]),
            (Udiv | Umod, 64, 64) => match a[1] {
                MVal::Const(0) => Ok(if op == Udiv { MVal::Const(u64::MAX) } else { a[0] }),
                MVal::Const(1) => Ok(if op == Udiv { a[0] } else { MVal::Const(0) }),
                MVal::Const(d) => self.udiv64_const(op, a[0], d),
                _ => {
                    let (q, r) = self.udivmod64(a[0], a[1], uniform)?;
                    Ok(if op == Udiv { q } else { r })
                }
            },
            (Idiv | Irem | Imod, 64, 64) => match a[1] {
                MVal::Const(c) => self.sdiv64_const(op, a[0], c as i64),
                _ => self.sdivmod64(op, a[0], a[1], uniform),
            },
            (UmulHigh, 64, 64) => self.mulhi64(a[0], a[1], true),
            // The signed high half is the unsigned one less y where x is negative and less x
            // where y is negative (x reads as x + 2^64 unsigned, and likewise y).
            (ImulHigh, 64, 64) => {
                let u = self.mulhi64(a[0], a[1], true)?;
                let sign = |s: &mut Self, v: MVal| {
                    let hi = s.bin(None, O::V_ASHRREV_I32, true, split(v).1, MVal::Const(31))?;
                    s.pair(hi, hi)
                };
                let (sx, sy) = (sign(self, a[0])?, sign(self, a[1])?);
                let cx = self.alu_wide(Iand, 64, 64, &[a[1], sx], false)?;
                let cy = self.alu_wide(Iand, 64, 64, &[a[0], sy], false)?;
                let u = self.alu_wide(Isub, 64, 64, &[u, cx], false)?;
                self.alu_wide(Isub, 64, 64, &[u, cy], false)
            }
            (Bcsel, 64, 1) => self.select_wide(a, uniform, 64),
            (B2i, 64, 1) => {
                let lo = self.select(&[a[0], MVal::Const(1), MVal::Const(0)], uniform)?;
                self.pair(lo, MVal::Const(0))
            }
            (Inot, 64, 64) => {
                let (lo, hi) = split(a[0]);
                let lo = self.v1(O::V_NOT_B32, lo)?;
                let hi = self.v1(O::V_NOT_B32, hi)?;
                self.pair(lo, hi)
            }
            (Ineg, 64, 64) => self.alu_wide(Isub, 64, 64, &[MVal::Const(0), a[0]], uniform),
            (Iand | Ior | Ixor, 64, 64) => {
                let vop = match op {
                    Iand => O::V_AND_B32,
                    Ior => O::V_OR_B32,
                    _ => O::V_XOR_B32,
                };
                let (xl, xh) = split(a[0]);
                let (yl, yh) = split(a[1]);
                let lo = self.bin(None, vop, false, xl, yl)?;
                let hi = self.bin(None, vop, false, xh, yh)?;
                self.pair(lo, hi)
            }
            (Ishl | Ushr | Ishr, 64, 64) => {
                let vop = match op {
                    Ishl => O::V_LSHLREV_B64,
                    Ushr => O::V_LSHRREV_B64,
                    _ => O::V_ASHRREV_I64,
                };
                let sh = split(a[1]).0;
                let x = self.in_vgpr(a[0], 2)?;
                let r = self.vreg(RegClass::V, 2);
                let s = self.src(sh)?;
                let mut mi =
                    build::vop3w(vop, Some((r, 2)), None, &[s, Src::R(x, RegClass::V)], 1, 0);
                // The value operand is 64-bit.
                if let Some(u) = mi.uses.iter_mut().find(|u| u.reg == x) {
                    u.dwords = 2;
                }
                self.emit(mi);
                Ok(MVal::Reg(r, RegClass::V))
            }
            (U2u, 64, 32) => self.pair(a[0], MVal::Const(0)),
            (I2i, 64, 32) => {
                let hi = self.bin(
                    Some(O::S_ASHR_I32).filter(|_| uniform && all_scalar(a)),
                    O::V_ASHRREV_I32,
                    true,
                    a[0],
                    MVal::Const(31),
                )?;
                self.pair(a[0], hi)
            }
            (U2u | I2i, 32, 64) => Ok(match a[0] {
                MVal::Const(c) => MVal::Const(c & 0xffff_ffff),
                other => other,
            }),
            _ => Err(unsupported(format!(
                "{} with {bits}-bit result and {sbits}-bit sources",
                op.name()
            ))),
        }
    }
    /// 64-bit compares (vector unit only).
    pub(super) fn compare64(
        &mut self,
        op: AluOp,
        a: &[MVal],
        r: RegRef,
    ) -> Result<MVal, BackendError> {
        use AluOp::*;
        let vop = match op {
            Ieq => O::V_CMP_EQ_U64,
            Ine => O::V_CMP_NE_U64,
            Ult => O::V_CMP_LT_U64,
            Uge => O::V_CMP_GE_U64,
            Ilt => O::V_CMP_LT_I64,
            Ige => O::V_CMP_GE_I64,
            Feq => O::V_CMP_EQ_F64,
            Fneu => O::V_CMP_NEQ_F64,
            Flt => O::V_CMP_LT_F64,
            Fge => O::V_CMP_GE_F64,
            Fltu => O::V_CMP_NGE_F64,
            Fgeu => O::V_CMP_NLT_F64,
            Fequ => O::V_CMP_NLG_F64,
            Fneo => O::V_CMP_LG_F64,
            _ => return Err(unsupported(format!("{} on 64-bit values", op.name()))),
        };
        let x = self.src64(a[0])?;
        let y = self.src64(a[1])?;
        let mut mi = build::vcmp(vop, r, x, y, 2);
        for u in mi.uses.iter_mut() {
            u.dwords = 2;
        }
        self.emit(mi);
        Ok(MVal::Reg(r, RegClass::S))
    }
    /// A 64-bit operand: registers as they are, small integers inline, others in VGPRs.
    pub(super) fn src64(&mut self, v: MVal) -> Result<Src, BackendError> {
        match v {
            MVal::Const(c) if (c as i64) >= -16 && (c as i64) <= 64 => Ok(Src::I(c as u32)),
            MVal::Reg(r, cl) => Ok(Src::R(r, cl)),
            other => Ok(Src::R(self.in_vgpr(other, 2)?, RegClass::V)),
        }
    }
    /// 64-bit multiply: lo×lo with v_mad_u64_u32, plus both cross products into the high half.
    pub(super) fn mul64(&mut self, x: MVal, y: MVal) -> Result<MVal, BackendError> {
        let (xl, xh) = split(x);
        let (yl, yh) = split(y);
        let srcs = [self.src(xl)?, self.src(yl)?];
        let r = self.vreg(RegClass::V, 2);
        let carry = self.vreg(RegClass::S, 1);
        let mi = build::vop3w(
            O::V_MAD_U64_U32,
            Some((r, 2)),
            Some(carry),
            &[srcs[0], srcs[1], Src::I(0)],
            1,
            0,
        );
        self.emit(mi);
        let c1 = self.bin(None, O::V_MUL_LO_U32, false, xl, yh)?;
        let c2 = self.bin(None, O::V_MUL_LO_U32, false, xh, yl)?;
        let c = self.bin(None, O::V_ADD_NC_U32, false, c1, c2)?;
        let hi = self.bin(None, O::V_ADD_NC_U32, false, MVal::Reg(r.at(1), RegClass::V), c)?;
        self.pair(MVal::Reg(r, RegClass::V), hi)
    }
    pub(super) fn add64(&mut self, x: MVal, y: MVal, uniform: bool) -> Result<MVal, BackendError> {
        let halves = |v: MVal| -> Result<(Src, Src), BackendError> {
            Ok(match v {
                MVal::Const(c) => (Src::I(c as u32), Src::I((c >> 32) as u32)),
                MVal::Reg(r, cl) => (Src::R(r, cl), Src::R(r.at(1), cl)),
                MVal::Res(_) => return Err(unsupported("arithmetic on a resource")),
            })
        };
        let (xl, xh) = halves(x)?;
        let (yl, yh) = halves(y)?;
        if uniform && all_scalar(&[x, y]) {
            let r = self.vreg(RegClass::S, 2);
            self.emit(build::sop2(O::S_ADD_U32, Some(r), xl, yl, 1));
            self.emit(build::sop2(O::S_ADDC_U32, Some(r.at(1)), xh, yh, 1));
            return Ok(MVal::Reg(r, RegClass::S));
        }
        let r = self.vreg(RegClass::V, 2);
        let carry = self.vreg(RegClass::S, 1);
        let lo = [xl, yl];
        self.emit(build::vop3(O::V_ADD_CO_U32, Some(r), Some(carry), &lo, 0));
        let mut hi = [xh, yh, Src::R(carry, RegClass::S)];
        // The carry takes one constant-bus slot.
        let mut scalars = hi[..2].iter().filter(|s| s.uses_const_bus()).count();
        for s in hi[..2].iter_mut() {
            if scalars > 1 && s.uses_const_bus() {
                let t = self.vreg(RegClass::V, 1);
                self.emit(build::vop1(O::V_MOV_B32, t, *s));
                *s = Src::R(t, RegClass::V);
                scalars -= 1;
            }
        }
        let carry_out = self.vreg(RegClass::S, 1);
        self.emit(build::vop3(O::V_ADD_CO_CI_U32, Some(r.at(1)), Some(carry_out), &hi, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }
}

/// Low and high dwords of a 64-bit component.
pub(super) fn split(v: MVal) -> (MVal, MVal) {
    match v {
        MVal::Const(c) => (MVal::Const(c & 0xffff_ffff), MVal::Const(c >> 32)),
        MVal::Reg(r, cl) => (MVal::Reg(r, cl), MVal::Reg(r.at(1), cl)),
        other => (other, other),
    }
}

impl Isel<'_> {
    /// `x`'s low `bits` bits zero- or sign-extended to 32 (8/16-bit values live in 32-bit
    /// registers with unspecified upper bits).
    pub(super) fn extend(
        &mut self,
        x: MVal,
        bits: u8,
        signed: bool,
        scalar: bool,
    ) -> Result<MVal, BackendError> {
        if let MVal::Const(c) = x {
            let m = (1u64 << bits) - 1;
            let v = c & m;
            let v = if signed && v >> (bits - 1) & 1 == 1 { v | !m } else { v };
            return Ok(MVal::Const(v & 0xffff_ffff));
        }
        if scalar && !matches!(x, MVal::Reg(_, RegClass::V)) {
            let op = if signed { O::S_BFE_I32 } else { O::S_BFE_U32 };
            let r = self.vreg(RegClass::S, 1);
            let s = self.src(x)?;
            self.emit(build::sop2(op, Some(r), s, Src::I(u32::from(bits) << 16), 1));
            return Ok(MVal::Reg(r, RegClass::S));
        }
        let op = if signed { O::V_BFE_I32 } else { O::V_BFE_U32 };
        self.v3(op, &[x, MVal::Const(0), MVal::Const(u64::from(bits))], 0)
    }

    /// Ops on 8- and 16-bit integers (and their conversions to f16; the f16 arithmetic is in
    /// `alu_f16`): computed in 32 bits after extending where the upper bits would matter.
    pub(super) fn alu_narrow(
        &mut self,
        op: AluOp,
        bits: u8,
        sbits: u8,
        a: &[MVal],
        uniform: bool,
    ) -> Result<Option<MVal>, BackendError> {
        use AluOp::*;
        let scalar = uniform && all_scalar(a);
        let narrow = |b: u8| b == 8 || b == 16;
        let amount = |s: &mut Self, b: MVal, w: u8| {
            s.alu_comp(Iand, 32, 32, &[b, MVal::Const(u64::from(w) - 1)], uniform)
        };
        Ok(Some(match op {
            Iadd | Isub | Imul | Iand | Ior | Ixor | Inot | Ineg | Mov if narrow(bits) => {
                self.alu_comp(op, 32, 32, a, uniform)?
            }
            // Narrow values carry don't-care upper bits, so a 32-bit select serves.
            Bcsel if narrow(bits) => self.alu_comp(op, 32, sbits, a, uniform)?,
            Ishl if narrow(bits) => {
                let sh = amount(self, a[1], bits)?;
                self.alu_comp(Ishl, 32, 32, &[a[0], sh], uniform)?
            }
            Ushr | Ishr if narrow(bits) => {
                let x = self.extend(a[0], bits, op == Ishr, scalar)?;
                let sh = amount(self, a[1], bits)?;
                self.alu_comp(op, 32, 32, &[x, sh], uniform)?
            }
            Umin | Umax | Udiv | Umod | Imin | Imax | Idiv | Irem | Imod if narrow(bits) => {
                let signed = matches!(op, Imin | Imax | Idiv | Irem | Imod);
                let x = self.extend(a[0], bits, signed, scalar)?;
                let y = self.extend(a[1], bits, signed, scalar)?;
                self.alu_comp(op, 32, 32, &[x, y], uniform)?
            }
            // The full product of two extended 8- or 16-bit values fits in 32 bits; its high
            // half is the product shifted down by the width.
            UmulHigh | ImulHigh if narrow(bits) => {
                let signed = op == ImulHigh;
                let x = self.extend(a[0], bits, signed, scalar)?;
                let y = self.extend(a[1], bits, signed, scalar)?;
                let p = self.alu_comp(Imul, 32, 32, &[x, y], uniform)?;
                let sh = if signed { Ishr } else { Ushr };
                self.alu_comp(sh, 32, 32, &[p, MVal::Const(u64::from(bits))], uniform)?
            }
            Ieq | Ine | Ult | Uge | Ilt | Ige if narrow(sbits) => {
                let signed = matches!(op, Ilt | Ige);
                let x = self.extend(a[0], sbits, signed, scalar)?;
                let y = self.extend(a[1], sbits, signed, scalar)?;
                self.alu_comp(op, 1, 32, &[x, y], uniform)?
            }
            U2u | I2i if narrow(sbits) && bits >= 32 => {
                let x = self.extend(a[0], sbits, op == I2i, scalar)?;
                if bits == 64 {
                    self.alu_comp(op, 64, 32, &[x], uniform)?
                } else {
                    x
                }
            }
            // Widening between narrow sizes extends: the new bits are significant.
            U2u | I2i if narrow(bits) && bits > sbits => {
                self.extend(a[0], sbits, op == I2i, scalar)?
            }
            U2u | I2i if narrow(bits) => match a[0] {
                MVal::Const(c) => MVal::Const(c & ((1 << bits) - 1)),
                other if sbits == 64 => split(other).0,
                other => other,
            },
            // Through a 32-bit conversion, saturated to the narrow range as the reference
            // conversion is.
            F2i | F2u if narrow(bits) && sbits >= 32 => {
                let i = self.alu_comp(op, 32, sbits, a, uniform)?;
                let b = u32::from(bits);
                if op == F2i {
                    let lo = MVal::Const(u64::from((-1i32 << (b - 1)) as u32));
                    let hi = MVal::Const((1u64 << (b - 1)) - 1);
                    self.v3(O::V_MED3_I32, &[i, lo, hi], 0)?
                } else {
                    self.bin(None, O::V_MIN_U32, false, i, MVal::Const((1u64 << b) - 1))?
                }
            }
            U2f | I2f if narrow(sbits) && bits >= 32 => {
                let x = self.extend(a[0], sbits, op == I2f, false)?;
                self.alu_comp(op, bits, 32, &[x], uniform)?
            }
            U2f | I2f if narrow(sbits) && bits == 16 => {
                // v_cvt_f16_[iu]16 reads the low 16 bits, so 8-bit sources are widened first.
                let x = if sbits < 16 { self.extend(a[0], sbits, op == I2f, false)? } else { a[0] };
                let cvt = if op == I2f { O::V_CVT_F16_I16 } else { O::V_CVT_F16_U16 };
                self.v1(cvt, x)?
            }
            _ => return Ok(None),
        }))
    }
}
