//! Register allocation: linear scan over live intervals in layout order, one pass per register
//! file, honouring SGPR pair/quad alignment and the ABI's pinned input registers. Afterwards
//! every register field of every instruction is patched with its physical register.
//!
//! Each dword is placed by its own live range ([`super::liveness::ranges`]): an SGPR holds its
//! register only over its live range with holes, so other values fit into those holes
//! ([`super::reg_file`]); a VGPR holds it from its first to its last mention, since lanes that
//! left a loop early may keep a value in a hole of the wave's liveness. When a register file
//! runs out, [`try_allocate`] evicts the occupants of the register whose spilling costs least
//! for the register time it frees (reads and writes weighted by loop depth), or leaves the new
//! value out, and carries on, so one scan names every value to spill; [`super::spill`] moves
//! them to scratch (vector values) or to VGPR lanes (scalar values). Moves whose source and
//! destination end up in one register are dropped when the registers are written in
//! ([`rewrite`]); most never get there ([`super::coalesce`]).

use ferrum_isa::{Ext, Inst, Opcode, Operand};

use super::abi;
use super::error::BackendError;
use super::liveness::{hull, inst_of, normalize, ranges, writes_exec};
use super::mir::{patch, MFunc, MInst, RegClass, RegRef, VReg, VRegInfo};
use super::reg_file::{extent, Costs, File, Spans};

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The register file that ran out first.
    pub class: RegClass,
    /// Values whose spilling lets every other value of this pass find a register (empty when
    /// nothing can be spilled).
    pub spills: Vec<VReg>,
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

/// Loop nesting depth of each block: layout keeps a loop's blocks together, from the header
/// to the block branching back to it.
fn loop_depths(mf: &MFunc) -> Vec<u32> {
    let mut depth = vec![0u32; mf.blocks.len()];
    for s in 0..mf.blocks.len() {
        for t in mf.succs(s).into_iter().filter(|&t| t <= s) {
            depth[t..=s].iter_mut().for_each(|d| *d += 1);
        }
    }
    depth
}

/// What spilling each register costs: its reads and writes, each weighted by ten to the power
/// of its loop depth (a spilled value pays a load or store at every one).
fn spill_costs(mf: &MFunc) -> Vec<f64> {
    let depth = loop_depths(mf);
    let mut cost = vec![0.0f64; mf.vregs.len()];
    for (b, blk) in mf.blocks.iter().enumerate() {
        let w = 10f64.powi(depth[b].min(6) as i32);
        for mi in &blk.insts {
            for op in mi.defs.iter().chain(&mi.uses) {
                cost[op.reg.vreg.0 as usize] += w;
            }
        }
    }
    cost
}

/// The instruction spans each dword of each virtual register occupies a register for: its
/// live range with holes for SGPRs, its whole span for VGPRs. On the linear CFG a VGPR can be
/// dead in a hole yet hold, in lanes that leave a loop or branch before it is rewritten, a
/// value they read later; only the whole span keeps another value out of those lanes. (A
/// program that never changes EXEC has no such lanes: its VGPRs get holes too.)
fn spans(mf: &MFunc) -> Vec<Vec<Spans>> {
    let live = ranges(mf);
    // Without EXEC changes every lane runs every instruction: VGPR holes are holes too.
    let lanes_together = !mf.blocks.iter().flat_map(|b| &b.insts).any(writes_exec);
    live.iter()
        .zip(&mf.vregs)
        .map(|(dws, info)| {
            if hull(dws).is_none() {
                return Vec::new();
            }
            dws.iter()
                .map(|r| {
                    let mut s: Spans = match info.class {
                        RegClass::V if !lanes_together => {
                            r.first().zip(r.last()).map(|(f, l)| (f.0, l.1)).into_iter().collect()
                        }
                        _ => r.clone(),
                    };
                    s.iter_mut().for_each(|x| *x = (inst_of(x.0), inst_of(x.1)));
                    normalize(&mut s);
                    s
                })
                .collect()
        })
        .collect()
}

/// Allocates registers, or says which values to spill so that they all fit: the scan goes on
/// past the first value that finds no register, evicting (or leaving out) the cheapest
/// values to spill, so one pass names every spill it needs and no more.
pub fn try_allocate(mf: &MFunc) -> Result<Assignment, Failure> {
    let spans = spans(mf);
    let cost = spill_costs(mf);
    let size: Vec<u8> = mf.vregs.iter().map(|i| i.size).collect();
    // Spill temporaries gain nothing from spilling; lane VGPRs hold spilled SGPRs in lanes
    // that scratch stores under EXEC could not keep.
    let spillable = |v: usize| {
        let Some((a, b)) = extent(&spans[v]) else { return false };
        mf.vregs[v].fixed.is_none() && b > a + 1 && !mf.unspillable.contains(&VReg(v as u32))
    };
    let costs = Costs { spans: &spans, cost: &cost, size: &size, spillable: &spillable };
    let start: Vec<usize> = spans.iter().map(|s| extent(s).map_or(usize::MAX, |e| e.0)).collect();
    let mut order: Vec<usize> = (0..mf.vregs.len()).filter(|&v| start[v] != usize::MAX).collect();
    order.sort_by_key(|&v| (start[v], mf.vregs[v].fixed.is_none(), v));
    let mut reg = vec![u8::MAX; mf.vregs.len()];
    // The long-branch pair sits above the allocatable SGPRs.
    let mut sf = File::new(usize::from(super::emit::LONG_BRANCH_SGPR));
    let mut vf = File::new(abi::MAX_VGPRS as usize);
    let mut failed: Option<RegClass> = None;
    let mut spills: Vec<VReg> = Vec::new();
    for v in order {
        let info = mf.vregs[v];
        let file = match info.class {
            RegClass::S => &mut sf,
            RegClass::V => &mut vf,
        };
        let mut r = file.pick(info.align, info.fixed, &spans[v]);
        if r.is_none() {
            failed = failed.or(Some(info.class));
            let own = spillable(v).then(|| costs.weight(v, start[v]));
            match (file.cheapest_eviction(v, info.align, info.fixed, &costs), own) {
                (Some((at, w, owners)), own) if own.is_none_or(|o| w < o) => {
                    for o in owners {
                        file.evict(usize::from(reg[o]), size[o], o);
                        reg[o] = u8::MAX;
                        spills.push(VReg(o as u32));
                    }
                    r = Some(at);
                }
                (_, Some(_)) => spills.push(VReg(v as u32)),
                _ => return Err(Failure { class: info.class, spills: Vec::new() }),
            }
        }
        if let Some(r) = r {
            file.take(r, v, &spans[v]);
            reg[v] = r as u8;
        }
    }
    match failed {
        Some(class) => Err(Failure { class, spills }),
        None => Ok(Assignment { reg, sgprs: sf.top, vgprs: vf.top }),
    }
}

/// Writes the physical registers into every instruction, and deletes the moves that the
/// allocation made copy a register onto itself.
pub fn rewrite(mf: &mut MFunc, a: &Assignment) {
    let vregs = mf.vregs.clone();
    for blk in &mut mf.blocks {
        blk.insts.retain(|mi| !copies_onto_itself(&vregs, a, mi));
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

/// A plain move whose source and destination were given the same physical register.
fn copies_onto_itself(vregs: &[VRegInfo], a: &Assignment, mi: &MInst) -> bool {
    let plain = match &mi.inst {
        Inst::Vop1(i) => i.op == Opcode::V_MOV_B32 && i.ext == Ext::None,
        Inst::Sop1(i) => i.op == Opcode::S_MOV_B32,
        _ => false,
    };
    let ([d], [s]) = (mi.defs.as_slice(), mi.uses.as_slice()) else { return false };
    let phys = |r: RegRef| {
        let v = r.vreg.0 as usize;
        (vregs[v].class, a.reg[v].wrapping_add(r.off))
    };
    plain && mi.spill.is_none() && d.dwords == 1 && s.dwords == 1 && phys(d.reg) == phys(s.reg)
}

#[cfg(test)]
mod tests {
    use ferrum_isa::Opcode;

    use super::*;
    use crate::amd::isel_build::{vop1, vop2, Src};
    use crate::amd::liveness::intervals;
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

    /// `n` vector values defined first, then summed in definition order: the first add has
    /// all of them and its result live.
    fn all_live_then_summed(n: u32) -> (MFunc, Vec<RegRef>) {
        let mut mf = MFunc::default();
        let xs: Vec<RegRef> = (0..n).map(|_| mf.vreg(RegClass::V, 1)).collect();
        let mut insts: Vec<_> = xs.iter().map(|&x| vop1(Opcode::V_MOV_B32, x, Src::I(7))).collect();
        let v = |r| Src::R(r, RegClass::V);
        let mut sum = xs[0];
        for &x in &xs[1..] {
            let next = mf.vreg(RegClass::V, 1);
            insts.push(vop2(Opcode::V_ADD_NC_U32, next, v(sum), v(x)));
            sum = next;
        }
        mf.blocks.push(MBlock { insts });
        (mf, xs)
    }

    /// One scan names every spill it needs, and no more: the values read last, whose registers
    /// are then free for everything live at the peak.
    #[test]
    fn one_scan_names_just_enough_spills() {
        let (mut mf, xs) = all_live_then_summed(abi::MAX_VGPRS + 4);
        let f = try_allocate(&mf).unwrap_err();
        // 260 values and the first sum at the peak: 5 must go.
        assert_eq!(f.spills.len(), 5, "{:?}", f.spills);
        let last: Vec<VReg> = xs[xs.len() - 5..].iter().map(|r| r.vreg).collect();
        assert!(f.spills.iter().all(|s| last.contains(s)), "{:?}", f.spills);
        for s in f.spills {
            crate::amd::spill::spill(&mut mf, s);
        }
        let a = allocate(&mf).unwrap();
        assert!(a.vgprs <= abi::MAX_VGPRS);
        check(&mf, &a).unwrap();
    }

    /// Values read inside a loop cost ten times more to spill than straight-line ones, so of
    /// values all live to the end the scan gives up the two read only after the loop, though
    /// they are read first there (furthest-end alone would pick loop values).
    #[test]
    fn values_read_in_loops_are_spilled_last() {
        let n = abi::MAX_VGPRS + 2;
        let mut mf = MFunc::default();
        let xs: Vec<RegRef> = (0..n).map(|_| mf.vreg(RegClass::V, 1)).collect();
        let defs: Vec<_> = xs.iter().map(|&x| vop1(Opcode::V_MOV_B32, x, Src::I(7))).collect();
        let v = |r| Src::R(r, RegClass::V);
        let chain = |mf: &mut MFunc, from: RegRef, reads: &[RegRef]| {
            let mut sum = from;
            let mut out = Vec::new();
            for &x in reads {
                let next = mf.vreg(RegClass::V, 1);
                out.push(vop2(Opcode::V_ADD_NC_U32, next, v(sum), v(x)));
                sum = next;
            }
            out
        };
        let (hot, cold) = xs.split_at(xs.len() - 2);
        let mut body = chain(&mut mf, hot[0], &hot[1..]);
        let mut back = crate::amd::isel_build::sopp(Opcode::S_CBRANCH_SCC1, 0);
        back.target = Some(1);
        body.push(back);
        let tail: Vec<RegRef> = cold.iter().chain(hot).copied().collect();
        let fin = chain(&mut mf, cold[0], &tail[1..]);
        mf.blocks = vec![MBlock { insts: defs }, MBlock { insts: body }, MBlock { insts: fin }];
        let f = try_allocate(&mf).unwrap_err();
        assert!(cold.iter().all(|c| f.spills.contains(&c.vreg)), "{:?}", f.spills);
        for s in f.spills {
            crate::amd::spill::spill(&mut mf, s);
        }
        let mut rounds = 0;
        let a = loop {
            match try_allocate(&mf) {
                Ok(a) => break a,
                Err(f) => f.spills.into_iter().for_each(|s| {
                    crate::amd::spill::spill(&mut mf, s);
                }),
            }
            rounds += 1;
            assert!(rounds < 4, "allocation does not converge");
        };
        check(&mf, &a).unwrap();
    }
}
