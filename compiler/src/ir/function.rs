//! Blocks, functions and the shader: the containers instructions live in.
//!
//! Control flow is a CFG of basic blocks whose headers keep SPIR-V's structured merge
//! information ([`Merge`]), so the backend can still rebuild if/loop nesting after the passes.

use super::inst::{BlockId, FuncId, Inst, Value, ValueType, VarRef, Variable};
use super::types::{Mode, TypeTable};

/// Structured-control-flow annotation of a header block, kept from SPIR-V.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    /// Selection construct with its merge block.
    Selection(BlockId),
    /// Loop construct with merge and continue blocks.
    Loop {
        /// Block after the loop.
        merge: BlockId,
        /// Continue target.
        cont: BlockId,
    },
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    /// Unconditional branch.
    Branch(BlockId),
    /// Two-way branch on a bool.
    CondBranch {
        /// Condition.
        cond: Value,
        /// Taken when true.
        then: BlockId,
        /// Taken when false.
        els: BlockId,
    },
    /// Multi-way branch on an integer.
    Switch {
        /// Selector.
        sel: Value,
        /// Default target.
        default: BlockId,
        /// (literal, target) pairs.
        cases: Vec<(u64, BlockId)>,
    },
    /// Return with flattened result values.
    Return(Vec<Value>),
    /// Terminate the invocation (fragment kill).
    Kill,
    /// Unreachable.
    Unreachable,
}

impl Terminator {
    /// Successor blocks, in order.
    pub fn succs(&self) -> Vec<BlockId> {
        match self {
            Terminator::Branch(b) => vec![*b],
            Terminator::CondBranch { then, els, .. } => vec![*then, *els],
            Terminator::Switch { default, cases, .. } => {
                let mut v = vec![*default];
                v.extend(cases.iter().map(|c| c.1));
                v
            }
            _ => vec![],
        }
    }

    /// Source values.
    pub fn srcs_mut(&mut self) -> Vec<&mut Value> {
        match self {
            Terminator::CondBranch { cond, .. } => vec![cond],
            Terminator::Switch { sel, .. } => vec![sel],
            Terminator::Return(v) => v.iter_mut().collect(),
            _ => vec![],
        }
    }

    /// Retargets every edge to `from` so it goes to `to`.
    pub fn replace_succ(&mut self, from: BlockId, to: BlockId) {
        let fix = |b: &mut BlockId| {
            if *b == from {
                *b = to;
            }
        };
        match self {
            Terminator::Branch(b) => fix(b),
            Terminator::CondBranch { then, els, .. } => {
                fix(then);
                fix(els);
            }
            Terminator::Switch { default, cases, .. } => {
                fix(default);
                cases.iter_mut().for_each(|c| fix(&mut c.1));
            }
            _ => {}
        }
    }
}

/// A basic block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Instructions; φs come first.
    pub insts: Vec<Inst>,
    /// Terminator.
    pub term: Terminator,
    /// Structured merge information when this block heads a construct.
    pub merge: Option<Merge>,
}

/// A function. Block 0 is the entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Debug name.
    pub name: String,
    /// Parameter values (aggregates flattened).
    pub params: Vec<Value>,
    /// Flattened return value types.
    pub ret_types: Vec<ValueType>,
    /// Blocks.
    pub blocks: Vec<Block>,
    /// Type of every value.
    pub values: Vec<ValueType>,
    /// Function-local variables.
    pub locals: Vec<Variable>,
}

impl Function {
    /// An empty function with one empty entry block.
    pub fn new(name: impl Into<String>) -> Self {
        Function {
            name: name.into(),
            params: Vec::new(),
            ret_types: Vec::new(),
            blocks: vec![Block { insts: Vec::new(), term: Terminator::Unreachable, merge: None }],
            values: Vec::new(),
            locals: Vec::new(),
        }
    }

    /// Allocates a fresh value of type `ty`.
    pub fn new_value(&mut self, ty: ValueType) -> Value {
        self.values.push(ty);
        Value(self.values.len() as u32 - 1)
    }

    /// Appends an empty block.
    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push(Block { insts: Vec::new(), term: Terminator::Unreachable, merge: None });
        BlockId(self.blocks.len() as u32 - 1)
    }

    /// Type of `v`.
    pub fn ty(&self, v: Value) -> ValueType {
        self.values[v.0 as usize]
    }

    /// Block `b`.
    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b.0 as usize]
    }

    /// Block `b`, mutably.
    pub fn block_mut(&mut self, b: BlockId) -> &mut Block {
        &mut self.blocks[b.0 as usize]
    }

    /// Map from value to its defining instruction (block, index).
    pub fn def_map(&self) -> Vec<Option<(BlockId, usize)>> {
        let mut m = vec![None; self.values.len()];
        for (bi, b) in self.blocks.iter().enumerate() {
            for (ii, inst) in b.insts.iter().enumerate() {
                for d in inst.defs() {
                    m[d.0 as usize] = Some((BlockId(bi as u32), ii));
                }
            }
        }
        m
    }

    /// Replaces every use of a value by `map[value]` where set (one sweep; chains resolved).
    pub fn rewrite_uses(&mut self, map: &[Option<Value>]) {
        let resolve = |mut v: Value| {
            let mut n = 0;
            while let Some(Some(r)) = map.get(v.0 as usize) {
                if *r == v || n > map.len() {
                    break;
                }
                v = *r;
                n += 1;
            }
            v
        };
        for b in &mut self.blocks {
            for i in &mut b.insts {
                i.for_each_src_mut(|v| *v = resolve(*v));
            }
            for v in b.term.srcs_mut() {
                *v = resolve(*v);
            }
        }
    }

    /// Predecessors of each block.
    pub fn preds(&self) -> Vec<Vec<BlockId>> {
        let mut p = vec![Vec::new(); self.blocks.len()];
        for (i, b) in self.blocks.iter().enumerate() {
            for s in b.term.succs() {
                if !p[s.0 as usize].contains(&BlockId(i as u32)) {
                    p[s.0 as usize].push(BlockId(i as u32));
                }
            }
        }
        p
    }
}

/// Shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Compute.
    Compute,
    /// Vertex.
    Vertex,
    /// Fragment.
    Fragment,
}

/// A whole shader: one entry point and what it reaches.
#[derive(Clone, Debug)]
pub struct Shader {
    /// Stage.
    pub stage: Stage,
    /// Type table.
    pub types: TypeTable,
    /// Global variables.
    pub vars: Vec<Variable>,
    /// Functions.
    pub funcs: Vec<Function>,
    /// Entry function.
    pub entry: FuncId,
    /// Workgroup size (compute).
    pub workgroup_size: [u32; 3],
    /// Bytes of LDS used (set by `lower_explicit_io`).
    pub shared_size: u32,
    /// Bytes of per-invocation scratch (set by `lower_explicit_io`).
    pub scratch_size: u32,
    /// Fragment origin is upper-left, depth replacing ... (fragment modes not acted on).
    pub frag_modes: Vec<String>,
    /// The EarlyFragmentTests execution mode: depth/stencil tests (and their writes) before
    /// the fragment shader runs, so failed fragments have no side effects.
    pub early_fragment_tests: bool,
    /// Float execution modes (SPV_KHR_float_controls) other than the defaults.
    pub float_controls: FloatControls,
    /// Read-only data `MemLoad`s of [`super::Space::Constant`] read (constant tables that
    /// `opt_constant_arrays` took out of private arrays); the backend places it after the code.
    pub constant_data: Vec<u8>,
}

/// The SPV_KHR_float_controls execution modes a shader asks for. The defaults (all false)
/// are round to nearest even with denormals preserved, at every width; only 32-bit floats
/// can ask otherwise (16- and 64-bit share one hardware mode field, and the simulator
/// models only nearest-even rounding for them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloatControls {
    /// `DenormFlushToZero 32`: f32 denormal inputs and results are flushed to zero.
    pub flush_denorms_32: bool,
    /// `RoundingModeRTZ 32`: f32 arithmetic and conversions to f32 round toward zero.
    pub round_toward_zero_32: bool,
}

impl FloatControls {
    /// Whether f32 results may differ from the host's (nearest-even, denormal-preserving)
    /// arithmetic, so float constant folding must leave the ops to the hardware.
    pub fn f32_differs_from_host(self) -> bool {
        self.flush_denorms_32 || self.round_toward_zero_32
    }
}

impl Shader {
    /// The entry function.
    pub fn entry_fn(&self) -> &Function {
        &self.funcs[self.entry.0 as usize]
    }

    /// Mode of the variable a deref root refers to.
    pub fn var<'a>(&'a self, f: &'a Function, r: VarRef) -> &'a Variable {
        match r {
            VarRef::Global(v) => &self.vars[v.0 as usize],
            VarRef::Local(v) => &f.locals[v.0 as usize],
        }
    }

    /// Mode of a deref value (from its pointer type).
    pub fn deref_mode(&self, f: &Function, v: Value) -> Option<Mode> {
        match f.ty(v) {
            ValueType::Deref(t) => match self.types.get(t) {
                super::types::Type::Pointer { mode, .. } => Some(*mode),
                _ => None,
            },
            ValueType::Data { .. } => None,
        }
    }
}
