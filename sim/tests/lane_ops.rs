//! DPP16, DPP8 and SDWA forms dispatched through winsys, checked against values computed
//! here from the ISA guide's definitions.

mod common;

use common::asm::{Asm, Int, Literal, Op, EXEC, S, V};
use common::{raw_vsharp, Dispatch, Gpu};
use ferrum_isa::{Dpp16, Dpp8, Ext, Inst, Opcode, Sdwa, Vop1, Vop2, Vop3, Vopc};

fn dpp16(ctrl: u16, bound_ctrl: bool) -> Ext {
    Ext::Dpp16(Dpp16 { ctrl, row_mask: 0xf, bank_mask: 0xf, bound_ctrl, fi: false, neg: 0, abs: 0 })
}

fn vop2x(p: &mut Asm, op: Opcode, vdst: u8, src0: u8, vsrc1: u8, ext: Ext) {
    p.i(Inst::Vop2(Vop2 { op, vdst, src0: V(src0), vsrc1, k: 0, ext }));
}

fn sdwa(dst_sel: u8, dst_unused: u8, src0_sel: u8, src1_sel: u8, sext: u8) -> Sdwa {
    Sdwa {
        dst_sel,
        dst_unused,
        clamp: false,
        omod: 0,
        src0_sel,
        src1_sel,
        sext,
        neg: 0,
        abs: 0,
        src1_scalar: false,
        sdst: None,
    }
}

/// Runs one wave32 whose program `body` leaves results in v[8..8 + rows); returns
/// `rows` × 32 dwords. v0 = lane id, v1 = `init(lane)` on entry.
fn run_wave(init: impl Fn(u32) -> u32, body: impl Fn(&mut Asm), rows: u32) -> Vec<Vec<u32>> {
    let gpu = Gpu::new();
    let input = gpu.buffer(4096);
    let out = gpu.buffer(4096);
    input.map.write_u32s(0, &(0..32).map(&init).collect::<Vec<_>>()).unwrap();
    let mut p = Asm::new();
    p.vop2(Op::V_LSHLREV_B32, 20, Int(2), 0)
        .mubuf(Op::BUFFER_LOAD_DWORD, 1, 20, 0, false)
        .waitcnt(0, 63);
    body(&mut p);
    for r in 0..rows {
        p.mubuf(Op::BUFFER_STORE_DWORD, 8 + r as u8, 20, 4, false).vop2(
            Op::V_ADD_NC_U32,
            20,
            Literal(128),
            20,
        );
    }
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let mut ud = raw_vsharp(input.va, 128).to_vec();
    ud.extend(raw_vsharp(out.va, 4096));
    let d = Dispatch { vgprs: 24, ..Dispatch::one_group(prog.va, &ud, [32, 1, 1]) };
    assert!(gpu.dispatch(&d, &prog, &[&input, &out]).unwrap());
    let words = out.map.read_u32s(0, (rows * 32) as usize).unwrap();
    words.chunks(32).map(|c| c.to_vec()).collect()
}

/// Hillis–Steele inclusive scan within each row of 16: `v += v[lane - n]` for n = 1, 2, 4, 8
/// with row_shr and bound_ctrl (lanes before the row start read 0).
#[test]
fn row_shr_with_bound_ctrl_scans_each_row() {
    let init = |l: u32| l * 3 + 1;
    let got = run_wave(
        init,
        |p| {
            for n in [1u16, 2, 4, 8] {
                vop2x(p, Op::V_ADD_NC_U32, 1, 1, 1, dpp16(0x110 + n, true));
            }
            p.vop1(Op::V_MOV_B32, V(8), V(1));
        },
        1,
    );
    for lane in 0..32u32 {
        let row = lane & !15;
        let want: u32 = (row..=lane).map(init).sum();
        assert_eq!(got[0][lane as usize], want, "lane {lane}");
    }
}

/// Without bound_ctrl, lanes whose source is outside the row or inactive keep their old
/// value; row_mask/bank_mask disable whole rows and banks; row_xmask and quad_perm move data.
#[test]
fn invalid_sources_and_masks_leave_lanes_unwritten() {
    let init = |l: u32| 1000 + l;
    let got = run_wave(
        init,
        |p| {
            // v8: row_shl:3 without bound_ctrl, lane 6 inactive.
            p.vop1(Op::V_MOV_B32, V(8), Literal(7)).sop1(
                Op::S_MOV_B32,
                EXEC,
                Literal(!(1u32 << 6)),
            );
            p.i(Inst::Vop1(Vop1 {
                op: Op::V_MOV_B32,
                vdst: V(8),
                src0: V(1),
                ext: dpp16(0x103, false),
            }));
            p.sop1(Op::S_MOV_B32, EXEC, Int(-1));
            // v9: row_xmask:5 in row 1 only, banks 0 and 2.
            p.vop1(Op::V_MOV_B32, V(9), Literal(7));
            let masked = Dpp16 {
                ctrl: 0x165,
                row_mask: 0b10,
                bank_mask: 0b0101,
                bound_ctrl: false,
                fi: false,
                neg: 0,
                abs: 0,
            };
            p.i(Inst::Vop1(Vop1 {
                op: Op::V_MOV_B32,
                vdst: V(9),
                src0: V(1),
                ext: Ext::Dpp16(masked),
            }));
            // v10: quad_perm:[1,0,3,2] then v_sub with the original.
            vop2x(p, Op::V_SUB_NC_U32, 10, 1, 1, dpp16(0b10_11_00_01, false));
        },
        3,
    );
    for l in 0..32u32 {
        let lane = l as usize;
        let want8 = match lane {
            6 => 7,                         // inactive: not written
            _ if (lane & 15) + 3 > 15 => 7, // source beyond the row
            3 => 7,                         // source lane 6 is inactive
            _ => init(l + 3),
        };
        assert_eq!(got[0][lane], want8, "row_shl lane {lane}");
        let bank = (lane / 4) & 3;
        let want9 = if lane >= 16 && (bank == 0 || bank == 2) {
            init((l & !15) | ((l & 15) ^ 5))
        } else {
            7
        };
        assert_eq!(got[1][lane], want9, "row_xmask lane {lane}");
        let partner = l ^ 1;
        assert_eq!(got[2][lane], init(partner).wrapping_sub(init(l)), "quad_perm lane {lane}");
    }
}

/// DPP8 reverses each group of eight; an inactive source reads 0 unless FI.
#[test]
fn dpp8_reverses_groups_of_eight() {
    let init = |l: u32| 50 + l;
    let got = run_wave(
        init,
        |p| {
            p.sop1(Op::S_MOV_B32, EXEC, Literal(!(1u32 << 9)));
            for (dst, fi) in [(8, false), (9, true)] {
                let ext = Ext::Dpp8(Dpp8 { lanes: [7, 6, 5, 4, 3, 2, 1, 0], fi });
                p.i(Inst::Vop1(Vop1 { op: Op::V_MOV_B32, vdst: V(dst), src0: V(1), ext }));
            }
            p.sop1(Op::S_MOV_B32, EXEC, Int(-1));
        },
        2,
    );
    for lane in 0..32u32 {
        let src = (lane & !7) | (7 - (lane & 7));
        if lane == 9 {
            continue; // inactive: not written (reads whatever the register held)
        }
        let want8 = if src == 9 { 0 } else { init(src) };
        assert_eq!(got[0][lane as usize], want8, "fi:0 lane {lane}");
        assert_eq!(got[1][lane as usize], init(src), "fi:1 lane {lane}");
    }
}

/// SDWA: sign-extended byte and word sources, destinations padded, sign-extended or
/// preserved, and a compare writing an SGPR mask.
#[test]
fn sdwa_selects_sources_and_places_results() {
    let init = |l: u32| 0x80f0_7f00u32.wrapping_add(l * 0x0101_0111);
    let got = run_wave(
        init,
        |p| {
            // v8 = sext(byte1(v1)) + word1(v1), written to WORD_0 with UNUSED_SEXT.
            let s = sdwa(4, 1, 1, 5, 0b01);
            vop2x(p, Op::V_ADD_NC_U32, 8, 1, 1, Ext::Sdwa(s));
            // v9 = old 0x11223344, byte 2 replaced by byte3(v1) (UNUSED_PRESERVE).
            p.vop1(Op::V_MOV_B32, V(9), Literal(0x1122_3344));
            let s = sdwa(2, 2, 3, 6, 0);
            p.i(Inst::Vop1(Vop1 { op: Op::V_MOV_B32, vdst: V(9), src0: V(1), ext: Ext::Sdwa(s) }));
            // v10 = word0(v1) zero-extended, UNUSED_PAD into BYTE_0.
            let s = sdwa(0, 0, 4, 6, 0);
            p.i(Inst::Vop1(Vop1 { op: Op::V_MOV_B32, vdst: V(10), src0: V(1), ext: Ext::Sdwa(s) }));
            // v11 = lanes where sext(byte0(v1)) < 0 as a mask in s10, broadcast.
            let mut s = sdwa(6, 0, 0, 6, 0b01);
            s.sdst = Some(S(10));
            p.vop1(Op::V_MOV_B32, V(2), Int(0));
            p.i(Inst::Vopc(Vopc { op: Op::V_CMP_LT_I32, src0: V(1), vsrc1: 2, ext: Ext::Sdwa(s) }));
            p.vop1(Op::V_MOV_B32, V(11), S(10));
        },
        4,
    );
    let mut mask = 0u32;
    for l in 0..32u32 {
        let (lane, x) = (l as usize, init(l));
        let sum = ((x >> 8) as u8 as i8 as i32 as u32).wrapping_add(x >> 16);
        let field = sum & 0xffff;
        let want8 = if field & 0x8000 != 0 { field | 0xffff_0000 } else { field };
        assert_eq!(got[0][lane], want8, "WORD_0 / UNUSED_SEXT lane {lane}");
        assert_eq!(got[1][lane], 0x1100_3344 | (x >> 24) << 16, "BYTE_2 preserve lane {lane}");
        assert_eq!(got[2][lane], x & 0xff, "word0 into BYTE_0 lane {lane}");
        if (x as u8 as i8) < 0 {
            mask |= 1 << lane;
        }
    }
    assert!(mask != 0 && mask != u32::MAX, "the compare is not trivial");
    assert!(got[3].iter().all(|&m| m == mask), "sdwa compare mask {mask:#x}");
}

/// `v_permlane16_b32` reverses each row; `v_permlanex16_b32` with OP_SEL[1] (BOUND_CTRL)
/// reads the other row and gets 0 from an inactive source lane.
#[test]
fn permlane16_and_permlanex16() {
    let init = |l: u32| 0x40 + l;
    let got = run_wave(
        init,
        |p| {
            p.sop1(Op::S_MOV_B32, S(10), Literal(0x89ab_cdef))
                .sop1(Op::S_MOV_B32, S(11), Literal(0x0123_4567))
                .vop3(Op::V_PERMLANE16_B32, V(8), [V(1), S(10), S(11)])
                .vop1(Op::V_MOV_B32, V(9), Int(5))
                .sop1(Op::S_MOV_B32, EXEC, Literal(!(1u32 << 20)));
            p.i(Inst::Vop3(Vop3 {
                op: Op::V_PERMLANEX16_B32,
                vdst: V(9),
                sdst: common::asm::NULL,
                src: [V(1), S(11), S(11)],
                abs: 0,
                neg: 0,
                opsel: 0b10,
                clamp: false,
                omod: 0,
            }));
            p.sop1(Op::S_MOV_B32, EXEC, Int(-1));
        },
        2,
    );
    for l in 0..32u32 {
        let lane = l as usize;
        assert_eq!(got[0][lane], init((l & !15) + 15 - (l & 15)), "permlane16 lane {lane}");
        // S1 = S2 = 0x01234567: lane l of a row reads lane 7 - (l % 8) of the other row.
        let src = ((l & !15) ^ 16) + 7 - (l & 7);
        let want = match (lane, src) {
            (20, _) => 5,
            (_, 20) => 0,
            _ => init(src),
        };
        assert_eq!(got[1][lane], want, "permlanex16 lane {lane}");
    }
}
