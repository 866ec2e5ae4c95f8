//! Half-precision float selection.
//!
//! An f16 value lives in the low half of a 32-bit register with unspecified upper bits (like
//! the 16-bit integers), and every f16 instruction reads only the low half of its sources.
//! gfx10.3 has no scalar float ALU, so uniform f16 arithmetic runs on the vector unit; only
//! the sign-bit ops (neg, abs) stay scalar. Immediates on f16 sources are the inline
//! constants of 16-bit operands where one exists ([`build::half_imm`]).
//!
//! Where the hardware has an f16 instruction it is used (add, mul, fma, min/max, floor/ceil/
//! trunc/rndne/fract, sqrt, rsq, exp2, log2, conversions to 16-bit integers). Division goes
//! through f32: f16 operands are exact in f32, the f32 division is correctly rounded, and
//! rounding that again to f16 is still correct because f32 carries more than twice f16's
//! precision plus two bits. Functions that need a range reduction or are built from several
//! steps (sin, cos, tan, exp, log, pow) also run in f32, where the reduction keeps its
//! precision, and are rounded to f16 once at the end; so do the inverse trigonometric
//! functions ([`super::alu_atan`]).

use ferrum_isa::Opcode as O;

use super::alu::all_scalar;
use super::build::{self, Src};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::RegClass;
use crate::ir::ops::{self, AluOp};

/// f16 compares (VALU only, reading the low 16 bits of each source).
fn cmp16(op: AluOp) -> Option<O> {
    use AluOp::*;
    Some(match op {
        Feq => O::V_CMP_EQ_F16,
        Fneu => O::V_CMP_NEQ_F16,
        Flt => O::V_CMP_LT_F16,
        Fge => O::V_CMP_GE_F16,
        Fltu => O::V_CMP_NGE_F16,
        Fgeu => O::V_CMP_NLT_F16,
        Fequ => O::V_CMP_NLG_F16,
        Fneo => O::V_CMP_LG_F16,
        _ => return None,
    })
}

/// f16 ops that are one VOP1 instruction.
fn unary16(op: AluOp) -> Option<O> {
    use AluOp::*;
    Some(match op {
        Ffloor => O::V_FLOOR_F16,
        Fceil => O::V_CEIL_F16,
        Ftrunc => O::V_TRUNC_F16,
        FroundEven => O::V_RNDNE_F16,
        Ffract => O::V_FRACT_F16,
        Fsqrt => O::V_SQRT_F16,
        Frsq => O::V_RSQ_F16,
        Fexp2 => O::V_EXP_F16,
        Flog2 => O::V_LOG_F16,
        _ => return None,
    })
}

impl Isel<'_> {
    /// Ops on f16 values or producing them (`bits`/`sbits`: result and first-source widths);
    /// `None` for anything else, including the 16-bit integer ops.
    pub(super) fn float16(
        &mut self,
        op: AluOp,
        bits: u8,
        sbits: u8,
        a: &[MVal],
        uniform: bool,
    ) -> Result<Option<MVal>, BackendError> {
        use AluOp::*;
        let scalar = uniform && all_scalar(a);
        if bits == 1 && sbits == 16 {
            return match op {
                Feq | Fneu | Flt | Fge | Fltu | Fgeu | Fequ | Fneo | IsNan | IsInf => {
                    self.compare_f16(op, a).map(Some)
                }
                _ => Ok(None),
            };
        }
        Ok(Some(match (op, bits, sbits) {
            (Fneg | Fabs, 16, 16) => {
                let (sop, vop, m) = if op == Fneg {
                    (O::S_XOR_B32, O::V_XOR_B32, 0x8000)
                } else {
                    (O::S_AND_B32, O::V_AND_B32, 0x7fff)
                };
                self.bin(Some(sop).filter(|_| scalar), vop, false, a[0], MVal::Const(m))?
            }
            (Fadd | Fsub | Fmul | Fmin | Fmax, 16, 16) => self.bin16(op, a[0], a[1])?,
            (Ffma, 16, 16) => self.v3_16(O::V_FMA_F16, a)?,
            (Fdiv, 16, 16) => {
                let (x, y) = (self.f16_to_f32(a[0])?, self.f16_to_f32(a[1])?);
                let q = self.fdiv32(x, y)?;
                self.v1(O::V_CVT_F16_F32, q)?
            }
            (Fsin | Fcos | Ftan | Fexp | Flog | Fpow | Fatan | Fatan2 | Fasin | Facos, 16, 16) => {
                let wide: std::vec::Vec<MVal> =
                    a.iter().map(|&x| self.f16_to_f32(x)).collect::<Result<_, _>>()?;
                let r = self.float32(op, &wide)?.ok_or_else(|| unsupported(op.name()))?;
                self.v1(O::V_CVT_F16_F32, r)?
            }
            (Fround, 16, 16) => self.fround(a[0], 16)?,
            (Fmod | Frem, 16, 16) => {
                let (x, y) = (self.f16_to_f32(a[0])?, self.f16_to_f32(a[1])?);
                let (x, y) =
                    (self.cvt(O::V_CVT_F64_F32, x, 1, 2)?, self.cvt(O::V_CVT_F64_F32, y, 1, 2)?);
                let r = self.fmod64(x, y, op == Frem)?;
                let r = self.cvt(O::V_CVT_F32_F64, r, 2, 1)?;
                self.v1(O::V_CVT_F16_F32, r)?
            }
            (Fsign, 16, 16) => self.fsign(a[0], 16)?,
            (Fldexp, 16, 16) => {
                // v_ldexp_f16 reads a 16-bit exponent: saturate the 32-bit one to i16 (every
                // exponent beyond ±2^15 gives ±0 or ±inf, as the saturated one does).
                let e = match a[1] {
                    MVal::Const(c) => {
                        MVal::Const(u64::from((c as i32).clamp(-0x8000, 0x7fff) as u32))
                    }
                    other => self.v3(O::V_CVT_PK_I16_I32, &[other, MVal::Const(0)], 0)?,
                };
                let (x, e) = (self.half_src(a[0])?, self.src(e)?);
                let r = self.vreg(RegClass::V, 1);
                self.emit(build::vop2(O::V_LDEXP_F16, r, x, e));
                MVal::Reg(r, RegClass::V)
            }
            (_, 16, 16) if unary16(op).is_some() => {
                let vop = unary16(op).expect("checked");
                self.v1_16(vop, a[0])?
            }
            (F2f, 16, 32) => self.v1(O::V_CVT_F16_F32, a[0])?,
            (F2f, 32, 16) => self.f16_to_f32(a[0])?,
            (F2f, 16, 64) => self.f64_to_f16(a[0])?,
            (F2f, 64, 16) => {
                let f = self.f16_to_f32(a[0])?;
                self.float64(F2f, 64, 32, &[f])?.ok_or_else(|| unsupported("f32 to f64"))?
            }
            (F2i, 16, 16) => self.v1_16(O::V_CVT_I16_F16, a[0])?,
            (F2u, 16, 16) => self.v1_16(O::V_CVT_U16_F16, a[0])?,
            (F2i | F2u, 32 | 8, 16) => {
                let f = self.f16_to_f32(a[0])?;
                let i = self.alu_comp(op, 32, 32, &[f], false)?;
                match (op, bits) {
                    // Saturate to the 8-bit range as the reference conversion does.
                    (F2i, 8) => self.v3(
                        O::V_MED3_I32,
                        &[i, MVal::Const(u64::from(-128i32 as u32)), MVal::Const(127)],
                        0,
                    )?,
                    (F2u, 8) => self.bin(None, O::V_MIN_U32, false, i, MVal::Const(255))?,
                    _ => i,
                }
            }
            (U2f | I2f, 16, 32) => {
                // int -> f32 -> f16, the reference conversion's rounding.
                let f = self.alu_comp(op, 32, 32, a, false)?;
                self.v1(O::V_CVT_F16_F32, f)?
            }
            (B2f, 16, 1) => self.select(&[a[0], MVal::Const(0x3c00), MVal::Const(0)], uniform)?,
            _ => return Ok(None),
        }))
    }

    /// A half-precision comparison as a lane mask. There is no scalar form, so uniform operands
    /// are compared by the vector unit too (every lane gets the same answer).
    pub(super) fn compare_f16(&mut self, op: AluOp, a: &[MVal]) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::S, 1);
        let x = self.half_src(a[0])?;
        let (vop, y) = match op {
            AluOp::IsNan => (O::V_CMP_U_F16, x),
            // Class mask: -inf (bit 2) and +inf (bit 9).
            AluOp::IsInf => (O::V_CMP_CLASS_F16, Src::I(0x204)),
            _ => {
                let vop = cmp16(op).ok_or_else(|| unsupported(format!("compare {}", op.name())))?;
                (vop, self.half_src(a[1])?)
            }
        };
        let srcs = [x, y];
        self.emit(build::vcmp(vop, r, srcs[0], srcs[1], 1));
        Ok(MVal::Reg(r, RegClass::S))
    }

    /// `v` as an f16 source.
    fn half_src(&self, v: MVal) -> Result<Src, BackendError> {
        match v {
            MVal::Const(c) => Ok(build::half_imm(c as u16)),
            other => self.src(other),
        }
    }

    fn v1_16(&mut self, op: O, a: MVal) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::V, 1);
        let x = self.half_src(a)?;
        self.emit(build::vop1(op, r, x));
        Ok(MVal::Reg(r, RegClass::V))
    }

    fn v3_16(&mut self, op: O, a: &[MVal]) -> Result<MVal, BackendError> {
        let srcs: Vec<Src> = a.iter().map(|&x| self.half_src(x)).collect::<Result<_, _>>()?;
        let r = self.vreg(RegClass::V, 1);
        self.emit(build::vop3(op, Some(r), None, &srcs, 0));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// Two-source f16 arithmetic. VOP2 wants its VGPR second: commutative ops swap their
    /// operands, subtraction swaps into `v_subrev_f16`.
    fn bin16(&mut self, op: AluOp, a: MVal, b: MVal) -> Result<MVal, BackendError> {
        let vop = match op {
            AluOp::Fadd => O::V_ADD_F16,
            AluOp::Fsub => O::V_SUB_F16,
            AluOp::Fmul => O::V_MUL_F16,
            AluOp::Fmin => O::V_MIN_F16,
            _ => O::V_MAX_F16,
        };
        let (x, y) = (self.half_src(a)?, self.half_src(b)?);
        let (vop, x, y) = if !y.is_v() && x.is_v() {
            (if vop == O::V_SUB_F16 { O::V_SUBREV_F16 } else { vop }, y, x)
        } else {
            (vop, x, y)
        };
        let srcs = [x, y];
        let r = self.vreg(RegClass::V, 1);
        self.emit(build::vop2(vop, r, srcs[0], srcs[1]));
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// An f16 value widened to f32 (exact).
    pub(super) fn f16_to_f32(&mut self, v: MVal) -> Result<MVal, BackendError> {
        match v {
            MVal::Const(c) => Ok(MVal::Const(u64::from(ops::f16_to_f32(c as u16).to_bits()))),
            other => self.v1_16(O::V_CVT_F32_F16, other),
        }
    }

    /// round(): to the nearest integer, halves away from zero, for `bits`-wide floats. The
    /// fraction `x - trunc(x)` is exact; where its magnitude reaches one half, trunc(x) steps
    /// one away from zero (the step is exact too: a float with a fraction is far below the
    /// range where integers stop being representable).
    pub(super) fn fround(&mut self, x: MVal, bits: u8) -> Result<MVal, BackendError> {
        let (trunc, sub, add, cmp) = if bits == 16 {
            (O::V_TRUNC_F16, AluOp::Fsub, AluOp::Fadd, O::V_CMP_GE_F16)
        } else {
            (O::V_TRUNC_F32, AluOp::Fsub, AluOp::Fadd, O::V_CMP_GE_F32)
        };
        let (sign, one, half) = if bits == 16 {
            (0x8000u32, 0x3c00u64, build::half_imm(0x3800))
        } else {
            (0x8000_0000, 0x3f80_0000, build::Src::I(0x3f00_0000))
        };
        let t = if bits == 16 { self.v1_16(trunc, x)? } else { self.v1(trunc, x)? };
        let d = self.alu_comp(sub, bits, bits, &[x, t], false)?;
        let mag = self.bin(None, O::V_AND_B32, false, d, MVal::Const(u64::from(sign - 1)))?;
        let far = self.vreg(RegClass::S, 1);
        let srcs = [self.src(mag)?, half];
        self.emit(build::vcmp(cmp, far, srcs[0], srcs[1], 1));
        // ±1 with x's sign: v_bfi(mask, one, x) takes the magnitude bits from `one`.
        let step =
            self.v3(O::V_BFI_B32, &[MVal::Const(u64::from(sign - 1)), MVal::Const(one), x], 0)?;
        let away = self.alu_comp(add, bits, bits, &[t, step], false)?;
        self.select(&[MVal::Reg(far, RegClass::S), away, t], false)
    }

    /// sign(): ±1 for nonzero numbers, the operand itself for zeros and NaN (16, 32 or 64
    /// bits).
    pub(super) fn fsign(&mut self, x: MVal, bits: u8) -> Result<MVal, BackendError> {
        let (one, neg_one) = match bits {
            16 => (0x3c00, 0xbc00),
            32 => (0x3f80_0000, 0xbf80_0000),
            _ => (0x3ff0_0000_0000_0000, 0xbff0_0000_0000_0000),
        };
        let z = MVal::Const(0);
        let pos = self.alu_comp(AluOp::Flt, 1, bits, &[z, x], false)?;
        let neg = self.alu_comp(AluOp::Flt, 1, bits, &[x, z], false)?;
        let t = self.select_wide(&[neg, MVal::Const(neg_one), x], false, bits)?;
        self.select_wide(&[pos, MVal::Const(one), t], false, bits)
    }
}
