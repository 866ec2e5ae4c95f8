//! `opt_if_convert`: turns small if/else constructs into selects. A selection whose arms hold
//! only a few cheap, side-effect-free instructions — a diamond `H → T, E → M` or a triangle
//! `H → T → M` with `H → M` — runs both arms unconditionally in `H`, and each φ of the merge
//! block becomes a `bcsel` on the branch condition. The merge block, entered from `H` alone
//! now, joins `H`, so nested ifs collapse from the inside out.
//!
//! Why: a branch costs the backend an EXEC save/restore and a skip jump (divergent) or a
//! compare-and-jump pair (uniform), and it ends the scheduling region; a few speculated ALU
//! instructions and a `v_cndmask_b32`/`s_cselect_b32` per merged value are cheaper. ALU ops
//! have total semantics in the IR (division by zero is defined), so running an arm that was not
//! taken never faults; memory, subgroup, barrier and helper-state instructions are never
//! speculated (their meaning depends on which lanes run them).
//!
//! Afterwards no selection whose arms fit [`ARM_BUDGET`] is left as a branch.

use crate::analysis::cfg::Cfg;
use crate::ir::{AluOp, BlockId, Function, Inst, InstKind, Merge, Shader, Terminator, ValueType};

/// Most cost units (roughly machine instructions) speculated from both arms together.
pub const ARM_BUDGET: u32 = 8;

/// Most 32-bit selects the merge may need (one per φ component).
const SELECT_BUDGET: u32 = 8;

/// Converts small selections to selects; returns true if anything changed.
pub fn opt_if_convert(s: &mut Shader) -> bool {
    let mut changed = false;
    for f in &mut s.funcs {
        // Each conversion can expose its enclosing selection.
        while convert_one(f) {
            changed = true;
        }
    }
    changed
}

/// A selection header and its shape.
struct Candidate {
    head: BlockId,
    merge: BlockId,
    /// The arm blocks (one for a triangle), each entered from `head` alone.
    arms: Vec<BlockId>,
    /// The condition and the predecessor of `merge` that the true (false) edge arrives from.
    cond: crate::ir::Value,
    from_then: BlockId,
    from_else: BlockId,
}

fn convert_one(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let targets = merge_targets(f);
    for &h in &cfg.rpo {
        if let Some(c) = candidate(f, &cfg, h) {
            // The merge block joins the head below, so nothing else may name it.
            if targets[c.merge.0 as usize] > 1 {
                continue;
            }
            if !fits_budget(f, &c) {
                continue;
            }
            convert(f, &c);
            return true;
        }
    }
    false
}

/// How many structured annotations name each block (as merge or continue target).
fn merge_targets(f: &Function) -> Vec<u32> {
    let mut n = vec![0; f.blocks.len()];
    for b in &f.blocks {
        match b.merge {
            Some(Merge::Selection(m)) => n[m.0 as usize] += 1,
            Some(Merge::Loop { merge, cont }) => {
                n[merge.0 as usize] += 1;
                n[cont.0 as usize] += 1;
            }
            None => {}
        }
    }
    n
}

fn candidate(f: &Function, cfg: &Cfg, h: BlockId) -> Option<Candidate> {
    let hb = f.block(h);
    let Terminator::CondBranch { cond, then, els } = hb.term else { return None };
    let Some(Merge::Selection(m)) = hb.merge else { return None };
    if then == els || then == h || els == h || m == h {
        return None;
    }
    // An arm: entered from `h` alone, falls into `m`, no φs.
    let arm = |b: BlockId| {
        let blk = f.block(b);
        cfg.preds[b.0 as usize] == [h]
            && blk.term == Terminator::Branch(m)
            && blk.merge.is_none()
            && !blk.insts.iter().any(|i| matches!(i.kind, InstKind::Phi(_)))
    };
    let (arms, from_then, from_else) = if then == m {
        (vec![els], h, els)
    } else if els == m {
        (vec![then], then, h)
    } else {
        (vec![then, els], then, els)
    };
    if !arms.iter().all(|&b| arm(b)) {
        return None;
    }
    let mut preds = cfg.preds[m.0 as usize].clone();
    preds.sort();
    let mut want = vec![from_then, from_else];
    want.sort();
    if preds != want {
        return None;
    }
    Some(Candidate { head: h, merge: m, arms, cond, from_then, from_else })
}

/// Cost of running `i` speculatively, or `None` if it must not run when its arm is not taken.
fn speculation_cost(f: &Function, i: &Inst) -> Option<u32> {
    let wide = |i: &Inst| i.dst.is_some_and(|d| f.ty(d).shape().0 == 64);
    match &i.kind {
        InstKind::Const(_) | InstKind::Undef => Some(0),
        InstKind::SysVal(_) => Some(1),
        InstKind::Alu(op, srcs) => {
            if expensive(*op) || srcs.iter().any(|v| matches!(f.ty(*v), ValueType::Deref(_))) {
                return None;
            }
            let comps = i.dst.map_or(1, |d| u32::from(f.ty(d).shape().1));
            let free = matches!(op, AluOp::Mov | AluOp::Vec | AluOp::Bitcast);
            Some(if free { 0 } else { comps * if wide(i) { 2 } else { 1 } })
        }
        _ => None,
    }
}

/// Ops that expand to long sequences (not worth running on lanes that do not need them).
fn expensive(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Udiv | Idiv
            | Umod
            | Irem
            | Imod
            | Fdiv
            | Frem
            | Fmod
            | Fpow
            | Ftan
            | Fasin
            | Facos
            | Fatan
            | Fatan2
            | Fexp
            | Flog
            | ExtractDyn
            | InsertDyn
    )
}

fn fits_budget(f: &Function, c: &Candidate) -> bool {
    let mut cost = 0;
    for &a in &c.arms {
        for i in &f.block(a).insts {
            match speculation_cost(f, i) {
                Some(k) => cost += k,
                None => return false,
            }
        }
    }
    let mut selects = 0;
    for i in &f.block(c.merge).insts {
        let InstKind::Phi(_) = i.kind else { break };
        match i.dst.map(|d| f.ty(d)) {
            Some(ValueType::Data { bits, comps }) => {
                selects += u32::from(comps) * if bits == 64 { 2 } else { 1 };
            }
            _ => return false,
        }
    }
    cost <= ARM_BUDGET && selects <= SELECT_BUDGET
}

fn convert(f: &mut Function, c: &Candidate) {
    let (h, m) = (c.head, c.merge);
    for &a in &c.arms {
        let insts = std::mem::take(&mut f.block_mut(a).insts);
        f.block_mut(h).insts.extend(insts);
        let blk = f.block_mut(a);
        blk.term = Terminator::Unreachable;
        blk.merge = None;
    }
    // The merge block's φs become selects, and the block joins the head.
    let mut insts = std::mem::take(&mut f.block_mut(m).insts);
    for i in &mut insts {
        if let InstKind::Phi(srcs) = &i.kind {
            let pick = |from: BlockId| srcs.iter().find(|s| s.0 == from).map(|s| s.1);
            let (Some(t), Some(e)) = (pick(c.from_then), pick(c.from_else)) else {
                unreachable!("φ without a source per predecessor");
            };
            i.kind = InstKind::Alu(AluOp::Bcsel, vec![c.cond, t, e]);
        }
    }
    let mb = f.block_mut(m);
    let term = std::mem::replace(&mut mb.term, Terminator::Unreachable);
    let merge = mb.merge.take();
    for s in term.succs() {
        rename_pred(f, s, m, h);
    }
    let hb = f.block_mut(h);
    hb.insts.extend(insts);
    hb.term = term;
    hb.merge = merge;
}

/// φs of `b` that named `from` as a predecessor name `to` instead.
fn rename_pred(f: &mut Function, b: BlockId, from: BlockId, to: BlockId) {
    for i in &mut f.block_mut(b).insts {
        if let InstKind::Phi(srcs) = &mut i.kind {
            for s in srcs.iter_mut().filter(|s| s.0 == from) {
                s.0 = to;
            }
        }
    }
}
