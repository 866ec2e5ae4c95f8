//! Divergence analysis: which SSA values are the same in every active lane of a wave.
//!
//! Uniform values can live in SGPRs and be computed by the scalar unit; divergent ones need
//! VGPRs. A value is divergent when it depends on a divergent source (local invocation id, a
//! load from a divergent address, an atomic result), when it is a φ where lanes that took
//! different paths of a divergent branch meet, or when it is defined inside a loop whose exit
//! is divergent and used outside that loop (lanes leave in different iterations, so they see
//! the values of different iterations: "temporal" divergence). The analysis is conservative:
//! "uniform" is a proof, "divergent" may be pessimistic.

use super::dominance::Dominance;
use crate::ir::{BlockId, Function, InstKind, Space, SysVal, Terminator, Value};

/// Result of the analysis for one function.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Per value: true if it may differ between active lanes.
    pub divergent: Vec<bool>,
    /// Per block: true if its terminator branches on a divergent value.
    pub divergent_branch: Vec<bool>,
    /// Values used outside a loop with a divergent exit that they are defined in.
    pub temporal: Vec<bool>,
}

impl Divergence {
    /// True if `v` may differ between lanes.
    pub fn is_divergent(&self, v: Value) -> bool {
        self.divergent[v.0 as usize]
    }
}

/// Loops of a function: header and body blocks (natural loops of the back edges).
pub fn natural_loops(f: &Function, dom: &Dominance) -> Vec<(BlockId, Vec<bool>)> {
    let cfg = dom.cfg();
    let mut loops: Vec<(BlockId, Vec<bool>)> = Vec::new();
    for &b in &cfg.rpo {
        for s in f.block(b).term.succs() {
            if !dom.dominates(s, b) {
                continue;
            }
            let idx = match loops.iter().position(|l| l.0 == s) {
                Some(i) => i,
                None => {
                    let mut body = vec![false; f.blocks.len()];
                    body[s.0 as usize] = true;
                    loops.push((s, body));
                    loops.len() - 1
                }
            };
            let body = &mut loops[idx].1;
            let mut stack = vec![b];
            while let Some(x) = stack.pop() {
                if body[x.0 as usize] {
                    continue;
                }
                body[x.0 as usize] = true;
                stack.extend(cfg.preds[x.0 as usize].iter().copied());
            }
        }
    }
    loops
}

fn source_divergent(inst: &crate::ir::Inst, divergent: &[bool]) -> bool {
    match &inst.kind {
        InstKind::SysVal(s) => !matches!(
            s,
            SysVal::WorkgroupId
                | SysVal::NumWorkgroups
                | SysVal::SubgroupSize
                | SysVal::BaseVertex
                | SysVal::BaseInstance
                | SysVal::DrawIndex
                | SysVal::ViewIndex
        ),
        InstKind::MemAtomic { .. } | InstKind::Atomic { .. } | InstKind::Call { .. } => true,
        InstKind::IsHelper => true,
        // Reductions, votes and broadcasts give every active lane the same value.
        InstKind::Subgroup { op, .. } => !op.is_uniform(),
        InstKind::Image(_) | InstKind::Load { .. } => true,
        // Vertex attributes, interpolated and flat inputs (a wave holds several primitives)
        // and outputs read back differ per lane.
        InstKind::IoLoad { .. } | InstKind::InterpolateAt { .. } => true,
        InstKind::MemLoad { space: Space::Scratch, .. } => true,
        _ => {
            let mut d = false;
            inst.for_each_src(|v| d |= divergent[v.0 as usize]);
            d
        }
    }
}

/// Forward-reachability (without back edges) from `from`, reflexive, not going on past the
/// blocks in `stop` (a branch's post-dominators: paths from its two sides that meet beyond the
/// first of them have already met there).
fn reach(f: &Function, dom: &Dominance, from: BlockId, stop: &[bool]) -> Vec<bool> {
    let mut seen = vec![false; f.blocks.len()];
    let mut stack = vec![from];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut seen[b.0 as usize], true) || stop[b.0 as usize] {
            continue;
        }
        for s in f.block(b).term.succs() {
            if !dom.dominates(s, b) {
                stack.push(s);
            }
        }
    }
    seen
}

/// For each block, the blocks other than itself that every forward path (back edges and
/// returns ending it) from it passes: its strict post-dominators in the acyclic CFG.
fn post_dominators(f: &Function, dom: &Dominance) -> Vec<Vec<bool>> {
    let n = f.blocks.len();
    let mut pdom: Vec<Vec<bool>> = vec![vec![false; n]; n];
    // Reverse post-order puts every block before its forward successors: walk it backwards.
    for &b in dom.cfg().rpo.iter().rev() {
        let succs: Vec<BlockId> =
            f.block(b).term.succs().into_iter().filter(|s| !dom.dominates(*s, b)).collect();
        let mut acc: Option<Vec<bool>> = None;
        for s in succs {
            let mut with_s = pdom[s.0 as usize].clone();
            with_s[s.0 as usize] = true;
            acc = Some(match acc {
                None => with_s,
                Some(a) => a.iter().zip(&with_s).map(|(x, y)| *x && *y).collect(),
            });
        }
        pdom[b.0 as usize] = acc.unwrap_or_else(|| vec![false; n]);
    }
    pdom
}

/// Computes divergence for `f`.
pub fn analyze(f: &Function) -> Divergence {
    let dom = Dominance::new(f);
    let loops = natural_loops(f, &dom);
    let defs = f.def_map();
    let n = f.values.len();
    let mut divergent = vec![false; n];
    for &p in &f.params {
        divergent[p.0 as usize] = true;
    }
    let nb = f.blocks.len();
    let pdom = post_dominators(f, &dom);
    let mut divergent_branch = vec![false; nb];
    let mut join = vec![false; nb];
    let mut temporal = vec![false; n];
    loop {
        let mut changed = false;
        // Joins and divergent loops follow from the branches found so far.
        for (b, blk) in f.blocks.iter().enumerate() {
            let cond = match &blk.term {
                Terminator::CondBranch { cond, .. } => Some(*cond),
                Terminator::Switch { sel, .. } => Some(*sel),
                _ => None,
            };
            let d = cond.is_some_and(|c| divergent[c.0 as usize]);
            if d && !divergent_branch[b] {
                divergent_branch[b] = true;
                changed = true;
                let succs = blk.term.succs();
                let stop = &pdom[b];
                let reaches: Vec<Vec<bool>> =
                    succs.iter().map(|&s| reach(f, &dom, s, stop)).collect();
                for (x, j) in join.iter_mut().enumerate() {
                    let hits = reaches.iter().filter(|r| r[x]).count();
                    if hits >= 2 {
                        *j = true;
                    }
                }
                for (_, body) in loops.iter().filter(|l| l.1[b]) {
                    // Exits of a loop with a divergent branch inside are joins, and values
                    // defined inside it are temporally divergent where used outside.
                    for (x, blk) in f.blocks.iter().enumerate() {
                        if body[x] {
                            for s in blk.term.succs() {
                                if !body[s.0 as usize] {
                                    join[s.0 as usize] = true;
                                }
                            }
                        }
                    }
                    mark_temporal(f, body, &defs, &mut temporal);
                }
            }
        }
        for (bi, blk) in f.blocks.iter().enumerate() {
            for inst in &blk.insts {
                let Some(dst) = inst.dst else { continue };
                if divergent[dst.0 as usize] {
                    continue;
                }
                let d = match &inst.kind {
                    InstKind::Phi(srcs) => {
                        join[bi] || srcs.iter().any(|(_, v)| divergent[v.0 as usize])
                    }
                    _ => source_divergent(inst, &divergent),
                };
                if d || temporal[dst.0 as usize] {
                    divergent[dst.0 as usize] = true;
                    changed = true;
                }
            }
            for inst in &blk.insts {
                if let InstKind::Call { rets, .. } = &inst.kind {
                    for r in rets {
                        divergent[r.0 as usize] = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    Divergence { divergent, divergent_branch, temporal }
}

fn mark_temporal(
    f: &Function,
    body: &[bool],
    defs: &[Option<(BlockId, usize)>],
    temporal: &mut [bool],
) {
    let mut mark = |v: Value, user_block: usize| {
        if let Some(Some((db, _))) = defs.get(v.0 as usize) {
            if body[db.0 as usize] && !body[user_block] {
                temporal[v.0 as usize] = true;
            }
        }
    };
    for (bi, blk) in f.blocks.iter().enumerate() {
        for inst in &blk.insts {
            match &inst.kind {
                // A φ reads its source at the end of the predecessor.
                InstKind::Phi(srcs) => {
                    for (p, v) in srcs {
                        mark(*v, p.0 as usize);
                    }
                }
                _ => inst.for_each_src(|v| mark(v, bi)),
            }
        }
        let mut t = blk.term.clone();
        for v in t.srcs_mut() {
            mark(*v, bi);
        }
    }
}
