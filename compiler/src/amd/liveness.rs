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

/// Live interval of each virtual register: first and last instruction index (inclusive) in
/// layout order; `None` for registers never used.
pub fn intervals(mf: &MFunc) -> Vec<Option<(usize, usize)>> {
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
    let mut iv: Vec<Option<(usize, usize)>> = vec![None; nv];
    let mut extend = |v: usize, p: usize| {
        iv[v] = Some(match iv[v] {
            None => (p, p),
            Some((a, z)) => (a.min(p), z.max(p)),
        });
    };
    for (b, blk) in mf.blocks.iter().enumerate() {
        for (i, mi) in blk.insts.iter().enumerate() {
            for r in mi.defs.iter().chain(&mi.uses) {
                extend(r.reg.vreg.0 as usize, start[b] + i);
            }
        }
        for v in 0..nv {
            if live_in[b].get(v) {
                extend(v, start[b]);
            }
            if live_out[b].get(v) {
                extend(v, (start[b + 1]).max(start[b] + 1) - 1);
            }
        }
    }
    // Inputs are live from the start.
    for (v, info) in mf.vregs.iter().enumerate() {
        if info.fixed.is_some() {
            if let Some((_, z)) = iv[v] {
                iv[v] = Some((0, z));
            }
        }
    }
    iv
}
