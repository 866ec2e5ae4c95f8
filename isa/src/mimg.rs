//! MIMG encoding, decoding and printing, kept apart because its operand widths depend on the
//! opcode, dim, A16, dmask, D16 and TFE together, and its addresses may be listed one by one
//! (NSA: extra dwords after the instruction, one address VGPR per byte).

use crate::display::sgpr_base;
use crate::error::{DecodeError, EncodeError};
use crate::inst::{Inst, Mimg};
use crate::operand::Operand;
use crate::tables::{Enc, Field, Form, MimgInfo};
use std::fmt::{self, Write};

const DIMS: [&str; 8] =
    ["1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"];

fn addr_count(f: &Form, dim: u8, a16: bool) -> u8 {
    if f.operand(Field::Vaddr).is_none() {
        return 0;
    }
    MimgInfo::get(f.code).map_or(0, |m| m.addr_count(dim, a16))
}

/// LLVM's VGPR tuple classes: contiguous address ranges above 8 registers print as 16.
fn range_width(n: u8) -> u8 {
    if n <= 8 {
        n
    } else {
        16
    }
}

pub(crate) fn encode(f: &Form, i: &Mimg) -> Result<Vec<u32>, EncodeError> {
    let n = addr_count(f, i.dim, i.a16);
    if n == 0 || i.dim > 7 {
        return Err(EncodeError::OutOfRange { what: "mimg dim", value: i.dim as i64 });
    }
    if i.srsrc & 3 != 0 || i.ssamp & 3 != 0 || i.srsrc > 124 || i.ssamp > 124 {
        return Err(EncodeError::OutOfRange {
            what: "mimg descriptor sgpr",
            value: i.srsrc as i64,
        });
    }
    let extra = if i.nsa { (n as usize - 1).div_ceil(4) } else { 0 };
    let c = f.code as u32;
    let b = |x: bool, s: u32| (x as u32) << s;
    let w0 = 0xF000_0000
        | c >> 7
        | (extra as u32) << 1
        | (i.dim as u32) << 3
        | b(i.dlc, 7)
        | (i.dmask as u32 & 15) << 8
        | b(i.unorm, 12)
        | b(i.glc, 13)
        | b(i.r128, 15)
        | b(i.tfe, 16)
        | b(i.lwe, 17)
        | (c & 0x7F) << 18
        | b(i.slc, 25);
    let ssamp = if f.operand(Field::Ssamp).is_some() { i.ssamp as u32 / 4 } else { 0 };
    let w1 = i.vaddr[0] as u32
        | (i.vdata as u32) << 8
        | (i.srsrc as u32 / 4) << 16
        | ssamp << 21
        | b(i.a16, 30)
        | b(i.d16, 31);
    let mut words = vec![w0, w1];
    for k in 0..extra {
        let mut w = 0u32;
        for j in 0..4 {
            let a = 1 + 4 * k + j;
            if a < n as usize {
                w |= (i.vaddr[a] as u32) << (8 * j);
            }
        }
        words.push(w);
    }
    Ok(words)
}

pub(crate) fn decode(w: &[u32]) -> Result<(Inst, usize), DecodeError> {
    let w0 = w[0];
    let w1 = *w.get(1).ok_or(DecodeError::Truncated { need: 2, have: w.len() })?;
    let code = (w0 >> 18 & 0x7F | (w0 & 1) << 7) as u16;
    let f =
        Enc::Mimg.form_by_code(code).ok_or(DecodeError::UnknownOpcode { enc: Enc::Mimg, code })?;
    let bit = |x: u32, s: u32| x >> s & 1 != 0;
    let dim = (w0 >> 3 & 7) as u8;
    let a16 = bit(w1, 30);
    let n = addr_count(f, dim, a16) as usize;
    if n == 0 {
        return Err(DecodeError::UnknownEncoding(w0));
    }
    // a non-zero NSA field selects the NSA form; like LLVM, the number of extra dwords read is
    // what the address count needs, whatever the field's value
    let extra = if w0 >> 1 & 3 != 0 { (n - 1).div_ceil(4) } else { 0 };
    let len = 2 + extra;
    if w.len() < len {
        return Err(DecodeError::Truncated { need: len, have: w.len() });
    }
    let mut vaddr = [0u8; 13];
    vaddr[0] = w1 as u8;
    if extra > 0 {
        for (a, slot) in vaddr.iter_mut().enumerate().take(n).skip(1) {
            *slot = (w[2 + (a - 1) / 4] >> (8 * ((a - 1) % 4))) as u8;
        }
    }
    let i = Mimg {
        op: f.op,
        vdata: (w1 >> 8) as u8,
        vaddr,
        nsa: extra != 0,
        srsrc: (w1 >> 16 & 0x1F) as u8 * 4,
        ssamp: if f.operand(Field::Ssamp).is_some() { (w1 >> 21 & 0x1F) as u8 * 4 } else { 0 },
        dmask: (w0 >> 8 & 15) as u8,
        dim,
        unorm: bit(w0, 12),
        glc: bit(w0, 13),
        slc: bit(w0, 25),
        dlc: bit(w0, 7),
        r128: bit(w0, 15),
        a16,
        tfe: bit(w0, 16),
        lwe: bit(w0, 17),
        d16: bit(w1, 31),
    };
    Ok((Inst::Mimg(i), len))
}

/// `image_bvh*_intersect_ray`: LLVM prints neither dmask nor dim (it encodes dmask 0xf, unorm
/// and r128 itself), and the T# is four registers.
fn display_bvh(f: &mut fmt::Formatter<'_>, form: &Form, i: &Mimg) -> fmt::Result {
    let n = addr_count(form, i.dim, i.a16);
    write!(f, " {}, ", Operand::Vgpr(i.vdata).display(4))?;
    addresses(f, i, n)?;
    write!(f, ", {}", sgpr_base(i.srsrc).display(4))?;
    if i.a16 {
        f.write_str(" a16")?;
    }
    Ok(())
}

fn addresses(f: &mut fmt::Formatter<'_>, i: &Mimg, n: u8) -> fmt::Result {
    if i.nsa {
        f.write_char('[')?;
        for (k, a) in i.vaddr.iter().take(n as usize).enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "v{a}")?;
        }
        f.write_char(']')
    } else {
        write!(f, "{}", Operand::Vgpr(i.vaddr[0]).display(range_width(n)))
    }
}

pub(crate) fn display(f: &mut fmt::Formatter<'_>, form: &Form, i: &Mimg) -> fmt::Result {
    if MimgInfo::get(form.code).is_some_and(|m| m.bvh) {
        return display_bvh(f, form, i);
    }
    write!(f, " {}, ", Operand::Vgpr(i.vdata).display(i.vdata_dwords()))?;
    addresses(f, i, addr_count(form, i.dim, i.a16))?;
    write!(f, ", {}", sgpr_base(i.srsrc).display(8))?;
    if form.operand(Field::Ssamp).is_some() {
        write!(f, ", {}", sgpr_base(i.ssamp).display(4))?;
    }
    if i.dmask != 0 {
        write!(f, " dmask:0x{:x}", i.dmask)?;
    }
    write!(f, " dim:SQ_RSRC_IMG_{}", DIMS[i.dim as usize & 7])?;
    for (on, name) in [
        (i.unorm, "unorm"),
        (i.glc, "glc"),
        (i.slc, "slc"),
        (i.dlc, "dlc"),
        (i.r128, "r128"),
        (i.a16, "a16"),
        (i.tfe, "tfe"),
        (i.lwe, "lwe"),
        (i.d16, "d16"),
    ] {
        if on {
            write!(f, " {name}")?;
        }
    }
    Ok(())
}
