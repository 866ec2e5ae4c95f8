//! Dominator tree and dominance frontiers (Cooper, Harvey and Kennedy's iterative algorithm,
//! which is simple and fast on the small, reducible CFGs shaders have).

use super::cfg::Cfg;
use crate::ir::{BlockId, Function};

/// Immediate dominators and frontiers.
#[derive(Clone, Debug)]
pub struct Dominance {
    /// Immediate dominator of each reachable block (the entry is its own).
    pub idom: Vec<Option<BlockId>>,
    /// Dominator-tree children.
    pub children: Vec<Vec<BlockId>>,
    /// Dominance frontier of each block.
    pub frontier: Vec<Vec<BlockId>>,
    cfg: Cfg,
}

impl Dominance {
    /// Computes dominance for `f`.
    pub fn new(f: &Function) -> Self {
        let cfg = Cfg::new(f);
        let n = f.blocks.len();
        let mut idom: Vec<Option<BlockId>> = vec![None; n];
        idom[0] = Some(BlockId(0));
        let mut changed = true;
        while changed {
            changed = false;
            for &b in cfg.rpo.iter().skip(1) {
                let mut new: Option<BlockId> = None;
                for &p in &cfg.preds[b.0 as usize] {
                    if idom[p.0 as usize].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(c) => intersect(&idom, &cfg.rpo_index, p, c),
                    });
                }
                if new.is_some() && idom[b.0 as usize] != new {
                    idom[b.0 as usize] = new;
                    changed = true;
                }
            }
        }
        let mut children = vec![Vec::new(); n];
        for &b in cfg.rpo.iter().skip(1) {
            if let Some(d) = idom[b.0 as usize] {
                children[d.0 as usize].push(b);
            }
        }
        let mut frontier = vec![Vec::new(); n];
        for &b in &cfg.rpo {
            let preds = &cfg.preds[b.0 as usize];
            if preds.len() < 2 {
                continue;
            }
            for &p in preds {
                let mut r = p;
                while Some(r) != idom[b.0 as usize] {
                    if !frontier[r.0 as usize].contains(&b) {
                        frontier[r.0 as usize].push(b);
                    }
                    match idom[r.0 as usize] {
                        Some(d) if d != r => r = d,
                        _ => break,
                    }
                }
            }
        }
        Dominance { idom, children, frontier, cfg }
    }

    /// The CFG this was computed from.
    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }

    /// True if `a` dominates `b` (reflexive).
    pub fn dominates(&self, a: BlockId, mut b: BlockId) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.idom[b.0 as usize] {
                Some(d) if d != b => b = d,
                _ => return false,
            }
        }
    }
}

fn intersect(idom: &[Option<BlockId>], order: &[usize], mut a: BlockId, mut b: BlockId) -> BlockId {
    while a != b {
        while order[a.0 as usize] > order[b.0 as usize] {
            a = idom[a.0 as usize].unwrap_or(BlockId(0));
        }
        while order[b.0 as usize] > order[a.0 as usize] {
            b = idom[b.0 as usize].unwrap_or(BlockId(0));
        }
    }
    a
}
