//! Function bodies: blocks, control flow, φs, calls and memory access.
//!
//! SPIR-V composites (structs, arrays, matrices) are not IR values: each SPIR-V id maps to a
//! [`Tree`] whose leaves are scalar/vector SSA values or derefs. Loading a struct becomes one
//! load per leaf through member derefs, so values never carry layout and a whole-struct copy
//! between two layouts is a load tree from one deref chain stored through another.

use rustc_hash::FxHashMap as HashMap;

use rspirv::dr::{Function as SpvFunction, Instruction};
use spirv::Op;

use super::module::{leaf_type, CTree, ModuleCtx};
use super::operands::{bad, id, lit, lit64, opname, result, result_type};
use crate::error::CompileError;
use crate::ir::{
    BlockId, DerefKind, Function, Inst, InstKind, Merge, Mode, Terminator, Type, TypeId, Value,
    ValueType, VarRef,
};

/// A SPIR-V value: a scalar/vector/deref leaf, or an aggregate of trees.
#[derive(Clone, Debug)]
pub enum Tree {
    /// One SSA value.
    Leaf(Value),
    /// Members, elements or matrix columns.
    Node(Vec<Tree>),
}

impl Tree {
    /// All leaves, in order.
    pub fn leaves(&self) -> Vec<Value> {
        match self {
            Tree::Leaf(v) => vec![*v],
            Tree::Node(k) => k.iter().flat_map(Tree::leaves).collect(),
        }
    }
}

/// Most leaves an aggregate value may have (a `float[65536]` copy is 64k instructions).
pub const MAX_TREE_LEAVES: u64 = 1 << 16;

/// Number of scalar/vector leaves of a value of type `t` (saturating).
pub fn leaf_count(types: &crate::ir::TypeTable, t: TypeId) -> u64 {
    match types.get(t) {
        Type::Struct { members, .. } => {
            members.iter().fold(0u64, |a, m| a.saturating_add(leaf_count(types, m.ty)))
        }
        Type::Array { elem, len, .. } => u64::from(*len).saturating_mul(leaf_count(types, *elem)),
        Type::Matrix { columns, .. } => u64::from(*columns),
        _ => 1,
    }
}

struct PendingPhi {
    dsts: Vec<(BlockId, usize)>,
    srcs: Vec<(u32, u32)>,
    op: String,
}

/// Translation state of one function.
pub struct FnCtx<'a, 'm> {
    /// Module state.
    pub m: &'a mut ModuleCtx<'m>,
    /// Function being built.
    pub f: Function,
    /// SPIR-V id → value.
    pub vals: HashMap<u32, Tree>,
    blocks: HashMap<u32, BlockId>,
    /// Current block.
    pub cur: BlockId,
    /// Constants and global derefs, placed at the start of the entry block at the end.
    prefix: Vec<Inst>,
    phis: Vec<PendingPhi>,
    /// Image texel pointers: id → (image handle, coordinate, sample).
    pub texel_ptrs: HashMap<u32, (Value, Value, Value)>,
    /// Contractible products by value (see [`super::contract`]).
    pub products: HashMap<Value, super::contract::Product>,
    /// OpCompositeConstruct results built from constants only (glslang splats a scalar
    /// constant that way).
    pub const_composites: std::collections::HashSet<u32>,
}

/// Translates one SPIR-V function into `m.shader.funcs[fid]`.
pub fn translate_function(
    m: &mut ModuleCtx<'_>,
    sf: &SpvFunction,
    fid: crate::ir::FuncId,
) -> Result<(), CompileError> {
    let def =
        sf.def.as_ref().ok_or_else(|| CompileError::Malformed("missing OpFunction".into()))?;
    let name = m.names.get(&result(def)?).cloned().unwrap_or_else(|| format!("f{}", fid.0));
    let mut cx = FnCtx {
        m,
        f: Function::new(name),
        vals: HashMap::default(),
        blocks: HashMap::default(),
        cur: BlockId(0),
        prefix: Vec::new(),
        phis: Vec::new(),
        texel_ptrs: HashMap::default(),
        products: HashMap::default(),
        const_composites: Default::default(),
    };
    let ret_ty = cx.m.ty(result_type(def)?)?;
    cx.f.ret_types = cx.leaf_types(ret_ty)?;
    for p in &sf.parameters {
        let t = cx.m.ty(result_type(p)?)?;
        let tree = cx.fresh_tree(t, &mut |f, vt| f.new_value(vt))?;
        cx.f.params.extend(tree.leaves());
        cx.vals.insert(result(p)?, tree);
    }
    for (i, b) in sf.blocks.iter().enumerate() {
        let label = b
            .label
            .as_ref()
            .ok_or_else(|| CompileError::Malformed("block without label".into()))?;
        let bid = if i == 0 { BlockId(0) } else { cx.f.new_block() };
        cx.blocks.insert(result(label)?, bid);
    }
    if fid == cx.m.shader.entry {
        cx.init_globals()?;
    }
    for b in &sf.blocks {
        let label = b.label.as_ref().map(result).transpose()?.unwrap_or(0);
        cx.cur = cx.blocks[&label];
        for inst in &b.instructions {
            cx.inst(inst)?;
        }
    }
    cx.fill_phis()?;
    let prefix = std::mem::take(&mut cx.prefix);
    cx.f.blocks[0].insts.splice(0..0, prefix);
    let f = std::mem::replace(&mut cx.f, Function::new(""));
    cx.m.shader.funcs[fid.0 as usize] = f;
    Ok(())
}

impl FnCtx<'_, '_> {
    /// Stores the Private globals' initializers at the top of the entry block.
    fn init_globals(&mut self) -> Result<(), CompileError> {
        for (var, init) in self.m.global_inits.clone() {
            let Tree::Leaf(ptr) = self.value(var)? else {
                return Err(CompileError::invalid("OpVariable", "variable is an aggregate"));
            };
            let v = self.value(init)?;
            self.store_tree(ptr, &v)?;
        }
        Ok(())
    }

    /// Value type of leaves of IR type `t` (handles are derefs of `Handle` mode).
    pub fn leaf_vt(&mut self, t: TypeId) -> Option<ValueType> {
        match self.m.shader.types.get(t) {
            Type::Image { .. } | Type::Sampler | Type::SampledImage { .. } => {
                Some(ValueType::Deref(self.m.shader.types.pointer(t, Mode::Handle, None)))
            }
            _ => leaf_type(&self.m.shader.types, t),
        }
    }

    pub(super) fn composite_len(&self, t: TypeId) -> Option<u32> {
        match self.m.shader.types.get(t) {
            Type::Struct { members, .. } => Some(members.len() as u32),
            Type::Array { len, .. } => Some(*len),
            Type::Matrix { columns, .. } => Some(u32::from(*columns)),
            _ => None,
        }
    }

    /// Child type for value trees (matrix columns are plain vectors).
    fn value_child(&mut self, t: TypeId, i: u32) -> Result<TypeId, CompileError> {
        match self.m.shader.types.get(t).clone() {
            Type::Matrix { column, .. } => Ok(column),
            _ => self
                .m
                .shader
                .types
                .child(t, i)
                .ok_or_else(|| CompileError::invalid("composite", "bad index")),
        }
    }

    fn leaf_types(&mut self, t: TypeId) -> Result<Vec<ValueType>, CompileError> {
        if matches!(self.m.shader.types.get(t), Type::Void) {
            return Ok(Vec::new());
        }
        let tree = self.fresh_tree(t, &mut |_, _| Value(0))?;
        let mut out = Vec::new();
        self.tree_types(t, &tree, &mut out)?;
        Ok(out)
    }

    fn tree_types(
        &mut self,
        t: TypeId,
        tree: &Tree,
        out: &mut Vec<ValueType>,
    ) -> Result<(), CompileError> {
        match tree {
            Tree::Leaf(_) => out.push(
                self.leaf_vt(t).ok_or_else(|| CompileError::invalid("type", "no value type"))?,
            ),
            Tree::Node(k) => {
                for (i, c) in k.iter().enumerate() {
                    let ct = self.value_child(t, i as u32)?;
                    self.tree_types(ct, c, out)?;
                }
            }
        }
        Ok(())
    }

    /// Rejects aggregates too large to handle as values (every leaf becomes an instruction).
    pub fn check_tree_size(&self, t: TypeId) -> Result<(), CompileError> {
        if leaf_count(&self.m.shader.types, t) > MAX_TREE_LEAVES {
            return Err(CompileError::unsupported(
                "composite",
                format!(
                    "{} is too large to load, store or copy as a value",
                    self.m.shader.types.name(t)
                ),
            ));
        }
        Ok(())
    }

    /// A tree of type `t` with leaves made by `mk`.
    pub fn fresh_tree(
        &mut self,
        t: TypeId,
        mk: &mut dyn FnMut(&mut Function, ValueType) -> Value,
    ) -> Result<Tree, CompileError> {
        if let Some(vt) = self.leaf_vt(t) {
            return Ok(Tree::Leaf(mk(&mut self.f, vt)));
        }
        self.check_tree_size(t)?;
        let n = self.composite_len(t).ok_or_else(|| {
            CompileError::invalid("type", format!("{} has no values", self.m.shader.types.name(t)))
        })?;
        let mut k = Vec::new();
        for i in 0..n {
            let c = self.value_child(t, i)?;
            k.push(self.fresh_tree(c, mk)?);
        }
        Ok(Tree::Node(k))
    }

    /// Emits into the current block.
    pub fn emit(&mut self, kind: InstKind, ty: ValueType) -> Value {
        let v = self.f.new_value(ty);
        self.f.block_mut(self.cur).insts.push(Inst { dst: Some(v), kind });
        v
    }

    /// Emits a result-less instruction.
    pub fn emit_void(&mut self, kind: InstKind) {
        self.f.block_mut(self.cur).insts.push(Inst { dst: None, kind });
    }

    /// Emits into the entry block's prefix (constants and global derefs dominate everything).
    fn emit_entry(&mut self, kind: InstKind, ty: ValueType) -> Value {
        let v = self.f.new_value(ty);
        self.prefix.push(Inst { dst: Some(v), kind });
        v
    }

    /// The components of `v` when it is a constant of the entry block's prefix.
    pub fn const_leaf(&self, v: Value) -> Option<&[u64]> {
        self.prefix.iter().find(|i| i.dst == Some(v)).and_then(|i| match &i.kind {
            InstKind::Const(c) => Some(c.as_slice()),
            _ => None,
        })
    }

    /// A 32-bit constant in the entry block.
    pub fn imm(&mut self, bits: u8, v: u64) -> Value {
        self.emit_entry(InstKind::Const(vec![v]), ValueType::data(bits, 1))
    }

    fn materialize(&mut self, c: &CTree) -> Tree {
        match c {
            CTree::Leaf(bits, comps) => {
                let vt = ValueType::data(*bits, comps.len() as u8);
                Tree::Leaf(self.emit_entry(InstKind::Const(comps.clone()), vt))
            }
            CTree::Undef(vt) => Tree::Leaf(self.emit_entry(InstKind::Undef, *vt)),
            CTree::Node(k) => Tree::Node(k.iter().map(|c| self.materialize(c)).collect()),
        }
    }

    /// The value of SPIR-V id `x`.
    pub fn value(&mut self, x: u32) -> Result<Tree, CompileError> {
        if let Some(t) = self.vals.get(&x) {
            return Ok(t.clone());
        }
        let tree = if let Some(c) = self.m.consts.get(&x).cloned() {
            self.materialize(&c)
        } else if let Some(&var) = self.m.globals.get(&x) {
            let ty = self.m.shader.vars[var.0 as usize].ty;
            let mode = self.m.shader.vars[var.0 as usize].mode;
            let pt = self.m.shader.types.pointer(ty, mode, None);
            Tree::Leaf(self.emit_entry(
                InstKind::Deref { kind: DerefKind::Var(VarRef::Global(var)), parent: None },
                ValueType::Deref(pt),
            ))
        } else {
            return Err(CompileError::invalid(
                "operand",
                format!("%{x} is not defined before use"),
            ));
        };
        self.vals.insert(x, tree.clone());
        Ok(tree)
    }

    /// Operand `i` of `inst` as a single SSA value.
    pub fn leaf(&mut self, inst: &Instruction, i: usize) -> Result<Value, CompileError> {
        match self.value(id(inst, i)?)? {
            Tree::Leaf(v) => Ok(v),
            Tree::Node(_) => Err(bad(inst, &format!("operand {i} is an aggregate"))),
        }
    }

    /// Defines the result of `inst`.
    pub fn set(&mut self, inst: &Instruction, t: Tree) -> Result<(), CompileError> {
        self.vals.insert(result(inst)?, t);
        Ok(())
    }

    /// The IR result type of `inst`.
    pub fn rtype(&self, inst: &Instruction) -> Result<TypeId, CompileError> {
        self.m.ty(result_type(inst)?)
    }

    /// Value type of the (non-aggregate) result of `inst`.
    pub fn rvt(&mut self, inst: &Instruction) -> Result<ValueType, CompileError> {
        let t = self.rtype(inst)?;
        self.leaf_vt(t).ok_or_else(|| bad(inst, "aggregate result not supported here"))
    }

    fn block_of(&self, inst: &Instruction, i: usize) -> Result<BlockId, CompileError> {
        let l = id(inst, i)?;
        self.blocks.get(&l).copied().ok_or_else(|| bad(inst, "branch to an unknown label"))
    }

    fn set_term(&mut self, t: Terminator) {
        self.f.block_mut(self.cur).term = t;
    }

    fn inst(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        match inst.class.opcode {
            Op::Line | Op::NoLine | Op::Nop => {}
            Op::Phi => self.phi(inst)?,
            Op::SelectionMerge => {
                let b = self.block_of(inst, 0)?;
                self.f.block_mut(self.cur).merge = Some(Merge::Selection(b));
            }
            Op::LoopMerge => {
                let (merge, cont) = (self.block_of(inst, 0)?, self.block_of(inst, 1)?);
                self.f.block_mut(self.cur).merge = Some(Merge::Loop { merge, cont });
            }
            Op::Branch => {
                let b = self.block_of(inst, 0)?;
                self.set_term(Terminator::Branch(b));
            }
            Op::BranchConditional => {
                let cond = self.leaf(inst, 0)?;
                let (then, els) = (self.block_of(inst, 1)?, self.block_of(inst, 2)?);
                self.set_term(Terminator::CondBranch { cond, then, els });
            }
            Op::Switch => {
                let sel = self.leaf(inst, 0)?;
                let default = self.block_of(inst, 1)?;
                let mut cases = Vec::new();
                let mut i = 2;
                while i + 1 < inst.operands.len() {
                    cases.push((lit64(inst, i)?, self.block_of(inst, i + 1)?));
                    i += 2;
                }
                self.set_term(Terminator::Switch { sel, default, cases });
            }
            Op::Return => self.set_term(Terminator::Return(Vec::new())),
            Op::ReturnValue => {
                let v = self.value(id(inst, 0)?)?.leaves();
                self.set_term(Terminator::Return(v));
            }
            Op::Kill | Op::TerminateInvocation => self.set_term(Terminator::Kill),
            Op::Unreachable => self.set_term(Terminator::Unreachable),
            Op::DemoteToHelperInvocation => self.emit_void(InstKind::Demote),
            Op::IsHelperInvocationEXT => {
                let vt = self.rvt(inst)?;
                let d = self.emit(InstKind::IsHelper, vt);
                self.set(inst, Tree::Leaf(d))?;
            }
            Op::FunctionCall => self.call(inst)?,
            Op::ControlBarrier | Op::MemoryBarrier => {
                let exec = inst.class.opcode == Op::ControlBarrier;
                let semantics = self.constant_u64(inst, if exec { 2 } else { 1 })?;
                let memory = crate::ir::BarrierMemory::from_semantics(semantics as u32);
                self.emit_void(InstKind::Barrier { exec, memory })
            }
            Op::Undef => {
                let t = self.rtype(inst)?;
                let c = self.m.undef(t)?;
                let tree = self.materialize(&c);
                self.set(inst, tree)?;
            }
            Op::ExtInst => self.ext_inst(inst)?,
            _ => {
                if !self.memory_inst(inst)?
                    && !self.alu_inst(inst)?
                    && !self.image_inst(inst)?
                    && !self.subgroup_inst(inst)?
                {
                    return Err(CompileError::unsupported(opname(inst), "not implemented"));
                }
            }
        }
        Ok(())
    }

    fn ext_inst(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let set = id(inst, 0)?;
        if self.m.ignored_ext.contains(&set) {
            return Ok(());
        }
        if Some(set) != self.m.glsl_ext {
            return Err(bad(inst, "unknown extended instruction set"));
        }
        let n = lit(inst, 1)?;
        self.glsl_inst(inst, n)
    }

    fn phi(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let t = self.rtype(inst)?;
        let cur = self.cur;
        let mut dsts = Vec::new();
        let tree = self.fresh_tree(t, &mut |f, vt| {
            let v = f.new_value(vt);
            let b = f.block_mut(cur);
            b.insts.push(Inst { dst: Some(v), kind: InstKind::Phi(Vec::new()) });
            dsts.push((cur, b.insts.len() - 1));
            v
        })?;
        let mut srcs = Vec::new();
        let mut i = 0;
        while i + 1 < inst.operands.len() {
            srcs.push((id(inst, i)?, id(inst, i + 1)?));
            i += 2;
        }
        self.phis.push(PendingPhi { dsts, srcs, op: opname(inst) });
        self.set(inst, tree)
    }

    fn fill_phis(&mut self) -> Result<(), CompileError> {
        for p in std::mem::take(&mut self.phis) {
            for (val, label) in &p.srcs {
                let pred = *self
                    .blocks
                    .get(label)
                    .ok_or_else(|| CompileError::invalid(&p.op, "unknown predecessor"))?;
                let leaves = self.value(*val)?.leaves();
                if leaves.len() != p.dsts.len() {
                    return Err(CompileError::invalid(&p.op, "operand type mismatch"));
                }
                for ((b, i), v) in p.dsts.iter().zip(leaves) {
                    if let InstKind::Phi(s) = &mut self.f.block_mut(*b).insts[*i].kind {
                        s.push((pred, v));
                    }
                }
            }
        }
        Ok(())
    }

    fn call(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let callee = id(inst, 0)?;
        let fid =
            *self.m.funcs.get(&callee).ok_or_else(|| bad(inst, "call to unknown function"))?;
        let mut args = Vec::new();
        for i in 1..inst.operands.len() {
            args.extend(self.value(id(inst, i)?)?.leaves());
        }
        let t = self.rtype(inst)?;
        let mut rets = Vec::new();
        let tree = if matches!(self.m.shader.types.get(t), Type::Void) {
            None
        } else {
            Some(self.fresh_tree(t, &mut |f, vt| {
                let v = f.new_value(vt);
                rets.push(v);
                v
            })?)
        };
        self.emit_void(InstKind::Call { func: fid, args, rets });
        if let Some(tree) = tree {
            self.set(inst, tree)?;
        }
        Ok(())
    }
}
