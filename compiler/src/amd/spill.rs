//! Spilling vector registers to scratch: when the vector file runs out, the value the
//! allocator names ([`super::regalloc::try_allocate`]) is moved to a slot of private memory.
//! Every write of it becomes a write of a fresh register followed by a `scratch_store`, every
//! read a `scratch_load` into a fresh register just before the reader, so the value occupies
//! no register between its accesses and the new registers live for one instruction.
//!
//! Scratch stores and loads honour EXEC like the instructions they accompany, so a slot
//! behaves exactly like the register it replaces: lanes that a masked write skips keep their
//! older contents. Each move records a [`SpillMove`] that the allocation checker follows
//! through memory. Slots follow the private data in the scratch ring, so spilling needs the
//! ABI's scratch inputs: the first failure selects the function again with them
//! ([`super::isel::select_with`]) before spilling starts.

use ferrum_isa::Opcode as O;

use super::error::BackendError;
use super::isel::build::{self, ScratchAddr, Src};
use super::isel::scratch::{load_op, store_op, MAX_IMM_OFFSET};
use super::mir::{MFunc, MInst, RegClass, RegOp, RegRef, SpillMove, VReg};
use super::regalloc::{try_allocate, Assignment};
use super::{isel, opt_dce};
use crate::amd::abi::ResourceLayout;
use crate::ir::Shader;

/// Spilled values at most (each round re-runs liveness; a shader needing more is refused).
const MAX_SPILLS: u32 = 2048;

/// Selected, allocated code and the vector dwords spilled.
pub struct Allocated {
    /// Machine code (with spill code).
    pub mf: MFunc,
    /// Its registers.
    pub alloc: Assignment,
    /// Vector dwords moved to scratch.
    pub spilled_vgprs: u32,
}

/// Instruction selection and register allocation, spilling vector values when needed.
pub fn select_and_allocate(
    shader: &Shader,
    layout: &ResourceLayout,
) -> Result<Allocated, BackendError> {
    let mut mf = isel::select(shader, layout)?;
    opt_dce::opt_dce(&mut mf);
    match try_allocate(&mf) {
        Ok(alloc) => return Ok(Allocated { mf, alloc, spilled_vgprs: 0 }),
        Err(f) if f.spill.is_none() => return Err(f.into()),
        Err(_) => {}
    }
    let mut mf = isel::select_with(shader, layout, true)?;
    opt_dce::opt_dce(&mut mf);
    let mut spilled = 0u32;
    for _ in 0..MAX_SPILLS {
        match try_allocate(&mf) {
            Ok(alloc) => return Ok(Allocated { mf, alloc, spilled_vgprs: spilled }),
            Err(f) => match f.spill {
                Some(v) => spilled += spill(&mut mf, v),
                None => return Err(f.into()),
            },
        }
    }
    Err(BackendError::OutOfRegisters("vector"))
}

/// Moves vector register `v` to a fresh scratch slot; returns its size in dwords.
pub fn spill(mf: &mut MFunc, v: VReg) -> u32 {
    let size = mf.info(v).size;
    let slot = mf.scratch_bytes;
    mf.scratch_bytes += u32::from(size) * 4;
    for b in 0..mf.blocks.len() {
        let old = std::mem::take(&mut mf.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        for mut mi in old {
            let mut after = Vec::new();
            for u in mi.uses.iter_mut().filter(|u| u.reg.vreg == v) {
                let t = reload(mf, &mut out, v, *u, slot);
                u.reg = t;
            }
            for d in mi.defs.iter_mut().filter(|d| d.reg.vreg == v) {
                let t = mf.vreg(RegClass::V, d.dwords);
                after.extend(move_insts(mf, true, t, v, *d, slot));
                d.reg = t;
            }
            out.push(mi);
            out.extend(after);
        }
        mf.blocks[b].insts = out;
    }
    u32::from(size)
}

/// Loads the dwords `u` reads into a fresh register (instructions appended to `out`).
fn reload(mf: &mut MFunc, out: &mut Vec<MInst>, v: VReg, u: RegOp, slot: u32) -> RegRef {
    let t = mf.vreg(RegClass::V, u.dwords);
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
    mi.spill = Some(SpillMove { store, orig: v, off: op.reg.off, dwords: dw, slot: at });
    out.push(mi);
    out
}
