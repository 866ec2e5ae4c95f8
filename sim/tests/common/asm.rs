//! A tiny assembler over the `isa` encoder for hand-written test programs: typed constructors
//! for the instructions the tests use, plus labels for branches.

use ferrum_isa::{
    encode, Buffer, Ds, Ext, Flat, Inst, Opcode, Operand, Seg, Smem, Sop1, Sop2, Sopc, Sopk, Sopp,
    Special, Vop1, Vop2, Vop3, Vopc,
};

pub use ferrum_isa::Opcode as Op;
#[allow(unused_imports)]
pub use ferrum_isa::Operand::{Int, Literal, Sgpr as S, Vgpr as V};

pub const VCC: Operand = Operand::Special(Special::VccLo);
pub const EXEC: Operand = Operand::Special(Special::ExecLo);
pub const NULL: Operand = Operand::Special(Special::Null);

#[derive(Default)]
pub struct Asm {
    pub words: Vec<u32>,
    /// (word index of a SOPP branch, label it targets)
    fixups: Vec<(usize, usize)>,
    labels: Vec<Option<usize>>,
}

impl Asm {
    pub fn new() -> Asm {
        Asm::default()
    }

    pub fn i(&mut self, inst: Inst) -> &mut Self {
        let words = encode(&inst).unwrap_or_else(|e| panic!("encoding {inst}: {e}"));
        self.words.extend(words);
        self
    }

    pub fn label(&mut self) -> usize {
        self.labels.push(None);
        self.labels.len() - 1
    }

    pub fn bind(&mut self, l: usize) {
        self.labels[l] = Some(self.words.len());
    }

    /// A SOPP branch to label `l`.
    pub fn branch(&mut self, op: Opcode, l: usize) -> &mut Self {
        self.fixups.push((self.words.len(), l));
        self.i(Inst::Sopp(Sopp { op, simm16: 0 }))
    }

    pub fn finish(&mut self) -> Vec<u32> {
        for &(at, l) in &self.fixups {
            let target = self.labels[l].expect("unbound label") as i64;
            let off = target - (at as i64 + 1);
            self.words[at] = (self.words[at] & 0xffff_0000) | (off as i16 as u16 as u32);
        }
        self.words.clone()
    }

    // ---- scalar ----
    pub fn sop1(&mut self, op: Opcode, sdst: Operand, ssrc0: Operand) -> &mut Self {
        self.i(Inst::Sop1(Sop1 { op, sdst, ssrc0 }))
    }
    pub fn sop2(&mut self, op: Opcode, sdst: Operand, a: Operand, b: Operand) -> &mut Self {
        self.i(Inst::Sop2(Sop2 { op, sdst, ssrc0: a, ssrc1: b }))
    }
    pub fn sopk(&mut self, op: Opcode, sdst: Operand, simm16: u16) -> &mut Self {
        self.i(Inst::Sopk(Sopk { op, sdst, simm16, imm32: 0 }))
    }
    pub fn sopc(&mut self, op: Opcode, a: Operand, b: Operand) -> &mut Self {
        self.i(Inst::Sopc(Sopc { op, ssrc0: a, ssrc1: b }))
    }
    pub fn sopp(&mut self, op: Opcode, simm16: u16) -> &mut Self {
        self.i(Inst::Sopp(Sopp { op, simm16 }))
    }
    pub fn endpgm(&mut self) -> &mut Self {
        self.sopp(Op::S_ENDPGM, 0)
    }
    /// `s_waitcnt` with vmcnt / lgkmcnt (63 = do not wait).
    pub fn waitcnt(&mut self, vm: u8, lgkm: u8) -> &mut Self {
        let imm = ferrum_isa::imm::Waitcnt { vmcnt: vm, expcnt: 7, lgkmcnt: lgkm }.to_imm();
        self.sopp(Op::S_WAITCNT, imm)
    }
    pub fn smem(&mut self, op: Opcode, sdata: u8, sbase: u8, offset: i32) -> &mut Self {
        self.i(Inst::Smem(Smem {
            op,
            sdata: Operand::Sgpr(sdata),
            sbase,
            offset,
            soffset: NULL,
            glc: false,
            dlc: false,
        }))
    }

    // ---- vector ----
    pub fn vop1(&mut self, op: Opcode, vdst: Operand, src0: Operand) -> &mut Self {
        self.i(Inst::Vop1(Vop1 { op, vdst, src0, ext: Ext::None }))
    }
    pub fn vop2(&mut self, op: Opcode, vdst: u8, src0: Operand, vsrc1: u8) -> &mut Self {
        self.i(Inst::Vop2(Vop2 { op, vdst, src0, vsrc1, k: 0, ext: Ext::None }))
    }
    pub fn vopc(&mut self, op: Opcode, src0: Operand, vsrc1: u8) -> &mut Self {
        self.i(Inst::Vopc(Vopc { op, src0, vsrc1, ext: Ext::None }))
    }
    pub fn vop3(&mut self, op: Opcode, vdst: Operand, src: [Operand; 3]) -> &mut Self {
        self.i(Inst::Vop3(Vop3 {
            op,
            vdst,
            sdst: NULL,
            src,
            abs: 0,
            neg: 0,
            opsel: 0,
            clamp: false,
            omod: 0,
        }))
    }
    /// VOP3b: a VOP3 with a scalar carry/compare destination.
    pub fn vop3b(
        &mut self,
        op: Opcode,
        vdst: Operand,
        sdst: Operand,
        src: [Operand; 3],
    ) -> &mut Self {
        self.i(Inst::Vop3(Vop3 {
            op,
            vdst,
            sdst,
            src,
            abs: 0,
            neg: 0,
            opsel: 0,
            clamp: false,
            omod: 0,
        }))
    }
    /// GLOBAL with a 64-bit VGPR address (`off` for the SGPR base).
    pub fn global64(&mut self, op: Opcode, vdst: u8, addr: u8, data: u8) -> &mut Self {
        self.i(Inst::Flat(Flat {
            op,
            seg: Seg::Global,
            vdst,
            addr,
            data,
            saddr: NULL,
            offset: 0,
            glc: false,
            slc: false,
            dlc: false,
        }))
    }
    /// MUBUF with a VGPR offset (`offen`).
    pub fn mubuf(&mut self, op: Opcode, vdata: u8, vaddr: u8, srsrc: u8, glc: bool) -> &mut Self {
        self.i(Inst::Mubuf(Buffer {
            op,
            vdata,
            vaddr,
            srsrc,
            soffset: Operand::Int(0),
            offset: 0,
            offen: true,
            idxen: false,
            glc,
            slc: false,
            dlc: false,
            lds: false,
            tfe: false,
            format: 0,
        }))
    }
    /// GLOBAL with an SGPR base and a 32-bit VGPR offset.
    pub fn global(
        &mut self,
        op: Opcode,
        vdst: u8,
        addr: u8,
        data: u8,
        saddr: u8,
        glc: bool,
    ) -> &mut Self {
        self.i(Inst::Flat(Flat {
            op,
            seg: Seg::Global,
            vdst,
            addr,
            data,
            saddr: Operand::Sgpr(saddr),
            offset: 0,
            glc,
            slc: false,
            dlc: false,
        }))
    }
    pub fn ds(&mut self, op: Opcode, vdst: u8, addr: u8, data0: u8, offset: u16) -> &mut Self {
        self.i(Inst::Ds(Ds {
            op,
            vdst,
            addr,
            data0,
            data1: 0,
            offset0: offset as u8,
            offset1: (offset >> 8) as u8,
            gds: false,
        }))
    }
}

/// `s_mov s0, n; top: s_sub s0, 1; s_cmp_lg s0, 0; s_cbranch_scc1 top; s_endpgm`: the last
/// taken branch comes after instruction 1 + 3 (n - 1), so a watchdog budget of exactly that
/// many instructions lets the wave finish and one fewer stops it.
pub fn counted_loop(n: u32) -> Vec<u32> {
    let mut a = Asm::new();
    a.sop1(Op::S_MOV_B32, S(0), Literal(n));
    let top = a.label();
    a.bind(top);
    a.sop2(Op::S_SUB_U32, S(0), S(0), Int(1))
        .sopc(Op::S_CMP_LG_U32, S(0), Int(0))
        .branch(Op::S_CBRANCH_SCC1, top)
        .endpgm();
    a.finish()
}
