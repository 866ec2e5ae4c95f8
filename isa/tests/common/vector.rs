//! Representative VALU instructions: VOP1/VOP2/VOPC (with DPP and SDWA), VOP3, VOP3P,
//! VINTRP and EXP, with sources chosen from what the table says LLVM accepts.

use ferrum_isa::tables::{mods, Enc, Field, Form, Kind};
use ferrum_isa::*;

pub(super) fn vop(enc: Enc, f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    let v = Operand::Vgpr;
    let vdst = match f.operand(Field::Vdst).map(|o| o.kind) {
        Some(Kind::Sgpr) => Operand::Sgpr(10),
        _ => v(10),
    };
    for k in 0..5 {
        let src0 = pick(f, Field::Src0, k);
        out.push(vop_inst(enc, op, vdst, src0, 30, Ext::None));
    }
    ext_samples(enc, f, vdst, out);
}

fn vop_inst(enc: Enc, op: Opcode, vdst: Operand, src0: Operand, vsrc1: u8, ext: Ext) -> Inst {
    match enc {
        Enc::Vop1 => Inst::Vop1(Vop1 { op, vdst, src0, ext }),
        Enc::Vop2 => Inst::Vop2(Vop2 { op, vdst: 10, src0, vsrc1, k: 0x3e81, ext }),
        _ => Inst::Vopc(Vopc { op, src0, vsrc1, ext }),
    }
}

/// DPP16, DPP8 and SDWA variants, as far as the form's table entry says LLVM has them.
fn ext_samples(enc: Enc, f: &Form, vdst: Operand, out: &mut Vec<Inst>) {
    let m = f.mods;
    let bit = |b: u32| m & b != 0;
    let v = Operand::Vgpr(20);
    let (neg, abs) = (
        (bit(mods::NEG0) as u8) | (bit(mods::NEG1) as u8) << 1,
        (bit(mods::ABS0) as u8) | (bit(mods::ABS1) as u8) << 1,
    );
    if bit(mods::DPP16) {
        for (k, ctrl) in
            [0x1Bu16, 0xE4, 0x101, 0x11F, 0x121, 0x140, 0x141, 0x153, 0x16F].into_iter().enumerate()
        {
            let d = Dpp16 {
                ctrl,
                row_mask: [0xF, 0x5, 0x1][k % 3],
                bank_mask: [0xF, 0xA, 0x3][k % 3],
                bound_ctrl: k % 2 == 1,
                fi: k % 3 == 2,
                neg: if k == 1 {
                    neg & 1
                } else if k == 2 {
                    neg
                } else {
                    0
                },
                abs: if k == 3 { abs } else { 0 },
            };
            out.push(vop_inst(enc, f.op, vdst, v, 30, Ext::Dpp16(d)));
        }
    }
    if bit(mods::DPP8) {
        for (lanes, fi) in [([7, 6, 5, 4, 3, 2, 1, 0], false), ([0, 0, 1, 1, 2, 2, 7, 7], true)] {
            out.push(vop_inst(enc, f.op, vdst, v, 30, Ext::Dpp8(Dpp8 { lanes, fi })));
        }
    }
    if bit(mods::SDWA) {
        let sext = (bit(mods::SEXT0) as u8) | (bit(mods::SEXT1) as u8) << 1;
        let base = Sdwa {
            dst_sel: 6,
            dst_unused: 0,
            clamp: false,
            omod: 0,
            src0_sel: 6,
            src1_sel: 6,
            sext: 0,
            neg: 0,
            abs: 0,
            src1_scalar: false,
            sdst: None,
        };
        let vopc = enc == Enc::Vopc;
        let vop1 = enc == Enc::Vop1;
        // v_cmpx has no mask destination; VCC readers already use a scalar (constant bus)
        let has_vcc = f.operand(Field::VccLo).is_some();
        let s4 = if f.operand(Field::Src0).is_some_and(|o| fits(o.accept, Operand::Sgpr(4))) {
            Operand::Sgpr(4)
        } else {
            v
        };
        let variants = [
            (v, base),
            (
                v,
                Sdwa {
                    dst_sel: if vopc { 0 } else { 1 },
                    dst_unused: if vopc { 0 } else { 2 },
                    src0_sel: 4,
                    src1_sel: if vop1 { 0 } else { 3 },
                    sext,
                    ..base
                },
            ),
            (
                s4,
                Sdwa {
                    dst_sel: if vopc { 0 } else { 5 },
                    src0_sel: 0,
                    src1_sel: if vop1 { 0 } else { 5 },
                    neg,
                    abs,
                    src1_scalar: !vop1 && (!has_vcc || vopc),
                    sdst: if vopc && has_vcc { Some(Operand::Sgpr(50)) } else { None },
                    ..base
                },
            ),
            (
                v,
                Sdwa {
                    clamp: bit(mods::CLAMP),
                    omod: if bit(mods::OMOD) { 3 } else { 0 },
                    dst_unused: if vopc { 0 } else { 1 },
                    src1_sel: if vop1 { 0 } else { 6 },
                    ..base
                },
            ),
        ];
        for (src0, s) in variants {
            let s = if vopc { Sdwa { dst_sel: 0, dst_unused: 0, ..s } } else { s };
            let s = if vop1 { Sdwa { src1_sel: 0, ..s } } else { s };
            out.push(vop_inst(
                enc,
                f.op,
                vdst,
                src0,
                if s.src1_scalar { 6 } else { 30 },
                Ext::Sdwa(s),
            ));
        }
    }
}

/// Candidate operands per source position, in order of preference; `pick` takes the k-th
/// (cyclically) that the table says LLVM accepts there.
fn candidates(fl: Field, dw: u8) -> Vec<Operand> {
    let (v, s) = match fl {
        Field::Ssrc1 | Field::Src1 | Field::Vsrc1 => (30, 12),
        Field::Src2 => (40, 16),
        _ => (20, 8),
    };
    let sreg = |n: u8| if dw >= 2 { Operand::Sgpr(n & !1) } else { Operand::Sgpr(n + 1) };
    let mut c = vec![
        Operand::Vgpr(v),
        sreg(s),
        Operand::Int(-16),
        Operand::Float(FloatConst::Half),
        Operand::Literal(0x1234),
        Operand::Int(64),
        Operand::Float(FloatConst::InvTwoPi),
        Operand::Special(Special::VccLo),
    ];
    if dw == 1 {
        c.push(Operand::Special(Special::M0));
        c.push(Operand::Special(Special::ExecLo));
    } else {
        c.push(Operand::Special(Special::ExecLo));
    }
    c
}

pub(super) fn fits(accept_mask: u8, o: Operand) -> bool {
    use ferrum_isa::tables::accept;
    let need = match o {
        Operand::Vgpr(_) => accept::VGPR,
        Operand::Sgpr(_) | Operand::Ttmp(_) | Operand::Special(_) => accept::SGPR,
        Operand::Int(_) => accept::INT,
        Operand::Float(_) => accept::FLOAT,
        Operand::Literal(_) => accept::LITERAL,
        Operand::Attr { .. } | Operand::InterpParam(_) => 0,
    };
    accept_mask & need != 0
}

pub fn pick(f: &Form, fl: Field, k: usize) -> Operand {
    let Some(od) = f.operand(fl) else { return Operand::UNUSED };
    if od.kind == Kind::Attr {
        let high = f.mnemonic.ends_with("_f16") && k % 2 == 1;
        return Operand::Attr { attr: [0, 5, 31, 63][k % 4], chan: (k % 4) as u8, high };
    }
    if od.kind == Kind::Param {
        return Operand::InterpParam((k % 3) as u8);
    }
    let ok: Vec<_> =
        candidates(fl, od.dwords).into_iter().filter(|&o| fits(od.accept, o)).collect();
    if ok.is_empty() {
        return Operand::UNUSED;
    }
    ok[k % ok.len()]
}

pub(super) fn vop3(f: &Form, out: &mut Vec<Inst>) {
    if f.operands.is_empty() {
        return; // v_nop & co: LLVM prints the VOP3 form without `_e64`, so it re-assembles as VOP1
    }
    let vdst = match f.operand(Field::Vdst).map(|o| o.kind) {
        Some(Kind::Sgpr) => Operand::Sgpr(10),
        _ => Operand::Vgpr(10),
    };
    let sdst = if f.operand(Field::Sdst).is_some() { Operand::Sgpr(50) } else { Operand::UNUSED };
    let mut push = |k: usize, abs: u8, neg: u8, opsel: u8, clamp: bool, omod: u8| {
        let src =
            [pick(f, Field::Src0, k), pick(f, Field::Src1, k + 1), pick(f, Field::Src2, k + 2)];
        out.push(Inst::Vop3(Vop3 { op: f.op, vdst, sdst, src, abs, neg, opsel, clamp, omod }));
    };
    for k in 0..4 {
        push(k, 0, 0, 0, false, 0);
    }
    let m = f.mods;
    let abs = (m & mods::ABS0 != 0) as u8
        | ((m & mods::ABS1 != 0) as u8) << 1
        | ((m & mods::ABS2 != 0) as u8) << 2;
    let neg = ((m & mods::NEG0 != 0) as u8)
        | ((m & mods::NEG1 != 0) as u8) << 1
        | ((m & mods::NEG2 != 0) as u8) << 2;
    let opsel = ((m >> 8) & 15) as u8;
    let omod = if m & mods::OMOD != 0 { 2 } else { 0 };
    if abs | neg | opsel != 0 || m & (mods::CLAMP | mods::OMOD) != 0 {
        push(0, abs & 5, neg & 1, opsel & 5, m & mods::CLAMP != 0, omod);
        push(0, abs & 2, 0, opsel & 10, false, omod / 2 * 3);
    }
}

pub(super) fn vop3p(f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    let float = f.mnemonic.contains("_f16") || f.mnemonic.contains("_f32");
    let shapes = [(0, 0, 7, 0, 0), (1, 1, 6, 0, 0), (2, 2, 5, 0, 0), (0, 0, 7, 1, 2)];
    for (k, opsel, hi, neg, neg_hi) in shapes {
        if neg | neg_hi != 0 && !float {
            continue;
        }
        let src =
            [pick(f, Field::Src0, k), pick(f, Field::Src1, k + 1), pick(f, Field::Src2, k + 2)];
        let clamp = false;
        out.push(Inst::Vop3p(Vop3p { op, vdst: 10, src, neg, neg_hi, opsel, opsel_hi: hi, clamp }));
    }
}

pub(super) fn vintrp(f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    for (k, attr) in [0u8, 7, 32, 63].into_iter().enumerate() {
        let vsrc = if f.operand(Field::Vsrc).map(|o| o.kind) == Some(Kind::Param) {
            (k % 3) as u8
        } else {
            20 + k as u8
        };
        out.push(Inst::Vintrp(Vintrp { op, vdst: 10, vsrc, attr, chan: (k % 4) as u8 }));
    }
}

pub(super) fn exp(out: &mut Vec<Inst>) {
    for (target, en, compr, done, vm) in [
        (0u8, 0xFu8, false, true, false),
        (8, 0x5, false, false, true),
        (9, 0, false, true, true),
        (12, 0x3, true, false, false),
        (20, 0xC, true, true, true),
        (32, 0xF, true, false, true),
        (63, 0xA, false, false, false),
    ] {
        // LLVM zeroes the register fields of disabled slots
        let on = |m: u8, r: u8| if en & m != 0 { r } else { 0 };
        let src = if compr {
            [on(3, 1), on(12, 2), 0, 0]
        } else {
            [on(1, 1), on(2, 2), on(4, 3), on(8, 4)]
        };
        out.push(Inst::Exp(Exp { target, en, src, compr, done, vm }));
    }
}
