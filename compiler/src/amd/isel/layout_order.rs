//! Block layout for exec-mask lowering: a topological order of the forward edges in which every
//! loop's blocks are contiguous and start with the header, so that running the blocks in order
//! (each with the lanes that reached it) and jumping back once per loop is a correct schedule.

use crate::analysis::dominance::Dominance;
use crate::ir::{BlockId, Function};

/// A loop: header and membership per block.
pub struct Loop {
    /// Header block.
    pub header: BlockId,
    /// `body[b]`: block `b` belongs to the loop (the header included).
    pub body: Vec<bool>,
}

/// Reachable blocks in layout order, and the loops.
pub fn block_order(f: &Function, dom: &Dominance) -> (Vec<BlockId>, Vec<Loop>) {
    let loops: Vec<Loop> = crate::analysis::divergence::natural_loops(f, dom)
        .into_iter()
        .map(|(header, body)| Loop { header, body })
        .collect();
    let cfg = dom.cfg();
    let n = f.blocks.len();
    let mut indeg = vec![0usize; n];
    for &b in &cfg.rpo {
        for s in f.block(b).term.succs() {
            if !dom.dominates(s, b) && cfg.reachable(s) {
                indeg[s.0 as usize] += 1;
            }
        }
    }
    // Forward in-degree counts each edge once per successor-list entry; preds lists are deduped,
    // so recount from the successor lists the same way we decrement below.
    let mut ready: Vec<BlockId> = vec![BlockId(0)];
    let mut open: Vec<usize> = Vec::new();
    let mut placed = vec![false; n];
    let mut order = Vec::new();
    while !ready.is_empty() {
        // Close loops whose blocks are all placed.
        while let Some(&l) = open.last() {
            let done =
                (0..n).all(|b| !loops[l].body[b] || placed[b] || !cfg.reachable(BlockId(b as u32)));
            if done {
                open.pop();
            } else {
                break;
            }
        }
        let inside = |b: BlockId| open.last().is_none_or(|&l| loops[l].body[b.0 as usize]);
        let pick = ready
            .iter()
            .enumerate()
            .filter(|(_, &b)| inside(b))
            .min_by_key(|(_, &b)| cfg.rpo_index[b.0 as usize])
            .map(|(i, _)| i)
            .unwrap_or(0);
        let b = ready.swap_remove(pick);
        placed[b.0 as usize] = true;
        order.push(b);
        // Entering loops headed here.
        let mut entered: Vec<usize> = (0..loops.len()).filter(|&l| loops[l].header == b).collect();
        entered.sort_by_key(|&l| std::cmp::Reverse(loops[l].body.iter().filter(|x| **x).count()));
        open.extend(entered);
        for s in f.block(b).term.succs() {
            if dom.dominates(s, b) || !cfg.reachable(s) {
                continue;
            }
            indeg[s.0 as usize] -= 1;
            if indeg[s.0 as usize] == 0 {
                ready.push(s);
            }
        }
    }
    (order, loops)
}
