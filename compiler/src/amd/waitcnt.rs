//! `s_waitcnt` insertion: before an instruction reads or overwrites a register that an
//! outstanding memory operation will write, wait until that operation has completed, using the
//! counters the `isa` crate says each instruction increments. Vector-memory loads return in
//! order, so waiting for one retires every older one; scalar loads may return out of order, so
//! waiting for one of them waits for all LGKM operations. Across blocks the analysis is a
//! forward data-flow: what a predecessor leaves outstanding reaches the block as registers whose
//! order is no longer known, and touching one of them waits for the whole counter.

use std::collections::BTreeSet;

use ferrum_isa::imm::Waitcnt;
use ferrum_isa::{Inst, Opcode};

use super::isel_build::sopp;
use super::mir::{MFunc, MInst, RegClass};
use super::regalloc::Assignment;

/// Physical register cells an operand list touches (SGPRs 0.., VGPRs 256..).
fn cells(mf: &MFunc, a: &Assignment, ops: &[super::mir::RegOp]) -> Vec<u16> {
    let mut out = Vec::new();
    for op in ops {
        let v = op.reg.vreg.0 as usize;
        let base = match mf.vregs[v].class {
            RegClass::S => 0u16,
            RegClass::V => 256,
        };
        for d in 0..op.dwords {
            out.push(base + u16::from(a.reg[v].wrapping_add(op.reg.off + d)));
        }
    }
    out
}

#[derive(Default, Clone)]
struct State {
    vm: Vec<Vec<u16>>,
    lgkm: Vec<(Vec<u16>, bool)>,
    /// Registers pending from predecessors (order unknown).
    carried_vm: BTreeSet<u16>,
    carried_lgkm: BTreeSet<u16>,
}

impl State {
    /// What a successor sees: everything outstanding, unordered.
    fn exit(&self) -> (BTreeSet<u16>, BTreeSet<u16>) {
        let mut vm = self.carried_vm.clone();
        vm.extend(self.vm.iter().flatten().copied());
        let mut lgkm = self.carried_lgkm.clone();
        lgkm.extend(self.lgkm.iter().flat_map(|(r, _)| r.iter().copied()));
        (vm, lgkm)
    }

    fn apply(&mut self, w: Waitcnt) {
        if w.vmcnt == 0 {
            self.carried_vm.clear();
        }
        if w.lgkmcnt == 0 {
            self.carried_lgkm.clear();
        }
        while self.vm.len() > w.vmcnt as usize {
            self.vm.remove(0);
        }
        if w.lgkmcnt == 0 || self.lgkm.iter().all(|(_, smem)| !smem) {
            while self.lgkm.len() > w.lgkmcnt as usize {
                self.lgkm.remove(0);
            }
        }
    }

    /// The wait needed before touching `regs`, if any.
    fn needed(&self, regs: &[u16]) -> Option<Waitcnt> {
        let hit = |r: &Vec<u16>| r.iter().any(|x| regs.contains(x));
        let mut w = Waitcnt::NONE;
        let mut any = false;
        if regs.iter().any(|r| self.carried_vm.contains(r)) {
            w.vmcnt = 0;
            any = true;
        }
        if regs.iter().any(|r| self.carried_lgkm.contains(r)) {
            w.lgkmcnt = 0;
            any = true;
        }
        if let Some(k) = self.vm.iter().rposition(hit) {
            w.vmcnt = w.vmcnt.min((self.vm.len() - 1 - k) as u8);
            any = true;
        }
        if let Some(k) = self.lgkm.iter().rposition(|(r, _)| hit(r)) {
            let smem = self.lgkm.iter().any(|(_, s)| *s);
            let n = if smem { 0 } else { (self.lgkm.len() - 1 - k) as u8 };
            w.lgkmcnt = w.lgkmcnt.min(n);
            any = true;
        }
        any.then_some(w)
    }
}

fn wait(w: Waitcnt) -> MInst {
    sopp(Opcode::S_WAITCNT, w.to_imm())
}

/// Inserts the waits. Run after register allocation (operands are resolved through `a`).
// `entry` is read at a block and written at its successors inside one loop: an index loop.
#[allow(clippy::needless_range_loop)]
pub fn insert_waits(mf: &mut MFunc, a: &Assignment) {
    let nb = mf.blocks.len();
    let succs: Vec<Vec<usize>> = (0..nb).map(|b| mf.succs(b)).collect();
    // Fixed point of the registers outstanding at each block entry (sets only grow).
    let mut entry: Vec<(BTreeSet<u16>, BTreeSet<u16>)> = vec![Default::default(); nb];
    loop {
        let mut changed = false;
        for b in 0..nb {
            let st = run_block(mf, a, b, &entry[b], &mut Vec::new());
            let (vm, lgkm) = st.exit();
            for &s in &succs[b] {
                let before = (entry[s].0.len(), entry[s].1.len());
                entry[s].0.extend(vm.iter().copied());
                entry[s].1.extend(lgkm.iter().copied());
                changed |= before != (entry[s].0.len(), entry[s].1.len());
            }
        }
        if !changed {
            break;
        }
    }
    for b in 0..nb {
        let mut out = Vec::new();
        run_block(mf, a, b, &entry[b], &mut out);
        mf.blocks[b].insts = out;
    }
}

/// Runs the wait analysis over block `b` from `entry`, writing the block with its waits to
/// `out`; returns the state at the block's end.
fn run_block(
    mf: &MFunc,
    a: &Assignment,
    b: usize,
    entry: &(BTreeSet<u16>, BTreeSet<u16>),
    out: &mut Vec<MInst>,
) -> State {
    let mut st =
        State { carried_vm: entry.0.clone(), carried_lgkm: entry.1.clone(), ..Default::default() };
    for mi in &mf.blocks[b].insts {
        if let Inst::Sopp(s) = mi.inst {
            if s.op == Opcode::S_WAITCNT {
                st.apply(Waitcnt::from_imm(s.simm16));
                out.push(mi.clone());
                continue;
            }
        }
        let mut regs = cells(mf, a, &mi.uses);
        regs.extend(cells(mf, a, &mi.defs));
        if let Some(w) = st.needed(&regs) {
            out.push(wait(w));
            st.apply(w);
        }
        let c = mi.inst.counters();
        let written = cells(mf, a, &mi.defs);
        if c.vmcnt {
            st.vm.push(written.clone());
        }
        if c.lgkmcnt {
            st.lgkm.push((written, matches!(mi.inst, Inst::Smem(_))));
        }
        out.push(mi.clone());
    }
    st
}
