//! Representative memory instructions: DS, MUBUF/MTBUF, FLAT/SCRATCH/GLOBAL and MIMG.

use super::samples::has;
use ferrum_isa::tables::{Enc, Field, Form};
use ferrum_isa::*;

pub(super) fn ds(f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
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

pub(super) fn buffer(enc: Enc, f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    let atomic = f.mnemonic.contains("_atomic");
    let rtn_only = f.mods & ferrum_isa::tables::mods::RTN_ONLY != 0;
    if f.operands.is_empty() {
        out.push(Inst::Mubuf(Buffer::bare(op)));
        return;
    }
    for (offen, idxen, offset, glc, slc, dlc, soffset) in [
        (true, false, 0x123, false, false, false, Operand::Sgpr(40)),
        (false, false, 0, true, true, true, Operand::Int(0)),
        (true, true, 4095, false, true, false, Operand::Special(Special::M0)),
        (false, true, 8, true, false, false, Operand::Special(Special::Null)),
    ] {
        let dlc = dlc && !atomic;
        let glc = glc || rtn_only;
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

pub(super) fn flat(enc: Enc, f: &Form, out: &mut Vec<Inst>) {
    let op = f.op;
    let seg = match enc {
        Enc::Flat => Seg::Flat,
        Enc::Scratch => Seg::Scratch,
        _ => Seg::Global,
    };
    let null = Operand::Special(Special::Null);
    let sad = if seg == Seg::Global { Operand::Sgpr(40) } else { Operand::Sgpr(41) };
    let rtn_only = f.mods & ferrum_isa::tables::mods::RTN_ONLY != 0;
    // GFX10.3 scratch's offset-only ("ST") mode: SADDR 0x7F, printed `off, off`.
    let st = Operand::Special(Special::ExecHi);
    for (saddr, offset, glc, slc, dlc) in [
        (null, 0i16, false, false, false),
        (null, 16, true, true, true),
        (sad, -8, false, true, false),
        (st, 32, false, false, false),
    ] {
        if saddr == st && seg != Seg::Scratch {
            continue;
        }
        let (saddr, offset) = if seg == Seg::Flat { (null, offset.abs()) } else { (saddr, offset) };
        if has(f, Field::Addr) || seg == Seg::Flat || saddr == null || seg == Seg::Scratch {
            out.push(Inst::Flat(Flat {
                op,
                seg,
                vdst: 10,
                addr: 20,
                data: 30,
                saddr,
                offset,
                glc: glc || rtn_only,
                slc,
                dlc,
            }));
        }
    }
}

pub(super) fn mimg(f: &Form, out: &mut Vec<Inst>) {
    use ferrum_isa::tables::MimgInfo;
    let Some(info) = MimgInfo::get(f.code) else { return };
    if info.bvh {
        return bvh(f, info, out);
    }
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

/// `image_bvh*_intersect_ray`: LLVM encodes dmask 0xf, unorm and r128 itself.
fn bvh(f: &Form, info: &ferrum_isa::tables::MimgInfo, out: &mut Vec<Inst>) {
    for (a16, nsa) in [(false, false), (false, true), (true, false), (true, true)] {
        let n = info.addr_count(0, a16) as usize;
        let mut vaddr = [0u8; 13];
        for (k, a) in vaddr.iter_mut().enumerate().take(if nsa { n } else { 1 }) {
            *a = 40 + 2 * k as u8;
        }
        out.push(Inst::Mimg(Mimg {
            op: f.op,
            vdata: 4,
            vaddr,
            nsa,
            srsrc: 8,
            ssamp: 0,
            dmask: 0xF,
            dim: 0,
            unorm: true,
            glc: false,
            slc: false,
            dlc: false,
            r128: true,
            a16,
            tfe: false,
            lwe: false,
            d16: false,
        }));
    }
}
