//! `opt_split_offsets`: rewrites the address of every explicit memory access into
//! `base + constant` form, so that accesses that differ only by a constant share one `base`
//! value (CSE merges the copies) and instruction selection can put the constant into the
//! instruction's immediate offset field.
//!
//! `lower_explicit_io` computes each access's byte offset as one expression, so
//! `o[i * 4 + 1]` becomes `((i * 4) + 1) * 4`: a different value per element. This pass
//! reassociates the constant outwards through the operations that distribute over addition in
//! modular arithmetic:
//! `(x + c) << k → (x << k) + (c << k)`, `(x + c) * m → x * m + c * m`,
//! `(x + c1) + (y + c2) → (x + y) + (c1 + c2)` and `(x + c1) - c2 → x + (c1 - c2)`.
//! The IR's integer ops wrap at their bit size and carry no no-wrap promises, so each identity
//! holds exactly for every input; constants are computed with the ops' reference semantics
//! ([`crate::ir::ops::eval`]). Nothing is moved across a width change (`u2u`, `i2i`): a
//! constant inside a sign or zero extension stays there.
//!
//! Descriptor-buffer addresses are `u32x2` (resource index, offset) and grow by adding
//! `vec(0, offset)`; their constant becomes a `u32x2` constant `(0, c)`.
//!
//! Afterwards every access whose address had a constant part anywhere in that arithmetic reads
//! its address from `iadd(base, const)` where `base` has no constant part left.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::ops::{self, eval, mask};
use crate::ir::{AluOp, Function, Inst, InstKind, Shader, Space, Value, ValueType};

/// Rewrites memory addresses in every function; returns true if anything changed.
pub fn opt_split_offsets(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        changed |= run(f);
    }
    changed
}

/// A value split into a variable part (`None`: nothing but the constant) and a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Split {
    base: Option<Value>,
    c: u64,
}

struct Splitter<'a> {
    /// Original definitions, by value.
    defs: &'a [Option<InstKind>],
    /// Instructions to insert before the access being rewritten.
    out: Vec<Inst>,
    /// Splits already computed in this block (their new values dominate what follows).
    memo: HashMap<Value, Split>,
}

impl Splitter<'_> {
    fn def(&self, v: Value) -> Option<&InstKind> {
        self.defs.get(v.0 as usize).and_then(|d| d.as_ref())
    }

    fn new_value(&mut self, f: &mut Function, kind: InstKind, ty: ValueType) -> Value {
        let v = f.new_value(ty);
        self.out.push(Inst { dst: Some(v), kind });
        v
    }

    /// A scalar constant of `bits`.
    fn scalar_const(&self, f: &Function, v: Value, bits: u8) -> Option<u64> {
        match (self.def(v), f.ty(v)) {
            (Some(InstKind::Const(c)), ValueType::Data { bits: b, comps: 1 }) if b == bits => {
                c.first().copied()
            }
            _ => None,
        }
    }

    fn fold(op: AluOp, bits: u8, a: u64, b: u64) -> u64 {
        let (x, y) = ([a], [b]);
        let srcs = [ops::Src { bits, comps: &x }, ops::Src { bits, comps: &y }];
        eval(op, bits, 1, &srcs).map_or(0, |r| r[0]) & mask(bits)
    }

    /// Splits scalar integer `v` of `bits` bits.
    fn split(&mut self, f: &mut Function, v: Value, bits: u8) -> Split {
        if let Some(s) = self.memo.get(&v) {
            return *s;
        }
        let whole = Split { base: Some(v), c: 0 };
        if f.ty(v) != ValueType::data(bits, 1) {
            return whole;
        }
        if let Some(c) = self.scalar_const(f, v, bits) {
            return Split { base: None, c };
        }
        let Some(InstKind::Alu(op, srcs)) = self.def(v).cloned() else { return whole };
        let r = match (op, srcs.as_slice()) {
            (AluOp::Mov, [a]) => self.split(f, *a, bits),
            (AluOp::Iadd, [a, b]) => {
                let (sa, sb) = (self.split(f, *a, bits), self.split(f, *b, bits));
                if sa.c == 0 && sb.c == 0 {
                    whole
                } else {
                    let base = match (sa.base, sb.base) {
                        (Some(x), Some(y)) => Some(self.new_value(
                            f,
                            InstKind::Alu(AluOp::Iadd, vec![x, y]),
                            ValueType::data(bits, 1),
                        )),
                        (x, y) => x.or(y),
                    };
                    Split { base, c: sa.c.wrapping_add(sb.c) & mask(bits) }
                }
            }
            (AluOp::Isub, [a, b]) => match self.scalar_const(f, *b, bits) {
                Some(k) => {
                    let sa = self.split(f, *a, bits);
                    Split { base: sa.base, c: sa.c.wrapping_sub(k) & mask(bits) }
                }
                None => whole,
            },
            (AluOp::Ishl | AluOp::Imul, [a, b]) => {
                // Multiplication commutes; a shift amount must be the right operand.
                let (x, k) = match (self.scalar_const(f, *a, bits), self.scalar_const(f, *b, bits))
                {
                    (_, Some(_)) => (*a, *b),
                    (Some(_), None) if op == AluOp::Imul => (*b, *a),
                    _ => return whole,
                };
                let kv = self.scalar_const(f, k, bits).unwrap_or(0);
                let sx = self.split(f, x, bits);
                if sx.c == 0 {
                    whole
                } else {
                    let base = sx.base.map(|b| {
                        self.new_value(f, InstKind::Alu(op, vec![b, k]), ValueType::data(bits, 1))
                    });
                    Split { base, c: Self::fold(op, bits, sx.c, kv) }
                }
            }
            _ => whole,
        };
        self.memo.insert(v, r);
        r
    }

    /// Splits a descriptor-buffer address: (root address, offset split). Only additions of
    /// `vec(0, offset)` (or a `(0, c)` constant) are looked through; any other address is a root.
    fn split_buffer(&mut self, f: &mut Function, v: Value) -> (Value, Split) {
        let whole = (v, Split { base: None, c: 0 });
        let Some(InstKind::Alu(op, srcs)) = self.def(v).cloned() else { return whole };
        match (op, srcs.as_slice()) {
            (AluOp::Mov, [a]) => self.split_buffer(f, *a),
            (AluOp::Iadd, [a, b]) => {
                let (root, off) = match (self.offset_only(f, *b), self.offset_only(f, *a)) {
                    (Some(o), _) => (*a, o),
                    (None, Some(o)) => (*b, o),
                    _ => return whole,
                };
                let (r, sr) = self.split_buffer(f, root);
                let base = match (sr.base, off.base) {
                    (Some(x), Some(y)) => Some(self.new_value(
                        f,
                        InstKind::Alu(AluOp::Iadd, vec![x, y]),
                        ValueType::data(32, 1),
                    )),
                    (x, y) => x.or(y),
                };
                (r, Split { base, c: sr.c.wrapping_add(off.c) & mask(32) })
            }
            _ => whole,
        }
    }

    /// The offset split of `v` if it is `vec(0, offset)` or a constant `(0, c)`.
    fn offset_only(&mut self, f: &mut Function, v: Value) -> Option<Split> {
        if f.ty(v) != ValueType::data(32, 2) {
            return None;
        }
        match self.def(v).cloned()? {
            InstKind::Const(c) if c.len() == 2 && c[0] == 0 => {
                Some(Split { base: None, c: c[1] & mask(32) })
            }
            InstKind::Alu(AluOp::Vec, s)
                if s.len() == 2 && self.scalar_const(f, s[0], 32) == Some(0) =>
            {
                Some(self.split(f, s[1], 32))
            }
            _ => None,
        }
    }

    /// The rewritten address of an access, or `None` when it has no constant part to expose
    /// or already has the `iadd(base, const)` form.
    fn rewrite(&mut self, f: &mut Function, space: Space, addr: Value) -> Option<Value> {
        if space == Space::Buffer {
            let (root, sp) = self.split_buffer(f, addr);
            if sp.c == 0 || self.is_canonical_buffer(f, addr) {
                return None;
            }
            let base = match sp.base {
                Some(o) => {
                    let z = self.new_value(f, InstKind::Const(vec![0]), ValueType::data(32, 1));
                    let ty = ValueType::data(32, 2);
                    let off = self.new_value(f, InstKind::Alu(AluOp::Vec, vec![z, o]), ty);
                    self.new_value(f, InstKind::Alu(AluOp::Iadd, vec![root, off]), ty)
                }
                None => root,
            };
            let ty = ValueType::data(32, 2);
            let k = self.new_value(f, InstKind::Const(vec![0, sp.c]), ty);
            return Some(self.new_value(f, InstKind::Alu(AluOp::Iadd, vec![base, k]), ty));
        }
        let bits = if space == Space::Global { 64 } else { 32 };
        let sp = self.split(f, addr, bits);
        if sp.c == 0 || self.is_canonical(f, addr, bits) {
            return None;
        }
        let ty = ValueType::data(bits, 1);
        let k = self.new_value(f, InstKind::Const(vec![sp.c]), ty);
        Some(match sp.base {
            Some(b) => self.new_value(f, InstKind::Alu(AluOp::Iadd, vec![b, k]), ty),
            None => k,
        })
    }

    /// `addr` is already `iadd(base, const)` with no constant inside `base`.
    fn is_canonical(&mut self, f: &mut Function, addr: Value, bits: u8) -> bool {
        if self.scalar_const(f, addr, bits).is_some() {
            return true;
        }
        let Some(InstKind::Alu(AluOp::Iadd, s)) = self.def(addr).cloned() else { return false };
        // CSE may have put the constant first (commutative operands are sorted by id).
        [(s[0], s[1]), (s[1], s[0])]
            .into_iter()
            .any(|(b, k)| self.scalar_const(f, k, bits).is_some() && self.split(f, b, bits).c == 0)
    }

    fn is_canonical_buffer(&mut self, f: &mut Function, addr: Value) -> bool {
        let Some(InstKind::Alu(AluOp::Iadd, s)) = self.def(addr).cloned() else { return false };
        [(s[0], s[1]), (s[1], s[0])].into_iter().any(|(b, k)| {
            let konst =
                matches!(self.def(k), Some(InstKind::Const(c)) if c.len() == 2 && c[0] == 0);
            konst && self.split_buffer(f, b).1.c == 0
        })
    }
}

fn run(f: &mut Function) -> bool {
    let defs: Vec<Option<InstKind>> = {
        let mut d = vec![None; f.values.len()];
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            if let Some(v) = i.dst {
                d[v.0 as usize] = Some(i.kind.clone());
            }
        }
        d
    };
    let mut changed = false;
    for bi in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[bi].insts);
        let mut sp = Splitter {
            defs: &defs,
            out: Vec::with_capacity(insts.len()),
            memo: HashMap::default(),
        };
        for mut inst in insts {
            let addr = match &mut inst.kind {
                InstKind::MemLoad { space, addr, .. }
                | InstKind::MemStore { space, addr, .. }
                | InstKind::MemAtomic { space, addr, .. } => Some((*space, addr)),
                _ => None,
            };
            if let Some((space, addr)) = addr {
                let mark = sp.out.len();
                match sp.rewrite(f, space, *addr) {
                    Some(new) => {
                        *addr = new;
                        changed = true;
                    }
                    // Split values built for nothing are left to DCE; drop them right away.
                    None => {
                        let dropped: Vec<Value> =
                            sp.out.drain(mark..).filter_map(|i| i.dst).collect();
                        sp.memo.retain(|_, s| s.base.is_none_or(|b| !dropped.contains(&b)));
                    }
                }
            }
            sp.out.push(inst);
        }
        f.blocks[bi].insts = sp.out;
    }
    changed
}
