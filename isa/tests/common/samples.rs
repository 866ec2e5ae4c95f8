//! Representative instructions for every table form: the dispatcher, the canonical form of
//! absent fields, and the scalar families.

use super::mem::{buffer, ds, flat, mimg};
use super::vector::{exp, vintrp, vop, vop3, vop3p};
use ferrum_isa::tables::{mods, Enc, Field, Form, Kind};
use ferrum_isa::*;

/// Register numbers aligned for a range of `dw` dwords.
pub(super) fn sreg(base: u8, dw: u8) -> Operand {
    let a = if dw >= 4 {
        4
    } else if dw == 2 {
        2
    } else {
        1
    };
    Operand::Sgpr(base / a * a)
}

pub(super) fn has(f: &Form, fl: Field) -> bool {
    f.operand(fl).is_some()
}

/// Representative instructions for one form: registers, constants, literal, modifiers.
/// Fields the form does not have are left in the decoder's canonical state.
pub fn samples(enc: Enc, f: &'static Form) -> Vec<Inst> {
    let mut out = Vec::new();
    match enc {
        Enc::Sop2 | Enc::Sop1 | Enc::Sopc => sop(enc, f, &mut out),
        Enc::Sopk => sopk(f, &mut out),
        Enc::Sopp => sopp(f, &mut out),
        Enc::Smem => smem(f, &mut out),
        Enc::Vop1 | Enc::Vop2 | Enc::Vopc => vop(enc, f, &mut out),
        Enc::Vop3 => vop3(f, &mut out),
        Enc::Vop3p => vop3p(f, &mut out),
        Enc::Ds => ds(f, &mut out),
        Enc::Mubuf | Enc::Mtbuf => buffer(enc, f, &mut out),
        Enc::Vintrp => vintrp(f, &mut out),
        Enc::Exp => exp(&mut out),
        Enc::Mimg => mimg(f, &mut out),
        Enc::Flat | Enc::Scratch | Enc::Global => flat(enc, f, &mut out),
    }
    for i in &mut out {
        normalize(i, f);
    }
    out
}

fn normalize(inst: &mut Inst, f: &Form) {
    let u = Operand::UNUSED;
    let no = |fl| f.operand(fl).is_none();
    match inst {
        Inst::Sop2(x) if no(Field::Sdst) => x.sdst = u,
        Inst::Sop1(x) => {
            if no(Field::Sdst) {
                x.sdst = u;
            }
            if no(Field::Ssrc0) {
                x.ssrc0 = u;
            }
        }
        Inst::Sopk(x) => {
            if no(Field::Sdst) {
                x.sdst = u;
            }
            if no(Field::Literal) {
                x.imm32 = 0;
            }
        }
        Inst::Vop1(x) => {
            if no(Field::Vdst) {
                x.vdst = u;
            }
            if no(Field::Src0) {
                x.src0 = u;
            }
        }
        Inst::Vop2(x) if no(Field::Literal) => x.k = 0,
        Inst::Vop3(x) if no(Field::Vdst) => x.vdst = u,
        Inst::Smem(x) => {
            if no(Field::Sdata) {
                x.sdata = u;
            }
            if no(Field::Sbase) {
                x.sbase = 0;
                x.offset = 0;
                x.soffset = Operand::Special(Special::Null);
            }
        }
        Inst::Mubuf(x) if f.operands.is_empty() => {
            *x = Buffer { op: x.op, soffset: u, ..*x };
        }
        Inst::Mubuf(x) => {
            x.format = 0;
            if !x.offen && !x.idxen {
                x.vaddr = 0;
            }
        }
        Inst::Mtbuf(x) if !x.offen && !x.idxen => x.vaddr = 0,
        Inst::Ds(x) => {
            for (fl, r) in [
                (Field::Vdst, &mut x.vdst),
                (Field::Addr, &mut x.addr),
                (Field::Data0, &mut x.data0),
                (Field::Data1, &mut x.data1),
            ] {
                if no(fl) {
                    *r = 0;
                }
            }
        }
        Inst::Flat(x) => {
            let atomic_rtn = f.mnemonic.contains("_atomic_") && x.glc;
            if no(Field::Vdst) && !atomic_rtn {
                x.vdst = 0;
            }
            if no(Field::Data) {
                x.data = 0;
            }
            let sgpr_addr = x.seg == Seg::Scratch && x.saddr != Operand::Special(Special::Null);
            if no(Field::Addr) || sgpr_addr {
                x.addr = 0;
            }
        }
        _ => {}
    }
}

fn sop(enc: Enc, f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    let dw = |fl| f.dwords(fl);
    let sdst = sreg(20, dw(Field::Sdst));
    for k in 0..4 {
        let a = super::vector::pick(f, Field::Ssrc0, k);
        let b = super::vector::pick(f, Field::Ssrc1, k + 1);
        out.push(match enc {
            Enc::Sop2 => Inst::Sop2(Sop2 { op, sdst, ssrc0: a, ssrc1: b }),
            Enc::Sop1 => Inst::Sop1(Sop1 { op, sdst, ssrc0: a }),
            _ => Inst::Sopc(Sopc { op, ssrc0: a, ssrc1: b }),
        });
    }
}

fn sopk(f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    let dw = |fl| f.dwords(fl);
    for imm in [0x1234u16, 0x8001, 0x0841] {
        out.push(Inst::Sopk(Sopk {
            op,
            sdst: sreg(20, dw(Field::Sdst)),
            simm16: imm,
            imm32: 0xdead_beef,
        }));
    }
}

fn sopp(f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    let kind = f.operand(Field::Simm16).map(|o| o.kind);
    let imms: &[u16] = match kind {
        None => &[0],
        Some(Kind::Waitcnt) => &[0, 0x3f70, 0xc07f, 0xff7f, 0x0070],
        Some(Kind::Sendmsg) => &[0x3, 0x22, 0x1, 0x1234, 0x12],
        _ => &[0, 3, 0x40, 0x41, 0xfffe],
    };
    for &simm16 in imms {
        out.push(Inst::Sopp(Sopp { op, simm16 }));
    }
}

fn smem(f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    let dw = |fl| f.dwords(fl);
    let addr = has(f, Field::Sbase);
    let (glc_ok, dlc_ok) = (f.mods & mods::GLC != 0, f.mods & mods::DLC != 0);
    let neg = if f.mnemonic.contains("buffer") { 4 } else { -4 };
    for (offset, soffset, glc, dlc) in [
        (0x10, Operand::Special(Special::Null), false, false),
        (neg, Operand::Special(Special::Null), glc_ok, dlc_ok),
        (0, Operand::Sgpr(40), false, dlc_ok),
    ] {
        let (offset, soffset) =
            if addr { (offset, soffset) } else { (0, Operand::Special(Special::Null)) };
        let sbase = if dw(Field::Sbase) == 4 { 8 } else { 6 };
        let sdata = if f.operand(Field::Sdata).map(|o| o.kind) == Some(Kind::Dec) {
            Operand::Sgpr(7) // s_atc_probe: a 7-bit number in the sdata field
        } else {
            sreg(32, dw(Field::Sdata))
        };
        out.push(Inst::Smem(Smem { op, sdata, sbase, offset, soffset, glc, dlc }));
    }
}
