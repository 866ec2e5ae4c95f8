//! 32-bit float division in vertex and fragment shaders as `x * (1 / y)`.
//!
//! Vulkan requires OpFDiv to be within 2.5 ULP for divisors in [2^-126, 2^126] (the spec's
//! "Precision and Operation of SPIR-V Instructions"); `v_rcp_f32` is within 1 ULP and the
//! product adds half an ULP, so two instructions meet it where a correctly rounded quotient
//! takes nine (`v_div_scale` ×2, `v_rcp`, four FMAs, `v_div_fmas`, `v_div_fixup`). RADV does
//! the same for every stage. Compute shaders keep the correctly rounded quotient: their
//! results are compared bit for bit against CPU and lavapipe references by users (and by our
//! own differential tests), and the compute corpus already meets its code-size goal without it.
//!
//! The choice is made while translating, not by a later pass, so the shader's meaning (what
//! the IR interpreter computes for every pass's check) is the fast form from the start.

use super::function::FnCtx;
use crate::ir::{AluOp, InstKind, Stage, Value, ValueType};

/// 1.0 as an f32.
const ONE: u64 = 0x3f80_0000;

impl FnCtx<'_, '_> {
    /// Whether a division of type `vt` is translated as a reciprocal and a product.
    pub(super) fn fast_division(&self, vt: ValueType) -> bool {
        vt.shape().0 == 32 && matches!(self.m.shader.stage, Stage::Vertex | Stage::Fragment)
    }

    /// `x / y` as `x * rcp(y)`; `1 / y` is the reciprocal alone.
    pub(super) fn fast_div(&mut self, vt: ValueType, x: Value, y: Value) -> Value {
        let r = self.emit(InstKind::Alu(AluOp::Frcp, vec![y]), vt);
        if self.const_leaf(x).is_some_and(|c| c.iter().all(|&v| v == ONE)) {
            return r;
        }
        self.emit(InstKind::Alu(AluOp::Fmul, vec![x, r]), vt)
    }
}
