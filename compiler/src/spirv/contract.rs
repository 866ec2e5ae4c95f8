//! Contraction of a product into the sum that uses it (`x * y + c` → one fused multiply-add),
//! which SPIR-V allows unless either instruction is decorated `NoContraction` (GLSL
//! `precise`). It is decided here, in the front end, so the IR states the fused rounding and
//! every later pass and the interpreter agree on it byte for byte.
//!
//! A subtraction fuses only when the operand it negates is a constant (the negation then folds
//! away); a variable operand would need a negate instruction of its own.

use rspirv::dr::Instruction;
use spirv::Op;

use super::function::{FnCtx, Tree};
use super::operands::id;
use crate::error::CompileError;
use crate::ir::{AluOp, Value};

/// The factors of a contractible product.
#[derive(Clone, Copy, Debug)]
pub struct Product {
    x: Value,
    y: Value,
    /// Whether `x` (`y`) is a SPIR-V constant.
    x_const: bool,
    y_const: bool,
}

impl FnCtx<'_, '_> {
    /// Whether SPIR-V id `i` is a constant or a composite built from constants.
    pub fn is_const_id(&self, i: u32) -> bool {
        self.m.consts.contains_key(&i) || self.const_composites.contains(&i)
    }

    /// Records that `p` (the result of a contractible OpFMul or OpVectorTimesScalar of the
    /// SPIR-V operands `ids`) is `x * y`.
    pub fn record_product(&mut self, p: Value, x: Value, y: Value, ids: [u32; 2]) {
        let (x_const, y_const) = (self.is_const_id(ids[0]), self.is_const_id(ids[1]));
        self.products.insert(p, Product { x, y, x_const, y_const });
    }

    /// The fused form of a contractible OpFAdd/OpFSub `inst` when one of its operands is a
    /// recorded product; `None` leaves it to the plain translation.
    pub fn fused_sum(&mut self, inst: &Instruction) -> Result<Option<Tree>, CompileError> {
        let (ia, ib) = (id(inst, 0)?, id(inst, 1)?);
        let (Tree::Leaf(a), Tree::Leaf(b)) = (self.value(ia)?, self.value(ib)?) else {
            return Ok(None);
        };
        let sub = inst.class.opcode == Op::FSub;
        let vt = self.f.ty(a);
        let fma = |cx: &mut Self, x, y, c| Some(Tree::Leaf(cx.alu(AluOp::Ffma, vt, vec![x, y, c])));
        // x*y + b, or x*y - b as fma(x, y, -b).
        if let Some(p) = self.products.get(&a).copied() {
            if !sub {
                return Ok(fma(self, p.x, p.y, b));
            }
            if self.is_const_id(ib) {
                let nb = self.alu(AluOp::Fneg, vt, vec![b]);
                return Ok(fma(self, p.x, p.y, nb));
            }
        }
        // a + x*y, or a - x*y as fma(-x, y, a) with the constant factor negated.
        if let Some(p) = self.products.get(&b).copied() {
            if !sub {
                return Ok(fma(self, p.x, p.y, a));
            }
            if p.x_const || p.y_const {
                let (k, v) = if p.x_const { (p.x, p.y) } else { (p.y, p.x) };
                let nk = self.alu(AluOp::Fneg, self.f.ty(k), vec![k]);
                return Ok(fma(self, nk, v, a));
            }
        }
        Ok(None)
    }
}
