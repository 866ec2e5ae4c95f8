//! DPP16, DPP8 and SDWA: the optional second dword of VOP1/VOP2/VOPC, selected by a marker
//! code in the src0 field (0xFA, 0xE9/0xEA, 0xF9). Field layouts follow AMD's RDNA2 ISA guide
//! (VOP_DPP16, VOP_DPP8, VOP_SDWA / VOP_SDWAB); the printed forms are LLVM's.

use crate::error::{DecodeError, EncodeError};
use crate::inst::{Dpp16, Dpp8, Ext, Sdwa};
use crate::operand::Operand;
use crate::tables::{Enc, Field};
use std::fmt::{self, Write};

const SEL: [&str; 7] = ["BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"];
const UNUSED: [&str; 3] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];

/// True for the dpp_ctrl values gfx10 defines.
pub fn dpp_ctrl_valid(c: u16) -> bool {
    matches!(c, 0..=0xFF | 0x101..=0x10F | 0x111..=0x11F | 0x121..=0x12F | 0x140 | 0x141
        | 0x150..=0x15F | 0x160..=0x16F)
}

fn bad(operand: Operand) -> EncodeError {
    EncodeError::BadOperand { operand, field: Field::Src0 }
}

/// The src0 marker code and the extension dword. `vsrc1` is needed for nothing but checks.
pub(crate) fn encode(
    ext: &Ext,
    src0: Operand,
    enc: Enc,
) -> Result<Option<(u32, u32)>, EncodeError> {
    let b = |x: bool, s: u32| (x as u32) << s;
    Ok(Some(match ext {
        Ext::None => return Ok(None),
        Ext::Dpp16(d) => {
            let Operand::Vgpr(v) = src0 else { return Err(bad(src0)) };
            if !dpp_ctrl_valid(d.ctrl) {
                return Err(EncodeError::OutOfRange { what: "dpp_ctrl", value: d.ctrl as i64 });
            }
            let w = v as u32
                | (d.ctrl as u32) << 8
                | b(d.fi, 18)
                | b(d.bound_ctrl, 19)
                | (d.neg as u32 & 1) << 20
                | (d.abs as u32 & 1) << 21
                | (d.neg as u32 >> 1 & 1) << 22
                | (d.abs as u32 >> 1 & 1) << 23
                | (d.bank_mask as u32 & 15) << 24
                | (d.row_mask as u32 & 15) << 28;
            (0xFA, w)
        }
        Ext::Dpp8(d) => {
            let Operand::Vgpr(v) = src0 else { return Err(bad(src0)) };
            let lanes =
                d.lanes.iter().enumerate().fold(0u32, |a, (k, &l)| a | (l as u32 & 7) << (3 * k));
            (if d.fi { 0xEA } else { 0xE9 }, v as u32 | lanes << 8)
        }
        Ext::Sdwa(s) => (0xF9, encode_sdwa(s, src0, enc)?),
    }))
}

fn encode_sdwa(s: &Sdwa, src0: Operand, enc: Enc) -> Result<u32, EncodeError> {
    let b = |x: bool, sh: u32| (x as u32) << sh;
    let (byte, scalar) = match src0 {
        Operand::Vgpr(v) => (v as u32, false),
        Operand::Literal(_) | Operand::Attr { .. } | Operand::InterpParam(_) => {
            return Err(bad(src0))
        }
        o if o.is_valid() && o.code() < 256 => (o.code() as u32, true),
        o => return Err(bad(o)),
    };
    let dst = if enc == Enc::Vopc {
        match s.sdst {
            Some(d) if d.is_scalar_reg() && d.code() < 128 => (d.code() as u32) << 8 | 1 << 15,
            Some(d) => return Err(EncodeError::BadOperand { operand: d, field: Field::Sdst }),
            None => 0,
        }
    } else {
        (s.dst_sel as u32 & 7) << 8
            | (s.dst_unused as u32 & 3) << 11
            | b(s.clamp, 13)
            | (s.omod as u32 & 3) << 14
    };
    let src1 = if enc == Enc::Vop1 {
        0
    } else {
        (s.src1_sel as u32 & 7) << 24
            | (s.sext as u32 >> 1 & 1) << 27
            | (s.neg as u32 >> 1 & 1) << 28
            | (s.abs as u32 >> 1 & 1) << 29
            | b(s.src1_scalar, 31)
    };
    Ok(byte
        | dst
        | (s.src0_sel as u32 & 7) << 16
        | (s.sext as u32 & 1) << 19
        | (s.neg as u32 & 1) << 20
        | (s.abs as u32 & 1) << 21
        | b(scalar, 23)
        | src1)
}

/// Decodes the extension selected by src0 marker `code`; returns it and the real src0.
pub(crate) fn decode(code: u32, w1: u32, enc: Enc) -> Result<(Ext, Operand), DecodeError> {
    let bit = |s: u32| w1 >> s & 1 != 0;
    let v = Operand::Vgpr(w1 as u8);
    Ok(match code {
        0xFA => {
            let ctrl = (w1 >> 8 & 0x1FF) as u16;
            if !dpp_ctrl_valid(ctrl) {
                return Err(DecodeError::BadOperand(ctrl));
            }
            let d = Dpp16 {
                ctrl,
                row_mask: (w1 >> 28) as u8,
                bank_mask: (w1 >> 24 & 15) as u8,
                bound_ctrl: bit(19),
                fi: bit(18),
                neg: (bit(20) as u8) | (bit(22) as u8) << 1,
                abs: (bit(21) as u8) | (bit(23) as u8) << 1,
            };
            (Ext::Dpp16(d), v)
        }
        0xE9 | 0xEA => {
            let mut lanes = [0u8; 8];
            for (k, l) in lanes.iter_mut().enumerate() {
                *l = (w1 >> (8 + 3 * k) & 7) as u8;
            }
            (Ext::Dpp8(Dpp8 { lanes, fi: code == 0xEA }), v)
        }
        _ => {
            let src0 = if bit(23) {
                Operand::from_code((w1 & 0xFF) as u16, None)
                    .ok_or(DecodeError::BadOperand((w1 & 0xFF) as u16))?
            } else {
                v
            };
            let vopc = enc == Enc::Vopc;
            let sdst = if vopc && bit(15) {
                Some(
                    Operand::from_code((w1 >> 8 & 0x7F) as u16, None)
                        .ok_or(DecodeError::BadOperand(0))?,
                )
            } else {
                None
            };
            let has1 = enc != Enc::Vop1;
            let s = Sdwa {
                dst_sel: if vopc { 0 } else { (w1 >> 8 & 7) as u8 },
                dst_unused: if vopc { 0 } else { (w1 >> 11 & 3) as u8 },
                clamp: !vopc && bit(13),
                omod: if vopc { 0 } else { (w1 >> 14 & 3) as u8 },
                src0_sel: (w1 >> 16 & 7) as u8,
                src1_sel: if has1 { (w1 >> 24 & 7) as u8 } else { 0 },
                sext: (bit(19) as u8) | ((has1 && bit(27)) as u8) << 1,
                neg: (bit(20) as u8) | ((has1 && bit(28)) as u8) << 1,
                abs: (bit(21) as u8) | ((has1 && bit(29)) as u8) << 1,
                src1_scalar: has1 && bit(31),
                sdst,
            };
            (Ext::Sdwa(s), src0)
        }
    })
}

/// Prints source `k` (0 or 1) with the modifiers of its extension.
pub(crate) fn source(
    f: &mut fmt::Formatter<'_>,
    ext: &Ext,
    k: usize,
    op: Operand,
    dw: u8,
) -> fmt::Result {
    let (neg, abs, sext) = match ext {
        Ext::Dpp16(d) => (d.neg >> k & 1 != 0, d.abs >> k & 1 != 0, false),
        Ext::Sdwa(s) => (s.neg >> k & 1 != 0, s.abs >> k & 1 != 0, s.sext >> k & 1 != 0),
        _ => (false, false, false),
    };
    if sext && !abs {
        if neg {
            f.write_char('-')?;
        }
        return write!(f, "sext({})", op.display(dw));
    }
    crate::display::src_mods(f, op, dw, abs, neg)
}

/// The modifiers after the operands.
pub(crate) fn trailer(f: &mut fmt::Formatter<'_>, ext: &Ext, enc: Enc) -> fmt::Result {
    match ext {
        Ext::None => Ok(()),
        Ext::Dpp16(d) => {
            f.write_char(' ')?;
            dpp_ctrl(f, d.ctrl)?;
            write!(f, " row_mask:0x{:x} bank_mask:0x{:x}", d.row_mask & 15, d.bank_mask & 15)?;
            if d.bound_ctrl {
                f.write_str(" bound_ctrl:1")?;
            }
            if d.fi {
                f.write_str(" fi:1")?;
            }
            Ok(())
        }
        Ext::Dpp8(d) => {
            f.write_str(" dpp8:[")?;
            for (k, l) in d.lanes.iter().enumerate() {
                if k > 0 {
                    f.write_char(',')?;
                }
                write!(f, "{l}")?;
            }
            f.write_char(']')?;
            if d.fi {
                f.write_str(" fi:1")?;
            }
            Ok(())
        }
        Ext::Sdwa(s) => {
            if s.clamp {
                f.write_str(" clamp")?;
            }
            match s.omod {
                1 => f.write_str(" mul:2")?,
                2 => f.write_str(" mul:4")?,
                3 => f.write_str(" div:2")?,
                _ => {}
            }
            let sel = |x: u8| SEL.get(x as usize).copied().unwrap_or("INVALID");
            if enc != Enc::Vopc {
                let unused = UNUSED.get(s.dst_unused as usize).copied().unwrap_or("INVALID");
                write!(f, " dst_sel:{} dst_unused:{}", sel(s.dst_sel), unused)?;
            }
            write!(f, " src0_sel:{}", sel(s.src0_sel))?;
            if enc != Enc::Vop1 {
                write!(f, " src1_sel:{}", sel(s.src1_sel))?;
            }
            Ok(())
        }
    }
}

fn dpp_ctrl(f: &mut fmt::Formatter<'_>, c: u16) -> fmt::Result {
    match c {
        0..=0xFF => write!(f, "quad_perm:[{},{},{},{}]", c & 3, c >> 2 & 3, c >> 4 & 3, c >> 6 & 3),
        0x101..=0x10F => write!(f, "row_shl:{}", c & 15),
        0x111..=0x11F => write!(f, "row_shr:{}", c & 15),
        0x121..=0x12F => write!(f, "row_ror:{}", c & 15),
        0x140 => f.write_str("row_mirror"),
        0x141 => f.write_str("row_half_mirror"),
        0x150..=0x15F => write!(f, "row_share:{}", c & 15),
        0x160..=0x16F => write!(f, "row_xmask:{}", c & 15),
        _ => write!(f, "/* invalid dpp_ctrl {c:#x} */"),
    }
}

/// The mnemonic suffix an extension adds to the opcode name.
pub(crate) fn suffix(ext: &Ext) -> Option<&'static str> {
    match ext {
        Ext::None => None,
        Ext::Dpp16(_) | Ext::Dpp8(_) => Some("_dpp"),
        Ext::Sdwa(_) => Some("_sdwa"),
    }
}
