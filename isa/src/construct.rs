//! Constructors with the usual defaults (no modifiers, no cache bits), so the backend writes
//! `Vop3::new(op, dst, srcs)` instead of spelling out every field; and `From` into [`Inst`].

use crate::inst::*;
use crate::opcode::Opcode;
use crate::operand::{Operand, Special};
use crate::tables::Enc;

impl Vop1 {
    /// `vdst = op(src0)`.
    pub fn new(op: Opcode, vdst: Operand, src0: Operand) -> Vop1 {
        Vop1 { op, vdst, src0, ext: Ext::None }
    }
}

impl Vop2 {
    /// `vdst = op(src0, vsrc1)`.
    pub fn new(op: Opcode, vdst: u8, src0: Operand, vsrc1: u8) -> Vop2 {
        Vop2 { op, vdst, src0, vsrc1, k: 0, ext: Ext::None }
    }
}

impl Vopc {
    /// `vcc = op(src0, vsrc1)` (or EXEC for `v_cmpx`).
    pub fn new(op: Opcode, src0: Operand, vsrc1: u8) -> Vopc {
        Vopc { op, src0, vsrc1, ext: Ext::None }
    }
}

impl Vop3 {
    /// `vdst = op(src...)` without modifiers; unused sources are ignored.
    pub fn new(op: Opcode, vdst: Operand, src: [Operand; 3]) -> Vop3 {
        Vop3 {
            op,
            vdst,
            sdst: Operand::UNUSED,
            src,
            abs: 0,
            neg: 0,
            opsel: 0,
            clamp: false,
            omod: 0,
        }
    }
}

impl Vop3p {
    /// Packed math with the default operand halves (`op_sel_hi` all ones, or all zeros for
    /// the `v_fma_mix*` ops, as LLVM assumes when the modifier is not written).
    pub fn new(op: Opcode, vdst: u8, src: [Operand; 3]) -> Vop3p {
        let mix = op.name().contains("_mix");
        Vop3p {
            op,
            vdst,
            src,
            neg: 0,
            neg_hi: 0,
            opsel: 0,
            opsel_hi: if mix { 0 } else { 7 },
            clamp: false,
        }
    }
}

impl Smem {
    /// A scalar load from `s[sbase:..] + offset`.
    pub fn new(op: Opcode, sdata: Operand, sbase: u8, offset: i32) -> Smem {
        Smem {
            op,
            sdata,
            sbase,
            offset,
            soffset: Operand::Special(Special::Null),
            glc: false,
            dlc: false,
        }
    }
}

impl Ds {
    /// An LDS access with a single 16-bit byte offset.
    pub fn new(op: Opcode, vdst: u8, addr: u8, data0: u8, data1: u8, offset: u16) -> Ds {
        Ds {
            op,
            vdst,
            addr,
            data0,
            data1,
            offset0: offset as u8,
            offset1: (offset >> 8) as u8,
            gds: false,
        }
    }
}

impl Buffer {
    /// A MUBUF/MTBUF access; `vaddr` is the VGPR offset (OFFEN) when given.
    pub fn new(
        op: Opcode,
        vdata: u8,
        vaddr: Option<u8>,
        srsrc: u8,
        soffset: Operand,
        offset: u16,
    ) -> Buffer {
        Buffer {
            vdata,
            vaddr: vaddr.unwrap_or(0),
            srsrc,
            soffset,
            offset,
            offen: vaddr.is_some(),
            format: if Enc::Mubuf.form_of(op).is_some() { 0 } else { 1 },
            ..Buffer::bare(op)
        }
    }
}

impl Flat {
    /// A FLAT/GLOBAL/SCRATCH access; `saddr` is `Special(Null)` for `off`.
    pub fn new(
        op: Opcode,
        seg: Seg,
        vdst: u8,
        addr: u8,
        data: u8,
        saddr: Operand,
        offset: i16,
    ) -> Flat {
        Flat { op, seg, vdst, addr, data, saddr, offset, glc: false, slc: false, dlc: false }
    }
}

impl Mimg {
    /// A non-NSA image instruction with addresses in `vaddr..`.
    pub fn new(op: Opcode, vdata: u8, vaddr: u8, srsrc: u8, ssamp: u8, dmask: u8, dim: u8) -> Mimg {
        let mut addr = [0; 13];
        addr[0] = vaddr;
        Mimg {
            op,
            vdata,
            vaddr: addr,
            nsa: false,
            srsrc,
            ssamp,
            dmask,
            dim,
            unorm: false,
            glc: false,
            slc: false,
            dlc: false,
            r128: false,
            a16: false,
            tfe: false,
            lwe: false,
            d16: false,
        }
    }
}

macro_rules! into_inst {
    ($($ty:ident => $variant:ident),* $(,)?) => {
        $(impl From<$ty> for Inst {
            fn from(i: $ty) -> Inst {
                Inst::$variant(i)
            }
        })*
    };
}

into_inst!(
    Sop2 => Sop2, Sopk => Sopk, Sop1 => Sop1, Sopc => Sopc, Sopp => Sopp, Smem => Smem,
    Vop1 => Vop1, Vop2 => Vop2, Vopc => Vopc, Vop3 => Vop3, Vop3p => Vop3p, Ds => Ds,
    Flat => Flat, Vintrp => Vintrp, Exp => Exp, Mimg => Mimg,
);
