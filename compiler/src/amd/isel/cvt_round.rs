//! Float narrowing conversions whose rounding is not the mode's: toward zero (an `OpFConvert`
//! decorated `FPRoundingMode RTZ`) and f64 → f16 rounded once to nearest even.
//!
//! gfx10.3 has no f64 → f16 instruction, and going through `v_cvt_f32_f64` rounds twice (a
//! value just above an f16 tie lands on the tie, which then goes to even). The f32 step is
//! therefore rounded to odd: truncated, with the lowest bit set if anything was cut off, which
//! keeps the information the second rounding needs (f32 has 13 more significand bits). Both
//! the truncation and the sticky bit come from converting the f32 back (exact) and comparing
//! it with the source, as the reference [`crate::ir::ops::f64_to_f32_odd`] does. f32 → f16
//! toward zero is `v_cvt_pkrtz_f16_f32`, which also saturates finite values at ±65504.

use ferrum_isa::Opcode as O;

use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::ir::ops::AluOp;

impl Isel<'_> {
    /// `F2fRtz` from `sbits` to `bits`: toward zero when narrowing, exact otherwise.
    pub(super) fn f2f_rtz(&mut self, bits: u8, sbits: u8, x: MVal) -> Result<MVal, BackendError> {
        match (bits, sbits) {
            (32, 64) => self.f64_to_f32_truncated(x, false),
            (16, 64) => {
                let t = self.f64_to_f32_truncated(x, false)?;
                self.v3(O::V_CVT_PKRTZ_F16_F32, &[t, MVal::Const(0)], 0)
            }
            (16, 32) => self.v3(O::V_CVT_PKRTZ_F16_F32, &[x, MVal::Const(0)], 0),
            _ if bits >= sbits => self.alu_comp(AluOp::F2f, bits, sbits, &[x], false),
            _ => Err(unsupported(format!("f2f_rtz from {sbits} to {bits} bits"))),
        }
    }

    /// f64 → f16 rounded once to nearest even (through f32 rounded to odd).
    pub(super) fn f64_to_f16(&mut self, x: MVal) -> Result<MVal, BackendError> {
        let t = self.f64_to_f32_truncated(x, true)?;
        self.v1(O::V_CVT_F16_F32, t)
    }

    /// f64 → f32 toward zero (finite values saturate at ±FLT_MAX); with `odd`, the lowest
    /// bit is set where the conversion was inexact. NaNs stay NaNs.
    fn f64_to_f32_truncated(&mut self, x: MVal, odd: bool) -> Result<MVal, BackendError> {
        use AluOp::*;
        let r = self.cvt(O::V_CVT_F32_F64, x, 2, 1)?;
        let back = self.cvt(O::V_CVT_F64_F32, r, 1, 2)?;
        let abs = |s: &mut Self, v: MVal| {
            s.float64(Fabs, 64, 64, &[v])?.ok_or_else(|| unsupported("f64 abs"))
        };
        let (ax, ab) = (abs(self, x)?, abs(self, back)?);
        // Rounded away from zero: step to the neighbour toward zero (bit patterns of one sign
        // are ordered by magnitude; an overflow to inf steps back to FLT_MAX).
        let away = self.compare(Flt, 64, &[ax, ab], false)?;
        let step = self.select(&[away, MVal::Const(1), MVal::Const(0)], false)?;
        let t = self.bin(None, O::V_SUB_NC_U32, false, r, step)?;
        if !odd {
            return Ok(t);
        }
        let inexact = self.compare(Fneu, 64, &[x, back], false)?;
        let sticky = self.select(&[inexact, MVal::Const(1), MVal::Const(0)], false)?;
        self.bin(None, O::V_OR_B32, false, t, sticky)
    }
}
