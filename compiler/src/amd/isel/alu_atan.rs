//! Inverse trigonometry in f32 (the f16 forms widen to it): atan, atan2, asin and acos from
//! one kernel, atan on [0, 1].
//!
//! The kernel folds t > tan(π/8) onto u = (t - 1) / (t + 1) (atan t = π/4 + atan u), so that
//! |u| <= tan(π/8) ≈ 0.4142, where the Taylor series u - u³/3 + u⁵/5 - ... truncated after
//! u²¹/21 is within u²³/23 < 7e-11 of the true value (an alternating series with decreasing
//! terms), far below f32's rounding. The rest is quadrant bookkeeping: atan2 works on
//! min(|x|, |y|) / max(|x|, |y|) and reflects the angle by π/2 and π, takes y's sign, and
//! asin/acos are atan2 with the cathetus sqrt((1 - x)(1 + x)) (no cancellation near ±1).
//! Vulkan allows these functions thousands of ulps; this stays within a few.

use ferrum_isa::Opcode as O;

use super::{Isel, MVal};
use crate::amd::error::BackendError;
use crate::ir::ops::AluOp;

/// f32 bit patterns of π/4, π/2 and π.
const PI_4: u64 = 0x3f49_0fdb;
const PI_2: u64 = 0x3fc9_0fdb;
const PI: u64 = 0x4049_0fdb;
/// tan(π/8) as f32.
const TAN_PI_8: u64 = 0x3ed4_13cd;

fn f(x: f32) -> MVal {
    MVal::Const(u64::from(x.to_bits()))
}

impl Isel<'_> {
    /// atan(t) for t in [0, 1].
    fn atan_kernel(&mut self, t: MVal) -> Result<MVal, BackendError> {
        use AluOp::*;
        let big = self.alu_comp(Flt, 1, 32, &[MVal::Const(TAN_PI_8), t], false)?;
        let num = self.alu_comp(Fsub, 32, 32, &[t, f(1.0)], false)?;
        let den = self.alu_comp(Fadd, 32, 32, &[t, f(1.0)], false)?;
        let r = self.v1(O::V_RCP_F32, den)?;
        let folded = self.alu_comp(Fmul, 32, 32, &[num, r], false)?;
        let u = self.select(&[big, folded, t], false)?;
        let s = self.alu_comp(Fmul, 32, 32, &[u, u], false)?;
        // P(s) = -1/3 + s/5 - s²/7 + ... + s⁹/21, by Horner.
        let mut p = f(1.0 / 21.0);
        for k in (3..=19).rev().step_by(2) {
            let c = if (k / 2) % 2 == 1 { -1.0 / k as f32 } else { 1.0 / k as f32 };
            p = self.v3(O::V_FMA_F32, &[p, s, f(c)], 0)?;
        }
        let us = self.alu_comp(Fmul, 32, 32, &[u, s], false)?;
        let q = self.v3(O::V_FMA_F32, &[us, p, u], 0)?;
        let shifted = self.alu_comp(Fadd, 32, 32, &[q, MVal::Const(PI_4)], false)?;
        self.select(&[big, shifted, q], false)
    }

    /// atan2(y, x) in f32.
    pub(super) fn atan2_32(&mut self, y: MVal, x: MVal) -> Result<MVal, BackendError> {
        use AluOp::*;
        let ax = self.alu_comp(Fabs, 32, 32, &[x], false)?;
        let ay = self.alu_comp(Fabs, 32, 32, &[y], false)?;
        let hi = self.alu_comp(Fmax, 32, 32, &[ax, ay], false)?;
        let lo = self.alu_comp(Fmin, 32, 32, &[ax, ay], false)?;
        let r = self.v1(O::V_RCP_F32, hi)?;
        let t = self.alu_comp(Fmul, 32, 32, &[lo, r], false)?;
        let mut p = self.atan_kernel(t)?;
        let steep = self.alu_comp(Flt, 1, 32, &[ax, ay], false)?;
        let refl = self.alu_comp(Fsub, 32, 32, &[MVal::Const(PI_2), p], false)?;
        p = self.select(&[steep, refl, p], false)?;
        let left = self.alu_comp(Flt, 1, 32, &[x, MVal::Const(0)], false)?;
        let back = self.alu_comp(Fsub, 32, 32, &[MVal::Const(PI), p], false)?;
        p = self.select(&[left, back, p], false)?;
        // The magnitude from p, the sign from y; NaN in, NaN out (max/min would drop it).
        let signed = self.v3(O::V_BFI_B32, &[MVal::Const(0x7fff_ffff), p, y], 0)?;
        let nx = self.alu_comp(IsNan, 1, 32, &[x], false)?;
        let ny = self.alu_comp(IsNan, 1, 32, &[y], false)?;
        let nan = self.bool_op(Ior, &[nx, ny])?;
        let sum = self.alu_comp(Fadd, 32, 32, &[x, y], false)?;
        self.select(&[nan, sum, signed], false)
    }

    /// atan, asin, acos and atan2 on f32 components; `None` for other ops.
    pub(super) fn inverse_trig32(
        &mut self,
        op: AluOp,
        a: &[MVal],
    ) -> Result<Option<MVal>, BackendError> {
        use AluOp::*;
        Ok(Some(match op {
            Fatan => self.atan2_32(a[0], f(1.0))?,
            Fatan2 => self.atan2_32(a[0], a[1])?,
            Fasin | Facos => {
                let om = self.alu_comp(Fsub, 32, 32, &[f(1.0), a[0]], false)?;
                let op1 = self.alu_comp(Fadd, 32, 32, &[f(1.0), a[0]], false)?;
                let pr = self.alu_comp(Fmul, 32, 32, &[om, op1], false)?;
                let c = self.v1(O::V_SQRT_F32, pr)?;
                if op == Fasin {
                    self.atan2_32(a[0], c)?
                } else {
                    self.atan2_32(c, a[0])?
                }
            }
            _ => return Ok(None),
        }))
    }
}
