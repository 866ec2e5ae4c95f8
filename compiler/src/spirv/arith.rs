//! Arithmetic, composite and matrix instructions. Matrices are trees of column vectors, so
//! matrix products expand here into vector ALU ops.

use rspirv::dr::Instruction;
use spirv::Op;

use super::alu::{alu_map, with_rounding};
use super::function::{FnCtx, Tree};
use super::operands::{bad, id, lit};
use crate::error::CompileError;
use crate::ir::{AluOp, InstKind, Value, ValueType};

impl FnCtx<'_, '_> {
    /// Emits an ALU op.
    pub fn alu(&mut self, op: AluOp, vt: ValueType, srcs: Vec<Value>) -> Value {
        if op == AluOp::Fdiv && self.fast_division(vt) {
            return self.fast_div(vt, srcs[0], srcs[1]);
        }
        self.emit(InstKind::Alu(op, srcs), vt)
    }

    fn shape(&self, v: Value) -> (u8, u8) {
        self.f.ty(v).shape()
    }

    /// Component `i` of `v`.
    pub fn comp(&mut self, v: Value, i: u32) -> Value {
        let (bits, n) = self.shape(v);
        if n == 1 {
            return v;
        }
        let ix = self.imm(32, u64::from(i));
        self.alu(AluOp::ExtractDyn, ValueType::data(bits, 1), vec![v, ix])
    }

    /// `s` replicated to `n` components.
    pub fn splat(&mut self, s: Value, n: u8) -> Value {
        let (bits, c) = self.shape(s);
        if c == n {
            return s;
        }
        self.alu(AluOp::Vec, ValueType::data(bits, n), vec![s; usize::from(n)])
    }

    /// Maps a component-wise op over matching trees.
    fn map_trees(
        &mut self,
        op: AluOp,
        out_bits: Option<u8>,
        srcs: &[Tree],
    ) -> Result<Tree, CompileError> {
        match &srcs[0] {
            Tree::Leaf(_) => {
                let vs: Vec<Value> = srcs
                    .iter()
                    .map(|t| match t {
                        Tree::Leaf(v) => Ok(*v),
                        Tree::Node(_) => {
                            Err(CompileError::invalid("ALU", "mixed aggregate operands"))
                        }
                    })
                    .collect::<Result<_, _>>()?;
                // Bcsel's first source is the condition; the shape comes from the data.
                let shape_src = if op == AluOp::Bcsel { vs[1] } else { vs[0] };
                let (bits, comps) = self.shape(shape_src);
                let vt = ValueType::data(out_bits.unwrap_or(bits), comps);
                let vt = if op == AluOp::Bcsel { self.f.ty(vs[1]) } else { vt };
                Ok(Tree::Leaf(self.alu(op, vt, vs)))
            }
            Tree::Node(k) => {
                let mut out = Vec::new();
                for i in 0..k.len() {
                    let sub: Vec<Tree> = srcs
                        .iter()
                        .map(|t| match t {
                            Tree::Node(k) => k[i].clone(),
                            leaf => leaf.clone(),
                        })
                        .collect();
                    out.push(self.map_trees(op, out_bits, &sub)?);
                }
                Ok(Tree::Node(out))
            }
        }
    }

    /// Translates arithmetic/composite instructions; `false` if `inst` is not one.
    pub fn alu_inst(&mut self, inst: &Instruction) -> Result<bool, CompileError> {
        let op = inst.class.opcode;
        if matches!(op, Op::FAdd | Op::FSub) && self.contracts(inst) {
            if let Some(t) = self.fused_sum(inst)? {
                self.set(inst, t)?;
                return Ok(true);
            }
        }
        if let Some(mut map) = alu_map(op) {
            if let Some(r) = inst.result_id {
                map.op = with_rounding(map.op, self.m.dec.of(r).fp_rounding)?;
            }
            let mut srcs = Vec::new();
            for i in 0..inst.operands.len() {
                srcs.push(self.value(id(inst, i)?)?);
            }
            if map.swap {
                srcs.swap(0, 1);
            }
            let rt = self.rtype(inst)?;
            let t = if map.op == AluOp::Fdot && !self.contracts(inst) {
                let (a, b) = (srcs[0].leaves()[0], srcs[1].leaves()[0]);
                Tree::Leaf(self.dot_uncontracted(a, b))
            } else if map.op == AluOp::Bcsel {
                self.map_trees(map.op, None, &srcs)?
            } else if !map.op.is_componentwise() {
                let vt = self.rvt(inst)?;
                let vs = srcs.iter().map(|t| t.leaves()[0]).collect();
                Tree::Leaf(self.alu(map.op, vt, vs))
            } else {
                let bits = self.leaf_vt(rt).map(|v| v.shape().0);
                self.map_trees(map.op, bits, &srcs)?
            };
            if let (Op::FMul, Tree::Leaf(p), [Tree::Leaf(x), Tree::Leaf(y)]) =
                (op, &t, srcs.as_slice())
            {
                if self.contracts(inst) {
                    self.record_product(*p, *x, *y, [id(inst, 0)?, id(inst, 1)?]);
                }
            }
            self.set(inst, t)?;
            return Ok(true);
        }
        let t = match op {
            Op::CompositeConstruct
            | Op::CompositeExtract
            | Op::CompositeInsert
            | Op::VectorShuffle => self.composite_inst(inst)?,
            Op::VectorTimesScalar
            | Op::MatrixTimesScalar
            | Op::MatrixTimesVector
            | Op::VectorTimesMatrix
            | Op::MatrixTimesMatrix
            | Op::OuterProduct
            | Op::Transpose => self.matrix_inst(inst)?,
            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => {
                self.extended_inst(inst)?
            }
            Op::QuantizeToF16 => {
                let x = self.leaf(inst, 0)?;
                Tree::Leaf(self.quantize_to_f16(x))
            }
            _ => return Ok(false),
        };
        self.set(inst, t)?;
        Ok(true)
    }

    /// OpQuantizeToF16: `x` rounded to f16 and back (nearest even; a magnitude beyond f16's
    /// range becomes infinity, NaN stays NaN), and a value below f16's smallest normal,
    /// which the spec lets be ±0 only, becomes +0 (the conversion keeps f16 denormals).
    fn quantize_to_f16(&mut self, x: Value) -> Value {
        let (_, n) = self.shape(x);
        let vt = ValueType::data(32, n);
        let half = self.alu(AluOp::F2f, ValueType::data(16, n), vec![x]);
        let back = self.alu(AluOp::F2f, vt, vec![half]);
        let mag = self.alu(AluOp::Fabs, vt, vec![back]);
        let smallest_normal = self.fconst(32, n, 2f64.powi(-14));
        let tiny = self.alu(AluOp::Flt, ValueType::data(1, n), vec![mag, smallest_normal]);
        let zero = self.fconst(32, n, 0.0);
        self.alu(AluOp::Bcsel, vt, vec![tiny, zero, back])
    }

    /// Composite construction, extraction, insertion and shuffles.
    fn composite_inst(&mut self, inst: &Instruction) -> Result<Tree, CompileError> {
        let op = inst.class.opcode;
        Ok(match op {
            Op::CompositeConstruct => self.construct(inst)?,
            Op::CompositeExtract => {
                let mut t = self.value(id(inst, 0)?)?;
                for i in 1..inst.operands.len() {
                    let ix = lit(inst, i)?;
                    t = match t {
                        Tree::Node(k) => k
                            .get(ix as usize)
                            .cloned()
                            .ok_or_else(|| bad(inst, "index out of range"))?,
                        Tree::Leaf(v) => Tree::Leaf(self.comp(v, ix)),
                    };
                }
                t
            }
            Op::CompositeInsert => {
                // Operands: the object to insert, then the composite it goes into.
                let object = self.value(id(inst, 0)?)?;
                let composite = self.value(id(inst, 1)?)?;
                let idx: Vec<u32> =
                    (2..inst.operands.len()).map(|i| lit(inst, i)).collect::<Result<_, _>>()?;
                self.insert(inst, object, &idx, composite)?
            }
            Op::VectorShuffle => {
                let (a, b) = (self.leaf(inst, 0)?, self.leaf(inst, 1)?);
                let na = u32::from(self.shape(a).1);
                let vt = self.rvt(inst)?;
                let mut comps = Vec::new();
                for i in 2..inst.operands.len() {
                    let s = lit(inst, i)?;
                    comps.push(match s {
                        0xffff_ffff => self.imm(vt.shape().0, 0),
                        s if s < na => self.comp(a, s),
                        s => self.comp(b, s - na),
                    });
                }
                Tree::Leaf(self.alu(AluOp::Vec, vt, comps))
            }
            _ => return Err(bad(inst, "not a composite_inst opcode")),
        })
    }

    /// Matrix and vector-by-scalar products (matrices are trees of columns).
    fn matrix_inst(&mut self, inst: &Instruction) -> Result<Tree, CompileError> {
        let op = inst.class.opcode;
        Ok(match op {
            Op::VectorTimesScalar => {
                let (v, s) = (self.leaf(inst, 0)?, self.leaf(inst, 1)?);
                let (bits, n) = self.shape(v);
                let sv = self.splat(s, n);
                let p = self.alu(AluOp::Fmul, ValueType::data(bits, n), vec![v, sv]);
                if self.contracts(inst) {
                    self.record_product(p, v, sv, [id(inst, 0)?, id(inst, 1)?]);
                }
                Tree::Leaf(p)
            }
            Op::MatrixTimesScalar => {
                let m = self.value(id(inst, 0)?)?;
                let s = self.leaf(inst, 1)?;
                let mut cols = Vec::new();
                for c in m.leaves() {
                    let (bits, n) = self.shape(c);
                    let sv = self.splat(s, n);
                    cols.push(Tree::Leaf(self.alu(
                        AluOp::Fmul,
                        ValueType::data(bits, n),
                        vec![c, sv],
                    )));
                }
                Tree::Node(cols)
            }
            Op::MatrixTimesVector => {
                let m = self.value(id(inst, 0)?)?.leaves();
                let v = self.leaf(inst, 1)?;
                let fuse = self.contracts(inst);
                Tree::Leaf(self.mat_vec(&m, v, fuse))
            }
            Op::VectorTimesMatrix => {
                let v = self.leaf(inst, 0)?;
                let m = self.value(id(inst, 1)?)?.leaves();
                let vt = self.rvt(inst)?;
                let bits = vt.shape().0;
                let fuse = self.contracts(inst);
                let dots: Vec<Value> = m
                    .iter()
                    .map(|c| match fuse {
                        true => self.alu(AluOp::Fdot, ValueType::data(bits, 1), vec![v, *c]),
                        false => self.dot_uncontracted(v, *c),
                    })
                    .collect();
                Tree::Leaf(self.alu(AluOp::Vec, vt, dots))
            }
            Op::MatrixTimesMatrix => {
                let a = self.value(id(inst, 0)?)?.leaves();
                let b = self.value(id(inst, 1)?)?.leaves();
                let fuse = self.contracts(inst);
                Tree::Node(b.iter().map(|c| Tree::Leaf(self.mat_vec(&a, *c, fuse))).collect())
            }
            Op::OuterProduct => {
                let (a, b) = (self.leaf(inst, 0)?, self.leaf(inst, 1)?);
                let (bits, n) = self.shape(a);
                let m = self.shape(b).1;
                let mut cols = Vec::new();
                for j in 0..m {
                    let s = self.comp(b, u32::from(j));
                    let sv = self.splat(s, n);
                    cols.push(Tree::Leaf(self.alu(
                        AluOp::Fmul,
                        ValueType::data(bits, n),
                        vec![a, sv],
                    )));
                }
                Tree::Node(cols)
            }
            Op::Transpose => {
                let m = self.value(id(inst, 0)?)?.leaves();
                let (bits, rows) = self.shape(m[0]);
                let mut cols = Vec::new();
                for r in 0..rows {
                    let comps: Vec<Value> = m.iter().map(|c| self.comp(*c, u32::from(r))).collect();
                    cols.push(Tree::Leaf(self.alu(
                        AluOp::Vec,
                        ValueType::data(bits, m.len() as u8),
                        comps,
                    )));
                }
                Tree::Node(cols)
            }
            _ => return Err(bad(inst, "not a matrix_inst opcode")),
        })
    }

    /// Two-result integer ops: carry, borrow and extended multiplies.
    fn extended_inst(&mut self, inst: &Instruction) -> Result<Tree, CompileError> {
        let op = inst.class.opcode;
        Ok(match op {
            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => {
                let (a, b) = (self.leaf(inst, 0)?, self.leaf(inst, 1)?);
                let vt = self.f.ty(a);
                let (lo, hi) = match op {
                    Op::IAddCarry => {
                        let s = self.alu(AluOp::Iadd, vt, vec![a, b]);
                        let c = self.alu(AluOp::Ult, ValueType::data(1, vt.shape().1), vec![s, a]);
                        (s, self.alu(AluOp::B2i, vt, vec![c]))
                    }
                    Op::ISubBorrow => {
                        let s = self.alu(AluOp::Isub, vt, vec![a, b]);
                        let c = self.alu(AluOp::Ult, ValueType::data(1, vt.shape().1), vec![a, b]);
                        (s, self.alu(AluOp::B2i, vt, vec![c]))
                    }
                    Op::UMulExtended => (
                        self.alu(AluOp::Imul, vt, vec![a, b]),
                        self.alu(AluOp::UmulHigh, vt, vec![a, b]),
                    ),
                    _ => (
                        self.alu(AluOp::Imul, vt, vec![a, b]),
                        self.alu(AluOp::ImulHigh, vt, vec![a, b]),
                    ),
                };
                Tree::Node(vec![Tree::Leaf(lo), Tree::Leaf(hi)])
            }
            _ => return Err(bad(inst, "not a extended_inst opcode")),
        })
    }

    /// Whether SPIR-V lets the products and sums of `inst` be fused (it is not decorated
    /// `NoContraction`).
    fn contracts(&self, inst: &Instruction) -> bool {
        inst.result_id.is_none_or(|r| !self.m.dec.of(r).no_contraction)
    }

    /// Matrix (columns) times vector: the first column's product, then each further column
    /// multiplied and added, fused into one multiply-add when `fuse` (contraction allowed).
    fn mat_vec(&mut self, cols: &[Value], v: Value, fuse: bool) -> Value {
        let (bits, n) = self.shape(cols[0]);
        let vt = ValueType::data(bits, n);
        let mut acc: Option<Value> = None;
        for (j, c) in cols.iter().enumerate() {
            let s = self.comp(v, j as u32);
            let sv = self.splat(s, n);
            acc = Some(match acc {
                None => self.alu(AluOp::Fmul, vt, vec![*c, sv]),
                Some(a) if fuse => self.alu(AluOp::Ffma, vt, vec![*c, sv, a]),
                Some(a) => {
                    let p = self.alu(AluOp::Fmul, vt, vec![*c, sv]);
                    self.alu(AluOp::Fadd, vt, vec![a, p])
                }
            });
        }
        acc.unwrap_or(v)
    }

    /// A dot product rounded after every multiply and add (`Fdot` fuses them).
    fn dot_uncontracted(&mut self, a: Value, b: Value) -> Value {
        let (bits, n) = self.shape(a);
        let p = self.alu(AluOp::Fmul, ValueType::data(bits, n), vec![a, b]);
        let mut acc = self.comp(p, 0);
        for i in 1..u32::from(n) {
            let c = self.comp(p, i);
            acc = self.alu(AluOp::Fadd, ValueType::data(bits, 1), vec![acc, c]);
        }
        acc
    }

    fn construct(&mut self, inst: &Instruction) -> Result<Tree, CompileError> {
        let rt = self.rtype(inst)?;
        let mut parts = Vec::new();
        let mut all_const = true;
        for i in 0..inst.operands.len() {
            all_const &= self.is_const_id(id(inst, i)?);
            parts.push(self.value(id(inst, i)?)?);
        }
        if let (true, Some(r)) = (all_const, inst.result_id) {
            self.const_composites.insert(r);
        }
        match self.leaf_vt(rt) {
            Some(vt @ ValueType::Data { .. }) => {
                let vs: Vec<Value> = parts.iter().flat_map(Tree::leaves).collect();
                let total: u32 = vs.iter().map(|v| u32::from(self.shape(*v).1)).sum();
                if total != u32::from(vt.shape().1) {
                    return Err(bad(inst, "component count mismatch"));
                }
                Ok(Tree::Leaf(self.alu(AluOp::Vec, vt, vs)))
            }
            _ => Ok(Tree::Node(parts)),
        }
    }

    /// `composite` with the element at `idx` replaced by `object` (OpCompositeInsert).
    fn insert(
        &mut self,
        inst: &Instruction,
        object: Tree,
        idx: &[u32],
        composite: Tree,
    ) -> Result<Tree, CompileError> {
        let Some((&first, rest)) = idx.split_first() else { return Ok(object) };
        match composite {
            Tree::Node(mut k) => {
                let child = k
                    .get(first as usize)
                    .cloned()
                    .ok_or_else(|| bad(inst, "index out of range"))?;
                k[first as usize] = self.insert(inst, object, rest, child)?;
                Ok(Tree::Node(k))
            }
            Tree::Leaf(v) => {
                let Tree::Leaf(c) = object else { return Err(bad(inst, "aggregate into vector")) };
                let ix = self.imm(32, u64::from(first));
                let vt = self.f.ty(v);
                Ok(Tree::Leaf(self.alu(AluOp::InsertDyn, vt, vec![v, c, ix])))
            }
        }
    }
}
