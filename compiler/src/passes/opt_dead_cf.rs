//! `opt_dead_cf`: turns branches on constant conditions into jumps, then empties blocks that
//! became unreachable and drops the φ sources of edges that no longer exist.
//!
//! Afterwards no conditional branch tests a constant and no φ names a non-predecessor.

use crate::analysis::cfg::Cfg;
use crate::ir::{Function, InstKind, Merge, Shader, Terminator};

/// Removes dead control flow; returns true if anything changed.
pub fn opt_dead_cf(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        changed |= run(f);
    }
    changed
}

fn run(f: &mut Function) -> bool {
    let mut consts = vec![None; f.values.len()];
    for b in &f.blocks {
        for i in &b.insts {
            if let (InstKind::Const(c), Some(d)) = (&i.kind, i.dst) {
                consts[d.0 as usize] = c.first().copied();
            }
        }
    }
    let mut changed = false;
    for b in &mut f.blocks {
        let target = match &b.term {
            Terminator::CondBranch { cond, then, els } => {
                consts[cond.0 as usize].map(|c| if c & 1 == 1 { *then } else { *els })
            }
            Terminator::Switch { sel, default, cases } => consts[sel.0 as usize]
                .map(|c| cases.iter().find(|x| x.0 == c).map_or(*default, |x| x.1)),
            _ => None,
        };
        if let Some(t) = target {
            b.term = Terminator::Branch(t);
            if matches!(b.merge, Some(Merge::Selection(_))) {
                b.merge = None;
            }
            changed = true;
        }
    }
    if changed {
        clear_unreachable(f);
    }
    changed
}

/// Empties the blocks no path from the entry reaches and drops the φ sources of edges that
/// no longer exist (for passes that rewire the CFG).
pub fn clear_unreachable(f: &mut Function) {
    let cfg = Cfg::new(f);
    for bi in 0..f.blocks.len() {
        if !cfg.reachable(crate::ir::BlockId(bi as u32)) {
            let b = &mut f.blocks[bi];
            b.insts.clear();
            b.term = Terminator::Unreachable;
            b.merge = None;
            continue;
        }
        let preds = &cfg.preds[bi];
        for i in &mut f.blocks[bi].insts {
            if let InstKind::Phi(srcs) = &mut i.kind {
                srcs.retain(|(p, _)| preds.contains(p));
            }
        }
    }
}
