//! M0-relative VGPR moves (`v_movrels_b32`, `v_movreld_b32`, `v_movrelsd_b32`,
//! `v_movrelsd_2_b32`) dispatched through winsys, checked against values worked out here
//! from the ISA guide's definitions: index 0, the last register of an array, a partial EXEC,
//! and indices past the wave's VGPR allocation (a source reads v0, a destination write is
//! dropped).

mod common;

use common::asm::{Asm, Int, Literal, Op, EXEC, S, V};
use common::{raw_vsharp, Dispatch, Gpu};
use ferrum_isa::{Operand, Special};

const M0: Operand = Operand::Special(Special::M0);
/// VGPRs the test waves are given (so v24 and up are out of range).
const VGPRS: u32 = 24;

fn init(lane: u32) -> u32 {
    lane * 3 + 1
}

/// The array every test indexes: v10..v17 = init(lane) + 100 * k.
fn array(lane: u32, k: u32) -> u32 {
    init(lane) + 100 * k
}

/// Runs one wave32: v0 = lane id, v1 = init(lane), v10..v17 = the array, v8/v9 = 0 and
/// v18..v23 = 7000 + register; then `body`; returns v8..v23 (16 rows of 32 lanes).
fn run_wave(body: impl Fn(&mut Asm)) -> Vec<Vec<u32>> {
    let gpu = Gpu::new();
    let input = gpu.buffer(4096);
    let out = gpu.buffer(4096);
    input.map.write_u32s(0, &(0..32).map(init).collect::<Vec<_>>()).unwrap();
    let mut p = Asm::new();
    p.vop2(Op::V_LSHLREV_B32, 20, Int(2), 0)
        .mubuf(Op::BUFFER_LOAD_DWORD, 1, 20, 0, false)
        .waitcnt(0, 63);
    for k in 0..8u8 {
        p.vop2(Op::V_ADD_NC_U32, 10 + k, Literal(100 * u32::from(k)), 1);
    }
    p.vop1(Op::V_MOV_B32, V(8), Int(0)).vop1(Op::V_MOV_B32, V(9), Int(0));
    p.vop1(Op::V_MOV_B32, V(19), Literal(7019));
    for r in 21..24u8 {
        p.vop1(Op::V_MOV_B32, V(r), Literal(7000 + u32::from(r)));
    }
    body(&mut p);
    // v20 held the address; v18 becomes it for the stores so that v20 is reported too.
    p.vop1(Op::V_MOV_B32, V(18), V(20));
    p.vop1(Op::V_MOV_B32, V(20), Literal(7020));
    for r in 0..16u8 {
        p.mubuf(Op::BUFFER_STORE_DWORD, 8 + r, 18, 4, false).vop2(
            Op::V_ADD_NC_U32,
            18,
            Literal(128),
            18,
        );
    }
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let mut ud = raw_vsharp(input.va, 128).to_vec();
    ud.extend(raw_vsharp(out.va, 4096));
    let d = Dispatch { vgprs: VGPRS, ..Dispatch::one_group(prog.va, &ud, [32, 1, 1]) };
    assert!(gpu.dispatch(&d, &prog, &[&input, &out]).unwrap());
    let words = out.map.read_u32s(0, 16 * 32).unwrap();
    words.chunks(32).map(|c| c.to_vec()).collect()
}

/// What `run_wave` reports for register `r` (8..24) of `lane` when `body` changed nothing.
fn untouched(r: u32, lane: u32) -> u32 {
    match r {
        8 | 9 => 0,
        10..=17 => array(lane, r - 10),
        18 => 4 * lane + 15 * 128, // overwritten by the store address; never compared
        _ => 7000 + r,
    }
}

fn check(got: &[Vec<u32>], expect: impl Fn(u32, u32) -> u32) {
    for r in 8..24u32 {
        if r == 18 {
            continue;
        }
        for lane in 0..32u32 {
            let want = expect(r, lane);
            let have = got[(r - 8) as usize][lane as usize];
            assert_eq!(have, want, "v{r} lane {lane}");
        }
    }
}

#[test]
fn movrels_reads_the_first_and_last_element() {
    let got = run_wave(|p| {
        p.sop1(Op::S_MOV_B32, M0, Int(0)).vop1(Op::V_MOVRELS_B32, V(8), V(10));
        p.sop1(Op::S_MOV_B32, M0, Int(7)).vop1(Op::V_MOVRELS_B32, V(9), V(10));
    });
    check(&got, |r, lane| match r {
        8 => array(lane, 0),
        9 => array(lane, 7),
        _ => untouched(r, lane),
    });
}

#[test]
fn movrels_past_the_allocation_reads_v0() {
    // 10 + 13 = v23 is the last allocated register; 10 + 14 = v24 is past the allocation.
    let got = run_wave(|p| {
        p.sop1(Op::S_MOV_B32, M0, Int(13)).vop1(Op::V_MOVRELS_B32, V(8), V(10));
        p.sop1(Op::S_MOV_B32, M0, Int(14)).vop1(Op::V_MOVRELS_B32, V(9), V(10));
    });
    check(&got, |r, lane| match r {
        8 => 7023,
        9 => lane,
        _ => untouched(r, lane),
    });
}

#[test]
fn movreld_writes_one_element_in_the_active_lanes_and_drops_writes_past_the_allocation() {
    let got = run_wave(|p| {
        // v10 + 3 = v13 gets the lane id in the low 16 lanes only.
        p.sop1(Op::S_MOV_B32, S(40), EXEC).sop1(Op::S_MOV_B32, EXEC, Literal(0xffff));
        p.sop1(Op::S_MOV_B32, M0, Int(3)).vop1(Op::V_MOVRELD_B32, V(10), V(0));
        p.sop1(Op::S_MOV_B32, EXEC, S(40));
        // Index 0 writes the base register itself; the largest u32 index is out of range.
        p.sop1(Op::S_MOV_B32, M0, Int(0)).vop1(Op::V_MOVRELD_B32, V(17), Literal(555));
        p.sop1(Op::S_MOV_B32, M0, Literal(u32::MAX)).vop1(Op::V_MOVRELD_B32, V(10), Int(9));
        p.sop1(Op::S_MOV_B32, M0, Int(14)).vop1(Op::V_MOVRELD_B32, V(10), Int(9));
    });
    check(&got, |r, lane| match r {
        13 if lane < 16 => lane,
        17 => 555,
        _ => untouched(r, lane),
    });
}

#[test]
fn movrelsd_indexes_both_registers() {
    let got = run_wave(|p| {
        // v[8 + 1] = v[10 + 1]; then `_2`: v[8 + 0] = v[10 + 5] (M0[9:0] = 5, M0[25:16] = 0),
        // and v[21 + 2] = v[10 + 7] with the bits between the fields set (ignored).
        p.sop1(Op::S_MOV_B32, M0, Int(1)).vop1(Op::V_MOVRELSD_B32, V(8), V(10));
        p.sop1(Op::S_MOV_B32, M0, Int(5)).vop1(Op::V_MOVRELSD_2_B32, V(8), V(10));
        p.sop1(Op::S_MOV_B32, M0, Literal(0xfc02_fc07)).vop1(Op::V_MOVRELSD_2_B32, V(21), V(10));
    });
    check(&got, |r, lane| match r {
        8 => array(lane, 5),
        9 => array(lane, 1),
        23 => array(lane, 7),
        _ => untouched(r, lane),
    });
}
