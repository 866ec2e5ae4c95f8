//! Which blocks need a lane mask, and which can be reached by plain scalar jumps.
//!
//! The general scheme (see [`super`]) gives every block a lane mask that its predecessors OR
//! their lanes into. Most shader control flow does not need that much:
//! - A *region* is a block `d` followed in layout by blocks entered only from `d` or each
//!   other, which leave only to the block right after them, the *join*, and never return.
//!   Every lane that runs `d` reaches the join in the same iteration, so the join's lanes are
//!   `d`'s: EXEC is restored from a copy taken at `d` (or left alone when nothing in between
//!   touches it) instead of being accumulated edge by edge, and a skipped `d` skips the join.
//! - A region whose head branches on a *uniform* condition to two sub-regions laid out one
//!   after the other (or to one sub-region and the join) is an if/else the whole wave takes
//!   one way: `s_cbranch_scc*` jumps over the side not taken and EXEC is untouched.
//! - A *uniform loop* has a single entry, latch and exit block, and every one of its blocks
//!   either runs with all the lanes that entered the iteration or sits inside a region that
//!   restores them; its exits and back edge are uniform, so it iterates with `s_cbranch_scc*`
//!   on its own condition and needs neither a header mask nor a latch check.

use super::layout_order::Loop;
use super::Isel;
use crate::analysis::dominance::Dominance;
use crate::ir::{BlockId, Function, Terminator};

/// How a block's EXEC is established when control reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// Lanes accumulated in a mask by the incoming edges; the block is skipped when empty.
    Mask,
    /// Falls through from the previous block in layout with EXEC unchanged.
    Falls,
    /// Reached by a jump (or fall-through) that leaves EXEC as the block needs it.
    Jump,
    /// EXEC is restored from the copy its region's head saved.
    Restore,
}

/// The uniform split at a region head: the sub-region laid out first is entered by falling
/// through, the others by jumps.
#[derive(Clone, Debug)]
pub(super) struct Split {
    /// Last blocks of the sub-regions followed by another (a trailer after each jumps to the
    /// join).
    pub ends: Vec<BlockId>,
}

/// The control-flow shape of a function, in layout order.
pub(super) struct Shape {
    pub order: Vec<BlockId>,
    pub pos: Vec<usize>,
    pub entry: Vec<Entry>,
    /// Join of the region each block heads.
    pub join: Vec<Option<BlockId>>,
    /// Outermost region head of each join: the one whose EXEC a `Restore` join takes back.
    pub owner: Vec<Option<BlockId>>,
    pub split: Vec<Option<Split>>,
    /// Loops (by index into the loop list) that iterate on a uniform condition.
    pub uniform_loop: Vec<bool>,
    /// Blocks whose terminator is emitted as scalar jumps.
    pub jumps: Vec<bool>,
    /// Exit block of the uniform loop each header starts.
    pub loop_exit: Vec<Option<BlockId>>,
    /// Blocks that only return (a jump to one ends the program).
    pub returns: Vec<bool>,
}

fn succs(f: &Function, b: BlockId) -> Vec<BlockId> {
    f.block(b).term.succs()
}

fn ends(f: &Function, b: BlockId) -> bool {
    matches!(f.block(b).term, Terminator::Return(_) | Terminator::Unreachable | Terminator::Kill)
}

impl Isel<'_> {
    /// Classifies every block of the layout `order`.
    pub(super) fn cf_shape(&self, order: &[BlockId], loops: &[Loop], dom: &Dominance) -> Shape {
        let f = self.f;
        let n = f.blocks.len();
        let cfg = dom.cfg();
        let mut pos = vec![usize::MAX; n];
        for (i, b) in order.iter().enumerate() {
            pos[b.0 as usize] = i;
        }
        let mut s = Shape {
            order: order.to_vec(),
            pos,
            entry: vec![Entry::Mask; n],
            join: vec![None; n],
            owner: vec![None; n],
            split: vec![None; n],
            uniform_loop: vec![false; loops.len()],
            jumps: vec![false; n],
            loop_exit: vec![None; n],
            returns: vec![false; n],
        };
        s.entry[0] = Entry::Falls;
        // A block that only returns does nothing for the lanes reaching it: they need no mask.
        for &b in order.iter().skip(1) {
            let blk = f.block(b);
            if blk.insts.is_empty() && matches!(blk.term, Terminator::Return(ref v) if v.is_empty())
            {
                s.entry[b.0 as usize] = Entry::Jump;
                s.returns[b.0 as usize] = true;
            }
        }
        for (i, &b) in order.iter().enumerate().skip(1) {
            if let [p] = cfg.preds[b.0 as usize][..] {
                let uncond = matches!(f.block(p).term, Terminator::Branch(t) if t == b);
                let header = loops.iter().any(|l| l.header == b);
                let same = loops.iter().all(|l| l.body[p.0 as usize] == l.body[b.0 as usize]);
                if uncond && !header && same && s.pos[p.0 as usize] + 1 == i {
                    s.entry[b.0 as usize] = Entry::Falls;
                }
            }
        }
        self.find_regions(&mut s, dom);
        for (li, l) in loops.iter().enumerate() {
            if self.uniform_loop(&mut s, l, loops, dom) {
                s.uniform_loop[li] = true;
            }
        }
        self.uniform_returns(&mut s, dom);
        // A join needs its EXEC back only if something inside its region changes it, unless
        // the region is a uniform loop, which leaves with the lanes it was entered with.
        for (i, &d) in order.iter().enumerate() {
            let Some(j) = s.join[d.0 as usize] else { continue };
            if s.owner[j.0 as usize] != Some(d) {
                continue;
            }
            if order.get(i + 1).is_some_and(|h| s.loop_exit[h.0 as usize] == Some(j)) {
                continue;
            }
            let end = s.pos[j.0 as usize];
            let touched = order[i + 1..end]
                .iter()
                .any(|x| matches!(s.entry[x.0 as usize], Entry::Mask | Entry::Restore));
            if touched {
                s.entry[j.0 as usize] = Entry::Restore;
            }
        }
        s
    }

    /// Regions and uniform splits (a join belongs to the outermost region that ends at it).
    fn find_regions(&self, s: &mut Shape, dom: &Dominance) {
        let f = self.f;
        let cfg = dom.cfg();
        let order = s.order.clone();
        for (i, &d) in order.iter().enumerate() {
            if ends(f, d) {
                continue;
            }
            let Some(k) = (i + 2..order.len()).find(|&k| region_ok(f, cfg, &s.pos, &order, i, k))
            else {
                continue;
            };
            let j = order[k];
            s.join[d.0 as usize] = Some(j);
            if s.owner[j.0 as usize].is_none() {
                s.owner[j.0 as usize] = Some(d);
                s.entry[j.0 as usize] = Entry::Jump;
            }
            match &f.block(d).term {
                Terminator::CondBranch { cond, then, els } if !self.is_div(*cond) => {
                    self.try_split(s, dom, i, k, &[*then, *els]);
                }
                Terminator::Switch { sel, default, cases }
                    if !self.is_div(*sel) && self.shape(*sel).0 <= 32 =>
                {
                    let mut targets: Vec<BlockId> = cases.iter().map(|c| c.1).collect();
                    targets.push(*default);
                    self.try_split(s, dom, i, k, &targets);
                }
                _ => {}
            }
        }
    }

    /// A uniform if/else or switch at the region head `order[i]` whose join is `order[k]`:
    /// each target heads the blocks it dominates (none for the join), laid out one side after
    /// the other.
    fn try_split(&self, s: &mut Shape, dom: &Dominance, i: usize, k: usize, targets: &[BlockId]) {
        let cfg = dom.cfg();
        let (d, j) = (s.order[i], s.order[k]);
        let mut sides: Vec<Vec<usize>> = Vec::new();
        for &t in targets {
            if t == j || sides.iter().any(|v| s.order[v[0]] == t) {
                continue;
            }
            if cfg.preds[t.0 as usize] != [d] {
                return;
            }
            sides.push((i + 1..k).filter(|&p| dom.dominates(t, s.order[p])).collect());
        }
        if sides.is_empty() || sides.iter().map(Vec::len).sum::<usize>() != k - i - 1 {
            return;
        }
        sides.sort_by_key(|v| v[0]);
        let mut at = i + 1;
        for v in &sides {
            if v.iter().enumerate().any(|(x, &p)| p != at + x) {
                return;
            }
            at += v.len();
        }
        for (x, v) in sides.iter().enumerate() {
            s.entry[s.order[v[0]].0 as usize] = if x == 0 { Entry::Falls } else { Entry::Jump };
        }
        // Every side but the last ends in a jump to the join.
        let ends = sides[..sides.len() - 1].iter().map(|v| s.order[v[v.len() - 1]]).collect();
        s.split[d.0 as usize] = Some(Split { ends });
        s.jumps[d.0 as usize] = true;
    }

    /// Uniform early returns: a block that holds every lane still running (reached from the
    /// entry through blocks that do, uniform loops, regions and the far side of early returns)
    /// and branches on a uniform
    /// condition to a block that only returns ends the program with a scalar branch; the other
    /// way falls through.
    fn uniform_returns(&self, s: &mut Shape, dom: &Dominance) {
        let f = self.f;
        let cfg = dom.cfg();
        let mut covered_to = 0;
        for p in 0..s.order.len() {
            let b = s.order[p];
            // Blocks that only return hold no lanes and run no code.
            if p < covered_to || s.returns[b.0 as usize] {
                continue;
            }
            let prev = s.order[..p].iter().rev().find(|q| !s.returns[q.0 as usize]);
            let falls = s.entry[b.0 as usize] == Entry::Falls
                && prev.is_some_and(|q| cfg.preds[b.0 as usize] == [*q]);
            // After the others took a branch to a block that only returns, the lanes going on
            // are all the lanes still running.
            let survivors = prev.is_some_and(|q| {
                cfg.preds[b.0 as usize] == [*q]
                    && f.block(*q).term.succs().iter().any(|t| *t != b && s.returns[t.0 as usize])
            });
            if !(p == 0 || p == covered_to || falls || survivors) {
                return;
            }
            if let Some(j) = s.join[b.0 as usize].or(s.loop_exit[b.0 as usize]) {
                covered_to = s.pos[j.0 as usize];
                continue;
            }
            let Terminator::CondBranch { cond, then, els } = f.block(b).term else { continue };
            let (ret, stay) = match (s.returns[then.0 as usize], s.returns[els.0 as usize]) {
                (true, false) => (then, els),
                (false, true) => (els, then),
                _ => continue,
            };
            if self.is_div(cond) || ret == stay || s.jumps[b.0 as usize] {
                continue;
            }
            if cfg.preds[stay.0 as usize] != [b] || s.pos[stay.0 as usize] != p + 1 {
                continue;
            }
            s.entry[stay.0 as usize] = Entry::Falls;
            s.jumps[b.0 as usize] = true;
        }
    }

    /// Classifies loop `l` as uniform (and marks its blocks) when every lane that starts an
    /// iteration either finishes it at the latch or leaves with the whole wave.
    fn uniform_loop(&self, s: &mut Shape, l: &Loop, loops: &[Loop], dom: &Dominance) -> bool {
        let f = self.f;
        let cfg = dom.cfg();
        let h = l.header;
        let inside = |b: BlockId| l.body[b.0 as usize];
        let ph = match cfg.preds[h.0 as usize].iter().filter(|p| !inside(**p)).collect::<Vec<_>>()[..]
        {
            [p] => *p,
            _ => return false,
        };
        let hp = s.pos[h.0 as usize];
        if hp == 0 || s.order[hp - 1] != ph || f.block(ph).term != Terminator::Branch(h) {
            return false;
        }
        let latches: Vec<BlockId> =
            cfg.preds[h.0 as usize].iter().copied().filter(|p| inside(*p)).collect();
        let [bl] = latches[..] else { return false };
        let size = l.body.iter().filter(|x| **x).count();
        let last = hp + size - 1;
        if s.order.get(last) != Some(&bl) || s.order[hp..=last].iter().any(|b| !inside(*b)) {
            return false;
        }
        // The exit block, possibly behind trampolines (blocks outside the loop, as a break
        // in the loop's body is, entered from one loop block and going on to the exit).
        let mut targets: Vec<BlockId> =
            s.order[hp..=last].iter().flat_map(|b| succs(f, *b)).filter(|t| !inside(*t)).collect();
        targets.sort_unstable_by_key(|t| s.pos[t.0 as usize]);
        targets.dedup();
        let Some(&y) = targets.last() else { return false };
        let tramps = &targets[..targets.len() - 1];
        let tramp_ok = |z: &BlockId| {
            matches!(cfg.preds[z.0 as usize][..], [q] if inside(q))
                && f.block(*z).term == Terminator::Branch(y)
        };
        if loops.iter().any(|o| o.header == y)
            || s.pos[y.0 as usize] != last + 1 + tramps.len()
            || !tramps.iter().enumerate().all(|(x, z)| s.pos[z.0 as usize] == last + 1 + x)
            || !tramps.iter().all(tramp_ok)
            || cfg.preds[y.0 as usize].iter().any(|p| !inside(*p) && !tramps.contains(p))
            || s.order[hp..=last].iter().any(|b| ends(f, *b))
        {
            return false;
        }
        let leaves = |t: BlockId| t == y || tramps.contains(&t);
        // Blocks running with the iteration's lanes ("all"); the others must sit inside a
        // region headed by one of them (regions are closed: nothing inside them exits).
        let mut all = vec![false; f.blocks.len()];
        let mut inside_region_to = hp;
        let (mut falls_in, mut split_in) = (Vec::new(), Vec::new());
        for p in hp..=last {
            let b = s.order[p];
            if p < inside_region_to {
                continue;
            }
            let prev = (p > hp).then(|| s.order[p - 1]);
            let falls = s.entry[b.0 as usize] == Entry::Falls || falls_in.contains(&b);
            let ok = p == hp
                || p == inside_region_to
                || split_in.contains(&b)
                || (falls && prev.is_some_and(|q| all[q.0 as usize]));
            if !ok {
                return false;
            }
            all[b.0 as usize] = true;
            if let Some(j) = s.join[b.0 as usize] {
                inside_region_to = s.pos[j.0 as usize];
                continue;
            }
            if b == bl {
                let back = match f.block(b).term {
                    Terminator::Branch(t) => t == h,
                    Terminator::CondBranch { cond, then, els } => {
                        !self.is_div(cond)
                            && ((then == h && leaves(els)) || (leaves(then) && els == h))
                    }
                    _ => false,
                };
                if !back {
                    return false;
                }
                continue;
            }
            // Any other such block ends in jumps: out of the loop, to the block after it, or
            // to either side of a uniform split (each side entered from here alone).
            let single = |t: BlockId| inside(t) && t != h && cfg.preds[t.0 as usize] == [b];
            match f.block(b).term {
                Terminator::Branch(t) => {
                    let next =
                        s.entry[t.0 as usize] == Entry::Falls && s.pos[t.0 as usize] == p + 1;
                    if t != y && !next {
                        return false;
                    }
                }
                Terminator::CondBranch { cond, then, els } if !self.is_div(cond) && then != els => {
                    let sides: Vec<BlockId> =
                        [then, els].into_iter().filter(|t| !leaves(*t)).collect();
                    if !sides.iter().all(|t| single(*t)) {
                        return false;
                    }
                    let (near, far): (Vec<BlockId>, Vec<BlockId>) =
                        sides.into_iter().partition(|t| s.pos[t.0 as usize] == p + 1);
                    let exits = leaves(then) || leaves(els);
                    if near.len() != 1 || far.len() != usize::from(!exits) {
                        return false;
                    }
                    falls_in.extend(near);
                    split_in.extend(far);
                }
                _ => return false,
            }
        }
        if !all[bl.0 as usize] {
            return false;
        }
        for b in falls_in {
            s.entry[b.0 as usize] = Entry::Falls;
        }
        for b in split_in {
            s.entry[b.0 as usize] = Entry::Jump;
        }
        for p in hp..=last {
            let b = s.order[p];
            if all[b.0 as usize] && s.join[b.0 as usize].is_none() {
                s.jumps[b.0 as usize] = true;
            }
        }
        for &z in tramps {
            s.entry[z.0 as usize] = Entry::Jump;
            s.jumps[z.0 as usize] = true;
        }
        s.entry[h.0 as usize] = Entry::Falls;
        if s.entry[y.0 as usize] == Entry::Mask {
            s.entry[y.0 as usize] = Entry::Jump;
        }
        s.loop_exit[h.0 as usize] = Some(y);
        true
    }
}

/// `order[i]` heads a region whose join is `order[k]`.
fn region_ok(
    f: &Function,
    cfg: &crate::analysis::cfg::Cfg,
    pos: &[usize],
    order: &[BlockId],
    i: usize,
    k: usize,
) -> bool {
    let within = |b: BlockId, lo: usize| {
        let p = pos[b.0 as usize];
        p >= lo && p <= k
    };
    let d = order[i];
    if !succs(f, d).iter().all(|t| within(*t, i + 1)) {
        return false;
    }
    for &b in &order[i + 1..k] {
        if ends(f, b)
            || !succs(f, b).iter().all(|t| within(*t, i + 1))
            || !cfg.preds[b.0 as usize].iter().all(|p| within(*p, i) && pos[p.0 as usize] < k)
        {
            return false;
        }
    }
    let j = order[k];
    cfg.preds[j.0 as usize].iter().all(|p| within(*p, i) && pos[p.0 as usize] < k)
}
