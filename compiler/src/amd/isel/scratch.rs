//! Private memory (temporaries that `lower_vars_to_ssa` could not promote because they are
//! indexed dynamically): small ones live in VGPRs, one per dword, where a dynamic index
//! becomes a select chain; larger ones live in the scratch ring, reached with `scratch_*`
//! instructions, because a chain costs two instructions per dword on every access.
//!
//! Memory-resident private data needs the ABI's scratch inputs ([`crate::amd::abi::UserSgprs`]):
//! the prologue points FLAT_SCRATCH at this wave's slot of the ring (ring base + the SPI's wave
//! offset, written with `s_setreg` since GFX10 has no FLAT_SCRATCH SGPRs) and zeroes the
//! memory, so reads before writes agree with the VGPR form and with the IR interpreter.

use ferrum_isa::Opcode as O;

use super::build::{self, ScratchAddr, Src};
use super::{Isel, MVal};
use crate::amd::error::{unsupported, BackendError};
use crate::amd::mir::{RegClass, RegRef};
use crate::ir::ops::AluOp;
use crate::ir::{InstKind, Shader, Space};

/// Most private dwords kept in VGPRs; larger private data goes to the scratch ring. RADV
/// draws the line at 256 bytes (`nir_lower_vars_to_scratch` with a 256-byte threshold in
/// `ac_nir_lower_indirect_derefs`, if-ladders below it), but here 64 dwords in VGPRs cost
/// more instructions than the ring (measured on FS_DOUBLES, VS_SCRATCH, scratch.vert: +40 to
/// +80): the prologue zero-fills every dword and constant-index writes copy into the range
/// (the coalescer does not merge a value into part of a register range). Raise it when those
/// two are gone.
pub const MAX_VGPR_DWORDS: u32 = 16;

/// Largest immediate offset of a GFX10 scratch instruction (signed 12 bits).
pub(crate) const MAX_IMM_OFFSET: u32 = 2047;

/// HW_REG_FLAT_SCR_LO / HI (`s_setreg` ids on GFX10).
const HW_REG_FLAT_SCR_LO: u16 = 20;
const HW_REG_FLAT_SCR_HI: u16 = 21;

/// True if `shader`'s private data lives in the scratch ring rather than in VGPRs: when it is
/// large, or when any of it is accessed as 8- or 16-bit values. The VGPR form holds one dword
/// per register and addresses whole dwords, so a narrow value at a byte offset inside a dword
/// would read or overwrite its neighbours; memory has byte and short accesses.
pub fn in_memory(shader: &Shader) -> bool {
    shader.scratch_size.div_ceil(4) > MAX_VGPR_DWORDS || narrow_private(shader)
}

fn narrow_private(shader: &Shader) -> bool {
    shader.funcs.iter().any(|f| {
        f.blocks.iter().flat_map(|b| &b.insts).any(|i| {
            let v = match i.kind {
                InstKind::MemLoad { space: Space::Scratch, .. } => i.dst,
                InstKind::MemStore { space: Space::Scratch, value, .. } => Some(value),
                _ => None,
            };
            v.is_some_and(|v| matches!(f.ty(v).shape().0, 8 | 16))
        })
    })
}

pub(crate) fn load_op(dw: u8) -> O {
    match dw {
        1 => O::SCRATCH_LOAD_DWORD,
        2 => O::SCRATCH_LOAD_DWORDX2,
        3 => O::SCRATCH_LOAD_DWORDX3,
        _ => O::SCRATCH_LOAD_DWORDX4,
    }
}

pub(crate) fn store_op(dw: u8) -> O {
    match dw {
        1 => O::SCRATCH_STORE_DWORD,
        2 => O::SCRATCH_STORE_DWORDX2,
        3 => O::SCRATCH_STORE_DWORDX3,
        _ => O::SCRATCH_STORE_DWORDX4,
    }
}

/// The access of one 8- or 16-bit private value in memory (the caller splits narrow vectors
/// into components, `isel::mem`): a byte or short load (zero-extended) or store, so a store
/// never writes its neighbours. `None` for 32-bit data and wider.
fn narrow_op(bits: u8, load: bool) -> Option<O> {
    Some(match (bits, load) {
        (8, true) => O::SCRATCH_LOAD_UBYTE,
        (16, true) => O::SCRATCH_LOAD_USHORT,
        (8, false) => O::SCRATCH_STORE_BYTE,
        (16, false) => O::SCRATCH_STORE_SHORT,
        _ => return None,
    })
}

impl Isel<'_> {
    /// Sets up private memory in the prologue: zeroed VGPRs, or FLAT_SCRATCH and a zeroed
    /// slot of the scratch ring.
    pub(super) fn init_scratch(&mut self) -> Result<(), BackendError> {
        let dwords = self.shader.scratch_size.div_ceil(4);
        if let Some((ring, wave_off)) = self.inputs.scratch {
            self.init_flat_scratch(ring, wave_off);
        }
        if !self.private_in_memory {
            if dwords == 0 {
                return Ok(());
            }
            // One register range, so that `v_movrels`/`v_movreld` can index it.
            let r = self.vreg(RegClass::V, dwords as u8);
            for k in 0..dwords as u8 {
                self.mf.blocks[0].insts.push(build::vop1(O::V_MOV_B32, r.at(k), Src::I(0)));
                self.scratch.push(r.at(k));
            }
            return Ok(());
        }
        self.mf.scratch_bytes = dwords * 4;
        let zero = self.vreg(RegClass::V, 4);
        let pro = (0..4).map(|i| build::vop1(O::V_MOV_B32, zero.at(i), Src::I(0)));
        self.mf.blocks[0].insts.extend(pro);
        for at in (0..dwords).step_by(4) {
            let dw = (dwords - at).min(4) as u8;
            let (addr, off) = self.scratch_addr_in(0, MVal::Const(u64::from(at) * 4), 0)?;
            let st = build::scratch(store_op(dw), None, Some((zero, dw)), addr, off);
            self.mf.blocks[0].insts.push(st);
        }
        Ok(())
    }

    /// FLAT_SCRATCH = ring base + this wave's offset (GFX10 sets it with `s_setreg`).
    fn init_flat_scratch(&mut self, ring: RegRef, wave_off: RegRef) {
        self.mf.scratch_inputs = true;
        let base = self.vreg(RegClass::S, 2);
        let pro = [
            build::sop2(
                O::S_ADD_U32,
                Some(base),
                Src::R(ring, RegClass::S),
                Src::R(wave_off, RegClass::S),
                1,
            ),
            build::sop2(
                O::S_ADDC_U32,
                Some(base.at(1)),
                Src::R(ring.at(1), RegClass::S),
                Src::I(0),
                1,
            ),
            build::setreg(HW_REG_FLAT_SCR_LO, base),
            build::setreg(HW_REG_FLAT_SCR_HI, base.at(1)),
        ];
        self.mf.blocks[0].insts.extend(pro);
    }

    /// Address operand and immediate offset for private byte `off` + `extra`, with any
    /// address arithmetic placed in block `blk`.
    fn scratch_addr_in(
        &mut self,
        blk: usize,
        off: MVal,
        extra: u32,
    ) -> Result<(ScratchAddr, i16), BackendError> {
        Ok(match off {
            MVal::Const(c) if c + u64::from(extra) <= u64::from(MAX_IMM_OFFSET) => {
                (ScratchAddr::Imm, (c as u32 + extra) as i16)
            }
            MVal::Const(c) => {
                let s = self.vreg(RegClass::S, 1);
                let at = (c as u32).wrapping_add(extra);
                self.mf.blocks[blk].insts.push(build::sop1(O::S_MOV_B32, s, Src::I(at), 1));
                (ScratchAddr::S(s), 0)
            }
            MVal::Reg(r, RegClass::S) => (ScratchAddr::S(r), extra as i16),
            MVal::Reg(r, RegClass::V) => (ScratchAddr::V(r), extra as i16),
            MVal::Res(_) => return Err(unsupported("a descriptor as a private address")),
        })
    }

    /// `total` dwords of private data at byte offset `off`.
    pub(super) fn scratch_load(
        &mut self,
        off: MVal,
        total: u8,
        bits: u8,
    ) -> Result<Vec<MVal>, BackendError> {
        if !self.private_in_memory {
            if !matches!(off, MVal::Const(_)) {
                if let Some(vals) = self.indexed_read(off, total)? {
                    return Ok(vals);
                }
            }
            return (0..total).map(|j| self.scratch_read(off, j)).collect();
        }
        if let Some(op) = narrow_op(bits, true) {
            let r = self.vreg(RegClass::V, 1);
            let (addr, o) = self.scratch_addr_in(self.cur, off, 0)?;
            self.emit(build::scratch(op, Some((r, 1)), None, addr, o));
            return Ok(vec![MVal::Reg(r, RegClass::V)]);
        }
        let mut out = Vec::new();
        for at in (0..total).step_by(4) {
            let dw = (total - at).min(4);
            let r = self.vreg(RegClass::V, dw);
            let (addr, o) = self.scratch_addr_in(self.cur, off, u32::from(at) * 4)?;
            self.emit(build::scratch(load_op(dw), Some((r, dw)), None, addr, o));
            out.extend((0..dw).map(|i| MVal::Reg(r.at(i), RegClass::V)));
        }
        Ok(out)
    }

    /// Stores VGPRs `data` (`dw` dwords) as private data at byte offset `off` + `byte`.
    pub(super) fn scratch_store(
        &mut self,
        off: MVal,
        byte: u32,
        data: RegRef,
        dw: u8,
        bits: u8,
    ) -> Result<(), BackendError> {
        if !self.private_in_memory {
            if !matches!(off, MVal::Const(_)) && self.indexed_write(off, byte, data, dw)? {
                return Ok(());
            }
            let off = match off {
                MVal::Const(c) => MVal::Const(c + u64::from(byte)),
                o if byte == 0 => o,
                o => {
                    self.alu_comp(AluOp::Iadd, 32, 32, &[o, MVal::Const(u64::from(byte))], false)?
                }
            };
            for j in 0..dw {
                self.scratch_write(off, j, data.at(j))?;
            }
            return Ok(());
        }
        let op = narrow_op(bits, false).unwrap_or(store_op(dw));
        let (addr, o) = self.scratch_addr_in(self.cur, off, byte)?;
        self.emit(build::scratch(op, None, Some((data, dw)), addr, o));
        Ok(())
    }

    /// Dword `j` of the VGPR-resident private value at byte offset `off`, copied out.
    fn scratch_read(&mut self, off: MVal, j: u8) -> Result<MVal, BackendError> {
        let r = self.vreg(RegClass::V, 1);
        if let MVal::Const(c) = off {
            let k = c as usize / 4 + j as usize;
            let src =
                *self.scratch.get(k).ok_or_else(|| unsupported("scratch access out of range"))?;
            self.emit(build::vop1(O::V_MOV_B32, r, Src::R(src, RegClass::V)));
            return Ok(MVal::Reg(r, RegClass::V));
        }
        self.emit(build::vop1(O::V_MOV_B32, r, Src::I(0)));
        for k in j as usize..self.scratch.len() {
            let m = self.compare(
                AluOp::Ieq,
                32,
                &[off, MVal::Const(4 * (k - j as usize) as u64)],
                false,
            )?;
            let src = self.scratch[k];
            let ms = self.src(m)?;
            let srcs = [Src::R(r, RegClass::V), Src::R(src, RegClass::V), ms];
            self.emit(build::vop3(O::V_CNDMASK_B32, Some(r), None, &srcs, 0));
        }
        Ok(MVal::Reg(r, RegClass::V))
    }

    /// Writes VGPR `data` as dword `j` of the VGPR-resident private value at byte offset `off`.
    fn scratch_write(&mut self, off: MVal, j: u8, data: RegRef) -> Result<(), BackendError> {
        if let MVal::Const(c) = off {
            let k = c as usize / 4 + j as usize;
            let dst =
                *self.scratch.get(k).ok_or_else(|| unsupported("scratch access out of range"))?;
            self.emit(build::vop1(O::V_MOV_B32, dst, Src::R(data, RegClass::V)));
            return Ok(());
        }
        for k in j as usize..self.scratch.len() {
            let m = self.compare(
                AluOp::Ieq,
                32,
                &[off, MVal::Const(4 * (k - j as usize) as u64)],
                false,
            )?;
            let dst = self.scratch[k];
            let ms = self.src(m)?;
            let srcs = [Src::R(dst, RegClass::V), Src::R(data, RegClass::V), ms];
            self.emit(build::vop3(O::V_CNDMASK_B32, Some(dst), None, &srcs, 0));
        }
        Ok(())
    }
}
