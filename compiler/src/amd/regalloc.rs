//! Register allocation: linear scan over live intervals in layout order, one pass per register
//! file, honouring SGPR pair/quad alignment and the ABI's pinned input registers. Afterwards
//! every register field of every instruction is patched with its physical register.
//!
//! Intervals are single ranges over the layout (no holes), which is conservative for lowered
//! control flow and keeps the allocator simple. When a register file runs out, [`try_allocate`]
//! names the live value whose interval reaches furthest (the classic linear-scan choice) and
//! [`super::spill`] moves it to scratch (vector values) or to VGPR lanes (scalar values).

use ferrum_isa::Operand;

use super::abi;
use super::error::BackendError;
use super::liveness::intervals;
use super::mir::{patch, MFunc, RegClass, VReg};

/// Physical first register of every virtual register (`u8::MAX` for unused ones).
#[derive(Clone, Debug)]
pub struct Assignment {
    /// Per virtual register.
    pub reg: Vec<u8>,
    /// SGPRs used (highest + 1).
    pub sgprs: u32,
    /// VGPRs used (highest + 1).
    pub vgprs: u32,
}

/// Why allocation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The register file that ran out.
    pub class: RegClass,
    /// A value whose spilling would relieve the pressure (vector file only).
    pub spill: Option<VReg>,
}

impl From<Failure> for BackendError {
    fn from(f: Failure) -> Self {
        BackendError::OutOfRegisters(match f.class {
            RegClass::S => "scalar",
            RegClass::V => "vector",
        })
    }
}

/// Allocates registers; does not modify `mf`.
pub fn allocate(mf: &MFunc) -> Result<Assignment, BackendError> {
    Ok(try_allocate(mf)?)
}

/// The spill candidate when `v` finds no register: of the non-input values of its file live
/// where it starts, and `v` itself, the one live longest after that.
fn spill_candidate(
    mf: &MFunc,
    owner: &[Option<usize>],
    iv: &[Option<(usize, usize)>],
    v: usize,
) -> Option<VReg> {
    let (start, _) = iv[v]?;
    let mut best: Option<(usize, usize)> = None;
    for &o in owner.iter().flatten().chain(std::iter::once(&v)) {
        let (s, e) = iv[o]?;
        // Spill temporaries gain nothing from spilling; lane VGPRs hold spilled SGPRs in
        // lanes that scratch stores under EXEC could not keep.
        let lanes = mf.unspillable.contains(&VReg(o as u32));
        if mf.vregs[o].fixed.is_some() || e < start || e <= s + 1 || lanes {
            continue;
        }
        if best.is_none_or(|(_, be)| e > be) {
            best = Some((o, e));
        }
    }
    best.map(|(o, _)| VReg(o as u32))
}

/// Allocates registers, or says which register file ran out and what to spill.
pub fn try_allocate(mf: &MFunc) -> Result<Assignment, Failure> {
    let iv = intervals(mf);
    let mut order: Vec<usize> = (0..mf.vregs.len()).filter(|&v| iv[v].is_some()).collect();
    order.sort_by_key(|&v| (iv[v].map_or(0, |i| i.0), mf.vregs[v].fixed.is_none(), v));
    let mut reg = vec![u8::MAX; mf.vregs.len()];
    // busy[class][r] = last instruction index occupying r, or None.
    // The long-branch pair sits above the allocatable SGPRs.
    let sgpr_budget = usize::from(super::emit::LONG_BRANCH_SGPR);
    let mut busy_s: Vec<Option<usize>> = vec![None; sgpr_budget];
    let mut busy_v: Vec<Option<usize>> = vec![None; abi::MAX_VGPRS as usize];
    // Which virtual register holds each register (for choosing what to spill).
    let mut owner_s: Vec<Option<usize>> = vec![None; sgpr_budget];
    let mut owner_v: Vec<Option<usize>> = vec![None; abi::MAX_VGPRS as usize];
    let (mut sgprs, mut vgprs) = (0u32, 0u32);
    for v in order {
        let (start, end) = iv[v].expect("filtered");
        let info = mf.vregs[v];
        let busy = match info.class {
            RegClass::S => &mut busy_s,
            RegClass::V => &mut busy_v,
        };
        let size = info.size as usize;
        let free = |busy: &[Option<usize>], r: usize| {
            r + size <= busy.len() && (r..r + size).all(|x| busy[x].is_none_or(|e| e < start))
        };
        let pick = match info.fixed {
            Some(f) => Some(f as usize).filter(|&f| free(busy, f)),
            None => (0..busy.len()).step_by(info.align.max(1) as usize).find(|&r| free(busy, r)),
        };
        let Some(r) = pick else {
            let (owner, busy) = match info.class {
                RegClass::S => (&mut owner_s, &busy_s),
                RegClass::V => (&mut owner_v, &busy_v),
            };
            for (o, b) in owner.iter_mut().zip(busy) {
                if b.is_none_or(|e| e < start) {
                    *o = None;
                }
            }
            let spill = spill_candidate(mf, owner, &iv, v);
            return Err(Failure { class: info.class, spill });
        };
        busy[r..r + size].fill(Some(end));
        match info.class {
            RegClass::S => owner_s[r..r + size].fill(Some(v)),
            RegClass::V => owner_v[r..r + size].fill(Some(v)),
        }
        reg[v] = r as u8;
        let top = (r + size) as u32;
        match info.class {
            RegClass::S => sgprs = sgprs.max(top),
            RegClass::V => vgprs = vgprs.max(top),
        }
    }
    Ok(Assignment { reg, sgprs, vgprs })
}

/// Writes the physical registers into every instruction.
pub fn rewrite(mf: &mut MFunc, a: &Assignment) {
    let vregs = mf.vregs.clone();
    for blk in &mut mf.blocks {
        for mi in &mut blk.insts {
            let ops: Vec<_> = mi.defs.iter().chain(&mi.uses).copied().collect();
            for op in ops {
                let v = op.reg.vreg.0 as usize;
                let n = a.reg[v].wrapping_add(op.reg.off);
                let phys = match vregs[v].class {
                    RegClass::S => Operand::Sgpr(n),
                    RegClass::V => Operand::Vgpr(n),
                };
                patch(&mut mi.inst, op.slot, phys);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ferrum_isa::Opcode;

    use super::*;
    use crate::amd::isel_build::{vop1, vop2, Src};
    use crate::amd::mir::{MBlock, RegRef};
    use crate::amd::regalloc_check::check;

    /// `n` short-lived 64-bit values in sequence, each built one dword at a time (as 64-bit
    /// arithmetic writes its halves) and consumed at once into a running 32-bit sum.
    fn pairs_in_sequence(n: u8) -> MFunc {
        let mut mf = MFunc::default();
        let mut sum = mf.vreg(RegClass::V, 1);
        let mut insts = vec![vop1(Opcode::V_MOV_B32, sum, Src::I(0))];
        for i in 0..n {
            let pair = mf.vreg(RegClass::V, 2);
            let (lo, hi): (RegRef, RegRef) = (pair, pair.at(1));
            let (t, next) = (mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1));
            let v = |r| Src::R(r, RegClass::V);
            insts.push(vop1(Opcode::V_MOV_B32, lo, Src::I(u32::from(i))));
            insts.push(vop1(Opcode::V_MOV_B32, hi, Src::I(u32::from(i) + 1)));
            insts.push(vop2(Opcode::V_ADD_NC_U32, t, v(lo), v(hi)));
            insts.push(vop2(Opcode::V_ADD_NC_U32, next, v(sum), v(t)));
            sum = next;
        }
        mf.blocks.push(MBlock { insts });
        mf
    }

    #[test]
    fn dead_pairs_written_by_halves_are_reused() {
        let mf = pairs_in_sequence(64);
        let a = allocate(&mf).unwrap();
        // At most the sum, one pair and one temporary are live at once.
        assert!(a.vgprs <= 5, "{} VGPRs for values that never overlap", a.vgprs);
        check(&mf, &a).unwrap();
    }

    /// In a loop, a pair whose high half is read between rewriting its low half and its high
    /// half carries its high half around the back edge, so it stays live to the loop's end.
    #[test]
    fn a_half_read_before_the_other_half_is_rewritten_keeps_the_pair_live() {
        let mut mf = MFunc::default();
        let pair = mf.vreg(RegClass::V, 2);
        let (lo, hi) = (pair, pair.at(1));
        let (t, u) = (mf.vreg(RegClass::V, 1), mf.vreg(RegClass::V, 1));
        let v = |r| Src::R(r, RegClass::V);
        let entry =
            vec![vop1(Opcode::V_MOV_B32, lo, Src::I(1)), vop1(Opcode::V_MOV_B32, hi, Src::I(2))];
        let mut back = crate::amd::isel_build::sopp(Opcode::S_CBRANCH_SCC1, 0);
        back.target = Some(1);
        let body = vec![
            vop1(Opcode::V_MOV_B32, lo, Src::I(5)),
            vop2(Opcode::V_ADD_NC_U32, t, v(lo), v(hi)),
            vop1(Opcode::V_MOV_B32, hi, v(t)),
            vop2(Opcode::V_ADD_NC_U32, u, v(lo), v(hi)),
            vop2(Opcode::V_ADD_NC_U32, u, v(u), v(t)),
            back,
        ];
        mf.blocks.push(MBlock { insts: entry });
        mf.blocks.push(MBlock { insts: body });
        assert_eq!(intervals(&mf)[0], Some((0, 7)));
        let a = allocate(&mf).unwrap();
        check(&mf, &a).unwrap();
    }
}
