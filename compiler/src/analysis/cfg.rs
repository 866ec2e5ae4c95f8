//! Reachability, orders and predecessor lists of a function's CFG.

use crate::ir::{BlockId, Function};

/// Orders and edges of a function's control-flow graph.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Reachable blocks in reverse postorder (entry first).
    pub rpo: Vec<BlockId>,
    /// Position of each block in `rpo` (`usize::MAX` if unreachable).
    pub rpo_index: Vec<usize>,
    /// Predecessors of each block (reachable ones only).
    pub preds: Vec<Vec<BlockId>>,
}

impl Cfg {
    /// Computes the CFG of `f`.
    pub fn new(f: &Function) -> Self {
        let n = f.blocks.len();
        let mut visited = vec![false; n];
        let mut post = Vec::with_capacity(n);
        // Iterative DFS: (block, next successor index).
        let mut stack = vec![(BlockId(0), 0usize)];
        visited[0] = true;
        while let Some((b, i)) = stack.pop() {
            let succs = f.block(b).term.succs();
            if i < succs.len() {
                stack.push((b, i + 1));
                let s = succs[i];
                if !visited[s.0 as usize] {
                    visited[s.0 as usize] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
            }
        }
        post.reverse();
        let mut rpo_index = vec![usize::MAX; n];
        for (i, b) in post.iter().enumerate() {
            rpo_index[b.0 as usize] = i;
        }
        let mut preds = vec![Vec::new(); n];
        for &b in &post {
            for s in f.block(b).term.succs() {
                if !preds[s.0 as usize].contains(&b) {
                    preds[s.0 as usize].push(b);
                }
            }
        }
        Cfg { rpo: post, rpo_index, preds }
    }

    /// True if `b` is reachable from the entry.
    pub fn reachable(&self, b: BlockId) -> bool {
        self.rpo_index[b.0 as usize] != usize::MAX
    }
}
