//! Machine IR: real RDNA2 instructions ([`ferrum_isa::Inst`]) whose register fields are filled
//! in from virtual registers after allocation.
//!
//! Instruction selection builds each instruction with placeholder registers and records, per
//! register field ([`Slot`]), which virtual register range it reads or writes. Register
//! allocation then only has to patch those fields, and every later pass (waitcnt, hazards,
//! encoding) works on plain `isa` instructions, with the `isa` crate's own tables answering
//! what each instruction does.

use ferrum_isa::{Inst, Operand};

/// Register file of a virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegClass {
    /// Scalar registers (one value per wave).
    S,
    /// Vector registers (one value per lane).
    V,
}

/// A virtual register: a range of `size` consecutive dwords of one class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

/// What allocation needs to know about a virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VRegInfo {
    /// Register file.
    pub class: RegClass,
    /// Dwords.
    pub size: u8,
    /// Required alignment of the first register (SGPR pairs and quads).
    pub align: u8,
    /// A register the value must live in (shader inputs).
    pub fixed: Option<u8>,
}

/// Dword `off` (and following) of a virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegRef {
    /// The register.
    pub vreg: VReg,
    /// First dword.
    pub off: u8,
}

impl RegRef {
    /// Dword 0 of `vreg`.
    pub fn new(vreg: VReg) -> Self {
        RegRef { vreg, off: 0 }
    }

    /// Dword `i` further on.
    pub fn at(self, i: u8) -> Self {
        RegRef { vreg: self.vreg, off: self.off + i }
    }
}

/// A register field of an instruction (which field depends on the family).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Slot {
    Sdst,
    Ssrc0,
    Ssrc1,
    Vdst,
    Vop3Sdst,
    Src0,
    Src1,
    Src2,
    Vsrc1,
    Sdata,
    Sbase,
    Soffset,
    DsAddr,
    DsData0,
    DsData1,
    DsVdst,
    Vdata,
    Vaddr,
    Srsrc,
    Ssamp,
    FlatVdst,
    FlatAddr,
    FlatData,
    Saddr,
    /// Source `n` of an export.
    ExpSrc(u8),
}

/// A register operand of a machine instruction: field, register range, dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegOp {
    /// Field.
    pub slot: Slot,
    /// Register range.
    pub reg: RegRef,
    /// Dwords covered.
    pub dwords: u8,
}

/// One machine instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct MInst {
    /// The instruction, with placeholder registers in the recorded slots.
    pub inst: Inst,
    /// Registers written.
    pub defs: Vec<RegOp>,
    /// Registers read.
    pub uses: Vec<RegOp>,
    /// Branch target block, for branches.
    pub target: Option<usize>,
    /// For spill stores and reloads: which value moves through which scratch slot (what the
    /// register-allocation checker follows through memory).
    pub spill: Option<SpillMove>,
}

/// A spill store or reload: dwords `off..off + dwords` of virtual register `orig` to or from
/// private byte `slot` (+ 4 per dword).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpillMove {
    /// Store (true) or reload.
    pub store: bool,
    /// The spilled register.
    pub orig: VReg,
    /// First dword of `orig` moved.
    pub off: u8,
    /// Dwords moved.
    pub dwords: u8,
    /// Byte offset of dword `off` in private memory; for scalar spills, the lane slot
    /// (32 per lane VGPR, in [`MFunc::spill_lanes`] order).
    pub slot: u32,
    /// A scalar spill into a lane of a VGPR (`v_writelane`/`v_readlane`).
    pub lane: bool,
}

/// A machine basic block (in final layout order; falls through to the next one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MBlock {
    /// Instructions.
    pub insts: Vec<MInst>,
}

/// A machine function: blocks in layout order and virtual register descriptions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MFunc {
    /// Blocks; control enters block 0.
    pub blocks: Vec<MBlock>,
    /// Virtual registers.
    pub vregs: Vec<VRegInfo>,
    /// Private memory per lane in the scratch ring, in bytes (private data, then spill slots).
    pub scratch_bytes: u32,
    /// The prologue points FLAT_SCRATCH at the ring, so the ABI's scratch inputs are used.
    pub scratch_inputs: bool,
    /// VGPRs whose lanes hold spilled SGPRs (never spilled themselves).
    pub spill_lanes: Vec<VReg>,
    /// Lane slots used in `spill_lanes`.
    pub lane_slots: u32,
    /// Registers the spiller must not choose (lane VGPRs, spill temporaries).
    pub unspillable: std::collections::BTreeSet<VReg>,
    /// What a vertex or pixel shader exports and reads (see [`crate::amd::isel::io`]).
    pub gfx: crate::amd::isel::io::Exported,
}

impl MFunc {
    /// A fresh virtual register.
    pub fn vreg(&mut self, class: RegClass, size: u8) -> RegRef {
        let align = match (class, size) {
            (RegClass::S, 2) => 2,
            (RegClass::S, s) if s >= 4 => 4,
            _ => 1,
        };
        self.vregs.push(VRegInfo { class, size, align, fixed: None });
        RegRef::new(VReg(self.vregs.len() as u32 - 1))
    }

    /// Info of `v`.
    pub fn info(&self, v: VReg) -> VRegInfo {
        self.vregs[v.0 as usize]
    }

    /// Successor blocks of block `b` in the machine CFG (branch targets and fall-through).
    pub fn succs(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut falls = true;
        for mi in &self.blocks[b].insts {
            if let Some(t) = mi.target {
                out.push(t);
                if mi.inst.op() == ferrum_isa::Opcode::S_BRANCH {
                    falls = false;
                }
            }
            if mi.inst.op() == ferrum_isa::Opcode::S_ENDPGM {
                falls = false;
            }
        }
        if falls && b + 1 < self.blocks.len() {
            out.push(b + 1);
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Writes a physical operand into one field of `inst`.
pub fn patch(inst: &mut Inst, slot: Slot, op: Operand) {
    let vnum = match op {
        Operand::Vgpr(n) => n,
        Operand::Sgpr(n) => n,
        _ => 0,
    };
    match (inst, slot) {
        (Inst::Sop2(i), Slot::Sdst) => i.sdst = op,
        (Inst::Sop2(i), Slot::Ssrc0) => i.ssrc0 = op,
        (Inst::Sop2(i), Slot::Ssrc1) => i.ssrc1 = op,
        (Inst::Sop1(i), Slot::Sdst) => i.sdst = op,
        (Inst::Sop1(i), Slot::Ssrc0) => i.ssrc0 = op,
        (Inst::Sopk(i), Slot::Sdst) => i.sdst = op,
        (Inst::Sopc(i), Slot::Ssrc0) => i.ssrc0 = op,
        (Inst::Sopc(i), Slot::Ssrc1) => i.ssrc1 = op,
        (Inst::Smem(i), Slot::Sdata) => i.sdata = op,
        (Inst::Smem(i), Slot::Sbase) => i.sbase = vnum,
        (Inst::Smem(i), Slot::Soffset) => i.soffset = op,
        (Inst::Vop1(i), Slot::Vdst) => i.vdst = op,
        (Inst::Vop1(i), Slot::Src0) => i.src0 = op,
        (Inst::Vop2(i), Slot::Vdst) => i.vdst = vnum,
        (Inst::Vop2(i), Slot::Src0) => i.src0 = op,
        (Inst::Vop2(i), Slot::Vsrc1) => i.vsrc1 = vnum,
        (Inst::Vopc(i), Slot::Src0) => i.src0 = op,
        (Inst::Vopc(i), Slot::Vsrc1) => i.vsrc1 = vnum,
        (Inst::Vop3(i), Slot::Vdst) => i.vdst = op,
        (Inst::Vop3(i), Slot::Vop3Sdst) => i.sdst = op,
        (Inst::Vop3(i), Slot::Src0) => i.src[0] = op,
        (Inst::Vop3(i), Slot::Src1) => i.src[1] = op,
        (Inst::Vop3(i), Slot::Src2) => i.src[2] = op,
        (Inst::Ds(i), Slot::DsAddr) => i.addr = vnum,
        (Inst::Ds(i), Slot::DsData0) => i.data0 = vnum,
        (Inst::Ds(i), Slot::DsData1) => i.data1 = vnum,
        (Inst::Ds(i), Slot::DsVdst) => i.vdst = vnum,
        (Inst::Mubuf(i), Slot::Vdata) => i.vdata = vnum,
        (Inst::Mubuf(i), Slot::Vaddr) => i.vaddr = vnum,
        (Inst::Mubuf(i), Slot::Srsrc) => i.srsrc = vnum,
        (Inst::Mubuf(i), Slot::Soffset) => i.soffset = op,
        (Inst::Mimg(i), Slot::Vdata) => i.vdata = vnum,
        (Inst::Mimg(i), Slot::Vaddr) => i.vaddr[0] = vnum,
        (Inst::Mimg(i), Slot::Srsrc) => i.srsrc = vnum,
        (Inst::Mimg(i), Slot::Ssamp) => i.ssamp = vnum,
        (Inst::Flat(i), Slot::FlatVdst) => i.vdst = vnum,
        (Inst::Flat(i), Slot::FlatAddr) => i.addr = vnum,
        (Inst::Flat(i), Slot::FlatData) => i.data = vnum,
        (Inst::Flat(i), Slot::Saddr) => i.saddr = op,
        (Inst::Exp(i), Slot::ExpSrc(k)) => i.src[usize::from(k)] = vnum,
        (Inst::Vintrp(i), Slot::Vdst) => i.vdst = vnum,
        (Inst::Vintrp(i), Slot::Vsrc1) => i.vsrc = vnum,
        (i, s) => panic!("slot {s:?} does not exist in {:?}", i.op().name()),
    }
}
