//! `s_waitcnt` insertion: before an instruction reads or overwrites a register that an
//! outstanding memory operation will write, wait until that operation has completed, using the
//! counters the `isa` crate says each instruction increments. Vector-memory loads return in
//! order, so waiting for one retires every older one; scalar loads may return out of order, so
//! waiting for one of them waits for all LGKM operations. Every block ends with no load
//! outstanding, which keeps the analysis local to a block.

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

#[derive(Default)]
struct State {
    vm: Vec<Vec<u16>>,
    lgkm: Vec<(Vec<u16>, bool)>,
}

impl State {
    fn apply(&mut self, w: Waitcnt) {
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
        if let Some(k) = self.vm.iter().rposition(hit) {
            w.vmcnt = (self.vm.len() - 1 - k) as u8;
            any = true;
        }
        if let Some(k) = self.lgkm.iter().rposition(|(r, _)| hit(r)) {
            let smem = self.lgkm.iter().any(|(_, s)| *s);
            w.lgkmcnt = if smem { 0 } else { (self.lgkm.len() - 1 - k) as u8 };
            any = true;
        }
        any.then_some(w)
    }

    fn drain(&self) -> Option<Waitcnt> {
        let mut w = Waitcnt::NONE;
        if !self.vm.is_empty() {
            w.vmcnt = 0;
        }
        if !self.lgkm.is_empty() {
            w.lgkmcnt = 0;
        }
        (!self.vm.is_empty() || !self.lgkm.is_empty()).then_some(w)
    }
}

fn wait(w: Waitcnt) -> MInst {
    sopp(Opcode::S_WAITCNT, w.to_imm())
}

/// Inserts the waits. Run after register allocation (operands are resolved through `a`).
pub fn insert_waits(mf: &mut MFunc, a: &Assignment) {
    for b in 0..mf.blocks.len() {
        let insts = std::mem::take(&mut mf.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        let mut st = State::default();
        let n = insts.len();
        for (i, mi) in insts.into_iter().enumerate() {
            if let Inst::Sopp(s) = mi.inst {
                if s.op == Opcode::S_WAITCNT {
                    st.apply(Waitcnt::from_imm(s.simm16));
                    out.push(mi);
                    continue;
                }
            }
            let last_branch =
                i + 1 == n && (mi.target.is_some() || mi.inst.op() == Opcode::S_ENDPGM);
            if last_branch && mi.inst.op() != Opcode::S_ENDPGM {
                if let Some(w) = st.drain() {
                    out.push(wait(w));
                    st.apply(w);
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
            out.push(mi);
        }
        let ends_in_branch =
            out.last().is_some_and(|m| m.target.is_some() || m.inst.op() == Opcode::S_ENDPGM);
        if !ends_in_branch {
            if let Some(w) = st.drain() {
                out.push(wait(w));
            }
        }
        mf.blocks[b].insts = out;
    }
}
