//! Liveness of virtual registers on the machine CFG, and live intervals in layout order.
//!
//! Liveness is computed on the machine CFG, which for lowered divergent control flow is the
//! *linear* CFG (blocks run one after the other with EXEC masking). That is what SGPRs need,
//! and it is conservative for VGPRs. A write covering only part of a register (one dword of a
//! pair, or a φ register written on several edges) does not end its liveness by itself; writes
//! in one block that together cover every dword before the next read do, because 64-bit
//! arithmetic builds its results one half at a time and such pairs would otherwise look live
//! from the function entry and never free their registers.

use super::mir::MFunc;

/// A bit set over virtual registers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    fn union(&mut self, o: &Bits) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
}

/// Bits `off..off + dwords` of a dword mask (registers are at most 32 dwords wide).
fn dword_mask(off: u8, dwords: u8) -> u32 {
    let ones = 1u64.checked_shl(u32::from(dwords)).map_or(u64::MAX, |b| b - 1);
    (ones << off.min(63)) as u32
}

/// Block-level liveness: where each block starts in the layout-order numbering of
/// instructions, and which registers are live out of it.
struct BlockLiveness {
    /// Index of each block's first instruction (one more entry: the instruction count).
    start: Vec<usize>,
    live_out: Vec<Bits>,
}

fn block_liveness(mf: &MFunc) -> BlockLiveness {
    let nv = mf.vregs.len();
    let nb = mf.blocks.len();
    let mut gen = vec![Bits::new(nv); nb];
    let mut kill = vec![Bits::new(nv); nb];
    let mut start = vec![0usize; nb + 1];
    for (b, blk) in mf.blocks.iter().enumerate() {
        start[b + 1] = start[b] + blk.insts.len();
        // Dwords of each register written between here and its next use (walking backwards):
        // a pair built one dword at a time is dead before its first write once every dword
        // is covered, exactly like a full-width write.
        let mut covered: Vec<u32> = vec![0; nv];
        for mi in blk.insts.iter().rev() {
            for d in &mi.defs {
                let v = d.reg.vreg.0 as usize;
                let full = dword_mask(0, mf.vregs[v].size);
                covered[v] |= dword_mask(d.reg.off, d.dwords) & full;
                if covered[v] == full {
                    kill[b].set(v);
                    gen[b].clear(v);
                }
            }
            for u in &mi.uses {
                let v = u.reg.vreg.0 as usize;
                gen[b].set(v);
                covered[v] = 0;
            }
        }
    }
    let succs: Vec<Vec<usize>> = (0..nb).map(|b| mf.succs(b)).collect();
    let mut live_in = gen.clone();
    let mut live_out = vec![Bits::new(nv); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            for &s in &succs[b] {
                let li = live_in[s].clone();
                changed |= live_out[b].union(&li);
            }
            let mut t = live_out[b].clone();
            for (w, k) in t.0.iter_mut().zip(&kill[b].0) {
                *w &= !k;
            }
            changed |= live_in[b].union(&t);
        }
    }
    BlockLiveness { start, live_out }
}

/// Live range of one virtual register: sorted, disjoint, non-adjacent closed segments of
/// positions. Instruction `i` has two positions: `2 * i` where it reads its operands and
/// `2 * i + 1` where it writes its results, so a value read for the last time by an
/// instruction and one it defines do not overlap (what copy coalescing needs), while a value
/// live across the instruction covers both.
pub type Range = Vec<(usize, usize)>;

/// The instruction a position belongs to.
pub fn inst_of(pos: usize) -> usize {
    pos / 2
}

/// Live range of every virtual register (empty for registers never mentioned).
pub fn ranges(mf: &MFunc) -> Vec<Range> {
    let nv = mf.vregs.len();
    let bl = block_liveness(mf);
    let mut out: Vec<Range> = vec![Vec::new(); nv];
    // Per register while walking a block backwards: the end of the segment being extended
    // (it is live there) and the dwords written since its next read.
    let mut open: Vec<Option<usize>> = vec![None; nv];
    let mut covered: Vec<u32> = vec![0; nv];
    for (b, blk) in mf.blocks.iter().enumerate() {
        let (first, end) = (bl.start[b], bl.start[b + 1]);
        if first == end {
            continue;
        }
        let mut touched: Vec<usize> = Vec::new();
        for v in (0..nv).filter(|&v| bl.live_out[b].get(v)) {
            open[v] = Some(2 * end - 1);
            touched.push(v);
        }
        for (i, mi) in blk.insts.iter().enumerate().rev() {
            let p = first + i;
            for d in &mi.defs {
                let v = d.reg.vreg.0 as usize;
                touched.push(v);
                let full = dword_mask(0, mf.vregs[v].size);
                covered[v] |= dword_mask(d.reg.off, d.dwords) & full;
                match open[v] {
                    Some(e) if covered[v] == full => {
                        out[v].push((2 * p + 1, e));
                        open[v] = None;
                    }
                    Some(_) => {}
                    None => out[v].push((2 * p + 1, 2 * p + 1)),
                }
            }
            for u in &mi.uses {
                let v = u.reg.vreg.0 as usize;
                touched.push(v);
                covered[v] = 0;
                if open[v].is_none() {
                    open[v] = Some(2 * p);
                }
            }
        }
        for v in touched {
            if let Some(e) = open[v].take() {
                out[v].push((2 * first, e));
            }
            covered[v] = 0;
        }
    }
    for (v, r) in out.iter_mut().enumerate() {
        // Inputs are live from the start.
        normalize(r);
        if let (Some(_), Some(first)) = (mf.vregs[v].fixed, r.first_mut()) {
            first.0 = 0;
        }
    }
    out
}

/// Sorts segments and joins overlapping or adjacent ones.
pub fn normalize(r: &mut Range) {
    r.sort_unstable();
    let mut w = 0;
    for i in 0..r.len() {
        if w > 0 && r[i].0 <= r[w - 1].1 + 1 {
            r[w - 1].1 = r[w - 1].1.max(r[i].1);
        } else {
            r[w] = r[i];
            w += 1;
        }
    }
    r.truncate(w);
}

/// True if two normalized ranges share a position.
pub fn overlap(a: &[(usize, usize)], b: &[(usize, usize)]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].1 < b[j].0 {
            i += 1;
        } else if b[j].1 < a[i].0 {
            j += 1;
        } else {
            return true;
        }
    }
    false
}

/// Live interval of each virtual register: first and last instruction index (inclusive) in
/// layout order (the hull of its [`ranges`]); `None` for registers never used.
pub fn intervals(mf: &MFunc) -> Vec<Option<(usize, usize)>> {
    ranges(mf).iter().map(|r| Some((inst_of(r.first()?.0), inst_of(r.last()?.1)))).collect()
}
