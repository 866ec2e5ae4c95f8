//! Instruction builders: each makes one `isa` instruction with placeholder registers and the
//! slot list register allocation patches. Operand legality (which fields take VGPRs, scalar
//! registers or literals) is decided here, once.

use ferrum_isa::{
    Buffer, Ds, Ext, Flat, Inst, Opcode, Operand, Seg, Smem, Sop1, Sop2, Sopc, Sopk, Sopp, Special,
    Vop1, Vop2, Vop3,
};

use crate::amd::mir::{MInst, RegClass, RegOp, RegRef, Slot};

/// A source operand before allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// One dword of a virtual register (or `dwords` of them, where the field is wider).
    R(RegRef, RegClass),
    /// A 32-bit immediate (inline constant or literal).
    I(u32),
    /// A fixed hardware operand (exec, vcc, null).
    Fixed(Operand),
}

/// EXEC as an operand.
pub const EXEC: Src = Src::Fixed(Operand::Special(Special::ExecLo));

/// The operand for a 32-bit immediate: an inline integer or float constant when one has
/// these bits (for 32-bit operands a float inline constant is its single-precision pattern,
/// whatever the instruction's type), else a literal.
pub fn imm(v: u32) -> Operand {
    use ferrum_isa::FloatConst as F;
    let i = v as i32;
    if (-16..=64).contains(&i) {
        return Operand::Int(i as i8);
    }
    let f = match v {
        0x3f00_0000 => F::Half,
        0xbf00_0000 => F::NegHalf,
        0x3f80_0000 => F::One,
        0xbf80_0000 => F::NegOne,
        0x4000_0000 => F::Two,
        0xc000_0000 => F::NegTwo,
        0x4080_0000 => F::Four,
        0xc080_0000 => F::NegFour,
        0x3e22_f983 => F::InvTwoPi,
        _ => return Operand::Literal(v),
    };
    Operand::Float(f)
}

/// An immediate feeding a 16-bit float operand: an inline constant where the value is one
/// there (the half-precision patterns of 0.5, 1, 2, 4 of either sign and 1/(2π), or a 16-bit
/// integer in -16..=64), so that it takes no constant-bus slot; else a literal.
pub fn half_imm(v: u16) -> Src {
    match ferrum_isa::half_operand(v, true) {
        Operand::Literal(_) => Src::I(u32::from(v)),
        inline => Src::Fixed(inline),
    }
}

impl Src {
    /// True if the operand is a VGPR.
    pub fn is_v(self) -> bool {
        matches!(self, Src::R(_, RegClass::V))
    }

    /// True if the operand reads the scalar constant bus (SGPR or literal).
    pub fn uses_const_bus(self) -> bool {
        match self {
            Src::R(_, RegClass::S) => true,
            Src::I(v) => matches!(imm(v), Operand::Literal(_)),
            Src::Fixed(op) => !matches!(op, Operand::Int(_) | Operand::Float(_)),
            Src::R(_, RegClass::V) => false,
        }
    }
}

/// Builds an [`MInst`] incrementally.
pub struct B {
    mi: MInst,
}

impl B {
    /// Starts from `inst`.
    pub fn new(inst: Inst) -> Self {
        B { mi: MInst { inst, defs: Vec::new(), uses: Vec::new(), target: None, spill: None } }
    }

    /// Records a register written through `slot`.
    pub fn def(mut self, slot: Slot, reg: RegRef, dwords: u8) -> Self {
        self.mi.defs.push(RegOp { slot, reg, dwords });
        self
    }

    /// Records a register read through `slot`.
    pub fn use_(mut self, slot: Slot, reg: RegRef, dwords: u8) -> Self {
        self.mi.uses.push(RegOp { slot, reg, dwords });
        self
    }

    /// Records `src` in `slot` if it is a register; returns the placeholder operand.
    fn src(&mut self, slot: Slot, src: Src, dwords: u8) -> Operand {
        match src {
            Src::R(r, class) => {
                self.mi.uses.push(RegOp { slot, reg: r, dwords });
                match class {
                    RegClass::S => Operand::Sgpr(0),
                    RegClass::V => Operand::Vgpr(0),
                }
            }
            Src::I(v) => imm(v),
            Src::Fixed(op) => op,
        }
    }

    /// The instruction. Literals on 16-bit sources become the inline constant with the same
    /// low half where there is one, as the assembler would encode the listing.
    pub fn done(mut self) -> MInst {
        self.mi.inst.fold_half_immediates();
        self.mi
    }
}

/// SOP2 `dst = op(a, b)` over `dw` dwords.
pub fn sop2(op: Opcode, dst: Option<RegRef>, a: Src, b: Src, dw: u8) -> MInst {
    let mut bld = B::new(Inst::Sop2(Sop2 {
        op,
        sdst: Operand::Special(Special::Null),
        ssrc0: Operand::UNUSED,
        ssrc1: Operand::UNUSED,
    }));
    let s0 = bld.src(Slot::Ssrc0, a, dw);
    let s1 = bld.src(Slot::Ssrc1, b, dw);
    if let Inst::Sop2(i) = &mut bld.mi.inst {
        i.ssrc0 = s0;
        i.ssrc1 = s1;
        if dst.is_some() {
            i.sdst = Operand::Sgpr(0);
        }
    }
    match dst {
        Some(d) => bld.def(Slot::Sdst, d, dw).done(),
        None => bld.done(),
    }
}

/// SOP1 `dst = op(a)`.
pub fn sop1(op: Opcode, dst: RegRef, a: Src, dw: u8) -> MInst {
    let mut bld = B::new(Inst::Sop1(Sop1 { op, sdst: Operand::Sgpr(0), ssrc0: Operand::UNUSED }));
    let s0 = bld.src(Slot::Ssrc0, a, dw);
    if let Inst::Sop1(i) = &mut bld.mi.inst {
        i.ssrc0 = s0;
    }
    bld.def(Slot::Sdst, dst, dw).done()
}

/// SOP1 writing a fixed destination (exec).
pub fn sop1_fixed(op: Opcode, dst: Operand, a: Src) -> MInst {
    let mut mi = sop1(op, RegRef::new(crate::amd::mir::VReg(0)), a, 1);
    mi.defs.clear();
    if let Inst::Sop1(i) = &mut mi.inst {
        i.sdst = dst;
    }
    mi
}

/// SOPC compare into SCC.
pub fn sopc(op: Opcode, a: Src, b: Src) -> MInst {
    let mut bld = B::new(Inst::Sopc(Sopc { op, ssrc0: Operand::UNUSED, ssrc1: Operand::UNUSED }));
    let s0 = bld.src(Slot::Ssrc0, a, 1);
    let s1 = bld.src(Slot::Ssrc1, b, 1);
    if let Inst::Sopc(i) = &mut bld.mi.inst {
        i.ssrc0 = s0;
        i.ssrc1 = s1;
    }
    bld.done()
}

/// SOPP (branches get their target later).
pub fn sopp(op: Opcode, simm16: u16) -> MInst {
    B::new(Inst::Sopp(Sopp { op, simm16 })).done()
}

/// SOPK with a null destination (`s_waitcnt_vscnt null, imm`).
pub fn sopk_null(op: Opcode, simm16: u16) -> MInst {
    B::new(Inst::Sopk(Sopk { op, sdst: Operand::Special(Special::Null), simm16, imm32: 0 })).done()
}

/// SMEM load of `dw` dwords from `base` (a 2- or 4-dword SGPR range) at a byte offset.
pub fn smem_load(op: Opcode, dst: RegRef, dw: u8, base: RegRef, bw: u8, off: SmemOff) -> MInst {
    let (offset, soffset) = match off {
        SmemOff::Imm(o) => (o as i32, Operand::Special(Special::Null)),
        SmemOff::Reg(_) => (0, Operand::Sgpr(0)),
    };
    let mut bld = B::new(Inst::Smem(Smem {
        op,
        sdata: Operand::Sgpr(0),
        sbase: 0,
        offset,
        soffset,
        glc: false,
        dlc: false,
    }))
    .def(Slot::Sdata, dst, dw)
    .use_(Slot::Sbase, base, bw);
    if let SmemOff::Reg(r) = off {
        bld = bld.use_(Slot::Soffset, r, 1);
    }
    bld.done()
}

/// Offset of a scalar load.
#[derive(Clone, Copy, Debug)]
pub enum SmemOff {
    /// Immediate byte offset.
    Imm(u32),
    /// Byte offset in an SGPR.
    Reg(RegRef),
}

/// VOP1 `dst = op(a)`.
pub fn vop1(op: Opcode, dst: RegRef, a: Src) -> MInst {
    let mut bld = B::new(Inst::Vop1(Vop1 {
        op,
        vdst: Operand::Vgpr(0),
        src0: Operand::UNUSED,
        ext: Ext::None,
    }));
    let s0 = bld.src(Slot::Src0, a, 1);
    if let Inst::Vop1(i) = &mut bld.mi.inst {
        i.src0 = s0;
    }
    bld.def(Slot::Vdst, dst, 1).done()
}

/// `v_readfirstlane_b32 sdst, vsrc`.
pub fn readfirstlane(dst: RegRef, a: RegRef) -> MInst {
    let mut mi = vop1(Opcode::V_READFIRSTLANE_B32, dst, Src::R(a, RegClass::V));
    if let Inst::Vop1(i) = &mut mi.inst {
        i.vdst = Operand::Sgpr(0);
    }
    mi
}

/// `v_readlane_b32 sdst, vsrc, lane`.
pub fn readlane(dst: RegRef, a: RegRef, lane: Src) -> MInst {
    let mut mi = vop3(Opcode::V_READLANE_B32, Some(dst), None, &[Src::R(a, RegClass::V), lane], 0);
    if let Inst::Vop3(i) = &mut mi.inst {
        i.vdst = Operand::Sgpr(0);
    }
    mi
}

/// VOP2 (`b` must be a VGPR) or the VOP3 form of the same opcode otherwise.
pub fn vop2(op: Opcode, dst: RegRef, a: Src, b: Src) -> MInst {
    if let Src::R(rb, RegClass::V) = b {
        if ferrum_isa::tables::Enc::Vop2.form_of(op).is_some() {
            let mut bld = B::new(Inst::Vop2(Vop2 {
                op,
                vdst: 0,
                src0: Operand::UNUSED,
                vsrc1: 0,
                k: 0,
                ext: Ext::None,
            }));
            let s0 = bld.src(Slot::Src0, a, 1);
            if let Inst::Vop2(i) = &mut bld.mi.inst {
                i.src0 = s0;
            }
            return bld.use_(Slot::Vsrc1, rb, 1).def(Slot::Vdst, dst, 1).done();
        }
    }
    vop3(op, Some(dst), None, &[a, b], 0)
}

/// VOP3 with up to three sources, an optional VGPR destination and an optional SGPR
/// destination (carry-out or compare mask); `neg` is the source negate mask.
pub fn vop3(op: Opcode, dst: Option<RegRef>, sdst: Option<RegRef>, srcs: &[Src], neg: u8) -> MInst {
    vop3w(op, dst.map(|d| (d, 1)), sdst, srcs, 1, neg)
}

/// VOP3 with `sw`-dword sources and a destination of the given width.
pub fn vop3w(
    op: Opcode,
    dst: Option<(RegRef, u8)>,
    sdst: Option<RegRef>,
    srcs: &[Src],
    sw: u8,
    neg: u8,
) -> MInst {
    let mut bld = B::new(Inst::Vop3(Vop3 {
        op,
        vdst: Operand::Vgpr(0),
        sdst: Operand::Special(Special::Null),
        src: [Operand::UNUSED; 3],
        abs: 0,
        neg,
        opsel: 0,
        clamp: false,
        omod: 0,
    }));
    let slots = [Slot::Src0, Slot::Src1, Slot::Src2];
    let mut ops = [Operand::UNUSED; 3];
    for (i, &s) in srcs.iter().enumerate() {
        ops[i] = bld.src(slots[i], s, sw);
    }
    if let Inst::Vop3(i) = &mut bld.mi.inst {
        i.src = ops;
        if sdst.is_some() {
            i.sdst = Operand::Sgpr(0);
        }
        if dst.is_none() {
            // VOPC in VOP3 form: the mask goes to the vdst field.
            i.vdst = Operand::Sgpr(0);
        }
    }
    if let Some((d, w)) = dst {
        bld = bld.def(Slot::Vdst, d, w);
    }
    if let Some(s) = sdst {
        bld = bld.def(Slot::Vop3Sdst, s, 1);
    }
    bld.done()
}

/// VOPC in VOP3 form: `mask = cmp(a, b)` for `sw`-dword sources.
pub fn vcmp(op: Opcode, mask: RegRef, a: Src, b: Src, sw: u8) -> MInst {
    let mut mi = vop3w(op, None, None, &[a, b], sw, 0);
    mi.defs.push(RegOp { slot: Slot::Vdst, reg: mask, dwords: 1 });
    mi
}

/// MUBUF access: `vdata` (dst for loads, src for stores), VGPR offset or none, V#, soffset.
#[allow(clippy::too_many_arguments)]
pub fn mubuf(
    op: Opcode,
    vdata: RegRef,
    dw: u8,
    load: bool,
    voff: Option<RegRef>,
    vsharp: RegRef,
    soff: Src,
    offset: u16,
    glc: bool,
) -> MInst {
    let mut bld = B::new(Inst::Mubuf(Buffer {
        op,
        vdata: 0,
        vaddr: 0,
        srsrc: 0,
        soffset: Operand::UNUSED,
        offset,
        offen: voff.is_some(),
        idxen: false,
        glc,
        slc: false,
        dlc: false,
        lds: false,
        tfe: false,
        format: 0,
    }));
    let so = bld.src(Slot::Soffset, soff, 1);
    if let Inst::Mubuf(b) = &mut bld.mi.inst {
        b.soffset = so;
    }
    bld = bld.use_(Slot::Srsrc, vsharp, 4);
    if let Some(v) = voff {
        bld = bld.use_(Slot::Vaddr, v, 1);
    }
    if load {
        bld.def(Slot::Vdata, vdata, dw).done()
    } else {
        bld.use_(Slot::Vdata, vdata, dw).done()
    }
}

/// GLOBAL access with a 64-bit VGPR address or an SGPR base plus 32-bit VGPR offset.
#[allow(clippy::too_many_arguments)]
pub fn global(
    op: Opcode,
    dst: Option<(RegRef, u8)>,
    data: Option<(RegRef, u8)>,
    vaddr: RegRef,
    saddr: Option<RegRef>,
    offset: i16,
    glc: bool,
) -> MInst {
    let mut bld = B::new(Inst::Flat(Flat {
        op,
        seg: Seg::Global,
        vdst: 0,
        addr: 0,
        data: 0,
        saddr: if saddr.is_some() { Operand::Sgpr(0) } else { Operand::Special(Special::Null) },
        offset,
        glc,
        slc: false,
        dlc: false,
    }));
    match saddr {
        Some(s) => bld = bld.use_(Slot::Saddr, s, 2).use_(Slot::FlatAddr, vaddr, 1),
        None => bld = bld.use_(Slot::FlatAddr, vaddr, 2),
    }
    if let Some((d, w)) = data {
        bld = bld.use_(Slot::FlatData, d, w);
    }
    if let Some((d, w)) = dst {
        bld = bld.def(Slot::FlatVdst, d, w);
    }
    bld.done()
}

/// DS access: address VGPR, up to two data operands, optional result.
pub fn ds(
    op: Opcode,
    dst: Option<(RegRef, u8)>,
    addr: RegRef,
    data: &[(RegRef, u8)],
    offset: u16,
) -> MInst {
    let mut bld = B::new(Inst::Ds(Ds {
        op,
        vdst: 0,
        addr: 0,
        data0: 0,
        data1: 0,
        offset0: offset as u8,
        offset1: (offset >> 8) as u8,
        gds: false,
    }))
    .use_(Slot::DsAddr, addr, 1);
    for (i, &(d, w)) in data.iter().enumerate() {
        bld = bld.use_(if i == 0 { Slot::DsData0 } else { Slot::DsData1 }, d, w);
    }
    if let Some((d, w)) = dst {
        bld = bld.def(Slot::DsVdst, d, w);
    }
    bld.done()
}

/// Where a scratch access finds its per-lane byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScratchAddr {
    /// A VGPR (divergent offsets).
    V(RegRef),
    /// An SGPR (uniform offsets).
    S(RegRef),
    /// The immediate offset alone (GFX10.3 "ST" mode, SADDR = 0x7F).
    Imm,
}

/// SCRATCH load (`dst`) or store (`data`) of private memory at `addr` plus `offset` bytes.
pub fn scratch(
    op: Opcode,
    dst: Option<(RegRef, u8)>,
    data: Option<(RegRef, u8)>,
    addr: ScratchAddr,
    offset: i16,
) -> MInst {
    let saddr = match addr {
        ScratchAddr::V(_) => Operand::Special(Special::Null),
        ScratchAddr::S(_) => Operand::Sgpr(0),
        ScratchAddr::Imm => Operand::Special(Special::ExecHi),
    };
    let mut bld = B::new(Inst::Flat(Flat {
        op,
        seg: Seg::Scratch,
        vdst: 0,
        addr: 0,
        data: 0,
        saddr,
        offset,
        glc: false,
        slc: false,
        dlc: false,
    }));
    match addr {
        ScratchAddr::V(v) => bld = bld.use_(Slot::FlatAddr, v, 1),
        ScratchAddr::S(s) => bld = bld.use_(Slot::Saddr, s, 1),
        ScratchAddr::Imm => {}
    }
    if let Some((d, w)) = data {
        bld = bld.use_(Slot::FlatData, d, w);
    }
    if let Some((d, w)) = dst {
        bld = bld.def(Slot::FlatVdst, d, w);
    }
    bld.done()
}

/// `s_setreg_b32 hwreg(id, 0, 32), src`: the whole hardware register `id` from an SGPR.
pub fn setreg(id: u16, src: RegRef) -> MInst {
    let simm16 = id | 31 << 11;
    B::new(Inst::Sopk(Sopk { op: Opcode::S_SETREG_B32, sdst: Operand::Sgpr(0), simm16, imm32: 0 }))
        .use_(Slot::Sdst, src, 1)
        .done()
}
