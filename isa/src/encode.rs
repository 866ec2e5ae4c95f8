//! Instruction encoder: [`Inst`] to machine words.

use crate::error::EncodeError;
use crate::inst::*;
use crate::opcode::Opcode;
use crate::operand::{Operand, Special};
use crate::tables::{accept, Enc, Field, Form, Kind};

/// Machine words of one instruction (at most 3 for the families supported).
pub type Words = Vec<u32>;

/// Collects the single literal dword an instruction may carry.
#[derive(Default)]
struct Lit(Option<u32>);

impl Lit {
    fn src(&mut self, op: Operand, field: Field, scalar_only: bool) -> Result<u32, EncodeError> {
        let bad = Err(EncodeError::BadOperand { operand: op, field });
        let special = matches!(op, Operand::Attr { .. } | Operand::InterpParam(_));
        if special || !op.is_valid() || (scalar_only && matches!(op, Operand::Vgpr(_))) {
            return bad;
        }
        if let Operand::Literal(v) = op {
            match self.0 {
                Some(old) if old != v => return Err(EncodeError::TwoLiterals),
                _ => self.0 = Some(v),
            }
        }
        Ok(op.code() as u32)
    }

    fn push(self, mut w: Words) -> Words {
        w.extend(self.0);
        w
    }
}

/// A scalar destination (7 bits): SGPR, TTMP, VCC, M0, NULL, EXEC.
fn sdst(op: Operand, field: Field) -> Result<u32, EncodeError> {
    match op {
        Operand::Sgpr(_) | Operand::Ttmp(_) if op.is_valid() => Ok(op.code() as u32),
        Operand::Special(s) if op.code() < 128 && s != Special::Null || s_null(op) => {
            Ok(op.code() as u32)
        }
        _ => Err(EncodeError::BadOperand { operand: op, field }),
    }
}

fn s_null(op: Operand) -> bool {
    op == Operand::Special(Special::Null)
}

fn form(op: Opcode, enc: Enc) -> Result<&'static Form, EncodeError> {
    enc.form_of(op).ok_or(EncodeError::NoForm { op: op.name(), enc })
}

fn has(f: &Form, field: Field) -> bool {
    f.operand(field).is_some()
}

fn range(what: &'static str, v: i64, lo: i64, hi: i64) -> Result<u32, EncodeError> {
    if (lo..=hi).contains(&v) {
        Ok(v as u32)
    } else {
        Err(EncodeError::OutOfRange { what, value: v })
    }
}

/// Encodes one instruction. Misaligned scalar register tuples (s[5:6]) are refused.
pub fn encode(inst: &Inst) -> Result<Words, EncodeError> {
    let f = form(inst.op(), inst.enc())?;
    let mut copy = *inst;
    for (field, op) in copy.scalar_fields_mut() {
        if op.aligned(f.dwords(field)) != *op {
            return Err(EncodeError::BadOperand { operand: *op, field });
        }
    }
    match inst {
        Inst::Sop2(i) => encode_sop2(f, i),
        Inst::Sopk(i) => encode_sopk(f, i),
        Inst::Sop1(i) => encode_sop1(f, i),
        Inst::Sopc(i) => {
            let mut lit = Lit::default();
            let s0 = lit.src(i.ssrc0, Field::Ssrc0, true)?;
            let s1 = lit.src(i.ssrc1, Field::Ssrc1, true)?;
            Ok(lit.push(vec![0xBF00_0000 | (f.code as u32) << 16 | s1 << 8 | s0]))
        }
        Inst::Sopp(i) => {
            let imm = if has(f, Field::Simm16) { i.simm16 as u32 } else { 0 };
            Ok(vec![0xBF80_0000 | (f.code as u32) << 16 | imm])
        }
        Inst::Smem(i) => encode_smem(f, i),
        Inst::Vop1(i) => encode_vop1(f, i),
        Inst::Vop2(i) => encode_vop2(f, i),
        Inst::Vopc(i) => {
            let (s0, tail) = vop_src0(f, &i.ext, i.src0, Enc::Vopc)?;
            let mut w = vec![0x7C00_0000 | (f.code as u32) << 17 | (i.vsrc1 as u32) << 9 | s0];
            w.extend(tail);
            Ok(w)
        }
        Inst::Vop3(i) => encode_vop3(f, i),
        Inst::Vop3p(i) => encode_vop3p(f, i),
        Inst::Ds(i) => Ok(encode_ds(f, i)),
        Inst::Mubuf(i) => encode_buffer(f, i, false),
        Inst::Mtbuf(i) => encode_buffer(f, i, true),
        Inst::Flat(i) => encode_flat(f, i),
        Inst::Vintrp(i) => encode_vintrp(f, i),
        Inst::Exp(i) => Ok(encode_exp(i)),
        Inst::Mimg(i) => crate::mimg::encode(f, i),
    }
}

fn opt_sdst(f: &Form, field: Field, op: Operand) -> Result<u32, EncodeError> {
    if has(f, field) {
        sdst(op, field)
    } else {
        Ok(0)
    }
}

fn opt_src(
    f: &Form,
    lit: &mut Lit,
    field: Field,
    op: Operand,
    scalar: bool,
) -> Result<u32, EncodeError> {
    if has(f, field) {
        lit.src(op, field, scalar)
    } else {
        Ok(0)
    }
}

fn encode_sop2(f: &Form, i: &Sop2) -> Result<Words, EncodeError> {
    let mut lit = Lit::default();
    let d = opt_sdst(f, Field::Sdst, i.sdst)?;
    let s0 = opt_src(f, &mut lit, Field::Ssrc0, i.ssrc0, true)?;
    let s1 = opt_src(f, &mut lit, Field::Ssrc1, i.ssrc1, true)?;
    Ok(lit.push(vec![0x8000_0000 | (f.code as u32) << 23 | d << 16 | s1 << 8 | s0]))
}

fn encode_sopk(f: &Form, i: &Sopk) -> Result<Words, EncodeError> {
    let d = opt_sdst(f, Field::Sdst, i.sdst)?;
    let mut w = vec![0xB000_0000 | (f.code as u32) << 23 | d << 16 | i.simm16 as u32];
    if has(f, Field::Literal) {
        w.push(i.imm32);
    }
    Ok(w)
}

fn encode_sop1(f: &Form, i: &Sop1) -> Result<Words, EncodeError> {
    let mut lit = Lit::default();
    let d = opt_sdst(f, Field::Sdst, i.sdst)?;
    let s0 = opt_src(f, &mut lit, Field::Ssrc0, i.ssrc0, true)?;
    Ok(lit.push(vec![0xBE80_0000 | d << 16 | (f.code as u32) << 8 | s0]))
}

/// A VALU destination that is a VGPR, or an SGPR for forms that write scalars (an 8-bit
/// field that takes any scalar code, as the decoder returns them).
fn valu_dst(f: &Form, op: Operand) -> Result<u32, EncodeError> {
    match f.operand(Field::Vdst).map(|o| o.kind) {
        Some(Kind::Sgpr) => match op {
            Operand::Vgpr(_)
            | Operand::Literal(_)
            | Operand::Attr { .. }
            | Operand::InterpParam(_) => {
                Err(EncodeError::BadOperand { operand: op, field: Field::Vdst })
            }
            o if o.is_valid() => Ok(o.code() as u32),
            o => Err(EncodeError::BadOperand { operand: o, field: Field::Vdst }),
        },
        Some(_) => vgpr(op, Field::Vdst),
        None => Ok(0),
    }
}

/// src0 code and the words after the first: the DPP/SDWA dword, or a literal.
fn vop_src0(f: &Form, ext: &Ext, src0: Operand, enc: Enc) -> Result<(u32, Vec<u32>), EncodeError> {
    // v_swap_b32 & co: the field is a bare VGPR number
    let vgpr_field = f.operand(Field::Src0).is_some_and(|o| o.accept & accept::VGPR_FIELD != 0);
    if vgpr_field && !matches!(src0, Operand::Vgpr(_)) {
        return Err(EncodeError::BadOperand { operand: src0, field: Field::Src0 });
    }
    if let Some((code, dword)) = crate::ext::encode(ext, src0, enc)? {
        return Ok((code, vec![dword]));
    }
    let mut lit = Lit::default();
    let s0 = opt_src(f, &mut lit, Field::Src0, src0, false)?;
    Ok((s0, lit.push(Vec::new())))
}

fn encode_vop1(f: &Form, i: &Vop1) -> Result<Words, EncodeError> {
    let d = valu_dst(f, i.vdst)?;
    let (s0, tail) = vop_src0(f, &i.ext, i.src0, Enc::Vop1)?;
    let mut w = vec![0x7E00_0000 | d << 17 | (f.code as u32) << 9 | s0];
    w.extend(tail);
    Ok(w)
}

fn encode_vop2(f: &Form, i: &Vop2) -> Result<Words, EncodeError> {
    let (s0, tail) = vop_src0(f, &i.ext, i.src0, Enc::Vop2)?;
    let mut w = vec![(f.code as u32) << 25 | (i.vdst as u32) << 17 | (i.vsrc1 as u32) << 9 | s0];
    if has(f, Field::Literal) {
        // v_fmamk/v_fmaak carry one literal dword: a literal src0 must be K itself
        match (i.src0, i.ext) {
            (Operand::Literal(v), Ext::None) if v == i.k => {}
            (_, Ext::None) if tail.is_empty() => {}
            _ => return Err(EncodeError::TwoLiterals),
        }
        w.push(i.k);
        return Ok(w);
    }
    w.extend(tail);
    Ok(w)
}

fn encode_vop3p(f: &Form, i: &Vop3p) -> Result<Words, EncodeError> {
    let mut lit = Lit::default();
    let mut s = [0u32; 3];
    for (k, fld) in [Field::Src0, Field::Src1, Field::Src2].into_iter().enumerate() {
        s[k] = opt_src(f, &mut lit, fld, i.src[k], false)?;
    }
    let w0 = 0xCC00_0000
        | (f.code as u32) << 16
        | (i.clamp as u32) << 15
        | ((i.opsel_hi as u32 >> 2) & 1) << 14
        | (i.opsel as u32 & 7) << 11
        | (i.neg_hi as u32 & 7) << 8
        | i.vdst as u32;
    let w1 =
        s[0] | s[1] << 9 | s[2] << 18 | (i.opsel_hi as u32 & 3) << 27 | (i.neg as u32 & 7) << 29;
    Ok(lit.push(vec![w0, w1]))
}

fn encode_ds(f: &Form, i: &Ds) -> Words {
    let w0 = 0xD800_0000
        | (f.code as u32) << 18
        | (i.gds as u32) << 17
        | (i.offset1 as u32) << 8
        | i.offset0 as u32;
    let pick = |fl: Field, v: u8| if has(f, fl) { v as u32 } else { 0 };
    let w1 = pick(Field::Addr, i.addr)
        | pick(Field::Data0, i.data0) << 8
        | pick(Field::Data1, i.data1) << 16
        | pick(Field::Vdst, i.vdst) << 24;
    vec![w0, w1]
}

fn encode_vintrp(f: &Form, i: &Vintrp) -> Result<Words, EncodeError> {
    if i.attr > 63 || i.chan > 3 {
        return Err(EncodeError::OutOfRange { what: "attribute", value: i.attr as i64 });
    }
    Ok(vec![
        0xC800_0000
            | (i.vdst as u32) << 18
            | (f.code as u32) << 16
            | (i.attr as u32) << 10
            | (i.chan as u32) << 8
            | i.vsrc as u32,
    ])
}

fn encode_exp(i: &Exp) -> Words {
    let w0 = 0xF800_0000
        | (i.en as u32 & 15)
        | (i.target as u32 & 63) << 4
        | (i.compr as u32) << 10
        | (i.done as u32) << 11
        | (i.vm as u32) << 12;
    let s = i.src.map(|r| r as u32);
    vec![w0, s[0] | s[1] << 8 | s[2] << 16 | s[3] << 24]
}

/// Attribute / interpolation-parameter operands of the VOP3 `v_interp_*` forms.
fn special_src(op: Operand, field: Field) -> Result<u32, EncodeError> {
    match op {
        Operand::Attr { .. } | Operand::InterpParam(_) if op.is_valid() => Ok(op.code() as u32),
        _ => Err(EncodeError::BadOperand { operand: op, field }),
    }
}

fn vgpr(op: Operand, field: Field) -> Result<u32, EncodeError> {
    match op {
        Operand::Vgpr(n) => Ok(n as u32),
        _ => Err(EncodeError::BadOperand { operand: op, field }),
    }
}

fn encode_smem(f: &Form, i: &Smem) -> Result<Words, EncodeError> {
    if i.sbase & 1 != 0 || i.sbase > 126 {
        return Err(EncodeError::OutOfRange { what: "sbase", value: i.sbase as i64 });
    }
    let d = if has(f, Field::Sdata) { sdst(i.sdata, Field::Sdata)? } else { 0 };
    let base = if has(f, Field::Sbase) { i.sbase as u32 / 2 } else { 0 };
    let off = range("smem offset", i.offset as i64, -(1 << 20), (1 << 20) - 1)? & 0x1F_FFFF;
    let soff = if has(f, Field::Sbase) { sdst(i.soffset, Field::Soffset)? } else { 125 };
    if soff != 125 && i.offset != 0 {
        // LLVM 14 prints only the register then; keep the text and the bytes in agreement.
        return Err(EncodeError::OutOfRange {
            what: "smem offset with soffset",
            value: i.offset as i64,
        });
    }
    let c = f.code as u32;
    let w0 = 0xF400_0000 | c << 18 | (i.glc as u32) << 16 | (i.dlc as u32) << 14 | d << 6 | base;
    if !has(f, Field::Sbase) {
        return Ok(vec![w0, 0]); // s_memtime, s_dcache_inv, ...: no address at all
    }
    Ok(vec![w0, off | soff << 25])
}

fn encode_vop3(f: &Form, i: &Vop3) -> Result<Words, EncodeError> {
    let mut lit = Lit::default();
    let mut s = [0u32; 3];
    for (k, fld) in [Field::Src0, Field::Src1, Field::Src2].into_iter().enumerate() {
        s[k] = match f.operand(fld).map(|o| o.kind) {
            None => 0,
            Some(Kind::Attr | Kind::Param) => special_src(i.src[k], fld)?,
            Some(_) => lit.src(i.src[k], fld, false)?,
        };
    }
    let d = valu_dst(f, i.vdst)?;
    let mid = if has(f, Field::Sdst) {
        sdst(i.sdst, Field::Sdst)? << 8
    } else {
        (i.abs as u32 & 7) << 8 | (i.opsel as u32 & 15) << 11
    };
    let w0 = 0xD400_0000 | (f.code as u32) << 16 | (i.clamp as u32) << 15 | mid | d;
    let w1 = s[0] | s[1] << 9 | s[2] << 18 | (i.omod as u32 & 3) << 27 | (i.neg as u32 & 7) << 29;
    Ok(lit.push(vec![w0, w1]))
}

fn encode_buffer(f: &Form, i: &Buffer, typed: bool) -> Result<Words, EncodeError> {
    if f.operands.is_empty() {
        // buffer_gl0_inv, buffer_gl1_inv: the opcode alone; anything else set is a mistake
        let bare = Buffer::bare(i.op);
        if *i != bare {
            return Err(EncodeError::OutOfRange {
                what: "field of an operand-less buffer op",
                value: 0,
            });
        }
        let c = f.code as u32;
        return Ok(vec![0xE000_0000 | (c & 0x7F) << 18 | (c >> 7) << 25, 0]);
    }
    if i.srsrc & 3 != 0 || i.srsrc > 124 {
        return Err(EncodeError::OutOfRange { what: "srsrc", value: i.srsrc as i64 });
    }
    let off = range("buffer offset", i.offset as i64, 0, 4095)?;
    let mut lit = Lit::default();
    let soff = lit.src(i.soffset, Field::Soffset, true)?;
    let c = f.code as u32;
    let b = |x: bool, n: u32| (x as u32) << n;
    let vaddr = if i.offen || i.idxen { i.vaddr as u32 } else { 0 };
    let mut w0 = 0xE000_0000 | off | b(i.offen, 12) | b(i.idxen, 13) | b(i.glc, 14) | b(i.dlc, 15);
    let mut w1 = vaddr
        | (i.vdata as u32) << 8
        | (i.srsrc as u32 / 4) << 16
        | b(i.slc, 22)
        | b(i.tfe, 23)
        | soff << 24;
    if typed {
        w0 |= 0x0800_0000 | (c & 7) << 16 | (i.format as u32 & 0x7F) << 19;
        w1 |= (c >> 3) << 21;
    } else {
        w0 |= b(i.lds, 16) | (c & 0x7F) << 18 | (c >> 7) << 25;
    }
    Ok(lit.push(vec![w0, w1]))
}

fn encode_flat(f: &Form, i: &Flat) -> Result<Words, EncodeError> {
    let (seg, lo) = match i.seg {
        Seg::Flat => (0, 0),
        Seg::Scratch => (1, -2048),
        Seg::Global => (2, -2048),
    };
    let off = range("flat offset", i.offset as i64, lo, 2047)? & 0xFFF;
    let saddr = match i.seg {
        Seg::Flat => 0x7D,
        Seg::Global if i.saddr.aligned(2) != i.saddr => {
            return Err(EncodeError::BadOperand { operand: i.saddr, field: Field::Off });
        }
        _ => sdst(i.saddr, Field::Off)?,
    };
    let addr = if i.seg == Seg::Scratch && saddr != 0x7D || !has(f, Field::Addr) {
        0
    } else {
        i.addr as u32
    };
    let c = f.code as u32;
    let b = |x: bool, n: u32| (x as u32) << n;
    let w0 = 0xDC00_0000 | off | b(i.dlc, 12) | seg << 14 | b(i.glc, 16) | b(i.slc, 17) | c << 18;
    let data = if has(f, Field::Data) { i.data as u32 } else { 0 };
    let vdst = if has(f, Field::Vdst) || (is_atomic(f) && i.glc) { i.vdst as u32 } else { 0 };
    Ok(vec![w0, addr | data << 8 | saddr << 16 | vdst << 24])
}

/// Atomics return the pre-op value (and print a destination) only with GLC set.
pub(crate) fn is_atomic(f: &Form) -> bool {
    f.mnemonic.contains("_atomic_")
}
