//! Shared test helpers: representative instructions for every form, and batched llvm-mc.

#![allow(dead_code)]

use ferrum_isa::tables::{mods, Enc, Field, Form, Kind};
use ferrum_isa::*;
use std::io::Write;
use std::process::{Command, Stdio};

/// Register numbers aligned for a range of `dw` dwords.
fn sreg(base: u8, dw: u8) -> Operand {
    let a = if dw >= 4 {
        4
    } else if dw == 2 {
        2
    } else {
        1
    };
    Operand::Sgpr(base / a * a)
}

fn has(f: &Form, fl: Field) -> bool {
    f.operand(fl).is_some()
}

/// Representative instructions for one form: registers, constants, literal, modifiers.
/// Fields the form does not have are left in the decoder's canonical state.
pub fn samples(enc: Enc, f: &'static Form) -> Vec<Inst> {
    let mut v = raw_samples(enc, f);
    for i in &mut v {
        normalize(i, f);
    }
    v
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

fn raw_samples(enc: Enc, f: &'static Form) -> Vec<Inst> {
    let op = f.op;
    let dw = |fl| f.dwords(fl);
    let v = Operand::Vgpr;
    let mut out = Vec::new();
    match enc {
        Enc::Sop2 | Enc::Sop1 | Enc::Sopc => {
            let sdst = sreg(20, dw(Field::Sdst));
            for k in 0..4 {
                let a = pick(f, Field::Ssrc0, k);
                let b = pick(f, Field::Ssrc1, k + 1);
                out.push(match enc {
                    Enc::Sop2 => Inst::Sop2(Sop2 { op, sdst, ssrc0: a, ssrc1: b }),
                    Enc::Sop1 => Inst::Sop1(Sop1 { op, sdst, ssrc0: a }),
                    _ => Inst::Sopc(Sopc { op, ssrc0: a, ssrc1: b }),
                });
            }
        }
        Enc::Sopk => {
            for imm in [0x1234u16, 0x8001, 0x0841] {
                out.push(Inst::Sopk(Sopk {
                    op,
                    sdst: sreg(20, dw(Field::Sdst)),
                    simm16: imm,
                    imm32: 0xdead_beef,
                }));
            }
        }
        Enc::Sopp => {
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
        Enc::Smem => {
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
        Enc::Vop1 | Enc::Vop2 | Enc::Vopc => {
            let vdst = match f.operand(Field::Vdst).map(|o| o.kind) {
                Some(Kind::Sgpr) => Operand::Sgpr(10),
                _ => v(10),
            };
            for k in 0..5 {
                let src0 = pick(f, Field::Src0, k);
                out.push(vop(enc, op, vdst, src0, 30, Ext::None));
            }
            ext_samples(enc, f, vdst, &mut out);
        }
        Enc::Vop3 => vop3_samples(f, &mut out),
        Enc::Vop3p => {
            for (k, opsel, hi) in [(0, 0, 7), (1, 1, 6), (2, 2, 5)] {
                let src = [
                    pick(f, Field::Src0, k),
                    pick(f, Field::Src1, k + 1),
                    pick(f, Field::Src2, k + 2),
                ];
                out.push(Inst::Vop3p(Vop3p {
                    op,
                    vdst: 10,
                    src,
                    neg: 0,
                    neg_hi: 0,
                    opsel,
                    opsel_hi: hi,
                    clamp: false,
                }));
            }
        }
        Enc::Ds => {
            // ds_swizzle prints its offset as a swizzle pattern, not yet modelled
            let plain = has(f, Field::Addr) && !f.mnemonic.starts_with("ds_swizzle");
            let shapes: &[(u8, u8, bool)] = if plain {
                if f.mnemonic.contains("permute") {
                    &[(0, 0, false), (0x34, 0x12, false)]
                } else {
                    &[(0, 0, false), (0x34, 0x12, false), (4, 0, true)]
                }
            } else {
                &[(0, 0, false)]
            };
            for &(o0, o1, gds) in shapes {
                out.push(Inst::Ds(Ds {
                    op,
                    vdst: 10,
                    addr: 20,
                    data0: 30,
                    data1: 40,
                    offset0: o0,
                    offset1: o1,
                    gds,
                }));
            }
        }
        Enc::Mubuf | Enc::Mtbuf => {
            let atomic = f.mnemonic.contains("_atomic");
            for (offen, idxen, offset, glc, slc, dlc, soffset) in [
                (true, false, 0x123, false, false, false, Operand::Sgpr(40)),
                (false, false, 0, true, true, true, Operand::Int(0)),
                (true, true, 4095, false, true, false, Operand::Special(Special::M0)),
                (false, true, 8, true, false, false, Operand::Special(Special::Null)),
            ] {
                let dlc = dlc && !atomic;
                let lds = offen
                    && !idxen
                    && enc == Enc::Mubuf
                    && f.mnemonic.starts_with("buffer_load_")
                    && !f.mnemonic.contains("format")
                    && !f.mnemonic.contains("dwordx")
                    && !f.mnemonic.contains("d16");
                let b = Buffer {
                    op,
                    vdata: 10,
                    vaddr: 20,
                    srsrc: if slc { 112 } else { 8 },
                    soffset,
                    offset,
                    offen,
                    idxen,
                    glc,
                    slc,
                    dlc,
                    lds,
                    tfe: false,
                    format: 1,
                };
                out.push(if enc == Enc::Mubuf { Inst::Mubuf(b) } else { Inst::Mtbuf(b) });
            }
        }
        Enc::Vintrp => {
            for (k, attr) in [0u8, 7, 32, 63].into_iter().enumerate() {
                let vsrc = if f.operand(Field::Vsrc).map(|o| o.kind) == Some(Kind::Param) {
                    (k % 3) as u8
                } else {
                    20 + k as u8
                };
                out.push(Inst::Vintrp(Vintrp { op, vdst: 10, vsrc, attr, chan: (k % 4) as u8 }));
            }
        }
        Enc::Exp => {
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
        Enc::Mimg => mimg_samples(f, &mut out),
        Enc::Flat | Enc::Scratch | Enc::Global => {
            let seg = match enc {
                Enc::Flat => Seg::Flat,
                Enc::Scratch => Seg::Scratch,
                _ => Seg::Global,
            };
            let null = Operand::Special(Special::Null);
            let sad = if seg == Seg::Global { Operand::Sgpr(40) } else { Operand::Sgpr(41) };
            for (saddr, offset, glc, slc, dlc) in [
                (null, 0i16, false, false, false),
                (null, 16, true, true, true),
                (sad, -8, false, true, false),
            ] {
                let (saddr, offset) =
                    if seg == Seg::Flat { (null, offset.abs()) } else { (saddr, offset) };
                if has(f, Field::Addr) || seg == Seg::Flat || saddr == null || seg == Seg::Scratch {
                    out.push(Inst::Flat(Flat {
                        op,
                        seg,
                        vdst: 10,
                        addr: 20,
                        data: 30,
                        saddr,
                        offset,
                        glc,
                        slc,
                        dlc,
                    }));
                }
            }
        }
    }
    out
}

fn vop(enc: Enc, op: Opcode, vdst: Operand, src0: Operand, vsrc1: u8, ext: Ext) -> Inst {
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
            out.push(vop(enc, f.op, vdst, v, 30, Ext::Dpp16(d)));
        }
    }
    if bit(mods::DPP8) {
        for (lanes, fi) in [([7, 6, 5, 4, 3, 2, 1, 0], false), ([0, 0, 1, 1, 2, 2, 7, 7], true)] {
            out.push(vop(enc, f.op, vdst, v, 30, Ext::Dpp8(Dpp8 { lanes, fi })));
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
            out.push(vop(enc, f.op, vdst, src0, if s.src1_scalar { 6 } else { 30 }, Ext::Sdwa(s)));
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

fn fits(accept_mask: u8, o: Operand) -> bool {
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

fn vop3_samples(f: &'static Form, out: &mut Vec<Inst>) {
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

fn mimg_samples(f: &'static Form, out: &mut Vec<Inst>) {
    use ferrum_isa::tables::MimgInfo;
    let Some(info) = MimgInfo::get(f.code) else { return };
    let m = f.mnemonic;
    let atomic = m.contains("atomic");
    let dmask = if m.contains("cmpswap") {
        3
    } else if atomic || info.gather4 {
        1
    } else {
        0xF
    };
    let base = Mimg {
        op: f.op,
        vdata: 10,
        vaddr: [0; 13],
        nsa: false,
        srsrc: 8,
        ssamp: if f.operand(Field::Ssamp).is_some() { 16 } else { 0 },
        dmask,
        dim: 1,
        unorm: false,
        glc: false,
        slc: false,
        dlc: false,
        r128: false,
        a16: false,
        tfe: false,
        lwe: false,
        d16: false,
    };
    for dim in 0..8u8 {
        for a16 in [false, true] {
            let n = info.addr_count(dim, a16) as usize;
            if n == 0 {
                continue;
            }
            let mut i = Mimg { dim, a16, ..base };
            i.vaddr[0] = 20;
            out.push(Inst::Mimg(i));
            if n > 1 && (dim == 1 || dim == 2) {
                let mut j = Mimg { nsa: true, ..i };
                for (k, a) in j.vaddr.iter_mut().enumerate().take(n) {
                    *a = 40 + 3 * k as u8;
                }
                out.push(Inst::Mimg(j));
            }
        }
    }
    let mut i = base;
    i.vaddr[0] = 20;
    if info.addr_count(1, false) == 0 {
        i.dim = 6;
    }
    out.push(Inst::Mimg(Mimg { glc: true, slc: true, dlc: true, ..i }));
    // r128 is printed by LLVM's disassembler but not accepted by its gfx10 assembler
    if !atomic {
        out.push(Inst::Mimg(Mimg { unorm: true, tfe: true, ..i }));
        out.push(Inst::Mimg(Mimg { lwe: true, dmask: if info.gather4 { 8 } else { 5 }, ..i }));
    }
    // these have no D16 variant in LLVM
    let no_d16 = ["pck", "get_resinfo", "msaa", "get_lod"].iter().any(|p| m.contains(p));
    if !atomic && !no_d16 {
        out.push(Inst::Mimg(Mimg { d16: true, dmask: if info.gather4 { 2 } else { 7 }, ..i }));
    }
}

/// Runs llvm-mc; None when it is not installed.
pub fn llvm_mc(args: &[&str], input: &str) -> Option<(String, String)> {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", "-mcpu=gfx1030"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    Some((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// Fails loudly (or skips loudly with FERRUM_ALLOW_NO_LLVM=1) when llvm-mc is missing.
pub fn require_llvm() -> bool {
    if llvm_mc(&["--version"], "").is_some() {
        return true;
    }
    eprintln!("*** llvm-mc NOT FOUND: the ISA encodings cannot be checked against LLVM ***");
    if std::env::var("FERRUM_ALLOW_NO_LLVM").as_deref() == Ok("1") {
        eprintln!("*** FERRUM_ALLOW_NO_LLVM=1: skipping ***");
        return false;
    }
    panic!("llvm-mc is required (install Debian package `llvm`), or set FERRUM_ALLOW_NO_LLVM=1");
}

/// Parses `text ; encoding: [0x..,..]` lines.
pub fn parse_encodings(stdout: &str) -> Vec<(String, Vec<u32>)> {
    let mut out = Vec::new();
    for l in stdout.lines() {
        let Some((text, enc)) = l.split_once("; encoding:") else { continue };
        let bytes: Vec<u8> = enc
            .trim()
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
            .collect();
        let words =
            bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |a, &b| a << 8 | b as u32)).collect();
        out.push((text.trim().to_string(), words));
    }
    out
}

/// Lines of `stderr` that report errors, as 1-based input line numbers.
pub fn error_lines(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter(|l| l.contains("error") || l.contains("warning"))
        .filter_map(|l| l.strip_prefix("<stdin>:")?.split(':').next()?.parse().ok())
        .collect()
}
