//! `opt_licm`: loop-invariant code motion. Pure instructions whose operands are all defined
//! outside a loop, in blocks that run on every iteration (they dominate every latch), move to
//! the loop's preheader: a push-constant load or an address computation then happens once
//! per loop instead of once per iteration. Nothing that depends on which lanes are active
//! (subgroup operations) or on memory that may change (other loads) moves.
//!
//! Afterwards no such instruction is left in a loop that has a preheader.

use crate::analysis::divergence::natural_loops;
use crate::analysis::dominance::Dominance;
use crate::ir::{BlockId, Function, Inst, InstKind, Shader, Space, Terminator};

/// Hoists loop-invariant instructions; returns true if anything moved.
pub fn opt_licm(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        // Hoisting out of an inner loop can make the instruction invariant in the outer one.
        while run(f) {
            changed = true;
        }
    }
    changed
}

fn movable(i: &Inst) -> bool {
    i.dst.is_some()
        && match &i.kind {
            InstKind::Const(_)
            | InstKind::Undef
            | InstKind::Alu(..)
            | InstKind::ResourceIndex { .. }
            | InstKind::BufferSize { .. }
            | InstKind::SysVal(_) => true,
            InstKind::MemLoad { space, .. } => matches!(space, Space::Push | Space::Constant),
            _ => false,
        }
}

/// One sweep over all loops; true if anything moved.
fn run(f: &mut Function) -> bool {
    let dom = Dominance::new(f);
    let cfg = dom.cfg();
    let defs = f.def_map();
    let mut moved = false;
    for (header, body) in natural_loops(f, &dom) {
        let inside = |b: BlockId| body[b.0 as usize];
        // A preheader: the one block entering the loop, which goes nowhere else.
        let entries: Vec<BlockId> =
            cfg.preds[header.0 as usize].iter().copied().filter(|p| !inside(*p)).collect();
        let [pre] = entries[..] else { continue };
        if f.block(pre).term != Terminator::Branch(header) {
            continue;
        }
        let latches: Vec<BlockId> =
            cfg.preds[header.0 as usize].iter().copied().filter(|p| inside(*p)).collect();
        let mut hoisted = Vec::new();
        let mut out_of_loop = vec![false; f.values.len()];
        // Blocks in dominator order (reverse post-order), so operands hoisted from a block
        // come before their users from a later one.
        for &b in cfg.rpo.iter().filter(|b| inside(**b)) {
            if !latches.iter().all(|l| dom.dominates(b, *l)) {
                continue;
            }
            let insts = std::mem::take(&mut f.blocks[b.0 as usize].insts);
            let mut kept = Vec::with_capacity(insts.len());
            for inst in insts {
                let mut invariant = movable(&inst);
                inst.for_each_src(|v| {
                    let outside = match defs.get(v.0 as usize) {
                        Some(Some((db, _))) => !inside(*db),
                        _ => true,
                    };
                    invariant &= outside || out_of_loop[v.0 as usize];
                });
                if invariant {
                    if let Some(d) = inst.dst {
                        out_of_loop[d.0 as usize] = true;
                    }
                    hoisted.push(inst);
                } else {
                    kept.push(inst);
                }
            }
            f.blocks[b.0 as usize].insts = kept;
        }
        if !hoisted.is_empty() {
            moved = true;
            f.blocks[pre.0 as usize].insts.extend(hoisted);
            // Definitions moved: later loops of this sweep need a fresh view.
            return moved;
        }
    }
    moved
}
