//! The typed instruction: one struct per encoding family, with every field directly
//! accessible, so that a simulator can pre-decode a program once and `match` on it.
//!
//! Register fields that can only name VGPRs are plain `u8` register numbers; fields that take a
//! general scalar or VALU source are [`Operand`]s. Widths of register ranges are not stored: they
//! come from the opcode's [`Form`](crate::tables::Form).

use crate::opcode::Opcode;
use crate::operand::Operand;
use crate::tables::Enc;

/// One decoded (or to-be-encoded) instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Inst {
    Sop2(Sop2),
    Sopk(Sopk),
    Sop1(Sop1),
    Sopc(Sopc),
    Sopp(Sopp),
    Smem(Smem),
    Vop1(Vop1),
    Vop2(Vop2),
    Vopc(Vopc),
    Vop3(Vop3),
    Vop3p(Vop3p),
    Ds(Ds),
    Mubuf(Buffer),
    Mtbuf(Buffer),
    Flat(Flat),
    Vintrp(Vintrp),
    Exp(Exp),
    Mimg(Mimg),
}

/// SOP2: `sdst = op(ssrc0, ssrc1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Sop2 {
    pub op: Opcode,
    pub sdst: Operand,
    pub ssrc0: Operand,
    pub ssrc1: Operand,
}

/// SOPK: scalar register and 16-bit immediate (`imm32` only for `s_setreg_imm32_b32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Sopk {
    pub op: Opcode,
    pub sdst: Operand,
    pub simm16: u16,
    pub imm32: u32,
}

/// SOP1: `sdst = op(ssrc0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Sop1 {
    pub op: Opcode,
    pub sdst: Operand,
    pub ssrc0: Operand,
}

/// SOPC: scalar compare, result in SCC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Sopc {
    pub op: Opcode,
    pub ssrc0: Operand,
    pub ssrc1: Operand,
}

/// SOPP: program control with a 16-bit immediate (branch offset in dwords, waitcnt, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Sopp {
    pub op: Opcode,
    pub simm16: u16,
}

/// SMEM: scalar memory. `sbase` is the first SGPR of the base pair/quad (even).
/// `offset` is a signed 21-bit byte offset; `soffset` is `Special(Null)` when unused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Smem {
    pub op: Opcode,
    pub sdata: Operand,
    pub sbase: u8,
    pub offset: i32,
    pub soffset: Operand,
    pub glc: bool,
    pub dlc: bool,
}

/// VOP1 (`_e32`, or `_dpp`/`_sdwa` with an [`Ext`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Vop1 {
    pub op: Opcode,
    pub vdst: Operand,
    pub src0: Operand,
    pub ext: Ext,
}

/// The optional second dword of VOP1/VOP2/VOPC: DPP lane shuffles or SDWA sub-dword
/// selects. The source it modifies stays in `src0` (a VGPR for DPP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ext {
    /// Plain 32-bit encoding.
    #[default]
    None,
    /// DPP16: row/quad shuffles.
    Dpp16(Dpp16),
    /// DPP8: arbitrary lane selects within groups of eight.
    Dpp8(Dpp8),
    /// SDWA: byte/word selects and sign extension.
    Sdwa(Sdwa),
}

/// DPP16 control (`dpp_ctrl` values as in AMD's RDNA2 ISA guide, VOP_DPP chapter).
/// `neg`/`abs` bit 0 is src0, bit 1 src1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Dpp16 {
    pub ctrl: u16,
    pub row_mask: u8,
    pub bank_mask: u8,
    pub bound_ctrl: bool,
    pub fi: bool,
    pub neg: u8,
    pub abs: u8,
}

/// DPP8: each lane of a group of eight reads lane `lanes[i]` (0..=7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Dpp8 {
    pub lanes: [u8; 8],
    pub fi: bool,
}

/// SDWA selects: 0..=3 BYTE_n, 4..=5 WORD_n, 6 DWORD; `dst_unused` 0 pad, 1 sign-extend,
/// 2 preserve. `sext`/`neg`/`abs` bit 0 is src0, bit 1 src1. With `src1_scalar` the VOP2/VOPC
/// `vsrc1` field holds a scalar operand code instead of a VGPR. `sdst` is the VOPC mask
/// destination (`None`: VCC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Sdwa {
    pub dst_sel: u8,
    pub dst_unused: u8,
    pub clamp: bool,
    pub omod: u8,
    pub src0_sel: u8,
    pub src1_sel: u8,
    pub sext: u8,
    pub neg: u8,
    pub abs: u8,
    pub src1_scalar: bool,
    pub sdst: Option<Operand>,
}

/// VOP2 (`_e32`); `k` is the inline literal of `v_fmamk`/`v_fmaak`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Vop2 {
    pub op: Opcode,
    pub vdst: u8,
    pub src0: Operand,
    pub vsrc1: u8,
    pub k: u32,
    pub ext: Ext,
}

/// VOPC (`_e32`): result in VCC (or EXEC for `v_cmpx`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Vopc {
    pub op: Opcode,
    pub src0: Operand,
    pub vsrc1: u8,
    pub ext: Ext,
}

/// VOP3 (`_e64`), including VOP3b forms whose `sdst` is a carry/compare SGPR.
/// `abs`, `neg` and `opsel` are bit masks over the sources (bit 3 of `opsel` is the
/// destination half); `omod` is 0 (none), 1 (`mul:2`), 2 (`mul:4`) or 3 (`div:2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Vop3 {
    pub op: Opcode,
    pub vdst: Operand,
    pub sdst: Operand,
    pub src: [Operand; 3],
    pub abs: u8,
    pub neg: u8,
    pub opsel: u8,
    pub clamp: bool,
    pub omod: u8,
}

/// VOP3P: packed math. `opsel_hi` defaults to all ones (LLVM omits it then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Vop3p {
    pub op: Opcode,
    pub vdst: u8,
    pub src: [Operand; 3],
    pub neg: u8,
    pub neg_hi: u8,
    pub opsel: u8,
    pub opsel_hi: u8,
    pub clamp: bool,
}

/// DS: LDS/GDS access. Single-offset ops use `offset0 | offset1 << 8` as a 16-bit offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Ds {
    pub op: Opcode,
    pub vdst: u8,
    pub addr: u8,
    pub data0: u8,
    pub data1: u8,
    pub offset0: u8,
    pub offset1: u8,
    pub gds: bool,
}

/// MUBUF and MTBUF. `srsrc` is the first SGPR of the V# quad (multiple of 4);
/// `format` is only meaningful for MTBUF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Buffer {
    pub op: Opcode,
    pub vdata: u8,
    pub vaddr: u8,
    pub srsrc: u8,
    pub soffset: Operand,
    pub offset: u16,
    pub offen: bool,
    pub idxen: bool,
    pub glc: bool,
    pub slc: bool,
    pub dlc: bool,
    pub lds: bool,
    pub tfe: bool,
    pub format: u8,
}

impl Buffer {
    /// The buffer instruction with every field zero: how `buffer_gl0_inv` and
    /// `buffer_gl1_inv`, which have no operands, are represented.
    pub fn bare(op: Opcode) -> Buffer {
        Buffer {
            op,
            vdata: 0,
            vaddr: 0,
            srsrc: 0,
            soffset: Operand::Sgpr(0),
            offset: 0,
            offen: false,
            idxen: false,
            glc: false,
            slc: false,
            dlc: false,
            lds: false,
            tfe: false,
            format: 0,
        }
    }
}

/// Address space segment of a FLAT-encoded instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Seg {
    Flat,
    Scratch,
    Global,
}

/// FLAT / SCRATCH / GLOBAL. `saddr` is `Special(Null)` for `off`. For scratch with an SGPR
/// address, `addr` is unused; scratch with `saddr` = `Special(ExecHi)` (SADDR 0x7F) is GFX10.3's
/// offset-only ("ST") mode, which uses neither and prints as `off, off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Flat {
    pub op: Opcode,
    pub seg: Seg,
    pub vdst: u8,
    pub addr: u8,
    pub data: u8,
    pub saddr: Operand,
    pub offset: i16,
    pub glc: bool,
    pub slc: bool,
    pub dlc: bool,
}

/// VINTRP: parameter interpolation (`v_interp_p1_f32` etc., reading attributes from LDS
/// with M0 holding the parameter base). For `v_interp_mov_f32`, `vsrc` is 0 (p10), 1 (p20)
/// or 2 (p0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Vintrp {
    pub op: Opcode,
    pub vdst: u8,
    pub vsrc: u8,
    pub attr: u8,
    pub chan: u8,
}

/// EXP: export to a render target, position, parameter, primitive or the null target.
/// `en` enables sources; with `compr` (two 16-bit values per register) `src[0]` feeds slots
/// 0-1 and `src[1]` slots 2-3, `en` comes in pairs and `src[2..]` are unused (zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Exp {
    pub target: u8,
    pub en: u8,
    pub src: [u8; 4],
    pub compr: bool,
    pub done: bool,
    pub vm: bool,
}

/// MIMG: image load/store/sample/gather/atomic. `vaddr[0]` is the first address VGPR of a
/// contiguous range, or with `nsa` the addresses are listed one by one (as many as
/// [`MimgInfo::addr_count`](crate::tables::MimgInfo::addr_count) says; the rest zero).
/// `srsrc`/`ssamp` are first SGPRs (multiples of 4); `dim` is 0..=7 (1D, 2D, 3D, CUBE,
/// 1D_ARRAY, 2D_ARRAY, 2D_MSAA, 2D_MSAA_ARRAY).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Mimg {
    pub op: Opcode,
    pub vdata: u8,
    pub vaddr: [u8; 13],
    pub nsa: bool,
    pub srsrc: u8,
    pub ssamp: u8,
    pub dmask: u8,
    pub dim: u8,
    pub unorm: bool,
    pub glc: bool,
    pub slc: bool,
    pub dlc: bool,
    pub r128: bool,
    pub a16: bool,
    pub tfe: bool,
    pub lwe: bool,
    pub d16: bool,
}

impl Mimg {
    /// Registers written (or read, for stores) through `vdata`, as LLVM counts them: one per
    /// dmask channel (four for gather4), halved and rounded up with D16, plus one with TFE.
    pub fn vdata_dwords(&self) -> u8 {
        let gather = crate::tables::Enc::Mimg
            .form_of(self.op)
            .and_then(|f| crate::tables::MimgInfo::get(f.code))
            .is_some_and(|m| m.gather4);
        let n = if gather { 4 } else { (self.dmask & 15).count_ones().max(1) as u8 };
        let n = if self.d16 { n.div_ceil(2) } else { n };
        n + self.tfe as u8
    }
}

impl Inst {
    /// The encoding-independent opcode.
    pub fn op(&self) -> Opcode {
        match self {
            Inst::Sop2(i) => i.op,
            Inst::Sopk(i) => i.op,
            Inst::Sop1(i) => i.op,
            Inst::Sopc(i) => i.op,
            Inst::Sopp(i) => i.op,
            Inst::Smem(i) => i.op,
            Inst::Vop1(i) => i.op,
            Inst::Vop2(i) => i.op,
            Inst::Vopc(i) => i.op,
            Inst::Vop3(i) => i.op,
            Inst::Vop3p(i) => i.op,
            Inst::Ds(i) => i.op,
            Inst::Mubuf(i) | Inst::Mtbuf(i) => i.op,
            Inst::Flat(i) => i.op,
            Inst::Vintrp(i) => i.op,
            Inst::Exp(_) => Opcode::EXP,
            Inst::Mimg(i) => i.op,
        }
    }

    /// The encoding family.
    pub fn enc(&self) -> Enc {
        match self {
            Inst::Sop2(_) => Enc::Sop2,
            Inst::Sopk(_) => Enc::Sopk,
            Inst::Sop1(_) => Enc::Sop1,
            Inst::Sopc(_) => Enc::Sopc,
            Inst::Sopp(_) => Enc::Sopp,
            Inst::Smem(_) => Enc::Smem,
            Inst::Vop1(_) => Enc::Vop1,
            Inst::Vop2(_) => Enc::Vop2,
            Inst::Vopc(_) => Enc::Vopc,
            Inst::Vop3(_) => Enc::Vop3,
            Inst::Vop3p(_) => Enc::Vop3p,
            Inst::Ds(_) => Enc::Ds,
            Inst::Mubuf(_) => Enc::Mubuf,
            Inst::Mtbuf(_) => Enc::Mtbuf,
            Inst::Vintrp(_) => Enc::Vintrp,
            Inst::Exp(_) => Enc::Exp,
            Inst::Mimg(_) => Enc::Mimg,
            Inst::Flat(f) => match f.seg {
                Seg::Flat => Enc::Flat,
                Seg::Scratch => Enc::Scratch,
                Seg::Global => Enc::Global,
            },
        }
    }

    /// The operand fields that may hold scalar register tuples, with the table field each is
    /// printed as (used to align and check SGPR/TTMP ranges).
    pub(crate) fn scalar_fields_mut(&mut self) -> Vec<(crate::tables::Field, &mut Operand)> {
        use crate::tables::Field as F;
        match self {
            Inst::Sop2(i) => {
                vec![(F::Sdst, &mut i.sdst), (F::Ssrc0, &mut i.ssrc0), (F::Ssrc1, &mut i.ssrc1)]
            }
            Inst::Sop1(i) => vec![(F::Sdst, &mut i.sdst), (F::Ssrc0, &mut i.ssrc0)],
            Inst::Sopc(i) => vec![(F::Ssrc0, &mut i.ssrc0), (F::Ssrc1, &mut i.ssrc1)],
            Inst::Sopk(i) => vec![(F::Sdst, &mut i.sdst)],
            Inst::Smem(i) => vec![(F::Sdata, &mut i.sdata)],
            Inst::Vop1(i) => vec![(F::Vdst, &mut i.vdst), (F::Src0, &mut i.src0)],
            Inst::Vopc(i) => vec![(F::Src0, &mut i.src0)],
            Inst::Vop3(i) => {
                let [a, b, c] = &mut i.src;
                vec![(F::Vdst, &mut i.vdst), (F::Src0, a), (F::Src1, b), (F::Src2, c)]
            }
            _ => Vec::new(),
        }
    }

    /// The DPP/SDWA extension of a VOP1/VOP2/VOPC instruction.
    pub fn ext(&self) -> Option<&Ext> {
        match self {
            Inst::Vop1(i) => Some(&i.ext),
            Inst::Vop2(i) => Some(&i.ext),
            Inst::Vopc(i) => Some(&i.ext),
            _ => None,
        }
    }

    /// The table entry for this instruction's opcode in its encoding.
    pub fn form(&self) -> Option<&'static crate::tables::Form> {
        self.enc().form_of(self.op())
    }
}
