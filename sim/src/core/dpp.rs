//! Lane shuffles and sub-dword selects: the DPP16, DPP8 and SDWA extensions of VOP1/VOP2/VOPC,
//! and the VOP3 row permutes `v_permlane16_b32` / `v_permlanex16_b32`.
//!
//! Definitions follow AMD's RDNA2 ISA guide (VOP_DPP / VOP_SDWA) and LLVM's AMDGPU modifier
//! reference. A wave32 has two rows of 16 lanes; a bank is a group of four lanes within a row.
//! DPP only moves src0 between lanes; whether a lane is written at all is decided here too,
//! because an invalid source without BOUND_CTRL and the row/bank masks disable the lane.

use ferrum_isa::{Dpp16, Dpp8, Sdwa};

use super::wave::{fault, Wide, R};

/// The lane `lane` reads under DPP16 control `ctrl`; `Ok(None)` when the source is outside
/// the row (an invalid lane). Controls GFX10 does not define are an error.
pub fn dpp16_source(ctrl: u16, lane: usize) -> R<Option<usize>> {
    let row = lane & !15;
    let l = lane & 15;
    let n = (ctrl & 15) as usize;
    Ok(match ctrl {
        // quad_perm: lane i of each quad reads quad lane ctrl[2i+1:2i].
        0x000..=0x0ff => Some((lane & !3) | (ctrl as usize >> (2 * (lane & 3)) & 3)),
        // row_shl: data moves toward lane 0, so lane i reads lane i + n.
        0x101..=0x10f => (l + n < 16).then_some(row + l + n),
        // row_shr: lane i reads lane i - n.
        0x111..=0x11f => l.checked_sub(n).map(|s| row + s),
        // row_ror: rotate right within the row.
        0x121..=0x12f => Some(row + (l + 16 - n) % 16),
        0x140 => Some(row + 15 - l),
        0x141 => Some((lane & !7) + 7 - (lane & 7)),
        // row_share: every lane reads lane n of its row.
        0x150..=0x15f => Some(row + n),
        // row_xmask: lane i reads lane i ^ n of its row.
        0x160..=0x16f => Some(row + (l ^ n)),
        _ => return fault(format!("DPP control {ctrl:#x} is not defined on GFX10")),
    })
}

/// Shuffles `src` (one value per lane) under DPP16 and returns the lanes to write.
pub fn dpp16(d: &Dpp16, src: &mut Wide, exec: u32) -> R<u32> {
    let orig = *src;
    let mut write = exec;
    for (lane, value) in src.iter_mut().enumerate() {
        let row_on = d.row_mask >> (lane / 16) & 1 != 0;
        let bank_on = d.bank_mask >> ((lane / 4) & 3) & 1 != 0;
        if !row_on || !bank_on {
            write &= !(1 << lane);
            continue;
        }
        let valid = match dpp16_source(d.ctrl, lane)? {
            Some(s) if d.fi || exec >> s & 1 != 0 => Some(s),
            _ => None,
        };
        *value = match valid {
            Some(s) => orig[s],
            // BOUND_CTRL: an invalid source reads zero; without it the lane is not written.
            None if d.bound_ctrl => 0,
            None => {
                write &= !(1 << lane);
                0
            }
        };
    }
    Ok(write)
}

/// Shuffles `src` under DPP8: lane i of each group of eight reads lane `lanes[i]` of the group;
/// an inactive source reads zero unless FI.
pub fn dpp8(d: &Dpp8, src: &mut Wide, exec: u32) {
    let orig = *src;
    for (lane, value) in src.iter_mut().enumerate() {
        let s = (lane & !7) | (d.lanes[lane & 7] as usize & 7);
        *value = if d.fi || exec >> s & 1 != 0 { orig[s] } else { 0 };
    }
}

/// How a `v_permlane(x)16_b32` treats its sources: OP_SEL[0] is FI, OP_SEL[1] BOUND_CTRL.
#[derive(Debug, Clone, Copy)]
pub struct Permlane {
    /// `v_permlanex16_b32`: read from the other row.
    pub cross: bool,
    pub fi: bool,
    pub bound_ctrl: bool,
}

/// `v_permlane16_b32` / `v_permlanex16_b32`: lane `l` of each row reads lane `sel[l]` of its
/// own (or the other) row, where the 4-bit selects of lanes 0..7 come from `sel_lo` (S1)
/// and those of lanes 8..15 from `sel_hi` (S2). An inactive source reads 0 with BOUND_CTRL and
/// leaves the destination lane at `old` without it, unless FI fetches it anyway.
pub fn permlane16(
    p: Permlane,
    src: &Wide,
    sel_lo: u32,
    sel_hi: u32,
    exec: u32,
    old: &[u32; 32],
) -> [u32; 32] {
    std::array::from_fn(|lane| {
        let l = lane & 15;
        let sel = if l < 8 { sel_lo >> (4 * l) } else { sel_hi >> (4 * (l - 8)) } & 15;
        let row = if p.cross { (lane & !15) ^ 16 } else { lane & !15 };
        let s = row + sel as usize;
        if p.fi || exec >> s & 1 != 0 {
            src[s] as u32
        } else if p.bound_ctrl {
            0
        } else {
            old[lane]
        }
    })
}

/// (shift, width) of an SDWA select: 0..=3 BYTE_n, 4..=5 WORD_n, 6 DWORD.
fn sel_field(sel: u8) -> R<(u32, u32)> {
    Ok(match sel {
        0..=3 => (8 * sel as u32, 8),
        4 | 5 => (16 * (sel as u32 - 4), 16),
        6 => (0, 32),
        _ => return fault(format!("SDWA select {sel} is reserved")),
    })
}

/// The SDWA source operand: the selected field, zero- or sign-extended to 32 bits.
pub fn sdwa_source(sel: u8, sext: bool, x: u32) -> R<u32> {
    let (shift, width) = sel_field(sel)?;
    if width == 32 {
        return Ok(x);
    }
    let field = x >> shift & ((1 << width) - 1);
    Ok(if sext { ((field << (32 - width)) as i32 >> (32 - width)) as u32 } else { field })
}

/// The SDWA destination: the result's low bits placed in the selected field; the other bits
/// zero (UNUSED_PAD), the field's sign above it and zero below (UNUSED_SEXT) or the old
/// register value (UNUSED_PRESERVE).
pub fn sdwa_dest(s: &Sdwa, result: u32, old: u32) -> R<u32> {
    let (shift, width) = sel_field(s.dst_sel)?;
    if width == 32 {
        return Ok(result);
    }
    let mask = ((1u32 << width) - 1) << shift;
    let placed = (result << shift) & mask;
    Ok(match s.dst_unused {
        0 => placed,
        1 => {
            let negative = result >> (width - 1) & 1 != 0;
            let above = if shift + width >= 32 { 0 } else { u32::MAX << (shift + width) };
            placed | if negative { above } else { 0 }
        }
        2 => (old & !mask) | placed,
        u => return fault(format!("SDWA dst_unused {u} is reserved")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d16(ctrl: u16) -> Dpp16 {
        Dpp16 { ctrl, row_mask: 0xf, bank_mask: 0xf, bound_ctrl: false, fi: false, neg: 0, abs: 0 }
    }

    fn lanes() -> Wide {
        std::array::from_fn(|l| 100 + l as u64)
    }

    /// (control, lane, source lane) from the ISA guide's definitions.
    #[test]
    fn dpp16_sources_follow_the_isa_guide() {
        let table: &[(u16, usize, Option<usize>)] = &[
            (0x1b, 0, Some(3)), // quad_perm:[3,2,1,0]
            (0x1b, 6, Some(5)),
            (0xe4, 21, Some(21)), // identity
            (0x00, 23, Some(20)), // broadcast quad lane 0
            (0x101, 0, Some(1)),  // row_shl:1
            (0x101, 15, None),
            (0x10f, 16, Some(31)),
            (0x111, 0, None), // row_shr:1
            (0x111, 17, Some(16)),
            (0x113, 31, Some(28)),
            (0x121, 0, Some(15)), // row_ror:1
            (0x121, 16, Some(31)),
            (0x12f, 3, Some(4)),
            (0x140, 0, Some(15)), // row_mirror
            (0x140, 20, Some(27)),
            (0x141, 0, Some(7)), // row_half_mirror
            (0x141, 9, Some(14)),
            (0x155, 3, Some(5)), // row_share:5
            (0x155, 30, Some(21)),
            (0x163, 1, Some(2)), // row_xmask:3
            (0x16f, 17, Some(30)),
        ];
        for &(ctrl, lane, want) in table {
            assert_eq!(dpp16_source(ctrl, lane).unwrap(), want, "ctrl {ctrl:#x} lane {lane}");
        }
        for bad in [0x100, 0x110, 0x130, 0x142, 0x143, 0x170] {
            assert!(dpp16_source(bad, 0).is_err(), "{bad:#x}");
        }
    }

    #[test]
    fn dpp16_bound_ctrl_fetch_inactive_and_masks() {
        let exec = !(1u32 << 2);
        // row_shr:1 without bound_ctrl: lane 0 and lane 16 are not written; lane 3 reads the
        // inactive lane 2, so it is not written either.
        let mut v = lanes();
        let w = dpp16(&d16(0x111), &mut v, exec).unwrap();
        assert_eq!(w, exec & !(1 | 1 << 16 | 1 << 3));
        assert_eq!(v[5], 104);
        // With bound_ctrl those lanes read zero and are written.
        let mut v = lanes();
        let w = dpp16(&Dpp16 { bound_ctrl: true, ..d16(0x111) }, &mut v, exec).unwrap();
        assert_eq!(w, exec);
        assert_eq!((v[0], v[3], v[16]), (0, 0, 0));
        // FI fetches the inactive lane's value.
        let mut v = lanes();
        dpp16(&Dpp16 { fi: true, ..d16(0x111) }, &mut v, exec).unwrap();
        assert_eq!(v[3], 102);
        // Row 1 and bank 0 disabled.
        let mut v = lanes();
        let w =
            dpp16(&Dpp16 { row_mask: 1, bank_mask: 0xe, ..d16(0xe4) }, &mut v, u32::MAX).unwrap();
        assert_eq!(w, 0xfff0);
    }

    #[test]
    fn dpp8_selects_within_groups_of_eight() {
        let mut v = lanes();
        dpp8(&Dpp8 { lanes: [7, 6, 5, 4, 3, 2, 1, 0], fi: false }, &mut v, !(1 << 15));
        assert_eq!((v[0], v[9], v[8], v[31]), (107, 114, 0, 124), "lane 15 is inactive");
    }

    #[test]
    fn permlane16_selects_within_and_across_rows() {
        let src = lanes();
        let old = [7u32; 32];
        // Reverse each row: lane l reads 15 - l.
        let p = Permlane { cross: false, fi: false, bound_ctrl: false };
        let r = permlane16(p, &src, 0x89ab_cdef, 0x0123_4567, u32::MAX, &old);
        assert_eq!((r[0], r[7], r[8], r[16], r[31]), (115, 108, 107, 131, 116));
        // Across rows with identity selects: lane l reads lane l ^ 16.
        let x = Permlane { cross: true, ..p };
        let r = permlane16(x, &src, 0x7654_3210, 0xfedc_ba98, u32::MAX, &old);
        assert_eq!((r[0], r[17], r[31]), (116, 101, 115));
        // Source lane 16 inactive: old value, zero with BOUND_CTRL, the value with FI.
        let exec = !(1u32 << 16);
        assert_eq!(permlane16(x, &src, 0x7654_3210, 0, exec, &old)[0], 7);
        let bc = Permlane { bound_ctrl: true, ..x };
        assert_eq!(permlane16(bc, &src, 0x7654_3210, 0, exec, &old)[0], 0);
        let fi = Permlane { fi: true, ..x };
        assert_eq!(permlane16(fi, &src, 0x7654_3210, 0, exec, &old)[0], 116);
    }

    #[test]
    fn sdwa_selects_and_destinations() {
        assert_eq!(sdwa_source(1, false, 0x1234_80ff).unwrap(), 0x80);
        assert_eq!(sdwa_source(1, true, 0x1234_80ff).unwrap(), 0xffff_ff80);
        assert_eq!(sdwa_source(5, true, 0x8001_0000).unwrap(), 0xffff_8001);
        assert_eq!(sdwa_source(6, true, 0x8001_0000).unwrap(), 0x8001_0000);
        let s = |dst_sel, dst_unused| Sdwa {
            dst_sel,
            dst_unused,
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
        let old = 0xaabb_ccdd;
        assert_eq!(sdwa_dest(&s(1, 0), 0x1f0, old).unwrap(), 0x0000_f000);
        assert_eq!(sdwa_dest(&s(1, 1), 0x1f0, old).unwrap(), 0xffff_f000);
        assert_eq!(sdwa_dest(&s(1, 1), 0x170, old).unwrap(), 0x0000_7000);
        assert_eq!(sdwa_dest(&s(1, 2), 0x1f0, old).unwrap(), 0xaabb_f0dd);
        assert_eq!(sdwa_dest(&s(5, 2), 0x1234_5678, old).unwrap(), 0x5678_ccdd);
        assert_eq!(sdwa_dest(&s(6, 0), 0x1234_5678, old).unwrap(), 0x1234_5678);
    }
}
