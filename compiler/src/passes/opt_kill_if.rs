//! `opt_kill_if`: `if (c) discard;` and `if (c) demote;` as straight-line code. A block that
//! ends in a conditional branch to a block doing nothing but `kill` gets a `KillIf` on the
//! condition (negated for the false edge) and jumps to the other target; the kill block,
//! unreachable now, is emptied. A branch around a block that only demotes and goes on to the
//! branch's other target becomes a `DemoteIf` the same way.
//!
//! Why: as a branch, the backend gives the kill its own block (an EXEC mask for each side, a
//! copy of the live mask to take the lanes out of, the exports narrowed to it at the end),
//! and everything after the `if` runs in a block of its own, so output stores there are no
//! longer the entry block's and their registers are zeroed in the prologue. `KillIf` is one
//! `s_andn2_b32 exec_lo` in the block it is in (as ACO's `discard_if`), `DemoteIf` one
//! `s_andn2_b32` of the live mask.
//!
//! Only blocks that every invocation runs exactly once are rewritten: blocks that
//! post-dominate the entry (every path from the entry to a `return` or `kill` passes through
//! them) and lie in no loop. There, the lanes running the block are all the lanes still alive,
//! which is what lets the backend take the killed lanes out of EXEC for good
//! (`amd::isel::kill_if`). Chains of discards are handled front to back: once the first is a
//! `KillIf`, its kill block no longer leaves the entry's path, and the next block qualifies.
//!
//! The block the branch jumped to joins the rewritten one when nothing else enters it.
//!
//! Afterwards no block that runs once for every invocation branches to a kill-only block.

use crate::analysis::cfg::Cfg;
use crate::analysis::divergence::natural_loops;
use crate::analysis::dominance::Dominance;
use crate::ir::{AluOp, BlockId, Function, Inst, InstKind, Merge, Shader, Stage, Terminator};
use crate::ir::{Value, ValueType};

/// Rewrites conditional discards; returns true if anything changed.
pub fn opt_kill_if(s: &mut Shader) -> bool {
    if s.stage != Stage::Fragment {
        return false;
    }
    let mut changed = false;
    for f in &mut s.funcs {
        while convert_one(f) {
            changed = true;
        }
    }
    changed
}

/// Whether `b` does nothing but kill.
fn kills_only(f: &Function, b: BlockId) -> bool {
    let block = f.block(b);
    block.insts.is_empty() && matches!(block.term, Terminator::Kill)
}

/// Whether `d` is entered from `h` alone, only demotes, and goes on to `m` (the other side
/// of `h`'s branch), where no φ takes a value from it.
fn demotes_only(f: &Function, cfg: &Cfg, h: BlockId, d: BlockId, m: BlockId) -> bool {
    let block = f.block(d);
    let from_d = |i: &Inst| matches!(&i.kind, InstKind::Phi(s) if s.iter().any(|x| x.0 == d));
    matches!(block.insts.as_slice(), [Inst { kind: InstKind::Demote, .. }])
        && block.term == Terminator::Branch(m)
        && block.merge.is_none()
        && cfg.preds[d.0 as usize] == [h]
        && !f.block(m).insts.iter().any(from_d)
}

fn convert_one(f: &mut Function) -> bool {
    let dom = Dominance::new(f);
    let cfg = dom.cfg();
    let mut in_loop = vec![false; f.blocks.len()];
    for (_, body) in natural_loops(f, &dom) {
        in_loop.iter_mut().zip(&body).for_each(|(l, b)| *l |= *b);
    }
    for &b in &cfg.rpo {
        let Terminator::CondBranch { cond, then, els } = f.block(b).term else { continue };
        if then == els || in_loop[b.0 as usize] {
            continue;
        }
        let (arm, other, negate, demote) = match (kills_only(f, then), kills_only(f, els)) {
            (true, false) => (then, els, false, false),
            (false, true) => (els, then, true, false),
            _ if demotes_only(f, cfg, b, then, els) => (then, els, false, true),
            _ if demotes_only(f, cfg, b, els, then) => (els, then, true, true),
            _ => continue,
        };
        if !post_dominates_entry(f, cfg, b) {
            continue;
        }
        rewrite(f, b, cond, negate, demote, other);
        if !Cfg::new(f).reachable(arm) {
            let a = f.block_mut(arm);
            a.insts.clear();
            a.term = Terminator::Unreachable;
        }
        join_successors(f, b);
        return true;
    }
    false
}

/// Whether every path from the entry to an exit (a block without successors) passes through
/// `b`: a search from the entry that never enters `b` finds no exit.
fn post_dominates_entry(f: &Function, cfg: &Cfg, b: BlockId) -> bool {
    if b == BlockId(0) {
        return true;
    }
    let mut seen = vec![false; f.blocks.len()];
    let mut stack = vec![BlockId(0)];
    seen[0] = true;
    seen[b.0 as usize] = true;
    while let Some(x) = stack.pop() {
        let succs = f.block(x).term.succs();
        if succs.is_empty() && cfg.reachable(x) {
            return false;
        }
        for s in succs {
            if !seen[s.0 as usize] {
                seen[s.0 as usize] = true;
                stack.push(s);
            }
        }
    }
    true
}

/// While `b` jumps to a block that nothing else enters or names as a merge or continue target
/// and that has no φ, that block joins `b` (so the code after a discard in the entry block
/// stays the entry block's).
fn join_successors(f: &mut Function, b: BlockId) {
    while let Terminator::Branch(t) = f.block(b).term {
        let named = f.blocks.iter().any(|x| match x.merge {
            Some(Merge::Selection(m)) => m == t,
            Some(Merge::Loop { merge, cont }) => merge == t || cont == t,
            None => false,
        });
        let phi = f.block(t).insts.iter().any(|i| matches!(i.kind, InstKind::Phi(_)));
        if t == b || t == BlockId(0) || named || phi || Cfg::new(f).preds[t.0 as usize] != [b] {
            return;
        }
        let tb = f.block_mut(t);
        let insts = std::mem::take(&mut tb.insts);
        let term = std::mem::replace(&mut tb.term, Terminator::Unreachable);
        let merge = tb.merge.take();
        for s in term.succs() {
            for i in &mut f.block_mut(s).insts {
                if let InstKind::Phi(srcs) = &mut i.kind {
                    srcs.iter_mut().filter(|x| x.0 == t).for_each(|x| x.0 = b);
                }
            }
        }
        let bb = f.block_mut(b);
        bb.insts.extend(insts);
        bb.term = term;
        bb.merge = merge;
    }
}

/// `b`'s branch on `cond` becomes `KillIf(cond)` or `DemoteIf(cond)` (or of its negation) and
/// a jump to `other`.
fn rewrite(f: &mut Function, b: BlockId, cond: Value, negate: bool, demote: bool, other: BlockId) {
    let c = if negate {
        let n = f.new_value(ValueType::data(1, 1));
        let not = Inst { dst: Some(n), kind: InstKind::Alu(AluOp::Inot, vec![cond]) };
        f.blocks[b.0 as usize].insts.push(not);
        n
    } else {
        cond
    };
    let block = &mut f.blocks[b.0 as usize];
    let kind = if demote { InstKind::DemoteIf(c) } else { InstKind::KillIf(c) };
    block.insts.push(Inst { dst: None, kind });
    block.term = Terminator::Branch(other);
    if matches!(block.merge, Some(Merge::Selection(_))) {
        block.merge = None;
    }
}
