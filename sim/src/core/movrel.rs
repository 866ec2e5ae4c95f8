//! M0-relative VGPR moves (`v_movrels_b32`, `v_movreld_b32`, `v_movrelsd_b32`,
//! `v_movrelsd_2_b32`): a `v_mov_b32` whose source and/or destination register number is
//! offset by an index in M0 (the ISA guide's "VGPR indexing": D = VGPR[dst + M0] or
//! VGPR[src + M0]; `_2` takes the source index from M0[9:0] and the destination index from
//! M0[25:16]). Compilers keep dynamically indexed private arrays in VGPRs with them.
//!
//! Out of range (the indexed register is past the wave's VGPR allocation) follows the ISA
//! guide's out-of-range rule for VGPRs: a source reads v0 and a destination write is
//! dropped. The host never indexes past its register file.

use ferrum_isa::{Opcode, Operand};

use super::valu::Valu;
use super::wave::{fault, Wave, M0, R};

/// For an M0-relative move: `Some(Some(mov))`, the plain `v_mov_b32` it performs now (registers
/// resolved with the current M0), or `Some(None)` when its destination is out of range. `None`
/// for every other instruction.
pub(super) fn relocate(w: &Wave, v: &Valu) -> R<Option<Option<Valu>>> {
    let m0 = w.s[M0];
    let (src_idx, dst_idx) = match v.op {
        Opcode::V_MOVRELS_B32 => (Some(m0), None),
        Opcode::V_MOVRELD_B32 => (None, Some(m0)),
        Opcode::V_MOVRELSD_B32 => (Some(m0), Some(m0)),
        Opcode::V_MOVRELSD_2_B32 => (Some(m0 & 0x3ff), Some(m0 >> 16 & 0x3ff)),
        _ => return Ok(None),
    };
    let allocated = w.v.len() as u64;
    let mut mov = *v;
    mov.op = Opcode::V_MOV_B32;
    if let Some(i) = src_idx {
        let Operand::Vgpr(s) = v.src[0] else {
            return fault(format!("{} with a non-VGPR source", v.op.name()));
        };
        let r = u64::from(s) + u64::from(i);
        mov.src[0] = Operand::Vgpr(if r < allocated { r as u8 } else { 0 });
    }
    if let Some(i) = dst_idx {
        let Operand::Vgpr(d) = v.vdst else {
            return fault(format!("{} with a non-VGPR destination", v.op.name()));
        };
        let r = u64::from(d) + u64::from(i);
        if r >= allocated {
            return Ok(Some(None));
        }
        mov.vdst = Operand::Vgpr(r as u8);
    }
    Ok(Some(Some(mov)))
}
