//! `opt_merge_blocks`: joins a block to the one it jumps to when it is that block's only
//! predecessor, so straight-line code folded out of loops and branches (unrolled loops leave
//! a chain of jumps, constant branches a jump into their merge) is one block again.
//!
//! Why it matters beyond tidiness: the backend treats the entry block specially (an output
//! written there needs no zero default) and local passes see more of the program at once.
//! A block that heads a construct keeps its merge information: only blocks without one absorb
//! their successor, and a successor that is the merge or continue target of a construct stays
//! (its header names it).

use crate::analysis::cfg::Cfg;
use crate::ir::{BlockId, Function, InstKind, Merge, Shader, Terminator, Value};

/// Merges straight-line block pairs; returns true if anything changed.
pub fn opt_merge_blocks(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        changed |= run(f);
    }
    changed
}

fn run(f: &mut Function) -> bool {
    let mut cfg = Cfg::new(f);
    let n = f.blocks.len();
    let mut named = vec![false; n];
    for b in &f.blocks {
        match b.merge {
            Some(Merge::Selection(m)) => named[m.0 as usize] = true,
            Some(Merge::Loop { merge, cont }) => {
                named[merge.0 as usize] = true;
                named[cont.0 as usize] = true;
            }
            None => {}
        }
    }
    let mut map: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut changed = false;
    for a in cfg.rpo.clone() {
        // `a` absorbs successors for as long as the chain lasts.
        loop {
            let block = f.block(a);
            let Terminator::Branch(b) = block.term else { break };
            let bi = b.0 as usize;
            if block.merge.is_some() || b == a || b.0 == 0 || named[bi] || cfg.preds[bi] != [a] {
                break;
            }
            absorb(f, a, b, &mut map);
            for s in f.block(a).term.succs() {
                for p in &mut cfg.preds[s.0 as usize] {
                    if *p == b {
                        *p = a;
                    }
                }
            }
            changed = true;
        }
    }
    if changed {
        f.rewrite_uses(&map);
    }
    changed
}

/// Moves `b`'s instructions, terminator and merge information to the end of `a` (its only
/// predecessor): its φs become their one source, and its successors' φs name `a`.
fn absorb(f: &mut Function, a: BlockId, b: BlockId, map: &mut [Option<Value>]) {
    let moved = std::mem::take(&mut f.block_mut(b).insts);
    let term = std::mem::replace(&mut f.block_mut(b).term, Terminator::Unreachable);
    let merge = f.block_mut(b).merge.take();
    let mut body = Vec::with_capacity(moved.len());
    for inst in moved {
        match (&inst.kind, inst.dst) {
            (InstKind::Phi(srcs), Some(d)) => {
                let src = srcs.iter().find(|(p, _)| *p == a).map(|&(_, v)| v);
                map[d.0 as usize] = src;
                debug_assert!(src.is_some(), "φ in a block without its predecessor");
            }
            _ => body.push(inst),
        }
    }
    for s in term.succs() {
        for inst in &mut f.block_mut(s).insts {
            if let InstKind::Phi(srcs) = &mut inst.kind {
                for (p, _) in srcs.iter_mut() {
                    if *p == b {
                        *p = a;
                    }
                }
            }
        }
    }
    let ab = f.block_mut(a);
    ab.insts.extend(body);
    ab.term = term;
    ab.merge = merge;
}
