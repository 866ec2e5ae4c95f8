//! Float selection beyond single instructions: correctly rounded division (`v_div_scale`d
//! operands, a reciprocal, Newton–Raphson refinements, `v_div_fmas` and `v_div_fixup`), transcendentals with
//! their range reduction (`v_sin`/`v_cos` take revolutions), sign, and the f64 forms.

use ferrum_isa::Opcode as O;

use super::build;
use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::amd::isel_build::Src;
use crate::amd::mir::{RegClass, RegRef, Slot};
use crate::ir::ops::AluOp;
use ferrum_isa::{Operand, Special};

/// log2(e) and ln(2) as f32 bit patterns.
const LOG2_E: u64 = 0x3fb8_aa3b;
const LN_2: u64 = 0x3f31_7218;
/// 1/(2π): an inline constant.
const INV_2PI: u64 = 0x3e22_f983;

/// Negate-modifier bits of VOP3 sources.
const NEG0: u8 = 1;

impl Isel<'_> {
    /// 32-bit float ops that are not one VALU instruction of [`super::alu`]'s tables.
    pub(super) fn float32(&mut self, op: AluOp, a: &[MVal]) -> Result<Option<MVal>, BackendError> {
        use AluOp::*;
        Ok(Some(match op {
            Fsqrt => self.v1(O::V_SQRT_F32, a[0])?,
            Frsq => self.v1(O::V_RSQ_F32, a[0])?,
            Frcp => self.v1(O::V_RCP_F32, a[0])?,
            Fexp2 => self.v1(O::V_EXP_F32, a[0])?,
            Flog2 => self.v1(O::V_LOG_F32, a[0])?,
            Ffract => self.v1(O::V_FRACT_F32, a[0])?,
            Fldexp => self.v3(O::V_LDEXP_F32, a, 0)?,
            Fexp => {
                let t = self.bin(None, O::V_MUL_F32, false, a[0], MVal::Const(LOG2_E))?;
                self.v1(O::V_EXP_F32, t)?
            }
            Flog => {
                let t = self.v1(O::V_LOG_F32, a[0])?;
                self.bin(None, O::V_MUL_F32, false, t, MVal::Const(LN_2))?
            }
            Fpow => {
                let l = self.v1(O::V_LOG_F32, a[0])?;
                let t = self.bin(None, O::V_MUL_F32, false, a[1], l)?;
                self.v1(O::V_EXP_F32, t)?
            }
            Fsin | Fcos => {
                // Revolutions, reduced to [0, 1) so the hardware's input range always holds.
                let rev = self.bin(None, O::V_MUL_F32, false, a[0], MVal::Const(INV_2PI))?;
                let red = self.v1(O::V_FRACT_F32, rev)?;
                self.v1(if op == Fsin { O::V_SIN_F32 } else { O::V_COS_F32 }, red)?
            }
            Ftan => {
                let s = self.float32(Fsin, a)?.expect("sin");
                let c = self.float32(Fcos, a)?.expect("cos");
                self.fdiv32(s, c)?
            }
            Fdiv => self.fdiv32(a[0], a[1])?,
            Fsign => self.fsign(a[0], 32)?,
            Fmod | Frem => {
                let x = self.cvt(O::V_CVT_F64_F32, a[0], 1, 2)?;
                let y = self.cvt(O::V_CVT_F64_F32, a[1], 1, 2)?;
                let r = self.fmod64(x, y, op == Frem)?;
                self.cvt(O::V_CVT_F32_F64, r, 2, 1)?
            }
            Fround => self.fround(a[0], 32)?,
            Fatan | Fatan2 | Fasin | Facos => return self.inverse_trig32(op, a),
            _ => return Ok(None),
        }))
    }

    /// x / y, correctly rounded (a denormal quotient too); `v_div_scale` scales the operands
    /// so that every step stays normal and finite (a denormal or huge denominator, a tiny
    /// numerator, a quotient that overflows or is denormal), `v_div_fmas` makes the last
    /// correction and undoes a one-sided scaling, and `v_div_fixup_f32` supplies the IEEE
    /// results for zeros, infinities and NaNs.
    pub(super) fn fdiv32(&mut self, x: MVal, y: MVal) -> Result<MVal, BackendError> {
        if let Some(r) = exact_reciprocal32(y) {
            // x / 2^k and x * 2^-k round the same real number: identical for every x.
            return self.bin(None, O::V_MUL_F32, false, x, MVal::Const(u64::from(r)));
        }
        let (d, _) = self.div_scale(false, y, y, x)?;
        let (n, scaled) = self.div_scale(false, x, y, x)?;
        let r0 = self.v1(O::V_RCP_F32, d)?;
        // e = 1 - d*r; r = r + e*r
        let e = self.v3(O::V_FMA_F32, &[d, r0, MVal::Const(0x3f80_0000)], NEG0)?;
        let r = self.v3(O::V_FMA_F32, &[e, r0, r0], 0)?;
        let q0 = self.bin(None, O::V_MUL_F32, false, n, r)?;
        let e2 = self.v3(O::V_FMA_F32, &[d, q0, n], NEG0)?;
        let q = self.div_fmas(false, [e2, r, q0], scaled)?;
        self.v3(O::V_DIV_FIXUP_F32, &[q, y, x], 0)
    }

    /// `v_div_scale` of `s0` for the division n / d: the scaled value and the lane mask that
    /// tells `v_div_fmas` to scale the quotient back.
    fn div_scale(
        &mut self,
        wide: bool,
        s0: MVal,
        d: MVal,
        n: MVal,
    ) -> Result<(MVal, RegRef), BackendError> {
        let (op, dw) = if wide { (O::V_DIV_SCALE_F64, 2) } else { (O::V_DIV_SCALE_F32, 1) };
        let mut srcs = Vec::with_capacity(3);
        for x in [s0, d, n] {
            srcs.push(if wide { self.src64(x)? } else { self.src(x)? });
        }
        let r = self.vreg(RegClass::V, dw);
        let mask = self.vreg(RegClass::S, 1);
        self.emit(build::vop3w(op, Some((r, dw)), Some(mask), &srcs, dw, 0));
        Ok((MVal::Reg(r, RegClass::V), mask))
    }

    /// `v_div_fmas(a, b, c)` = a*b + c, scaled back where `mask` (from `div_scale`) is set.
    /// The instruction reads the mask from VCC, which the allocator never hands out: it is
    /// written right before, and nothing placed between the two (reloads, legalization's
    /// `v_mov`s, hazard `s_nop`s) writes VCC.
    fn div_fmas(&mut self, wide: bool, a: [MVal; 3], mask: RegRef) -> Result<MVal, BackendError> {
        let vcc = Operand::Special(Special::VccLo);
        self.emit(build::sop1_fixed(O::S_MOV_B32, vcc, Src::R(mask, RegClass::S)));
        if wide {
            self.v3_64(O::V_DIV_FMAS_F64, &a, 0)
        } else {
            self.v3(O::V_DIV_FMAS_F32, &a, 0)
        }
    }

    /// mod(x, y) = x - y * floor(x / y) on f64 operands, each step rounded as f64. The f32 and
    /// f16 forms widen to f64 and round the result back: that is the IR's reference semantics
    /// for every width, and an f32 evaluation would round the quotient too early to match it.
    pub(super) fn fmod64(&mut self, x: MVal, y: MVal, rem: bool) -> Result<MVal, BackendError> {
        use AluOp::*;
        let step = |s: &mut Self, op: AluOp, a: &[MVal]| {
            s.float64(op, 64, 64, a)?.ok_or_else(|| crate::amd::error::unsupported(op.name()))
        };
        let q = step(self, Fdiv, &[x, y])?;
        // OpFMod rounds the quotient down, OpFRem toward zero (x - y * trunc(x / y), whose
        // precision Vulkan's OpFRem inherits).
        let f = step(self, if rem { Ftrunc } else { Ffloor }, &[q])?;
        let p = step(self, Fmul, &[y, f])?;
        step(self, Fsub, &[x, p])
    }

    /// round() on f64: [`Isel::fround`]'s steps on register pairs (the sign and the magnitude
    /// test live in the high dword).
    fn fround64(&mut self, x: MVal) -> Result<MVal, BackendError> {
        use AluOp::*;
        let t = self.cvt(O::V_TRUNC_F64, x, 2, 2)?;
        let d = self.v3_64(O::V_ADD_F64, &[x, t], 2)?;
        let mag = self.float64(Fabs, 64, 64, &[d])?.expect("f64 abs");
        let far = self.alu_comp(Fge, 1, 64, &[mag, MVal::Const(0x3fe0_0000_0000_0000)], false)?;
        let (_, hi) = super::alu_int::split(x);
        let one_hi =
            self.v3(O::V_BFI_B32, &[MVal::Const(0x7fff_ffff), MVal::Const(0x3ff0_0000), hi], 0)?;
        let step = self.pair(MVal::Const(0), one_hi)?;
        let away = self.v3_64(O::V_ADD_F64, &[t, step], 0)?;
        self.select_wide(&[far, away, t], false, 64)
    }

    /// A VOP3 op on 64-bit sources producing a 64-bit result.
    pub(super) fn v3_64(&mut self, op: O, a: &[MVal], neg: u8) -> Result<MVal, BackendError> {
        let mut srcs = Vec::new();
        for (i, &x) in a.iter().enumerate() {
            // A negated constant goes through a register (see `v3`).
            let x = match x {
                MVal::Const(_) if neg & (1 << i) != 0 => {
                    MVal::Reg(self.in_vgpr(x, 2)?, RegClass::V)
                }
                other => other,
            };
            srcs.push(self.src64(x)?);
        }
        let r = self.vreg(RegClass::V, 2);
        self.emit(build::vop3w(op, Some((r, 2)), None, &srcs, 2, neg));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// `v_ldexp_f64`: a 64-bit float scaled by a 32-bit exponent, rounded once. Only the
    /// first source is a register pair; a literal can only be the exponent (`src64` puts
    /// other 64-bit constants in registers), so the constant-bus limit always holds.
    fn ldexp64(&mut self, x: MVal, e: MVal) -> Result<MVal, BackendError> {
        let srcs = [self.src64(x)?, self.src(e)?];
        let r = self.vreg(RegClass::V, 2);
        let mut mi = build::vop3w(O::V_LDEXP_F64, Some((r, 2)), None, &srcs, 2, 0);
        for u in mi.uses.iter_mut().filter(|u| u.slot == Slot::Src1) {
            u.dwords = 1;
        }
        self.emit(mi);
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// A 32-bit-source conversion producing a 64-bit result, or the reverse.
    pub(super) fn cvt(
        &mut self,
        op: O,
        a: MVal,
        src_dw: u8,
        dst_dw: u8,
    ) -> Result<MVal, BackendError> {
        let s = if src_dw == 2 { self.src64(a)? } else { self.src(a)? };
        let r = self.vreg(RegClass::V, dst_dw);
        self.emit(build::vop3w(op, Some((r, dst_dw)), None, &[s], src_dw, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// Float ops with 64-bit operands or results.
    pub(super) fn float64(
        &mut self,
        op: AluOp,
        bits: u8,
        sbits: u8,
        a: &[MVal],
    ) -> Result<Option<MVal>, BackendError> {
        use AluOp::*;
        Ok(Some(match (op, bits, sbits) {
            (Fadd, 64, 64) => self.v3_64(O::V_ADD_F64, a, 0)?,
            (Fsub, 64, 64) => self.v3_64(O::V_ADD_F64, a, 2)?,
            (Fmul, 64, 64) => self.v3_64(O::V_MUL_F64, a, 0)?,
            (Ffma, 64, 64) => self.v3_64(O::V_FMA_F64, a, 0)?,
            (Fmin, 64, 64) => self.v3_64(O::V_MIN_F64, a, 0)?,
            (Fmax, 64, 64) => self.v3_64(O::V_MAX_F64, a, 0)?,
            (Fneg | Fabs, 64, 64) => {
                let (lo, hi) = super::alu_int::split(a[0]);
                let hi = if op == Fneg {
                    self.bin(None, O::V_XOR_B32, false, hi, MVal::Const(0x8000_0000))?
                } else {
                    self.bin(None, O::V_AND_B32, false, hi, MVal::Const(0x7fff_ffff))?
                };
                self.pair(lo, hi)?
            }
            (Fdiv, 64, 64) => {
                // As `fdiv32`, with one more refinement of the reciprocal.
                let (x, y) = (a[0], a[1]);
                let (d, _) = self.div_scale(true, y, y, x)?;
                let (n, scaled) = self.div_scale(true, x, y, x)?;
                let one = MVal::Const(0x3ff0_0000_0000_0000);
                let mut r = self.cvt(O::V_RCP_F64, d, 2, 2)?;
                for _ in 0..2 {
                    let e = self.v3_64(O::V_FMA_F64, &[d, r, one], NEG0)?;
                    r = self.v3_64(O::V_FMA_F64, &[e, r, r], 0)?;
                }
                let q0 = self.v3_64(O::V_MUL_F64, &[n, r], 0)?;
                let e2 = self.v3_64(O::V_FMA_F64, &[d, q0, n], NEG0)?;
                let q = self.div_fmas(true, [e2, r, q0], scaled)?;
                self.v3_64(O::V_DIV_FIXUP_F64, &[q, y, x], 0)?
            }
            (F2f, 64, 32) => self.cvt(O::V_CVT_F64_F32, a[0], 1, 2)?,
            (F2f, 32, 64) => self.cvt(O::V_CVT_F32_F64, a[0], 2, 1)?,
            (I2f, 64, 32) => self.cvt(O::V_CVT_F64_I32, a[0], 1, 2)?,
            (U2f, 64, 32) => self.cvt(O::V_CVT_F64_U32, a[0], 1, 2)?,
            (U2f | I2f, _, 64) => self.int64_to_float(op == I2f, bits, a[0])?,
            (F2i | F2u, 64, _) => self.float_to_int64(op == F2i, sbits, a[0])?,
            (F2i, 32, 64) => self.cvt(O::V_CVT_I32_F64, a[0], 2, 1)?,
            (F2u, 32, 64) => self.cvt(O::V_CVT_U32_F64, a[0], 2, 1)?,
            (Ffloor, 64, 64) => self.cvt(O::V_FLOOR_F64, a[0], 2, 2)?,
            (Fmod, 64, 64) => self.fmod64(a[0], a[1], false)?,
            (Frem, 64, 64) => self.fmod64(a[0], a[1], true)?,
            (Fldexp, 64, 64) => self.ldexp64(a[0], a[1])?,
            (Fsqrt, 64, 64) => self.cvt(O::V_SQRT_F64, a[0], 2, 2)?,
            (Frsq, 64, 64) => self.cvt(O::V_RSQ_F64, a[0], 2, 2)?,
            (Fsign, 64, 64) => self.fsign(a[0], 64)?,
            (Ffract, 64, 64) => {
                // x - floor(x), as the reference defines it (v_fract_f64 clamps below 1).
                let f = self.cvt(O::V_FLOOR_F64, a[0], 2, 2)?;
                self.v3_64(O::V_ADD_F64, &[a[0], f], 2)?
            }
            (Fround, 64, 64) => self.fround64(a[0])?,
            (Fceil, 64, 64) => self.cvt(O::V_CEIL_F64, a[0], 2, 2)?,
            (Ftrunc, 64, 64) => self.cvt(O::V_TRUNC_F64, a[0], 2, 2)?,
            (FroundEven, 64, 64) => self.cvt(O::V_RNDNE_F64, a[0], 2, 2)?,
            _ => return Ok(None),
        }))
    }
}

/// The bits of `1 / y` when `y` is a constant power of two whose reciprocal is a normal f32
/// too (so multiplying by it is exact division).
fn exact_reciprocal32(y: MVal) -> Option<u32> {
    let MVal::Const(c) = y else { return None };
    let bits = c as u32;
    let exp = (bits >> 23) & 0xff;
    (bits & 0x7f_ffff == 0 && (1..=253).contains(&exp))
        .then(|| (bits & 0x8000_0000) | ((254 - exp) << 23))
}
