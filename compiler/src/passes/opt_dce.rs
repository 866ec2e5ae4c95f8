//! `opt_dce`: removes instructions whose results are unused and that have no side effects
//! (loads included: reading memory has no observable effect), by marking from the
//! side-effecting instructions and terminators.
//!
//! An atomic whose old value nothing reads loses its result (the backend then selects the
//! form that returns nothing: no `glc`, no wait for the value).
//!
//! Afterwards every remaining pure instruction contributes to a side effect or a branch, and
//! every function-local variable is still referenced by a deref.

use crate::ir::{AtomicOp, Function, InstKind, Shader};

/// Removes dead instructions; returns true if anything was removed.
pub fn opt_dce(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        changed |= run(f);
    }
    changed
}

fn removable(k: &InstKind) -> bool {
    matches!(
        k,
        InstKind::Load { .. }
            | InstKind::MemLoad { .. }
            | InstKind::IoLoad { .. }
            | InstKind::InterpolateAt { .. }
            | InstKind::IsHelper
    )
}

/// An atomic read-modify-write, whose result is only its old value.
fn atomic_rmw(k: &InstKind) -> bool {
    match k {
        InstKind::Atomic { op, .. } | InstKind::MemAtomic { op, .. } => *op != AtomicOp::Load,
        _ => false,
    }
}

fn run(f: &mut Function) -> bool {
    let mut live = vec![false; f.values.len()];
    let mut work = Vec::new();
    let defs = f.def_map();
    for b in &f.blocks {
        for i in &b.insts {
            if !(i.is_pure() || removable(&i.kind)) {
                i.for_each_src(|v| work.push(v));
                if !atomic_rmw(&i.kind) {
                    i.defs().iter().for_each(|d| live[d.0 as usize] = true);
                }
            }
        }
        let mut t = b.term.clone();
        work.extend(t.srcs_mut().into_iter().map(|v| *v));
    }
    f.params.iter().for_each(|p| live[p.0 as usize] = true);
    while let Some(v) = work.pop() {
        if std::mem::replace(&mut live[v.0 as usize], true) {
            continue;
        }
        if let Some((b, i)) = defs[v.0 as usize] {
            f.block(b).insts[i].for_each_src(|s| work.push(s));
        }
    }
    let mut changed = remove_unused_locals(f);
    for b in &mut f.blocks {
        for i in b.insts.iter_mut().filter(|i| atomic_rmw(&i.kind)) {
            if i.dst.is_some_and(|d| !live[d.0 as usize]) {
                i.dst = None;
                changed = true;
            }
        }
        let before = b.insts.len();
        b.insts.retain(|i| {
            !(i.is_pure() || removable(&i.kind)) || i.defs().iter().any(|d| live[d.0 as usize])
        });
        changed |= b.insts.len() != before;
    }
    changed
}

/// Drops locals no deref refers to (promoted or dead ones), renumbering the rest.
fn remove_unused_locals(f: &mut Function) -> bool {
    use crate::ir::{DerefKind, VarId, VarRef};
    let mut used = vec![false; f.locals.len()];
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::Deref { kind: DerefKind::Var(VarRef::Local(l)), .. } = i.kind {
                if let Some(u) = used.get_mut(l.0 as usize) {
                    *u = true;
                }
            }
        }
    }
    if used.iter().all(|u| *u) {
        return false;
    }
    let mut remap = vec![0u32; used.len()];
    let mut next = 0;
    for (i, u) in used.iter().enumerate() {
        remap[i] = next;
        next += u32::from(*u);
    }
    let mut i = 0;
    f.locals.retain(|_| {
        i += 1;
        used[i - 1]
    });
    for b in &mut f.blocks {
        for inst in &mut b.insts {
            if let InstKind::Deref { kind: DerefKind::Var(VarRef::Local(l)), .. } = &mut inst.kind {
                *l = VarId(remap[l.0 as usize]);
            }
        }
    }
    true
}
