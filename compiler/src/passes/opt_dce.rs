//! `opt_dce`: removes instructions whose results are unused and that have no side effects
//! (loads included: reading memory has no observable effect), by marking from the
//! side-effecting instructions and terminators.
//!
//! Afterwards every remaining pure instruction contributes to a side effect or a branch.

use crate::ir::{Function, InstKind, Shader};

/// Removes dead instructions; returns true if anything was removed.
pub fn opt_dce(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        changed |= run(f);
    }
    changed
}

fn removable(k: &InstKind) -> bool {
    matches!(k, InstKind::Load { .. } | InstKind::MemLoad { .. } | InstKind::IoLoad { .. })
}

fn run(f: &mut Function) -> bool {
    let mut live = vec![false; f.values.len()];
    let mut work = Vec::new();
    let defs = f.def_map();
    for b in &f.blocks {
        for i in &b.insts {
            if !(i.is_pure() || removable(&i.kind)) {
                i.for_each_src(|v| work.push(v));
                i.defs().iter().for_each(|d| live[d.0 as usize] = true);
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
    let mut changed = false;
    for b in &mut f.blocks {
        let before = b.insts.len();
        b.insts.retain(|i| {
            !(i.is_pure() || removable(&i.kind)) || i.defs().iter().any(|d| live[d.0 as usize])
        });
        changed |= b.insts.len() != before;
    }
    changed
}
