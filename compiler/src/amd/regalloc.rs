//! Register allocation: linear scan over live intervals in layout order, one pass per register
//! file, honouring SGPR pair/quad alignment and the ABI's pinned input registers. Afterwards
//! every register field of every instruction is patched with its physical register.
//!
//! Intervals are single ranges over the layout (no holes), which is conservative for lowered
//! control flow and keeps the allocator simple. When a register file runs out the
//! allocation fails with [`BackendError::OutOfRegisters`]; spilling is not implemented.

use ferrum_isa::Operand;

use super::abi;
use super::error::BackendError;
use super::liveness::intervals;
use super::mir::{patch, MFunc, RegClass};

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

/// Allocates registers; does not modify `mf`.
pub fn allocate(mf: &MFunc) -> Result<Assignment, BackendError> {
    let iv = intervals(mf);
    let mut order: Vec<usize> = (0..mf.vregs.len()).filter(|&v| iv[v].is_some()).collect();
    order.sort_by_key(|&v| (iv[v].map_or(0, |i| i.0), mf.vregs[v].fixed.is_none(), v));
    let mut reg = vec![u8::MAX; mf.vregs.len()];
    // busy[class][r] = last instruction index occupying r, or None.
    let mut busy_s: Vec<Option<usize>> = vec![None; abi::MAX_SGPRS as usize];
    let mut busy_v: Vec<Option<usize>> = vec![None; abi::MAX_VGPRS as usize];
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
            return Err(BackendError::OutOfRegisters(match info.class {
                RegClass::S => "scalar",
                RegClass::V => "vector",
            }));
        };
        busy[r..r + size].fill(Some(end));
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
