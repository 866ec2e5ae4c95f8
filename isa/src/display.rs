//! LLVM-syntax printing: the text `llvm-mc -arch=amdgcn -mcpu=gfx1030` prints for the same
//! words, and assembles back to them. Operand order and widths come from the form table; the
//! per-family code here only adds the modifiers.

use crate::encode::is_atomic;
use crate::imm;
use crate::inst::*;
use crate::operand::{Operand, Special};
use crate::tables::{mods, Field, Form, Kind, Od};
use std::fmt::{self, Write};

impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(form) = self.form() else {
            return write!(f, "<{} has no {:?} form>", self.op().name(), self.enc());
        };
        match self.ext().and_then(crate::ext::suffix) {
            Some(sfx) => write!(f, "{}{sfx}", self.op().name())?,
            None => f.write_str(form.mnemonic)?,
        }
        let mut first = true;
        let mut sep = |f: &mut fmt::Formatter<'_>| {
            let s = if first { " " } else { ", " };
            first = false;
            f.write_str(s)
        };
        if let Inst::Flat(i) = self {
            return flat(f, form, i, &mut sep);
        }
        if let Inst::Exp(e) = self {
            return exp(f, e);
        }
        if let Inst::Mimg(m) = self {
            return crate::mimg::display(f, form, m);
        }
        if let Inst::Mubuf(i) | Inst::Mtbuf(i) = self {
            return buffer(f, form, i, matches!(self, Inst::Mtbuf(_)), &mut sep);
        }
        for od in form.operands {
            if od.kind == Kind::DecOrNone && matches!(self, Inst::Sopp(Sopp { simm16: 0, .. })) {
                continue;
            }
            sep(f)?;
            operand(f, form, self, od)?;
        }
        modifiers(f, form, self)
    }
}

fn imm16(f: &mut fmt::Formatter<'_>, kind: Kind, v: u16) -> fmt::Result {
    match kind {
        Kind::Hex => write!(f, "0x{v:x}"),
        Kind::Waitcnt => imm::waitcnt(f, v),
        Kind::Hwreg => imm::hwreg(f, v),
        Kind::Sendmsg => imm::sendmsg(f, v),
        Kind::Auto if v > 64 => write!(f, "0x{v:x}"),
        _ => write!(f, "{v}"),
    }
}

pub(crate) fn src_mods(
    f: &mut fmt::Formatter<'_>,
    op: Operand,
    dw: u8,
    abs: bool,
    neg: bool,
) -> fmt::Result {
    // `-5` would read back as the constant -5, so a negated constant is written `neg(5)`
    let constant = matches!(op, Operand::Int(_) | Operand::Float(_) | Operand::Literal(_));
    if neg && !abs && constant {
        return write!(f, "neg({})", op.display(dw));
    }
    if neg {
        f.write_char('-')?;
    }
    if abs {
        write!(f, "|{}|", op.display(dw))
    } else {
        write!(f, "{}", op.display(dw))
    }
}

enum Val {
    None,
    Reg(Operand),
    Imm(Kind, u16),
    Hex(u32),
    Src(Operand, bool, bool),
    SmemOffset(i32),
}

fn operand(f: &mut fmt::Formatter<'_>, form: &Form, inst: &Inst, od: &Od) -> fmt::Result {
    let dw = od.dwords;
    if let Some(ext) = inst.ext().filter(|e| **e != Ext::None) {
        return ext_operand(f, form, inst, ext, od);
    }
    if od.field == Field::VccLo {
        return f.write_str("vcc_lo");
    }
    let v = match inst {
        Inst::Sop2(_) | Inst::Sopk(_) | Inst::Sop1(_) | Inst::Sopc(_) | Inst::Sopp(_) => {
            scalar_val(inst, od)
        }
        Inst::Smem(i) => match od.field {
            // s_atc_probe prints its sdata field as a plain number
            Field::Sdata if od.kind == Kind::Dec => return write!(f, "{}", i.sdata.code()),
            Field::Sdata => Val::Reg(i.sdata),
            Field::Sbase => Val::Reg(sgpr_base(i.sbase)),
            _ if i.soffset != Operand::Special(Special::Null) => Val::Reg(i.soffset),
            _ => Val::SmemOffset(i.offset),
        },
        Inst::Vop3(i) if matches!(od.field, Field::Src0 | Field::Src1 | Field::Src2) => {
            // like LLVM, print only the modifier bits the opcode has
            let k = src_index(od.field);
            let bit = |m: u32, b: u8| b >> k & 1 != 0 && form.mods & (m << k) != 0;
            let sext_bit = [mods::SEXT0, mods::SEXT1, mods::SEXT2][k];
            if i.neg >> k & 1 != 0 && form.mods & sext_bit != 0 {
                // integer sources: the NEG bit is sign extension
                return write!(f, "sext({})", i.src[k].display(dw));
            }
            Val::Src(i.src[k], bit(mods::ABS0, i.abs), bit(mods::NEG0, i.neg))
        }
        _ => vector_val(form, inst, od),
    };
    // a literal feeding a 16-bit operand only supplies its low half, and LLVM prints just that
    let half = |o: Operand| match o {
        Operand::Literal(x) if od.accept & crate::tables::accept::HALF != 0 => {
            Operand::Literal(x & 0xFFFF)
        }
        _ => o,
    };
    match v {
        Val::Reg(o) => write!(f, "{}", half(o).display(dw)),
        Val::Imm(kind, x) => imm16(f, kind, x),
        Val::Hex(x) => write!(f, "0x{x:x}"),
        Val::Src(o, abs, neg) => src_mods(f, half(o), dw, abs, neg),
        Val::SmemOffset(x) if x < 0 => write!(f, "-0x{:x}", -(x as i64)),
        Val::SmemOffset(x) => write!(f, "0x{x:x}"),
        Val::None => f.write_str("<?>"),
    }
}

/// The operand a 32-bit source with bit pattern `v` is printed as: an inline integer
/// (-16..=64), an inline float (±0.5, ±1, ±2, ±4, 1/(2π)) or a literal.
fn word_operand(v: u32) -> Operand {
    use crate::operand::FloatConst as F;
    if (-16..=64).contains(&(v as i32)) {
        return Operand::Int(v as i32 as i8);
    }
    let c = match v {
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
    Operand::Float(c)
}

fn scalar_val(inst: &Inst, od: &Od) -> Val {
    match (inst, od.field) {
        (Inst::Sop2(i), Field::Sdst) => Val::Reg(i.sdst),
        (Inst::Sop2(i), Field::Ssrc0) => Val::Reg(i.ssrc0),
        (Inst::Sop2(i), _) => Val::Reg(i.ssrc1),
        (Inst::Sopk(i), Field::Sdst) => Val::Reg(i.sdst),
        // printed as a 32-bit source would be: inline integers and floats by value
        (Inst::Sopk(i), Field::Literal) => Val::Reg(word_operand(i.imm32)),
        (Inst::Sopk(i), _) => Val::Imm(od.kind, i.simm16),
        (Inst::Sop1(i), Field::Sdst) => Val::Reg(i.sdst),
        (Inst::Sop1(i), _) => Val::Reg(i.ssrc0),
        (Inst::Sopc(i), Field::Ssrc0) => Val::Reg(i.ssrc0),
        (Inst::Sopc(i), _) => Val::Reg(i.ssrc1),
        (Inst::Sopp(i), _) => Val::Imm(od.kind, i.simm16),
        _ => Val::None,
    }
}

fn vector_val(form: &Form, inst: &Inst, od: &Od) -> Val {
    match (inst, od.field) {
        (Inst::Vop1(i), Field::Vdst) => Val::Reg(i.vdst),
        (Inst::Vop1(i), _) => Val::Reg(i.src0),
        (Inst::Vop2(i), Field::Vdst) => Val::Reg(Operand::Vgpr(i.vdst)),
        (Inst::Vop2(i), Field::Src0) => Val::Reg(i.src0),
        (Inst::Vop2(i), Field::Literal) => Val::Hex(i.k),
        (Inst::Vop2(i), _) => Val::Reg(Operand::Vgpr(i.vsrc1)),
        (Inst::Vopc(i), Field::Src0) => Val::Reg(i.src0),
        (Inst::Vopc(i), _) => Val::Reg(Operand::Vgpr(i.vsrc1)),
        (Inst::Vop3(i), Field::Vdst) => Val::Reg(i.vdst),
        (Inst::Vop3(i), _) => Val::Reg(i.sdst),
        (Inst::Vop3p(i), Field::Vdst) => Val::Reg(Operand::Vgpr(i.vdst)),
        // the mix ops (f16/f32 mixed precision) use NEG_HI as the absolute-value modifier
        (Inst::Vop3p(i), fl) if form.mnemonic.contains("_mix") => {
            let k = src_index(fl);
            Val::Src(i.src[k], i.neg_hi >> k & 1 != 0, i.neg >> k & 1 != 0)
        }
        (Inst::Vop3p(i), fl) => Val::Reg(i.src[src_index(fl)]),
        (Inst::Vintrp(i), Field::Vdst) => Val::Reg(Operand::Vgpr(i.vdst)),
        (Inst::Vintrp(i), Field::Vsrc) if od.kind == Kind::Param => {
            Val::Reg(Operand::InterpParam(i.vsrc))
        }
        (Inst::Vintrp(i), Field::Vsrc) => Val::Reg(Operand::Vgpr(i.vsrc)),
        (Inst::Vintrp(i), _) => Val::Reg(Operand::Attr { attr: i.attr, chan: i.chan, high: false }),
        (Inst::Ds(i), fl) => Val::Reg(Operand::Vgpr(match fl {
            Field::Vdst => i.vdst,
            Field::Addr => i.addr,
            Field::Data0 => i.data0,
            _ => i.data1,
        })),
        _ => Val::None,
    }
}

/// Operands of a DPP/SDWA instruction: sources carry the extension's modifiers.
fn ext_operand(
    f: &mut fmt::Formatter<'_>,
    form: &Form,
    inst: &Inst,
    ext: &Ext,
    od: &Od,
) -> fmt::Result {
    let m = form.mods;
    let src1_scalar = matches!(ext, Ext::Sdwa(Sdwa { src1_scalar: true, .. }));
    let src1 = |v: u8| {
        if src1_scalar {
            Operand::from_code(v as u16, None).unwrap_or(Operand::Sgpr(v))
        } else {
            Operand::Vgpr(v)
        }
    };
    match (inst, od.field) {
        (Inst::Vop1(i), Field::Src0) => crate::ext::source(f, ext, 0, i.src0, od.dwords, m),
        (Inst::Vop2(i), Field::Src0) => crate::ext::source(f, ext, 0, i.src0, od.dwords, m),
        (Inst::Vopc(i), Field::Src0) => crate::ext::source(f, ext, 0, i.src0, od.dwords, m),
        (Inst::Vop2(i), Field::Vsrc1) => crate::ext::source(f, ext, 1, src1(i.vsrc1), od.dwords, m),
        (Inst::Vopc(i), Field::Vsrc1) => crate::ext::source(f, ext, 1, src1(i.vsrc1), od.dwords, m),
        (Inst::Vopc(_), Field::VccLo) => match ext {
            Ext::Sdwa(Sdwa { sdst: Some(d), .. }) => write!(f, "{}", d.display(1)),
            _ => f.write_str("vcc_lo"),
        },
        (_, Field::VccLo) => f.write_str("vcc_lo"),
        (Inst::Vop1(i), _) => write!(f, "{}", i.vdst.display(od.dwords)),
        (Inst::Vop2(i), _) => write!(f, "{}", Operand::Vgpr(i.vdst).display(od.dwords)),
        _ => f.write_str("<?>"),
    }
}

fn src_index(fl: Field) -> usize {
    match fl {
        Field::Src0 => 0,
        Field::Src1 => 1,
        _ => 2,
    }
}

fn bits(f: &mut fmt::Formatter<'_>, name: &str, v: u8, n: usize) -> fmt::Result {
    write!(f, " {name}:[")?;
    for k in 0..n {
        if k > 0 {
            f.write_char(',')?;
        }
        write!(f, "{}", v >> k & 1)?;
    }
    f.write_char(']')
}

fn nsrc(form: &Form) -> usize {
    [Field::Src0, Field::Src1, Field::Src2].iter().filter(|&&x| form.operand(x).is_some()).count()
}

fn modifiers(f: &mut fmt::Formatter<'_>, form: &Form, inst: &Inst) -> fmt::Result {
    if let Some(ext) = inst.ext() {
        return crate::ext::trailer(f, ext, inst.enc());
    }
    match inst {
        Inst::Smem(i) => {
            flag(f, i.glc, "glc")?;
            flag(f, i.dlc, "dlc")
        }
        Inst::Vop3(i) => {
            let high = |o: &Operand| matches!(o, Operand::Attr { high: true, .. });
            flag(f, i.src.iter().any(high), "high")?;
            if i.opsel != 0 {
                let allowed = (form.mods >> 8) as u8 & 15;
                if allowed & 8 != 0 {
                    // one entry per source, then the destination (bit 3)
                    let n = nsrc(form);
                    let v = (i.opsel & ((1 << n) - 1)) | (i.opsel >> 3 & 1) << n;
                    bits(f, "op_sel", v, n + 1)?;
                } else if allowed != 0 {
                    // v_permlane*: two control bits (FI, BOUND_CTRL) in the op_sel field
                    let n = 8 - allowed.leading_zeros() as usize;
                    bits(f, "op_sel", i.opsel, n)?;
                }
                // else: the opcode has no op_sel; LLVM ignores (and does not print) the bits
            }
            flag(f, i.clamp && form.mods & mods::CLAMP != 0, "clamp")?;
            match if form.mods & mods::OMOD != 0 { i.omod } else { 0 } {
                1 => f.write_str(" mul:2"),
                2 => f.write_str(" mul:4"),
                3 => f.write_str(" div:2"),
                _ => Ok(()),
            }
        }
        Inst::Vop3p(i) => {
            let n = nsrc(form);
            let mask = (1u8 << n) - 1;
            if i.opsel & mask != 0 {
                bits(f, "op_sel", i.opsel, n)?;
            }
            let default_hi = if form.mnemonic.contains("_mix") { 0 } else { mask };
            if i.opsel_hi & mask != default_hi {
                bits(f, "op_sel_hi", i.opsel_hi, n)?;
            }
            let mix = form.mnemonic.contains("_mix");
            if i.neg & mask != 0 && !mix {
                bits(f, "neg_lo", i.neg, n)?;
            }
            if i.neg_hi & mask != 0 && !mix {
                bits(f, "neg_hi", i.neg_hi, n)?;
            }
            flag(f, i.clamp, "clamp")
        }
        Inst::Ds(i) => {
            if ds_two_offsets(form) {
                if i.offset0 != 0 {
                    write!(f, " offset0:{}", i.offset0)?;
                }
                if i.offset1 != 0 {
                    write!(f, " offset1:{}", i.offset1)?;
                }
            } else {
                let off = i.offset0 as u16 | (i.offset1 as u16) << 8;
                if off != 0 && form.mnemonic == "ds_swizzle_b32" {
                    f.write_str(" offset:")?;
                    imm::swizzle(f, off)?;
                } else if off != 0 {
                    write!(f, " offset:{off}")?;
                }
            }
            flag(f, i.gds, "gds")
        }
        _ => Ok(()),
    }
}

/// DS ops addressing two elements take two 8-bit offsets instead of one 16-bit offset.
pub(crate) fn ds_two_offsets(form: &Form) -> bool {
    let m = form.mnemonic;
    ["ds_read2", "ds_write2", "ds_wrxchg2"].iter().any(|p| m.starts_with(p))
}

fn flag(f: &mut fmt::Formatter<'_>, on: bool, name: &str) -> fmt::Result {
    if on {
        write!(f, " {name}")?;
    }
    Ok(())
}

type Sep<'a> = dyn FnMut(&mut fmt::Formatter<'_>) -> fmt::Result + 'a;

fn buffer_flags(f: &mut fmt::Formatter<'_>, form: &Form, i: &Buffer, typed: bool) -> fmt::Result {
    if typed && i.format != 1 {
        match crate::tables::mtbuf_format::NAMES.get(i.format as usize).copied().flatten() {
            Some(name) => write!(f, " format:{name}")?,
            None => write!(f, " format:{}", i.format)?,
        }
    }
    flag(f, i.idxen, "idxen")?;
    flag(f, i.offen, "offen")?;
    if i.offset != 0 {
        write!(f, " offset:{}", i.offset)?;
    }
    flag(f, i.glc, "glc")?;
    flag(f, i.slc, "slc")?;
    flag(f, i.dlc, "dlc")?;
    flag(f, i.lds, "lds")?;
    // LLVM neither prints nor accepts TFE on buffer atomics or LDS-DMA loads
    flag(f, i.tfe && !i.lds && !form.mnemonic.contains("_atomic"), "tfe")
}

fn buffer(
    f: &mut fmt::Formatter<'_>,
    form: &Form,
    i: &Buffer,
    typed: bool,
    sep: &mut Sep,
) -> fmt::Result {
    for od in form.operands {
        sep(f)?;
        match od.field {
            // LLVM does not count the TFE status register in the printed range
            Field::Vdata => write!(f, "{}", Operand::Vgpr(i.vdata).display(od.dwords))?,
            Field::Vaddr if !i.offen && !i.idxen => f.write_str("off")?,
            Field::Vaddr => {
                write!(f, "{}", Operand::Vgpr(i.vaddr).display(1 + (i.offen && i.idxen) as u8))?
            }
            Field::Srsrc => write!(f, "{}", sgpr_base(i.srsrc).display(4))?,
            _ => write!(f, "{}", i.soffset.display(1))?,
        }
    }
    if form.operands.is_empty() {
        return Ok(()); // buffer_gl0_inv & co: no operands, no modifiers
    }
    buffer_flags(f, form, i, typed)
}

fn flat(f: &mut fmt::Formatter<'_>, form: &Form, i: &Flat, sep: &mut Sep) -> fmt::Result {
    let off = i.saddr == Operand::Special(Special::Null);
    let st_mode = i.seg == Seg::Scratch && i.saddr == Operand::Special(Special::ExecHi);
    if is_atomic(form) && i.glc && form.operand(Field::Vdst).is_none() {
        sep(f)?;
        let dw = form.dwords(Field::Data);
        let dw = if form.mnemonic.contains("cmpswap") { dw / 2 } else { dw };
        write!(f, "{}", Operand::Vgpr(i.vdst).display(dw))?;
    }
    for od in form.operands {
        sep(f)?;
        match od.field {
            Field::Vdst => write!(f, "{}", Operand::Vgpr(i.vdst).display(od.dwords))?,
            Field::Data => write!(f, "{}", Operand::Vgpr(i.data).display(od.dwords))?,
            Field::Addr if i.seg == Seg::Scratch && !off => f.write_str("off")?,
            Field::Addr => {
                let dw = if i.seg == Seg::Flat || off { od.dwords } else { 1 };
                write!(f, "{}", Operand::Vgpr(i.addr).display(dw))?
            }
            _ if off || st_mode => f.write_str("off")?,
            _ => {
                let dw = if i.seg == Seg::Global { 2 } else { 1 };
                write!(f, "{}", i.saddr.display(dw))?
            }
        }
    }
    if i.offset != 0 {
        write!(f, " offset:{}", i.offset)?;
    }
    flag(f, i.glc, "glc")?;
    flag(f, i.slc, "slc")?;
    flag(f, i.dlc, "dlc")
}

fn exp(f: &mut fmt::Formatter<'_>, e: &Exp) -> fmt::Result {
    match e.target {
        0..=7 => write!(f, " mrt{}", e.target)?,
        8 => f.write_str(" mrtz")?,
        9 => f.write_str(" null")?,
        12..=16 => write!(f, " pos{}", e.target - 12)?,
        20 => f.write_str(" prim")?,
        32..=63 => write!(f, " param{}", e.target - 32)?,
        t => write!(f, " invalid_target_{t}")?,
    }
    for slot in 0..4 {
        f.write_str(if slot == 0 { " " } else { ", " })?;
        // compressed exports pack two 16-bit values per register: slots 0-1 read src[0]
        let reg = if e.compr { e.src[slot / 2] } else { e.src[slot] };
        if e.en >> slot & 1 != 0 {
            write!(f, "v{reg}")?;
        } else {
            f.write_str("off")?;
        }
    }
    flag(f, e.done, "done")?;
    flag(f, e.compr, "compr")?;
    flag(f, e.vm, "vm")
}

/// The first register of an aligned scalar tuple field (SMEM base, V#, S#): SGPRs, or trap
/// temporaries from 108 on.
pub(crate) fn sgpr_base(n: u8) -> Operand {
    match n {
        108..=123 => Operand::Ttmp(n - 108),
        _ => Operand::Sgpr(n),
    }
}
