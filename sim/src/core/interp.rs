//! VINTRP: `v_interp_p1_f32`, `v_interp_p2_f32`, `v_interp_mov_f32`, reading the primitive
//! parameters the SPI wrote into the wave's LDS.
//!
//! M0 holds `{new_prim_mask[15:1], lds_param_offset[15:0]}` (the PRIM_MASK SGPR the SPI
//! passes to a pixel shader): bit 16 + q - 1 set means quad q starts a new primitive (quad 0
//! always does), so quad q reads primitive `popcount(mask & ((1 << q) - 1))`. Each primitive's
//! parameters are `param_stride` bytes from `lds_param_offset`; attribute `a` occupies 48 bytes
//! at `a * 48`: P0.xyzw, then P10.xyzw (P1 - P0), then P20.xyzw (P2 - P0), one dword per
//! channel. The interpolation is `P0 + I * P10 + J * P20` in two fused steps (p1 then p2).

use ferrum_isa::{Opcode, Vintrp};

use super::lds::Lds;
use super::wave::{fault, Lanes, Wave, LANES, M0, R};

/// Bytes one attribute takes in a primitive's parameter block.
pub const ATTR_BYTES: u32 = 48;

/// Byte offset of each lane's primitive parameter block (by quad).
fn prim_base(w: &Wave) -> [u32; LANES / 4] {
    let m0 = w.s[M0];
    let offset = m0 & 0xffff;
    let mask = m0 >> 16;
    core::array::from_fn(|q| offset + (mask & ((1u32 << q) - 1)).count_ones() * w.param_stride)
}

/// Reads P0 (`which` = 0), P10 (1) or P20 (2) of `attr.chan` for every quad.
fn param(w: &Wave, lds: &Lds<'_>, attr: u8, chan: u8, which: u32) -> R<[f32; LANES / 4]> {
    let bases = prim_base(w);
    let mut out = [0f32; LANES / 4];
    for (q, o) in out.iter_mut().enumerate() {
        if (w.exec() >> (4 * q)) & 0xf == 0 {
            continue;
        }
        let addr = bases[q] + attr as u32 * ATTR_BYTES + which * 16 + chan as u32 * 4;
        *o = f32::from_bits(lds.read(addr, 4)? as u32);
    }
    Ok(out)
}

pub fn exec(w: &mut Wave, i: &Vintrp, lds: &Lds<'_>) -> R<()> {
    if i.attr > 32 || i.chan > 3 {
        return fault(format!("attribute {}.{} out of range", i.attr, i.chan));
    }
    let mut out: Lanes = [0; LANES];
    match i.op {
        Opcode::V_INTERP_P1_F32 => {
            let p0 = param(w, lds, i.attr, i.chan, 0)?;
            let p10 = param(w, lds, i.attr, i.chan, 1)?;
            let ij = *w.vrow(i.vsrc as u32)?;
            for l in 0..LANES {
                out[l] = p10[l / 4].mul_add(f32::from_bits(ij[l]), p0[l / 4]).to_bits();
            }
        }
        Opcode::V_INTERP_P2_F32 => {
            let p20 = param(w, lds, i.attr, i.chan, 2)?;
            let ij = *w.vrow(i.vsrc as u32)?;
            let acc = *w.vrow(i.vdst as u32)?;
            for l in 0..LANES {
                let d = f32::from_bits(acc[l]);
                out[l] = p20[l / 4].mul_add(f32::from_bits(ij[l]), d).to_bits();
            }
        }
        Opcode::V_INTERP_MOV_F32 => {
            // vsrc selects P10 (0), P20 (1) or P0 (2).
            let which = match i.vsrc {
                0 => 1,
                1 => 2,
                2 => 0,
                s => return fault(format!("v_interp_mov parameter {s} is undefined")),
            };
            let p = param(w, lds, i.attr, i.chan, which)?;
            for l in 0..LANES {
                out[l] = p[l / 4].to_bits();
            }
        }
        op => return fault(format!("unknown VINTRP opcode {}", op.name())),
    }
    let exec = w.exec();
    w.vwrite(i.vdst as u32, exec, &out)
}
