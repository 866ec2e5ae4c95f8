//! `opt_constant_arrays`: a private array that is only ever filled with constants and then
//! read becomes a table in the shader's constant data ([`Shader::constant_data`]), read with
//! `MemLoad`s of [`Space::Constant`] (as Mesa's `nir_opt_large_constants` does for RADV).
//!
//! Such arrays (`int perm[8] = int[](3, 7, 0, ...); perm[i]`, or a constant composite indexed
//! through an access chain, which the front end stores element by element) are left by
//! `lower_vars_to_ssa` when an index is dynamic; without this pass they are filled in scratch
//! memory (or VGPRs) by every invocation and read back. Here the stores go and each load
//! reads the table where the backend places it after the code.
//!
//! A variable qualifies when: it is a function temporary (or a private global of a shader
//! with one function); every access is a deref chain of array, matrix-column and struct
//! steps ending at a 32- or 64-bit scalar or vector (no component indexing, no escaping
//! pointer); every store is of a constant, through constant indices, in the entry block;
//! every load in the entry block comes after the last store (the entry block dominates the
//! rest, so every load sees the complete table); at least one load has a dynamic index; and
//! the array has at least [`MIN_ELEMENTS`] leaf elements. Elements never stored are zero
//! (reading them was undefined).
//!
//! Dynamic indices are clamped to the array's last element (`umin`, which also sends
//! negative indices there): SPIR-V leaves an out-of-range index undefined, but the load must
//! not leave the table.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::Emitter;
use crate::ir::{
    layout, AluOp, DerefKind, Function, InstKind, Mode, Shader, Space, Type, TypeId, Value,
    ValueType, VarRef,
};

/// Fewest leaf elements worth a table. A two- or three-element array read with a dynamic
/// index is one or two compare-and-selects per component (the VGPR form); a table read is
/// the address (`s_getpc_b64`, `s_add_u32`, `s_addc_u32`), the clamp, the scaling, the load
/// and its wait, which the select chain beats below four elements.
pub const MIN_ELEMENTS: u32 = 4;

/// Alignment of each table inside the constant data (the widest load, `dwordx4`).
const TABLE_ALIGN: usize = 16;

/// One dynamic step of a deref chain: `index` (clamped to `len - 1`) times `stride`.
#[derive(Clone, Copy, Debug)]
struct DynStep {
    index: Value,
    len: u32,
    stride: u32,
}

/// Where a deref of a candidate variable points: its root, the constant part of its byte
/// offset, its dynamic steps and its pointee type.
#[derive(Clone, Debug)]
struct Path {
    root: VarRef,
    offset: u32,
    dyns: Vec<DynStep>,
    pointee: TypeId,
}

/// Moves every qualifying array of every function into the constant data. Returns whether
/// anything changed.
pub fn opt_constant_arrays(s: &mut Shader) -> bool {
    let mut changed = false;
    for fi in 0..s.funcs.len() {
        let mut f = std::mem::replace(&mut s.funcs[fi], Function::new(""));
        changed |= run(s, &mut f);
        s.funcs[fi] = f;
    }
    changed
}

fn candidate_root(s: &Shader, f: &Function, r: VarRef) -> bool {
    let mode = s.var(f, r).mode;
    mode == Mode::Function || (mode == Mode::Private && s.funcs.len() <= 1)
}

fn pointee(s: &Shader, f: &Function, v: Value) -> Option<TypeId> {
    let ValueType::Deref(pt) = f.ty(v) else { return None };
    match s.types.get(pt) {
        Type::Pointer { pointee, .. } => Some(*pointee),
        _ => None,
    }
}

/// Whether `t` is a leaf a table load can read: a 32- or 64-bit integer or float scalar, or
/// a tightly packed vector of them.
fn loadable_leaf(s: &Shader, t: TypeId) -> bool {
    let scalar = |e: TypeId| match s.types.get(e) {
        Type::Int { bits, .. } | Type::Float { bits } => *bits == 32 || *bits == 64,
        _ => false,
    };
    match s.types.get(t) {
        Type::Vector { elem, .. } => {
            scalar(*elem)
                && layout::array_stride(&s.types, t) == layout::scalar_size(&s.types, *elem)
        }
        _ => scalar(t),
    }
}

/// Paths of every deref rooted at a candidate variable, and the roots that cannot be tables
/// because some deref step is not one a table supports.
fn paths(s: &Shader, f: &Function) -> (HashMap<Value, Path>, HashSet<VarRef>) {
    let mut out: HashMap<Value, Path> = HashMap::default();
    let mut bad = HashSet::default();
    let consts = const_scalars(f);
    // Parents may be defined in a later block than their first listing: repeat until stable.
    loop {
        let before = out.len();
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            let (InstKind::Deref { kind, parent }, Some(d)) = (&inst.kind, inst.dst) else {
                continue;
            };
            if out.contains_key(&d) {
                continue;
            }
            let Some(pt) = pointee(s, f, d) else { continue };
            if let DerefKind::Var(r) = kind {
                if candidate_root(s, f, *r) {
                    out.insert(d, Path { root: *r, offset: 0, dyns: Vec::new(), pointee: pt });
                }
                continue;
            }
            let Some(p) = parent.and_then(|p| out.get(&p)).cloned() else { continue };
            match step(s, &p, kind, &consts) {
                Some(mut next) => {
                    next.pointee = pt;
                    out.insert(d, next);
                }
                None => {
                    bad.insert(p.root);
                }
            }
        }
        if out.len() == before {
            return (out, bad);
        }
    }
}

/// The path one deref step past `p`, if a table supports the step.
fn step(s: &Shader, p: &Path, kind: &DerefKind, consts: &HashMap<Value, u64>) -> Option<Path> {
    let types = &s.types;
    let mut next = p.clone();
    match (kind, types.get(p.pointee)) {
        (DerefKind::Member(m), Type::Struct { members, .. }) if (*m as usize) < members.len() => {
            next.offset = next.offset.checked_add(layout::member_offset(types, p.pointee, *m))?;
        }
        (DerefKind::Index(i), t @ (Type::Array { .. } | Type::Matrix { .. })) => {
            let len = array_len(t)?;
            match consts.get(i) {
                Some(c) if *c < u64::from(len) => {
                    let off = layout::child_offset(types, p.pointee, *c as u32);
                    next.offset = next.offset.checked_add(off)?;
                }
                Some(_) => return None,
                None => {
                    let stride = layout::child_stride(types, p.pointee);
                    next.dyns.push(DynStep { index: *i, len, stride });
                }
            }
        }
        _ => return None,
    }
    Some(next)
}

/// Element count of an array or column count of a matrix.
fn array_len(t: &Type) -> Option<u32> {
    match t {
        Type::Array { len, .. } => Some(*len),
        Type::Matrix { columns, .. } => Some(u32::from(*columns)),
        _ => None,
    }
}

/// Scalar constants of `f` (first component), by value.
fn const_scalars(f: &Function) -> HashMap<Value, u64> {
    let mut m = HashMap::default();
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        if let (InstKind::Const(c), Some(d)) = (&inst.kind, inst.dst) {
            if c.len() == 1 {
                m.insert(d, c[0]);
            }
        }
    }
    m
}

/// The constant components a store writes (by value), for stores of constants.
fn const_values(f: &Function) -> HashMap<Value, Vec<u64>> {
    let mut m = HashMap::default();
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        if let (InstKind::Const(c), Some(d)) = (&inst.kind, inst.dst) {
            m.insert(d, c.clone());
        }
    }
    m
}

/// What the scan of one function found out about its candidate variables.
#[derive(Default)]
struct Scan {
    bad: HashSet<VarRef>,
    /// (root, byte offset, value) of every store.
    stores: Vec<(VarRef, u32, Value)>,
    /// Roots read through a dynamic index.
    dynamic: HashSet<VarRef>,
}

fn scan(s: &Shader, f: &Function, paths: &HashMap<Value, Path>, bad: HashSet<VarRef>) -> Scan {
    let mut sc = Scan { bad, ..Scan::default() };
    let consts = const_values(f);
    let mut last_store: HashMap<VarRef, usize> = HashMap::default();
    let mut first_load: HashMap<VarRef, usize> = HashMap::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            let mut used = Vec::new();
            inst.for_each_src(|v| {
                if let Some(p) = paths.get(&v) {
                    used.push((v, p.root));
                }
            });
            if used.is_empty() {
                continue;
            }
            let ok = match &inst.kind {
                InstKind::Deref { parent: Some(p), .. } => {
                    used.iter().all(|(v, _)| v == p)
                        && inst.dst.is_some_and(|d| paths.contains_key(&d))
                }
                InstKind::Load { ptr } => {
                    let p = &paths[ptr];
                    if bi == 0 {
                        first_load.entry(p.root).or_insert(ii);
                    }
                    if !p.dyns.is_empty() {
                        sc.dynamic.insert(p.root);
                    }
                    loadable_leaf(s, p.pointee)
                }
                InstKind::Store { ptr, value } if !paths.contains_key(value) => {
                    let p = &paths[ptr];
                    last_store.insert(p.root, ii);
                    sc.stores.push((p.root, p.offset, *value));
                    bi == 0
                        && p.dyns.is_empty()
                        && loadable_leaf(s, p.pointee)
                        && consts.contains_key(value)
                }
                _ => false,
            };
            if !ok {
                sc.bad.extend(used.iter().map(|(_, r)| *r));
            }
        }
        for v in b.term.clone().srcs_mut() {
            if let Some(p) = paths.get(v) {
                sc.bad.insert(p.root);
            }
        }
    }
    for (r, l) in first_load {
        if last_store.get(&r).is_some_and(|s| *s > l) {
            sc.bad.insert(r);
        }
    }
    sc
}

/// Leaf elements of `t` (scalars and vectors count one each).
fn leaf_count(s: &Shader, t: TypeId) -> u32 {
    match s.types.get(t) {
        Type::Array { elem, len, .. } => len.saturating_mul(leaf_count(s, *elem)),
        Type::Matrix { columns, .. } => u32::from(*columns),
        Type::Struct { members, .. } => members.iter().map(|m| leaf_count(s, m.ty)).sum(),
        _ => 1,
    }
}

fn run(s: &mut Shader, f: &mut Function) -> bool {
    let (paths, bad) = paths(s, f);
    if paths.is_empty() {
        return false;
    }
    let sc = scan(s, f, &paths, bad);
    let mut roots: Vec<VarRef> = paths
        .values()
        .map(|p| p.root)
        .filter(|r| !sc.bad.contains(r) && sc.dynamic.contains(r))
        .filter(|r| leaf_count(s, s.var(f, *r).ty) >= MIN_ELEMENTS)
        .collect();
    roots.sort_by_key(|r| match r {
        VarRef::Global(v) => (0, v.0),
        VarRef::Local(v) => (1, v.0),
    });
    roots.dedup();
    if roots.is_empty() {
        return false;
    }
    let consts = const_values(f);
    let mut base: HashMap<VarRef, u32> = HashMap::default();
    'roots: for r in &roots {
        let (size, _) = layout::size_align(&s.types, s.var(f, *r).ty);
        let mut table = vec![0u8; size as usize];
        for (_, off, v) in sc.stores.iter().filter(|(sr, ..)| sr == r) {
            let size = usize::from(f.ty(*v).shape().0 / 8);
            for (k, c) in consts[v].iter().enumerate() {
                let at = *off as usize + k * size;
                // A store past the variable's end (malformed SPIR-V the front end let
                // through) leaves the variable as it is.
                let Some(bytes) = table.get_mut(at..at + size) else { continue 'roots };
                bytes.copy_from_slice(&c.to_le_bytes()[..size]);
            }
        }
        base.insert(*r, place(&mut s.constant_data, &table));
    }
    if base.is_empty() {
        return false;
    }
    rewrite(s, f, &paths, &base);
    true
}

/// The offset of `table` in the constant data: where an equal table already is (glslang
/// copies a `const` array into a fresh variable for every dynamic indexing), else appended.
fn place(data: &mut Vec<u8>, table: &[u8]) -> u32 {
    let found = (0..data.len())
        .step_by(TABLE_ALIGN)
        .find(|at| data.get(*at..at + table.len()) == Some(table));
    if let Some(at) = found {
        return at as u32;
    }
    let at = data.len().next_multiple_of(TABLE_ALIGN);
    data.resize(at, 0);
    data.extend_from_slice(table);
    at as u32
}

/// Drops the tables' derefs and stores and turns their loads into constant-data loads.
fn rewrite(
    s: &Shader,
    f: &mut Function,
    paths: &HashMap<Value, Path>,
    base: &HashMap<VarRef, u32>,
) {
    let in_table = |v: &Value| paths.get(v).is_some_and(|p| base.contains_key(&p.root));
    for bi in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[bi].insts);
        let mut e = Emitter::new(f);
        for inst in insts {
            match (&inst.kind, inst.dst) {
                (InstKind::Deref { .. }, Some(d)) if in_table(&d) => {}
                (InstKind::Store { ptr, .. }, _) if in_table(ptr) => {}
                (InstKind::Load { ptr }, Some(d)) if in_table(ptr) => {
                    let p = &paths[ptr];
                    let align = leaf_align(s, p.pointee);
                    let addr = table_address(&mut e, base[&p.root] + p.offset, &p.dyns);
                    let ty = e.f.ty(d);
                    e.emit_to(d, InstKind::MemLoad { space: Space::Constant, addr, align }, ty);
                }
                _ => e.out.push(inst),
            }
        }
        let out = std::mem::take(&mut e.out);
        f.blocks[bi].insts = out;
    }
}

/// Alignment a load of leaf `t` may assume: its scalar size (tables are 16-byte aligned and
/// every offset inside is a multiple of the scalar size).
fn leaf_align(s: &Shader, t: TypeId) -> u32 {
    match s.types.get(t) {
        Type::Vector { elem, .. } => layout::scalar_size(&s.types, *elem),
        _ => layout::scalar_size(&s.types, t),
    }
}

/// `offset + Σ min(index, len - 1) × stride` as a 32-bit byte offset.
fn table_address(e: &mut Emitter<'_>, offset: u32, dyns: &[DynStep]) -> Value {
    let mut addr = e.imm(32, u64::from(offset));
    for d in dyns {
        let bits = e.f.ty(d.index).shape().0;
        // Narrow indices are signed (a negative one clamps to the end); a wide one is clamped
        // before it is narrowed, so it cannot wrap into range.
        let wide = if bits < 32 { e.alu(AluOp::I2i, 32, 1, vec![d.index]) } else { d.index };
        let w = bits.max(32);
        let last = e.imm(w, u64::from(d.len - 1));
        let c = e.alu(AluOp::Umin, w, 1, vec![wide, last]);
        let i = if w > 32 { e.alu(AluOp::U2u, 32, 1, vec![c]) } else { c };
        let st = e.imm(32, u64::from(d.stride));
        let off = e.alu(AluOp::Imul, 32, 1, vec![i, st]);
        addr = e.alu(AluOp::Iadd, 32, 1, vec![addr, off]);
    }
    addr
}
