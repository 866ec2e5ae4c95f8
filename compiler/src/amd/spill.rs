//! Spilling vector registers to scratch: when the vector file runs out, the value the
//! allocator names ([`super::regalloc::try_allocate`]) is moved to a slot of private memory.
//! Every write of it becomes a write of a fresh register followed by a `scratch_store`, every
//! read a `scratch_load` into a fresh register just before the reader, so the value occupies
//! no register between its accesses and the new registers live for one instruction. A plain
//! move into the spilled value stores its source instead, and one out of it reloads straight
//! into its destination (the φ copies of a spilled φ register cost no moves).
//!
//! Scratch stores and loads honour EXEC like the instructions they accompany, so a slot
//! behaves exactly like the register it replaces: lanes that a masked write skips keep their
//! older contents. Each move records a [`SpillMove`] that the allocation checker follows
//! through memory. Slots follow the private data in the scratch ring, so spilling needs the
//! ABI's scratch inputs: the first failure selects the function again with them
//! ([`super::isel::select_with`]) before spilling starts.
//!
//! Scalar values go to lanes of a VGPR instead (`v_writelane_b32` / `v_readlane_b32`, which
//! ignore EXEC as SGPR writes do), one lane per dword; the lane VGPRs are live for the whole
//! program. Lane VGPRs and spill temporaries are never spilled themselves.

use ferrum_isa::Opcode as O;

use super::error::BackendError;
use super::isel::build::{self, ScratchAddr, Src};
use super::isel::scratch::{load_op, store_op, MAX_IMM_OFFSET};
use super::mir::{MFunc, MInst, RegClass, RegOp, RegRef, Slot, SpillMove, VReg};
use super::regalloc::{try_allocate, Assignment};
use super::{coalesce, isel, opt_dce, smem_merge, vmem_merge};
use crate::amd::abi::ResourceLayout;
use crate::ir::Shader;

/// Allocation rounds at most (each round spills what the allocator names and re-runs
/// liveness; a shader needing more is refused).
const MAX_ROUNDS: u32 = 64;

/// Selected, allocated code and the vector dwords spilled.
pub struct Allocated {
    /// Machine code (with spill code).
    pub mf: MFunc,
    /// Its registers.
    pub alloc: Assignment,
    /// Vector dwords moved to scratch.
    pub spilled_vgprs: u32,
    /// Scalar dwords moved to VGPR lanes.
    pub spilled_sgprs: u32,
}

/// Instruction selection and register allocation, spilling vector values when needed.
pub fn select_and_allocate(
    shader: &Shader,
    layout: &ResourceLayout,
) -> Result<Allocated, BackendError> {
    select_and_allocate_keyed(shader, layout, Default::default())
}

/// [`select_and_allocate`] for a pixel shader with export formats `key`.
pub fn select_and_allocate_keyed(
    shader: &Shader,
    layout: &ResourceLayout,
    key: crate::amd::abi::graphics::GfxKey,
) -> Result<Allocated, BackendError> {
    let mut mf = isel::select_keyed(shader, layout, false, key)?;
    opt_dce::opt_dce(&mut mf);
    smem_merge::merge_scalar_loads(&mut mf);
    vmem_merge::merge_vector_accesses(&mut mf);
    coalesce::coalesce_copies(&mut mf);
    let mut spilled = (0u32, 0u32);
    let mut last = BackendError::OutOfRegisters("vector");
    for _ in 0..MAX_ROUNDS {
        match try_allocate(&mf) {
            Ok(alloc) => {
                let (spilled_vgprs, spilled_sgprs) = spilled;
                return Ok(Allocated { mf, alloc, spilled_vgprs, spilled_sgprs });
            }
            Err(f) => {
                let vector = f.spills.iter().any(|&v| mf.info(v).class == RegClass::V);
                last = f.clone().into();
                if f.spills.is_empty() {
                    return Err(last);
                }
                if vector && !mf.scratch_inputs {
                    // Vector spills need the scratch inputs: start over with them.
                    mf = isel::select_keyed(shader, layout, true, key)?;
                    opt_dce::opt_dce(&mut mf);
                    smem_merge::merge_scalar_loads(&mut mf);
                    vmem_merge::merge_vector_accesses(&mut mf);
                    coalesce::coalesce_copies(&mut mf);
                    spilled = (0, 0);
                    continue;
                }
                let (vector, scalar): (Vec<VReg>, Vec<VReg>) =
                    f.spills.into_iter().partition(|&v| mf.info(v).class == RegClass::V);
                spilled.0 += spill_all(&mut mf, &vector);
                for v in scalar {
                    spilled.1 += spill_sgpr(&mut mf, v);
                }
            }
        }
    }
    Err(last)
}

/// Moves vector register `v` to a fresh scratch slot; returns its size in dwords.
pub fn spill(mf: &mut MFunc, v: VReg) -> u32 {
    spill_all(mf, &[v])
}

/// Moves vector registers `vs` to fresh scratch slots in one pass over the code; returns the
/// dwords spilled.
pub fn spill_all(mf: &mut MFunc, vs: &[VReg]) -> u32 {
    let mut slot_of: Vec<Option<u32>> = vec![None; mf.vregs.len()];
    let mut total = 0;
    for &v in vs {
        if slot_of[v.0 as usize].is_none() {
            let size = mf.info(v).size;
            slot_of[v.0 as usize] = Some(mf.scratch_bytes);
            mf.scratch_bytes += u32::from(size) * 4;
            total += u32::from(size);
        }
    }
    // Spill temporaries are numbered after the registers being spilled: never spilled here.
    let slot = |r: &RegRef| slot_of.get(r.vreg.0 as usize).copied().flatten();
    for b in 0..mf.blocks.len() {
        let old = std::mem::take(&mut mf.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        // The registers the previous instruction wrote (and that were just stored): a reader
        // right after it uses such a register instead of reloading.
        let mut fresh: Vec<(RegOp, RegRef)> = Vec::new();
        for mut mi in old {
            match vector_copy(&mi) {
                // A copy into a spilled value stores its source instead.
                Some((d, src))
                    if slot(&d.reg).is_some()
                        && slot(&src.reg).is_none()
                        && mf.info(src.reg.vreg).class == RegClass::V =>
                {
                    let at = slot(&d.reg).expect("guarded");
                    out.extend(move_insts(mf, true, src.reg, d.reg.vreg, d, at));
                    fresh = vec![(d, src.reg)];
                    continue;
                }
                // A copy out of one reloads straight into the destination.
                Some((d, src))
                    if slot(&src.reg).is_some()
                        && slot(&d.reg).is_none()
                        && !fresh.iter().any(|(f, _)| f.reg.vreg == src.reg.vreg) =>
                {
                    let at = slot(&src.reg).expect("guarded");
                    out.extend(move_insts(mf, false, d.reg, src.reg.vreg, src, at));
                    fresh.clear();
                    continue;
                }
                _ => {}
            }
            let mut after = Vec::new();
            let mut loaded = Vec::new();
            for u in mi.uses.iter_mut() {
                let Some(at) = slot(&u.reg) else { continue };
                let same = |(d, _): &&(RegOp, RegRef)| {
                    d.reg.vreg == u.reg.vreg && d.reg.off == u.reg.off && d.dwords == u.dwords
                };
                let t = match fresh.iter().find(same) {
                    Some(&(_, t)) => t,
                    None => reload(mf, &mut out, u.reg.vreg, *u, at),
                };
                loaded.push((*u, t));
                u.reg = t;
            }
            let mut written = Vec::new();
            for d in mi.defs.iter_mut() {
                let Some(at) = slot(&d.reg) else { continue };
                // A partial-lane write (DPP with kept lanes, v_writelane, a move under a
                // narrowed EXEC) names its destination as a use in the same field: it must
                // write the register its old value was loaded into, or the lanes it skips
                // would be stored from a register that never held them.
                // (An atomic compare-swap reads two dwords there and returns one.)
                let tied = loaded.iter().find(|(u, _)| {
                    u.slot == d.slot
                        && u.reg.vreg == d.reg.vreg
                        && u.reg.off == d.reg.off
                        && u.dwords >= d.dwords
                });
                let t = match tied {
                    Some(&(_, t)) => t,
                    None => temp(mf, RegClass::V, d.dwords),
                };
                after.extend(move_insts(mf, true, t, d.reg.vreg, *d, at));
                written.push((*d, t));
                d.reg = t;
            }
            fresh = written;
            out.push(mi);
            out.extend(after);
        }
        mf.blocks[b].insts = out;
    }
    total
}

/// A plain one-dword move between vector registers: (destination, source).
fn vector_copy(mi: &MInst) -> Option<(RegOp, RegOp)> {
    let ferrum_isa::Inst::Vop1(i) = &mi.inst else { return None };
    let plain = i.op == O::V_MOV_B32 && i.ext == ferrum_isa::Ext::None && mi.spill.is_none();
    match (mi.defs.as_slice(), mi.uses.as_slice()) {
        ([d], [s]) if plain && d.dwords == 1 && s.dwords == 1 && s.slot == Slot::Src0 => {
            Some((*d, *s))
        }
        _ => None,
    }
}

/// Loads the dwords `u` reads into a fresh register (instructions appended to `out`).
fn reload(mf: &mut MFunc, out: &mut Vec<MInst>, v: VReg, u: RegOp, slot: u32) -> RegRef {
    let t = temp(mf, RegClass::V, u.dwords);
    out.extend(move_insts(mf, false, t, v, u, slot));
    t
}

/// The store or load of `op`'s dwords of `v` through register `t` (plus an SGPR offset set-up
/// when the slot is beyond an immediate offset's reach).
fn move_insts(mf: &mut MFunc, store: bool, t: RegRef, v: VReg, op: RegOp, slot: u32) -> Vec<MInst> {
    let at = slot + u32::from(op.reg.off) * 4;
    let mut out = Vec::new();
    let (addr, imm) = if at <= MAX_IMM_OFFSET {
        (ScratchAddr::Imm, at as i16)
    } else {
        let s = mf.vreg(RegClass::S, 1);
        out.push(build::sop1(O::S_MOV_B32, s, Src::I(at), 1));
        (ScratchAddr::S(s), 0)
    };
    let dw = op.dwords;
    let mut mi = if store {
        build::scratch(store_op(dw), None, Some((t, dw)), addr, imm)
    } else {
        build::scratch(load_op(dw), Some((t, dw)), None, addr, imm)
    };
    mi.spill =
        Some(SpillMove { store, orig: v, off: op.reg.off, dwords: dw, slot: at, lane: false });
    out.push(mi);
    out
}

/// Moves scalar register `v` into lanes of a lane VGPR; returns its size in dwords.
pub fn spill_sgpr(mf: &mut MFunc, v: VReg) -> u32 {
    let size = u32::from(mf.info(v).size);
    if mf.lane_slots % 32 + size > 32 {
        mf.lane_slots = mf.lane_slots.next_multiple_of(32);
    }
    let slot = mf.lane_slots;
    mf.lane_slots += size;
    while mf.spill_lanes.len() < mf.lane_slots.div_ceil(32) as usize {
        let l = mf.vreg(RegClass::V, 1);
        mf.spill_lanes.push(l.vreg);
        mf.unspillable.insert(l.vreg);
    }
    let lanes = RegRef::new(mf.spill_lanes[(slot / 32) as usize]);
    for b in 0..mf.blocks.len() {
        let old = std::mem::take(&mut mf.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        for mut mi in old {
            let mut after = Vec::new();
            for u in mi.uses.iter_mut().filter(|u| u.reg.vreg == v) {
                let t = temp(mf, RegClass::S, u.dwords);
                out.extend(lane_moves(false, t, lanes, v, *u, slot));
                u.reg = t;
            }
            for d in mi.defs.iter_mut().filter(|d| d.reg.vreg == v) {
                let t = temp(mf, RegClass::S, d.dwords);
                after.extend(lane_moves(true, t, lanes, v, *d, slot));
                d.reg = t;
            }
            out.push(mi);
            out.extend(after);
        }
        mf.blocks[b].insts = out;
    }
    size
}

/// A spill temporary: live between its move and its reader or writer, never spilled itself.
fn temp(mf: &mut MFunc, class: RegClass, dwords: u8) -> RegRef {
    let t = mf.vreg(class, dwords);
    mf.unspillable.insert(t.vreg);
    t
}

/// One `v_writelane_b32` (store) or `v_readlane_b32` per dword of `op`, through `t`.
fn lane_moves(store: bool, t: RegRef, lanes: RegRef, v: VReg, op: RegOp, slot: u32) -> Vec<MInst> {
    (0..op.dwords)
        .map(|d| {
            let at = slot + u32::from(op.reg.off + d);
            let lane = Src::I(at % 32);
            let mut mi = if store {
                let srcs = [Src::R(t.at(d), RegClass::S), lane];
                let mut w = build::vop3(O::V_WRITELANE_B32, Some(lanes), None, &srcs, 0);
                // Only one lane changes: the others stay, so the old contents are read.
                w.uses.push(RegOp { slot: Slot::Vdst, reg: lanes, dwords: 1 });
                w
            } else {
                let mut r = build::readlane(t.at(d), lanes, lane);
                if d == 0 {
                    // The reloads together write all of `t`: the first one counts as its full
                    // definition, so liveness ends `t` here instead of at the program start.
                    r.defs[0].dwords = op.dwords;
                }
                r
            };
            let off = op.reg.off + d;
            mi.spill = Some(SpillMove { store, orig: v, off, dwords: 1, slot: at, lane: true });
            mi
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amd::isel_build::{vop1, vop2};
    use crate::amd::mir::MBlock;
    use crate::amd::regalloc::allocate;
    use crate::amd::regalloc_check::check;

    /// x = 1; y = x; z = y + x: spilling y stores x directly, spilling x then reloads it
    /// straight into y; no move is left and the checker follows both through memory.
    #[test]
    fn copies_into_and_out_of_spilled_values_go_through_the_slot() {
        let mut mf = MFunc::default();
        let [x, y, z] = [0; 3].map(|_| mf.vreg(RegClass::V, 1));
        let v = |r| Src::R(r, RegClass::V);
        let insts = vec![
            vop1(O::V_MOV_B32, x, Src::I(1)),
            vop1(O::V_MOV_B32, y, v(x)),
            vop2(O::V_ADD_NC_U32, z, v(y), v(x)),
        ];
        mf.blocks.push(MBlock { insts });
        spill(&mut mf, y.vreg);
        let is_move = |mi: &MInst| vector_copy(mi).is_some();
        assert!(!mf.blocks[0].insts.iter().any(is_move));
        let store = mf.blocks[0].insts.iter().find(|mi| mi.spill.is_some_and(|s| s.store));
        assert_eq!(store.unwrap().uses[0].reg, x, "the store reads x itself");
        check(&mf, &allocate(&mf).unwrap()).unwrap();

        let mut mf2 = MFunc::default();
        let [x, y, z] = [0; 3].map(|_| mf2.vreg(RegClass::V, 1));
        let insts = vec![
            vop1(O::V_MOV_B32, x, Src::I(1)),
            vop1(O::V_MOV_B32, z, Src::I(2)),
            vop1(O::V_MOV_B32, y, v(x)),
            vop2(O::V_ADD_NC_U32, z, v(y), v(z)),
        ];
        mf2.blocks.push(MBlock { insts });
        spill(&mut mf2, x.vreg);
        assert!(!mf2.blocks[0].insts.iter().any(is_move));
        let load = mf2.blocks[0].insts.iter().find(|mi| mi.spill.is_some_and(|s| !s.store));
        assert_eq!(load.unwrap().defs[0].reg, y, "the reload writes y itself");
        check(&mf2, &allocate(&mf2).unwrap()).unwrap();
    }
}
