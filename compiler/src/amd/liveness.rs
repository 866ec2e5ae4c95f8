//! Liveness of virtual registers on the machine CFG, per dword, as live ranges with holes.
//!
//! Liveness is computed on the machine CFG, which for lowered divergent control flow is the
//! *linear* CFG (blocks run one after the other with EXEC masking). That is exact for SGPRs.
//! For VGPRs it follows the wave, not each lane: a VGPR dead in a hole may hold values of
//! lanes that left a loop early (see [`super::regalloc`] and [`super::coalesce`] for how they
//! are kept). Each dword of a register is followed on its own: 64-bit
//! arithmetic builds its results one half at a time, a vector gathered for a wide store is
//! written one component at a time, and a half is dead before its own write however the other
//! half is used. (A φ register written on several edges is not special: on the linear CFG each
//! edge's copy can be skipped by `s_cbranch_execz`, so the register stays live across the
//! others.)

use ferrum_isa::{Inst, Opcode, Operand, Special};

use super::mir::{MFunc, MInst, RegOp};

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

/// Index of dword 0 of each virtual register among all dwords (one more entry: the total).
fn dword_base(mf: &MFunc) -> Vec<usize> {
    let mut base = Vec::with_capacity(mf.vregs.len() + 1);
    let mut n = 0;
    base.push(0);
    for info in &mf.vregs {
        n += usize::from(info.size);
        base.push(n);
    }
    base
}

/// The dwords an operand covers, as indices among all dwords (clipped to its register).
fn op_dwords(base: &[usize], op: &RegOp) -> std::ops::Range<usize> {
    let v = op.reg.vreg.0 as usize;
    let lo = (base[v] + usize::from(op.reg.off)).min(base[v + 1]);
    lo..(lo + usize::from(op.dwords)).min(base[v + 1])
}

/// Block-level liveness of every dword: where each block starts in the layout-order
/// numbering of instructions, and which dwords are live out of it.
struct BlockLiveness {
    /// Index of each block's first instruction (one more entry: the instruction count).
    start: Vec<usize>,
    live_out: Vec<Bits>,
}

fn block_liveness(mf: &MFunc, base: &[usize]) -> BlockLiveness {
    let nd = *base.last().unwrap_or(&0);
    let nb = mf.blocks.len();
    let mut gen = vec![Bits::new(nd); nb];
    let mut kill = vec![Bits::new(nd); nb];
    let mut start = vec![0usize; nb + 1];
    for (b, blk) in mf.blocks.iter().enumerate() {
        start[b + 1] = start[b] + blk.insts.len();
        for mi in blk.insts.iter().rev() {
            for x in mi.defs.iter().flat_map(|d| op_dwords(base, d)) {
                kill[b].set(x);
                gen[b].clear(x);
            }
            for x in mi.uses.iter().flat_map(|u| op_dwords(base, u)) {
                gen[b].set(x);
            }
        }
    }
    let succs: Vec<Vec<usize>> = (0..nb).map(|b| mf.succs(b)).collect();
    let mut live_in = gen.clone();
    let mut live_out = vec![Bits::new(nd); nb];
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

/// Live range of every dword of every virtual register (`[v][k]`: dword `k` of `v`; empty
/// for dwords never mentioned).
pub fn ranges(mf: &MFunc) -> Vec<Vec<Range>> {
    let base = dword_base(mf);
    let nd = *base.last().unwrap_or(&0);
    let bl = block_liveness(mf, &base);
    let mut out: Vec<Range> = vec![Vec::new(); nd];
    // Per dword while walking a block backwards: the end of the segment being extended.
    let mut open: Vec<Option<usize>> = vec![None; nd];
    for (b, blk) in mf.blocks.iter().enumerate() {
        let (first, end) = (bl.start[b], bl.start[b + 1]);
        if first == end {
            continue;
        }
        let mut touched: Vec<usize> = Vec::new();
        for x in (0..nd).filter(|&x| bl.live_out[b].get(x)) {
            open[x] = Some(2 * end - 1);
            touched.push(x);
        }
        for (i, mi) in blk.insts.iter().enumerate().rev() {
            let p = first + i;
            for x in mi.defs.iter().flat_map(|d| op_dwords(&base, d)) {
                out[x].push((2 * p + 1, open[x].take().unwrap_or(2 * p + 1)));
            }
            for x in mi.uses.iter().flat_map(|u| op_dwords(&base, u)) {
                if open[x].is_none() {
                    open[x] = Some(2 * p);
                    touched.push(x);
                }
            }
        }
        for x in touched {
            if let Some(e) = open[x].take() {
                out[x].push((2 * first, e));
            }
        }
    }
    let mut per_vreg = Vec::with_capacity(mf.vregs.len());
    for (v, info) in mf.vregs.iter().enumerate() {
        let mut dws: Vec<Range> =
            out[base[v]..base[v + 1]].iter_mut().map(std::mem::take).collect();
        for r in &mut dws {
            normalize(r);
            // Inputs are live from the start.
            if let (Some(_), Some(first)) = (info.fixed, r.first_mut()) {
                first.0 = 0;
            }
        }
        per_vreg.push(dws);
    }
    per_vreg
}

/// The first and last position of a register's dwords' ranges (`None` if never mentioned).
pub fn hull(dwords: &[Range]) -> Option<(usize, usize)> {
    let a = dwords.iter().filter_map(|r| r.first()).map(|s| s.0).min()?;
    let b = dwords.iter().filter_map(|r| r.last()).map(|s| s.1).max()?;
    Some((a, b))
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
/// layout order (the hull of its dwords' [`ranges`]); `None` for registers never used.
pub fn intervals(mf: &MFunc) -> Vec<Option<(usize, usize)>> {
    ranges(mf).iter().map(|r| hull(r).map(|(a, b)| (inst_of(a), inst_of(b)))).collect()
}

/// Registers written in lanes outside the ones control flow brought there: inside a
/// whole-wave section (from EXEC set from a constant to the next write of EXEC, in layout order)
/// or by `v_writelane` (except the lane VGPRs of scalar spills, live throughout). The linear
/// liveness cannot see such writes: a register dead in a hole may still hold, in inactive
/// lanes, the value of lanes that left a loop early, and only a write outside EXEC reaches
/// them.
pub fn written_outside_exec(mf: &MFunc) -> Vec<bool> {
    let mut out = vec![false; mf.vregs.len()];
    let mut whole_wave = false;
    let exec = Operand::Special(Special::ExecLo);
    for mi in mf.blocks.iter().flat_map(|b| &b.insts) {
        let lane_write = matches!(&mi.inst, Inst::Vop3(i) if i.op == Opcode::V_WRITELANE_B32);
        if whole_wave || lane_write {
            for d in mi.defs.iter().filter(|d| !mf.spill_lanes.contains(&d.reg.vreg)) {
                out[d.reg.vreg.0 as usize] = true;
            }
        }
        // EXEC computed from anything but registers (a constant, EXEC itself) may enable
        // lanes control flow did not bring: counted as whole-wave.
        match &mi.inst {
            Inst::Sop1(i) if i.sdst == exec => whole_wave = mi.uses.is_empty(),
            Inst::Sop1(i) if i.op == Opcode::S_OR_SAVEEXEC_B32 => whole_wave = mi.uses.is_empty(),
            Inst::Sop2(i) if i.sdst == exec => whole_wave = mi.uses.len() < 2,
            _ => {}
        }
    }
    out
}

/// Whether `mi` may change EXEC: an SGPR destination naming it, `s_*_saveexec`, `v_cmpx`.
pub fn writes_exec(mi: &MInst) -> bool {
    let exec = Operand::Special(Special::ExecLo);
    let name = mi.inst.op().name();
    name.contains("saveexec")
        || name.starts_with("v_cmpx")
        || match &mi.inst {
            Inst::Sop1(i) => i.sdst == exec,
            Inst::Sop2(i) => i.sdst == exec,
            Inst::Sopk(i) => i.sdst == exec,
            Inst::Vop1(i) => i.vdst == exec,
            Inst::Vop3(i) => i.sdst == exec || i.vdst == exec,
            _ => false,
        }
}
