//! `lower_vars_to_ssa`: promotes function temporaries and private variables whose every
//! access goes through direct derefs (constant struct/array/matrix indices; vector components
//! may be dynamic) to SSA values, with φs placed at iterated dominance frontiers (Cytron et al.).
//!
//! Afterwards those variables have no loads, stores or derefs left. Variables accessed
//! indirectly (dynamic array index, pointer escaping into a φ, select or call) are left for
//! `lower_explicit_io`, which puts them in scratch memory.

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::dominance::Dominance;
use crate::ir::{
    AluOp, BlockId, DerefKind, Function, Inst, InstKind, Mode, Shader, Type, TypeTable, Value,
    ValueType, VarRef,
};

/// For every deref of a candidate variable: (root, constant path, vector component index,
/// whether the path reaches a scalar/vector leaf).
type AccessMap = HashMap<Value, (VarRef, Vec<u32>, Option<Value>, bool)>;

/// Where a deref points inside a promotable variable.
#[derive(Clone, Debug)]
struct Access {
    slot: usize,
    comp: Option<Value>,
}

/// Promotes every eligible variable of every function.
pub fn lower_vars_to_ssa(s: &mut Shader) {
    for fi in 0..s.funcs.len() {
        let mut f = std::mem::replace(&mut s.funcs[fi], Function::new(""));
        promote(s, &mut f);
        s.funcs[fi] = f;
    }
}

fn const_index(f: &Function, defs: &[Option<(BlockId, usize)>], v: Value) -> Option<u32> {
    let (b, i) = defs[v.0 as usize]?;
    match &f.block(b).insts[i].kind {
        InstKind::Const(c) if c.len() == 1 => Some(c[0] as u32),
        _ => None,
    }
}

fn promotable_root(s: &Shader, f: &Function, r: VarRef) -> bool {
    let mode = s.var(f, r).mode;
    mode == Mode::Function || (mode == Mode::Private && s.funcs.len() <= 1)
}

fn promote(s: &Shader, f: &mut Function) {
    let (mut access, mut bad) = classify(s, f);
    escapes(f, &access, &mut bad);
    access.retain(|_, a| !bad.contains(&a.0));
    if access.is_empty() {
        return;
    }
    // Slots: one per (variable, leaf path).
    let mut slots: HashMap<(VarRef, Vec<u32>), usize> = HashMap::default();
    let mut slot_ty: Vec<ValueType> = Vec::new();
    let mut acc: HashMap<Value, Access> = HashMap::default();
    // Sorted, so slot (and value) numbering is deterministic.
    let mut sorted: Vec<_> = access.iter().collect();
    sorted.sort_by_key(|(d, _)| **d);
    for (d, (root, path, comp, leaf)) in sorted {
        if !leaf {
            continue;
        }
        let key = (*root, path.clone());
        let slot = *slots.entry(key).or_insert_with(|| {
            slot_ty.push(leaf_vt(&s.types, s.var(f, *root).ty, path));
            slot_ty.len() - 1
        });
        acc.insert(*d, Access { slot, comp: *comp });
    }
    rename(f, &acc, &slot_ty);
    // Remove the now-unused derefs of promoted variables.
    for b in &mut f.blocks {
        b.insts.retain(|i| {
            !(matches!(i.kind, InstKind::Deref { .. })
                && i.dst.is_some_and(|d| access.contains_key(&d)))
        });
    }
}

/// Access path (root, constant path, vector component, reaches a leaf) of every deref of a
/// candidate variable, and the variables found to be indirectly accessed.
fn classify(s: &Shader, f: &Function) -> (AccessMap, Vec<VarRef>) {
    let defs = f.def_map();
    // Classify every deref rooted at a candidate variable.
    let mut access: AccessMap = HashMap::default();
    let mut bad: Vec<VarRef> = Vec::new();
    let cfg = crate::analysis::cfg::Cfg::new(f);
    for b in cfg.rpo.iter().map(|b| f.block(*b)) {
        for inst in &b.insts {
            let (InstKind::Deref { kind, parent }, Some(d)) = (&inst.kind, inst.dst) else {
                continue;
            };
            let ValueType::Deref(pt) = f.ty(d) else { continue };
            let Type::Pointer { pointee, .. } = s.types.get(pt) else { continue };
            let is_leaf = s.types.value_shape(*pointee).is_some();
            match kind {
                DerefKind::Var(r) if promotable_root(s, f, *r) => {
                    access.insert(d, (*r, Vec::new(), None, is_leaf));
                }
                DerefKind::Member(_) | DerefKind::Index(_) => {
                    let Some(p) = parent.and_then(|p| access.get(&p).cloned()) else { continue };
                    let (root, mut path, comp, parent_leaf) = p;
                    if comp.is_some() {
                        bad.push(root);
                        continue;
                    }
                    match (kind, parent_leaf) {
                        (DerefKind::Index(ix), true) => {
                            access.insert(d, (root, path, Some(*ix), true));
                        }
                        (DerefKind::Index(ix), false) => match const_index(f, &defs, *ix) {
                            Some(c) => {
                                path.push(c);
                                access.insert(d, (root, path, None, is_leaf));
                            }
                            None => bad.push(root),
                        },
                        (DerefKind::Member(m), _) => {
                            path.push(*m);
                            access.insert(d, (root, path, None, is_leaf));
                        }
                        _ => {}
                    }
                }
                _ => {
                    if let Some(p) = parent.and_then(|p| access.get(&p)) {
                        bad.push(p.0);
                    }
                }
            }
        }
    }
    (access, bad)
}

/// Marks variables whose derefs are used other than as deref parents or load/store addresses.
fn escapes(f: &Function, access: &AccessMap, bad: &mut Vec<VarRef>) {
    // Any use other than as a deref parent or a load/store address makes a variable indirect.
    for b in &f.blocks {
        for inst in &b.insts {
            let mut uses_escape = |v: Value| {
                if let Some(a) = access.get(&v) {
                    bad.push(a.0);
                }
            };
            match &inst.kind {
                InstKind::Deref { kind, .. } => {
                    if let DerefKind::Index(i) | DerefKind::PtrAsArray(i) = kind {
                        uses_escape(*i);
                    }
                }
                InstKind::Load { .. } => {}
                InstKind::Store { value, ptr } => {
                    uses_escape(*value);
                    if access.get(ptr).is_some_and(|a| !a.3) {
                        bad.push(access[ptr].0);
                    }
                }
                _ => inst.for_each_src(&mut uses_escape),
            }
            if let InstKind::Load { ptr } = &inst.kind {
                if access.get(ptr).is_some_and(|a| !a.3) {
                    bad.push(access[ptr].0);
                }
            }
        }
        let mut t = b.term.clone();
        for v in t.srcs_mut() {
            if let Some(a) = access.get(v) {
                bad.push(a.0);
            }
        }
    }
}

fn leaf_vt(types: &TypeTable, mut t: crate::ir::TypeId, path: &[u32]) -> ValueType {
    for &i in path {
        t = match types.get(t) {
            Type::Struct { members, .. } => members.get(i as usize).map_or(t, |m| m.ty),
            Type::Array { elem, .. } | Type::RuntimeArray { elem, .. } => *elem,
            Type::Matrix { column, .. } => *column,
            _ => t,
        };
    }
    let (b, c) = types.value_shape(t).unwrap_or((32, 1));
    if let Type::Pointer { .. } = types.get(t) {
        return ValueType::Deref(t);
    }
    ValueType::data(b, c)
}

/// Places one φ per slot at the iterated dominance frontier of the blocks storing to it.
fn place_phis(
    f: &mut Function,
    dom: &Dominance,
    acc: &HashMap<Value, Access>,
    slot_ty: &[ValueType],
) -> Vec<Vec<(usize, Value)>> {
    let n = slot_ty.len();
    // φ placement at iterated dominance frontiers of the storing blocks.
    let mut def_blocks: Vec<Vec<BlockId>> = vec![Vec::new(); n];
    for (bi, b) in f.blocks.iter().enumerate() {
        for i in &b.insts {
            if let InstKind::Store { ptr, .. } = &i.kind {
                if let Some(a) = acc.get(ptr) {
                    def_blocks[a.slot].push(BlockId(bi as u32));
                }
            }
        }
    }
    let mut phi_at: Vec<Vec<(usize, Value)>> = vec![Vec::new(); f.blocks.len()];
    for slot in 0..n {
        let mut work = def_blocks[slot].clone();
        let mut has = vec![false; f.blocks.len()];
        while let Some(b) = work.pop() {
            for &y in &dom.frontier[b.0 as usize] {
                if !has[y.0 as usize] {
                    has[y.0 as usize] = true;
                    let v = f.new_value(slot_ty[slot]);
                    phi_at[y.0 as usize].push((slot, v));
                    work.push(y);
                }
            }
        }
    }
    phi_at
}

fn rename(f: &mut Function, acc: &HashMap<Value, Access>, slot_ty: &[ValueType]) {
    let dom = Dominance::new(f);
    let n = slot_ty.len();
    let phi_at = place_phis(f, &dom, acc, slot_ty);
    // Initial values: undef in the entry block.
    let mut stacks: Vec<Vec<Value>> = Vec::with_capacity(n);
    let mut undefs = Vec::new();
    for t in slot_ty {
        let v = f.new_value(*t);
        undefs.push(Inst { dst: Some(v), kind: InstKind::Undef });
        stacks.push(vec![v]);
    }
    let mut map: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut phi_srcs: HashMap<Value, Vec<(BlockId, Value)>> = HashMap::default();
    // Iterative dominator-tree walk: (block, entering?).
    let mut work = vec![(BlockId(0), true)];
    let mut heights: Vec<Vec<usize>> = vec![Vec::new(); f.blocks.len()];
    while let Some((b, enter)) = work.pop() {
        let bi = b.0 as usize;
        if !enter {
            for (s, h) in heights[bi].iter().enumerate() {
                stacks[s].truncate(*h);
            }
            continue;
        }
        heights[bi] = stacks.iter().map(Vec::len).collect();
        for (slot, v) in &phi_at[bi] {
            stacks[*slot].push(*v);
        }
        let insts = std::mem::take(&mut f.blocks[bi].insts);
        let mut out = Vec::with_capacity(insts.len());
        for inst in insts {
            match &inst.kind {
                InstKind::Load { ptr } if acc.contains_key(ptr) => {
                    let a = &acc[ptr];
                    let cur = *stacks[a.slot].last().unwrap_or(&Value(0));
                    let d = inst.dst.unwrap_or(Value(0));
                    match a.comp {
                        None => map[d.0 as usize] = Some(cur),
                        Some(c) => out.push(Inst {
                            dst: Some(d),
                            kind: InstKind::Alu(AluOp::ExtractDyn, vec![cur, c]),
                        }),
                    }
                }
                InstKind::Store { ptr, value } if acc.contains_key(ptr) => {
                    let a = &acc[ptr];
                    match a.comp {
                        None => stacks[a.slot].push(*value),
                        Some(c) => {
                            let cur = *stacks[a.slot].last().unwrap_or(&Value(0));
                            let nv = f.new_value(slot_ty[a.slot]);
                            out.push(Inst {
                                dst: Some(nv),
                                kind: InstKind::Alu(AluOp::InsertDyn, vec![cur, *value, c]),
                            });
                            stacks[a.slot].push(nv);
                        }
                    }
                }
                _ => out.push(inst),
            }
        }
        f.blocks[bi].insts = out;
        for succ in f.blocks[bi].term.succs() {
            for (slot, v) in &phi_at[succ.0 as usize] {
                let cur = *stacks[*slot].last().unwrap_or(&Value(0));
                phi_srcs.entry(*v).or_default().push((b, cur));
            }
        }
        work.push((b, false));
        for &c in dom.children[bi].iter().rev() {
            work.push((c, true));
        }
    }
    for (bi, phis) in phi_at.iter().enumerate() {
        let insts: Vec<Inst> = phis
            .iter()
            .map(|(_, v)| Inst {
                dst: Some(*v),
                kind: InstKind::Phi(phi_srcs.remove(v).unwrap_or_default()),
            })
            .collect();
        f.blocks[bi].insts.splice(0..0, insts);
    }
    f.blocks[0].insts.splice(0..0, undefs);
    map.resize(f.values.len(), None);
    f.rewrite_uses(&map);
}
