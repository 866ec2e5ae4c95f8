//! Instruction decoder: machine words to [`Inst`].

use crate::encode::is_atomic;
use crate::error::DecodeError;
use crate::inst::*;
use crate::operand::{Operand, Special};
use crate::tables::{accept, Enc, Field, Form, Kind};

struct Words<'a> {
    w: &'a [u32],
}

impl Words<'_> {
    fn get(&self, i: usize) -> Result<u32, DecodeError> {
        self.w.get(i).copied().ok_or(DecodeError::Truncated { need: i + 1, have: self.w.len() })
    }
}

fn form(enc: Enc, code: u32) -> Result<&'static Form, DecodeError> {
    enc.form_by_code(code as u16).ok_or(DecodeError::UnknownOpcode { enc, code: code as u16 })
}

fn bit(w: u32, n: u32) -> bool {
    w >> n & 1 != 0
}

/// Decodes a source field; a literal is read from word `at`, which bumps `len`.
fn src(w: &Words, code: u32, at: usize, len: &mut usize) -> Result<Operand, DecodeError> {
    let lit = if code == 255 {
        *len = at + 1;
        Some(w.get(at)?)
    } else {
        None
    };
    Operand::from_code(code as u16, lit).ok_or(DecodeError::BadOperand(code as u16))
}

fn sreg(code: u32) -> Result<Operand, DecodeError> {
    match Operand::from_code(code as u16, None) {
        Some(o) if code < 128 => Ok(o),
        _ => Err(DecodeError::BadOperand(code as u16)),
    }
}

fn has(f: &Form, field: Field) -> bool {
    f.operand(field).is_some()
}

/// Decodes the instruction at the start of `words`; returns it and its length in words.
///
/// Scalar register tuples come back aligned (s[5:6] in a 64-bit field reads as s[4:5]): the
/// hardware ignores the low bits, and LLVM prints them that way.
pub fn decode(words: &[u32]) -> Result<(Inst, usize), DecodeError> {
    let (mut inst, len) = decode_raw(words)?;
    if let Some(form) = inst.form() {
        for (field, op) in inst.scalar_fields_mut() {
            *op = op.aligned(form.dwords(field));
        }
    }
    Ok((inst, len))
}

fn decode_raw(words: &[u32]) -> Result<(Inst, usize), DecodeError> {
    let w = Words { w: words };
    let w0 = w.get(0)?;
    let mut len = 1;
    let inst = match w0 >> 23 {
        0x17D => {
            let f = form(Enc::Sop1, w0 >> 8 & 0xFF)?;
            let sdst = if has(f, Field::Sdst) { sreg(w0 >> 16 & 0x7F)? } else { Operand::UNUSED };
            let ssrc0 = if has(f, Field::Ssrc0) {
                src(&w, w0 & 0xFF, 1, &mut len)?
            } else {
                Operand::UNUSED
            };
            Inst::Sop1(Sop1 { op: f.op, sdst, ssrc0 })
        }
        0x17E => {
            let f = form(Enc::Sopc, w0 >> 16 & 0x7F)?;
            let ssrc0 = src(&w, w0 & 0xFF, 1, &mut len)?;
            let ssrc1 = src(&w, w0 >> 8 & 0xFF, 1, &mut len)?;
            Inst::Sopc(Sopc { op: f.op, ssrc0, ssrc1 })
        }
        0x17F => {
            let f = form(Enc::Sopp, w0 >> 16 & 0x7F)?;
            let simm16 = if has(f, Field::Simm16) { w0 as u16 } else { 0 };
            Inst::Sopp(Sopp { op: f.op, simm16 })
        }
        _ if w0 >> 28 == 0xB => {
            let f = form(Enc::Sopk, w0 >> 23 & 0x1F)?;
            let sdst = if has(f, Field::Sdst) { sreg(w0 >> 16 & 0x7F)? } else { Operand::UNUSED };
            let imm32 = if has(f, Field::Literal) {
                len = 2;
                w.get(1)?
            } else {
                0
            };
            Inst::Sopk(Sopk { op: f.op, sdst, simm16: w0 as u16, imm32 })
        }
        _ if w0 >> 30 == 2 => {
            let f = form(Enc::Sop2, w0 >> 23 & 0x7F)?;
            let sdst = if has(f, Field::Sdst) { sreg(w0 >> 16 & 0x7F)? } else { Operand::UNUSED };
            let ssrc0 = src(&w, w0 & 0xFF, 1, &mut len)?;
            let ssrc1 = src(&w, w0 >> 8 & 0xFF, 1, &mut len)?;
            Inst::Sop2(Sop2 { op: f.op, sdst, ssrc0, ssrc1 })
        }
        _ => return decode_vector(&w, w0),
    };
    Ok((inst, len))
}

fn decode_vector(w: &Words, w0: u32) -> Result<(Inst, usize), DecodeError> {
    if w0 >> 31 == 0 {
        return decode_vop12c(w, w0);
    }
    match w0 >> 26 {
        0x3D => decode_smem(w, w0),
        0x35 => decode_vop3(w, w0),
        0x33 => decode_vop3p(w, w0),
        0x36 => decode_ds(w, w0),
        0x38 | 0x3A => decode_buffer(w, w0),
        0x37 => decode_flat(w, w0),
        0x3C => crate::mimg::decode(w.w),
        0x32 => {
            let f = form(Enc::Vintrp, w0 >> 16 & 3)?;
            let i = Vintrp {
                op: f.op,
                vdst: (w0 >> 18) as u8,
                vsrc: w0 as u8,
                attr: (w0 >> 10 & 63) as u8,
                chan: (w0 >> 8 & 3) as u8,
            };
            Ok((Inst::Vintrp(i), 1))
        }
        0x3E => {
            let w1 = w.get(1)?;
            let e = Exp {
                target: (w0 >> 4 & 63) as u8,
                en: (w0 & 15) as u8,
                src: w1.to_le_bytes(),
                compr: bit(w0, 10),
                done: bit(w0, 11),
                vm: bit(w0, 12),
            };
            Ok((Inst::Exp(e), 2))
        }
        _ => Err(DecodeError::UnknownEncoding(w0)),
    }
}

fn decode_smem(w: &Words, w0: u32) -> Result<(Inst, usize), DecodeError> {
    let w1 = w.get(1)?;
    let f = form(Enc::Smem, w0 >> 18 & 0xFF)?;
    let addr = has(f, Field::Sbase);
    let sdata = if has(f, Field::Sdata) { sreg(w0 >> 6 & 0x7F)? } else { Operand::UNUSED };
    let null = Operand::Special(Special::Null);
    let soffset = if addr { sreg(w1 >> 25)? } else { null };
    let offset = ((w1 & 0x1F_FFFF) << 11) as i32 >> 11;
    let i = Smem {
        op: f.op,
        sdata,
        sbase: if addr { (w0 & 0x3F) as u8 * 2 } else { 0 },
        offset: if addr && soffset == null { offset } else { 0 },
        soffset,
        glc: bit(w0, 16),
        dlc: bit(w0, 14),
    };
    Ok((Inst::Smem(i), 2))
}

fn decode_vop3p(w: &Words, w0: u32) -> Result<(Inst, usize), DecodeError> {
    let mut len = 2;
    let w1 = w.get(1)?;
    let f = form(Enc::Vop3p, w0 >> 16 & 0x7F)?;
    let src = srcs(w, f, w1, &mut len)?;
    let i = Vop3p {
        op: f.op,
        vdst: w0 as u8,
        src,
        neg: (w1 >> 29) as u8,
        neg_hi: (w0 >> 8 & 7) as u8,
        opsel: (w0 >> 11 & 7) as u8,
        opsel_hi: (w1 >> 27 & 3 | (w0 >> 14 & 1) << 2) as u8,
        clamp: bit(w0, 15),
    };
    Ok((Inst::Vop3p(i), len))
}

fn decode_ds(w: &Words, w0: u32) -> Result<(Inst, usize), DecodeError> {
    let w1 = w.get(1)?;
    let f = form(Enc::Ds, w0 >> 18 & 0xFF)?;
    let pick = |fl: Field, v: u32| if has(f, fl) { v as u8 } else { 0 };
    let i = Ds {
        op: f.op,
        vdst: pick(Field::Vdst, w1 >> 24),
        addr: pick(Field::Addr, w1 & 0xFF),
        data0: pick(Field::Data0, w1 >> 8 & 0xFF),
        data1: pick(Field::Data1, w1 >> 16 & 0xFF),
        offset0: w0 as u8,
        offset1: (w0 >> 8) as u8,
        gds: bit(w0, 17),
    };
    Ok((Inst::Ds(i), 2))
}

fn decode_buffer(w: &Words, w0: u32) -> Result<(Inst, usize), DecodeError> {
    let w1 = w.get(1)?;
    let typed = w0 >> 26 == 0x3A;
    let code = if typed {
        w0 >> 16 & 7 | (w1 >> 21 & 1) << 3
    } else {
        w0 >> 18 & 0x7F | (w0 >> 25 & 1) << 7
    };
    let f = form(if typed { Enc::Mtbuf } else { Enc::Mubuf }, code)?;
    if f.operands.is_empty() {
        return Ok((Inst::Mubuf(Buffer::bare(f.op)), 2));
    }
    let offen = bit(w0, 12);
    let idxen = bit(w0, 13);
    let mut len = 2;
    let soffset = src(w, w1 >> 24, 2, &mut len)?;
    let b = Buffer {
        op: f.op,
        vdata: (w1 >> 8) as u8,
        vaddr: if offen || idxen { w1 as u8 } else { 0 },
        srsrc: (w1 >> 16 & 0x1F) as u8 * 4,
        soffset,
        offset: (w0 & 0xFFF) as u16,
        offen,
        idxen,
        glc: bit(w0, 14),
        slc: bit(w1, 22),
        dlc: bit(w0, 15),
        lds: !typed && bit(w0, 16),
        tfe: bit(w1, 23),
        format: if typed { (w0 >> 19 & 0x7F) as u8 } else { 0 },
    };
    Ok((if typed { Inst::Mtbuf(b) } else { Inst::Mubuf(b) }, len))
}

fn decode_flat(w: &Words, w0: u32) -> Result<(Inst, usize), DecodeError> {
    let w1 = w.get(1)?;
    let (enc, seg) = match w0 >> 14 & 3 {
        0 => (Enc::Flat, Seg::Flat),
        1 => (Enc::Scratch, Seg::Scratch),
        2 => (Enc::Global, Seg::Global),
        _ => return Err(DecodeError::UnknownEncoding(w0)),
    };
    let f = form(enc, w0 >> 18 & 0x7F)?;
    let glc = bit(w0, 16);
    let null = Operand::Special(Special::Null);
    // a GLOBAL base is an SGPR pair (aligned like any 64-bit scalar operand)
    let saddr = match seg {
        Seg::Flat => null,
        Seg::Global => sreg(w1 >> 16 & 0x7F)?.aligned(2),
        Seg::Scratch => sreg(w1 >> 16 & 0x7F)?,
    };
    let raw = (w0 & 0xFFF) as i16;
    let has_addr = has(f, Field::Addr) && !(seg == Seg::Scratch && saddr != null);
    let returns = has(f, Field::Vdst) || (is_atomic(f) && glc);
    let i = Flat {
        op: f.op,
        seg,
        vdst: if returns { (w1 >> 24) as u8 } else { 0 },
        addr: if has_addr { w1 as u8 } else { 0 },
        data: if has(f, Field::Data) { (w1 >> 8) as u8 } else { 0 },
        saddr,
        offset: if seg == Seg::Flat { raw & 0x7FF } else { raw << 4 >> 4 },
        glc,
        slc: bit(w0, 17),
        dlc: bit(w0, 12),
    };
    Ok((Inst::Flat(i), 2))
}

fn srcs(w: &Words, f: &Form, w1: u32, len: &mut usize) -> Result<[Operand; 3], DecodeError> {
    let mut out = [Operand::UNUSED; 3];
    for (k, fld) in [Field::Src0, Field::Src1, Field::Src2].into_iter().enumerate() {
        let code = w1 >> (9 * k) & 0x1FF;
        out[k] = match f.operand(fld).map(|o| o.kind) {
            None => Operand::UNUSED,
            Some(Kind::Attr) => Operand::Attr {
                attr: (code & 63) as u8,
                chan: (code >> 6 & 3) as u8,
                high: code >> 8 & 1 != 0,
            },
            Some(Kind::Param) if code < 3 => Operand::InterpParam(code as u8),
            Some(Kind::Param) => return Err(DecodeError::BadOperand(code as u16)),
            Some(_) => src(w, code, 2, len)?,
        };
    }
    Ok(out)
}

fn vdst_of(f: &Form, raw: u32) -> Result<Operand, DecodeError> {
    Ok(match f.operand(Field::Vdst).map(|o| o.kind) {
        // an 8-bit field: LLVM decodes every scalar code there, constants included
        Some(Kind::Sgpr) => match Operand::from_code(raw as u16, None) {
            Some(o) if raw < 256 => o,
            _ => return Err(DecodeError::BadOperand(raw as u16)),
        },
        Some(_) => Operand::Vgpr(raw as u8),
        None => Operand::UNUSED,
    })
}

fn decode_vop3(w: &Words, w0: u32) -> Result<(Inst, usize), DecodeError> {
    let mut len = 2;
    let w1 = w.get(1)?;
    let f = form(Enc::Vop3, w0 >> 16 & 0x3FF)?;
    let src = srcs(w, f, w1, &mut len)?;
    let carry = has(f, Field::Sdst);
    let inst = Vop3 {
        op: f.op,
        vdst: vdst_of(f, w0 & 0xFF)?,
        sdst: if carry { sreg(w0 >> 8 & 0x7F)? } else { Operand::UNUSED },
        src,
        abs: if carry { 0 } else { (w0 >> 8 & 7) as u8 },
        neg: (w1 >> 29) as u8,
        opsel: if carry { 0 } else { (w0 >> 11 & 15) as u8 },
        clamp: bit(w0, 15),
        omod: (w1 >> 27 & 3) as u8,
    };
    Ok((Inst::Vop3(inst), len))
}

fn decode_vop12c(w: &Words, w0: u32) -> Result<(Inst, usize), DecodeError> {
    let mut len = 1;
    let s0 = w0 & 0x1FF;
    let (enc, code) = match w0 >> 25 {
        0x3F => (Enc::Vop1, w0 >> 9 & 0xFF),
        0x3E => (Enc::Vopc, w0 >> 17 & 0xFF),
        c => (Enc::Vop2, c),
    };
    let f = form(enc, code)?;
    let vgpr_field = f.operand(Field::Src0).is_some_and(|o| o.accept & accept::VGPR_FIELD != 0);
    let (ext, src0) = if vgpr_field {
        (Ext::None, Operand::Vgpr(s0 as u8))
    } else if matches!(s0, 0xE9 | 0xEA | 0xF9 | 0xFA) && has(f, Field::Src0) {
        if has(f, Field::Literal) {
            return Err(DecodeError::BadOperand(s0 as u16)); // no DPP/SDWA for v_fmamk/v_fmaak
        }
        len = 2;
        crate::ext::decode(s0, w.get(1)?, enc)?
    } else if has(f, Field::Src0) {
        (Ext::None, src(w, s0, 1, &mut len)?)
    } else {
        (Ext::None, Operand::UNUSED)
    };
    let inst = match enc {
        Enc::Vop1 => Inst::Vop1(Vop1 { op: f.op, vdst: vdst_of(f, w0 >> 17 & 0xFF)?, src0, ext }),
        Enc::Vopc => Inst::Vopc(Vopc { op: f.op, src0, vsrc1: (w0 >> 9) as u8, ext }),
        _ => {
            let k = if has(f, Field::Literal) {
                len = 2;
                w.get(1)?
            } else {
                0
            };
            // v_fmamk/v_fmaak: a literal src0 is the same dword as K
            let src0 = match src0 {
                Operand::Literal(_) if has(f, Field::Literal) => Operand::Literal(k),
                o => o,
            };
            let vdst = (w0 >> 17) as u8;
            Inst::Vop2(Vop2 { op: f.op, vdst, src0, vsrc1: (w0 >> 9) as u8, k, ext })
        }
    };
    Ok((inst, len))
}
