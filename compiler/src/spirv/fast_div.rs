//! f16 and f32 OpFDiv as `x * rcp(y)`, the form RADV/ACO emit (NIR's `lower_fdiv`: one
//! `v_rcp` and one `v_mul`, where the correctly rounded sequence takes ten instructions).
//!
//! Vulkan allows it: OpFDiv's precision is 2.5 ULP for |y| in [2^-126, 2^126] (f32) and
//! [2^-14, 2^14] (f16). `frcp` is the hardware's reciprocal as the IR defines it (rounded
//! once, [`crate::ir::ops`]), so x * frcp(y) is off by at most about 1 ULP inside that range.
//! Outside it (denormal or huge divisors) no precision is required. A constant divisor's
//! reciprocal folds to a constant, leaving one multiplication.
//!
//! The exact sequence stays where the fast form cannot honour an execution mode:
//! `DenormPreserve 32` (the hardware's `v_rcp_f32` flushes denormal inputs, so ACO scales
//! them; we keep the correctly rounded form instead) and `RoundingModeRTZ 32` (whose
//! rounding of the two steps would not be the one rounding toward zero the mode asks for).
//! f64 division stays correctly rounded. It is decided here, in the front end, so the IR
//! states the reciprocal and the interpreter and every later pass agree on it bit for bit.

use rspirv::dr::Instruction;

use super::function::{FnCtx, Tree};
use super::operands::id;
use crate::error::CompileError;
use crate::ir::{AluOp, Value, ValueType};

impl FnCtx<'_, '_> {
    /// `x * frcp(y)` for an OpFDiv (`op` and its operand trees) that may take the fast form;
    /// `None` leaves it to the plain translation.
    pub fn reciprocal_division(
        &mut self,
        inst: &Instruction,
        op: AluOp,
        srcs: &[Tree],
    ) -> Result<Option<Tree>, CompileError> {
        if op != AluOp::Fdiv {
            return Ok(None);
        }
        let Some(&x) = srcs[0].leaves().first() else { return Ok(None) };
        if !self.fast_division(self.f.ty(x).shape().0) {
            return Ok(None);
        }
        let r = self.map_trees(AluOp::Frcp, None, &srcs[1..2])?;
        let q = self.map_trees(AluOp::Fmul, None, &[srcs[0].clone(), r.clone()])?;
        // The multiplication may fuse into a sum like any contractible product (ACO fuses it
        // too); a constant divisor makes a constant factor.
        if let (Tree::Leaf(p), Tree::Leaf(x), Tree::Leaf(rv)) = (&q, &srcs[0], &r) {
            if inst.result_id.is_none_or(|i| !self.m.dec.of(i).no_contraction) {
                self.record_product(*p, *x, *rv, [id(inst, 0)?, id(inst, 1)?]);
            }
        }
        Ok(Some(q))
    }

    /// Whether a division of `bits`-bit floats may take the fast form.
    fn fast_division(&self, bits: u8) -> bool {
        let fc = self.m.shader.float_controls;
        match bits {
            16 => true,
            32 => !fc.preserve_denorms_32 && !fc.round_toward_zero_32,
            _ => false,
        }
    }

    /// `x / y` inside the expansion of an instruction whose precision Vulkan defines as
    /// inherited from its formula (smoothstep, tanh, atanh, matrix inverse): the fast form
    /// where [`Self::reciprocal_division`] would take it.
    pub fn div(&mut self, vt: ValueType, x: Value, y: Value) -> Value {
        if self.fast_division(vt.shape().0) {
            let r = self.alu(AluOp::Frcp, self.f.ty(y), vec![y]);
            self.alu(AluOp::Fmul, vt, vec![x, r])
        } else {
            self.alu(AluOp::Fdiv, vt, vec![x, y])
        }
    }

    /// `1 / y` likewise: the reciprocal itself in the fast form.
    pub fn recip(&mut self, vt: ValueType, y: Value) -> Value {
        if self.fast_division(vt.shape().0) {
            self.alu(AluOp::Frcp, vt, vec![y])
        } else {
            let one = self.imm(vt.shape().0, crate::ir::ops::from_f64(1.0, vt.shape().0));
            self.alu(AluOp::Fdiv, vt, vec![one, y])
        }
    }
}
