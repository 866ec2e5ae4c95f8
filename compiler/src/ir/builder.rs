//! Appending instructions to a block with fresh result values.

use super::function::Function;
use super::inst::{BlockId, DerefKind, Inst, InstKind, Value, ValueType};
use super::ops::AluOp;

/// Appends instructions at the end of (or at a position in) one block of a function.
pub struct Builder<'a> {
    /// The function being built.
    pub func: &'a mut Function,
    /// Current block.
    pub block: BlockId,
    /// Insertion index inside the block; `None` appends.
    pub at: Option<usize>,
}

impl<'a> Builder<'a> {
    /// A builder appending to `block`.
    pub fn new(func: &'a mut Function, block: BlockId) -> Self {
        Builder { func, block, at: None }
    }

    /// Inserts a raw instruction.
    pub fn insert(&mut self, inst: Inst) {
        let b = self.func.block_mut(self.block);
        match &mut self.at {
            Some(i) => {
                b.insts.insert(*i, inst);
                *i += 1;
            }
            None => b.insts.push(inst),
        }
    }

    /// Emits `kind` defining a new value of type `ty`.
    pub fn emit(&mut self, kind: InstKind, ty: ValueType) -> Value {
        let v = self.func.new_value(ty);
        self.insert(Inst { dst: Some(v), kind });
        v
    }

    /// Emits an instruction without a result.
    pub fn emit_void(&mut self, kind: InstKind) {
        self.insert(Inst { dst: None, kind });
    }

    /// A constant.
    pub fn constant(&mut self, bits: u8, comps: Vec<u64>) -> Value {
        let n = comps.len() as u8;
        self.emit(InstKind::Const(comps), ValueType::data(bits, n))
    }

    /// A 32-bit scalar constant.
    pub fn imm32(&mut self, v: u32) -> Value {
        self.constant(32, vec![u64::from(v)])
    }

    /// An ALU op producing `bits × comps`.
    pub fn alu(&mut self, op: AluOp, bits: u8, comps: u8, srcs: Vec<Value>) -> Value {
        self.emit(InstKind::Alu(op, srcs), ValueType::data(bits, comps))
    }

    /// Component `i` of `v`.
    pub fn channel(&mut self, v: Value, i: u32) -> Value {
        let (bits, comps) = self.func.ty(v).shape();
        if comps == 1 {
            return v;
        }
        let idx = self.imm32(i);
        self.alu(AluOp::ExtractDyn, bits, 1, vec![v, idx])
    }

    /// A deref step of pointer type `ty`.
    pub fn deref(
        &mut self,
        kind: DerefKind,
        parent: Option<Value>,
        ty: super::types::TypeId,
    ) -> Value {
        self.emit(InstKind::Deref { kind, parent }, ValueType::Deref(ty))
    }
}
