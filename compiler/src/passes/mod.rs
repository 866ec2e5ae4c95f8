//! Passes, one per file, each named for what it does. [`crate::pipeline`] lists their order.

pub mod inline_functions;
pub mod link_stages;
pub mod lower_explicit_io;
pub mod lower_io;
pub mod lower_system_values;
pub mod lower_vars_to_ssa;

use crate::ir::{Function, Inst, InstKind, Value, ValueType};

/// Rebuilds a block's instruction list: passes push replacement instructions here.
pub struct Emitter<'a> {
    /// The function (for fresh values).
    pub f: &'a mut Function,
    /// The new instruction list.
    pub out: Vec<Inst>,
}

impl<'a> Emitter<'a> {
    /// An emitter for `f`.
    pub fn new(f: &'a mut Function) -> Self {
        Emitter { f, out: Vec::new() }
    }

    /// Emits `kind` defining a fresh value.
    pub fn emit(&mut self, kind: InstKind, ty: ValueType) -> Value {
        let v = self.f.new_value(ty);
        self.out.push(Inst { dst: Some(v), kind });
        v
    }

    /// Emits `kind` defining the existing value `dst` (retyped to `ty`).
    pub fn emit_to(&mut self, dst: Value, kind: InstKind, ty: ValueType) {
        self.f.values[dst.0 as usize] = ty;
        self.out.push(Inst { dst: Some(dst), kind });
    }

    /// Emits an instruction without a result.
    pub fn emit_void(&mut self, kind: InstKind) {
        self.out.push(Inst { dst: None, kind });
    }

    /// A scalar constant.
    pub fn imm(&mut self, bits: u8, v: u64) -> Value {
        self.emit(InstKind::Const(vec![v]), ValueType::data(bits, 1))
    }

    /// An ALU op.
    pub fn alu(&mut self, op: crate::ir::AluOp, bits: u8, comps: u8, srcs: Vec<Value>) -> Value {
        self.emit(InstKind::Alu(op, srcs), ValueType::data(bits, comps))
    }
}
pub mod lower_image_handles;
pub mod opt_constant_arrays;
pub mod opt_constant_fold;
pub mod opt_copy_prop;
pub mod opt_cse;
pub mod opt_dce;
pub mod opt_dead_cf;
pub mod opt_if_convert;
pub mod opt_kill_if;
pub mod opt_licm;
pub mod opt_loop_unroll;
pub mod opt_memory_forward;
pub mod opt_merge_blocks;
pub mod opt_scalarize_inputs;
pub mod opt_split_offsets;
