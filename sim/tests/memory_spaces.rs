//! Scratch (private) memory, the FLAT apertures and per-dword buffer range checks, with
//! hand-assembled programs dispatched through winsys.

mod common;

use common::asm::{Asm, Int, Literal, Op, NULL, S, V};
use common::{raw_vsharp, Buffer as Bo, Dispatch, Gpu};
use ferrum_isa::{Buffer, Flat, Inst, Opcode, Operand, Seg, Sopk, Special};

const HW_REG_FLAT_SCR_LO: u16 = 20;
const HW_REG_FLAT_SCR_HI: u16 = 21;
const PRIVATE_BASE: Operand = Operand::Special(Special::PrivateBase);
const SHARED_BASE: Operand = Operand::Special(Special::SharedBase);

/// A swizzled wave32 scratch V#: INDEX_STRIDE 32, ADD_TID_ENABLE, raw range check.
fn scratch_vsharp(va: u64, size: u32) -> [u32; 4] {
    let word3 = 0xfac | (22 << 12) | (2 << 21) | (1 << 23) | (1 << 24) | (3 << 28);
    [va as u32, (va >> 32) as u32 & 0xffff | 1 << 31, size, word3]
}

/// `hwreg(id, 0, 32)`.
fn hwreg(id: u16) -> u16 {
    id | 31 << 11
}

/// MUBUF without VGPR address: `soffset` plus the instruction offset.
fn mubuf_soff(p: &mut Asm, op: Opcode, vdata: u8, srsrc: u8, soffset: u8, offset: u16) {
    p.i(Inst::Mubuf(Buffer {
        op,
        vdata,
        vaddr: 0,
        srsrc,
        soffset: S(soffset),
        offset,
        offen: false,
        idxen: false,
        glc: false,
        slc: false,
        dlc: false,
        lds: false,
        tfe: false,
        format: 0,
    }));
}

fn flat(p: &mut Asm, op: Opcode, seg: Seg, vdst: u8, addr: u8, data: u8, saddr: Operand) {
    p.i(Inst::Flat(Flat {
        op,
        seg,
        vdst,
        addr,
        data,
        saddr,
        offset: 0,
        glc: false,
        slc: false,
        dlc: false,
    }));
}

/// FLAT_SCRATCH = V# base (s[0:1]) + wave offset (s9), set through `s_setreg` as GFX10
/// shaders do.
fn init_flat_scratch(p: &mut Asm) {
    p.sop2(Op::S_AND_B32, S(13), S(1), Literal(0xffff))
        .sop2(Op::S_ADD_U32, S(12), S(0), S(9))
        .sop2(Op::S_ADDC_U32, S(13), S(13), Int(0));
    for (id, reg) in [(HW_REG_FLAT_SCR_LO, 12), (HW_REG_FLAT_SCR_HI, 13)] {
        p.i(Inst::Sopk(Sopk { op: Op::S_SETREG_B32, sdst: S(reg), simm16: hwreg(id), imm32: 0 }));
    }
}

fn scratch_dispatch<'a>(prog: &Bo, ud: &'a [u32], group: u32, groups: u32) -> Dispatch<'a> {
    Dispatch {
        pgm: prog.va,
        vgprs: 16,
        user_data: ud,
        tgid_x: true,
        tg_size: false,
        lds_bytes: 0,
        group: [group, 1, 1],
        groups: [groups, 1, 1],
    }
}

fn run_scratch(gpu: &Gpu, d: &Dispatch<'_>, tmpring: u32, bos: &[&Bo]) -> bool {
    let mut pm = Vec::new();
    d.emit_with_scratch(&mut pm, Some(tmpring));
    gpu.run(&pm, bos).unwrap()
}

/// Private memory written by MUBUF through the scratch V# and read back with SCRATCH_* and a
/// FLAT load through the private aperture: all three must agree on the swizzled layout.
/// s[0:3] scratch V#, s[4:7] output V#, s8 workgroup id, s9 scratch wave offset.
#[test]
fn scratch_through_mubuf_scratch_and_private_aperture() {
    let gpu = Gpu::new();
    let groups = 6u32;
    let ring = gpu.buffer(4 * 1024);
    let out = gpu.buffer(8192);
    let mut p = Asm::new();
    p.sop2(Op::S_LSHL_B32, S(10), S(8), Int(6))
        .vop2(Op::V_ADD_NC_U32, 1, S(10), 0)
        .vop2(Op::V_MUL_U32_U24, 2, Int(3), 1)
        .vop2(Op::V_ADD_NC_U32, 3, Literal(100), 1);
    // Private dwords 1 and 2 of every lane.
    mubuf_soff(&mut p, Op::BUFFER_STORE_DWORD, 2, 0, 9, 4);
    mubuf_soff(&mut p, Op::BUFFER_STORE_DWORD, 3, 0, 9, 8);
    init_flat_scratch(&mut p);
    p.vop1(Op::V_MOV_B32, V(6), Int(4));
    flat(&mut p, Op::SCRATCH_LOAD_DWORDX2, Seg::Scratch, 4, 6, 0, NULL);
    p.waitcnt(0, 63);
    // scratch_store_dword with an SGPR offset: private dword 3 = v4.
    p.sopk(Op::S_MOVK_I32, S(14), 12);
    flat(&mut p, Op::SCRATCH_STORE_DWORD, Seg::Scratch, 0, 0, 4, S(14));
    // FLAT load of private offset 12 through the private aperture.
    p.sop1(Op::S_MOV_B64, S(16), PRIVATE_BASE).vop1(Op::V_MOV_B32, V(7), Int(12)).vop1(
        Op::V_MOV_B32,
        V(8),
        S(17),
    );
    flat(&mut p, Op::FLAT_LOAD_DWORD, Seg::Flat, 9, 7, 0, NULL);
    // GFX10.3 ST mode (SADDR = 0x7F, no VGPR): the instruction offset alone, private dword 2.
    p.i(Inst::Flat(Flat {
        op: Op::SCRATCH_LOAD_DWORD,
        seg: Seg::Scratch,
        vdst: 11,
        addr: 0,
        data: 0,
        saddr: Operand::Special(Special::ExecHi),
        offset: 8,
        glc: false,
        slc: false,
        dlc: false,
    }));
    p.waitcnt(0, 0)
        .vop2(Op::V_MUL_U32_U24, 10, Int(12), 1)
        .mubuf(Op::BUFFER_STORE_DWORD, 5, 10, 4, false)
        .vop2(Op::V_ADD_NC_U32, 10, Int(4), 10)
        .mubuf(Op::BUFFER_STORE_DWORD, 9, 10, 4, false)
        .vop2(Op::V_ADD_NC_U32, 10, Int(4), 10)
        .mubuf(Op::BUFFER_STORE_DWORD, 11, 10, 4, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let mut ud = scratch_vsharp(ring.va, 4 * 1024).to_vec();
    ud.extend(raw_vsharp(out.va, 8192));
    let d = scratch_dispatch(&prog, &ud, 64, groups);
    // WAVES = 4 slots of 1 KiB: two workgroups of two waves at a time.
    assert!(run_scratch(&gpu, &d, 4 | 1 << 12, &[&ring, &out, &prog]));
    let got = out.map.read_u32s(0, (groups * 64 * 3) as usize).unwrap();
    for (id, t) in got.chunks(3).enumerate() {
        let id = id as u32;
        assert_eq!(t, [id + 100, 3 * id, id + 100], "thread {id}");
    }
}

/// One wave: the ring holds private dword k of lane l at `offset + k * 128 + l * 4`.
#[test]
fn scratch_ring_layout_is_swizzled_by_dword() {
    let gpu = Gpu::new();
    let ring = gpu.buffer(4096);
    let mut p = Asm::new();
    p.vop2(Op::V_ADD_NC_U32, 1, Literal(0x5000), 0);
    mubuf_soff(&mut p, Op::BUFFER_STORE_DWORD, 1, 0, 9, 8);
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let ud = scratch_vsharp(ring.va, 4096);
    let d = scratch_dispatch(&prog, &ud, 32, 1);
    // One slot of 2 KiB: the only wave gets offset 0.
    assert!(run_scratch(&gpu, &d, 1 | 2 << 12, &[&ring, &prog]));
    let words = ring.map.read_u32s(0, 1024).unwrap();
    for lane in 0..32 {
        assert_eq!(words[2 * 32 + lane], 0x5000 + lane as u32, "lane {lane}");
    }
    assert!(words[..64].iter().all(|&x| x == 0));
}

/// A workgroup with more waves than the ring has slots cannot be scheduled: context loss.
#[test]
fn workgroup_larger_than_the_scratch_ring_is_reported() {
    let gpu = Gpu::new();
    let ring = gpu.buffer(4096);
    let mut p = Asm::new();
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let ud = scratch_vsharp(ring.va, 4096);
    let d = scratch_dispatch(&prog, &ud, 128, 1);
    let mut pm = Vec::new();
    d.emit_with_scratch(&mut pm, Some(2 | 1 << 12));
    assert!(gpu.run(&pm, &[&ring, &prog]).is_err());
}

/// FLAT stores through the LDS aperture are seen by DS reads, and a FLAT load whose even
/// lanes hit LDS and odd lanes hit global memory routes each lane by its address.
#[test]
fn flat_accesses_route_lanes_by_aperture() {
    let gpu = Gpu::new();
    let glob = gpu.buffer(4096);
    let out = gpu.buffer(4096);
    glob.map.write_u32s(0, &(0..32).map(|i| 0x9000 + i).collect::<Vec<_>>()).unwrap();
    let mut p = Asm::new();
    // s[0:1] global buffer address, s[4:7] output V#.
    p.vop2(Op::V_LSHLREV_B32, 1, Int(2), 0)
        .sop1(Op::S_MOV_B64, S(16), SHARED_BASE)
        .vop1(Op::V_MOV_B32, V(2), V(1))
        .vop1(Op::V_MOV_B32, V(3), S(17))
        .vop2(Op::V_ADD_NC_U32, 4, Literal(0x700), 0);
    flat(&mut p, Op::FLAT_STORE_DWORD, Seg::Flat, 0, 2, 4, NULL);
    p.waitcnt(0, 0).ds(Op::DS_READ_B32, 5, 1, 0, 0).waitcnt(63, 0);
    // Odd lanes: v[2:3] = global address of element lane.
    p.vop2(Op::V_AND_B32, 6, Int(1), 0)
        .vopc(Op::V_CMP_NE_U32, Int(0), 6)
        .sop1(Op::S_AND_SAVEEXEC_B32, S(20), common::asm::VCC)
        .vop2(Op::V_ADD_NC_U32, 2, S(0), 1)
        .vop1(Op::V_MOV_B32, V(3), S(1))
        .sop1(Op::S_MOV_B32, common::asm::EXEC, S(20));
    flat(&mut p, Op::FLAT_LOAD_DWORD, Seg::Flat, 7, 2, 0, NULL);
    p.waitcnt(0, 0)
        .vop2(Op::V_LSHLREV_B32, 8, Int(3), 0)
        .mubuf(Op::BUFFER_STORE_DWORD, 5, 8, 4, false)
        .vop2(Op::V_ADD_NC_U32, 8, Int(4), 8)
        .mubuf(Op::BUFFER_STORE_DWORD, 7, 8, 4, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let mut ud = vec![glob.va as u32, (glob.va >> 32) as u32, 0, 0];
    ud.extend(raw_vsharp(out.va, 4096));
    let d = Dispatch { vgprs: 16, lds_bytes: 512, ..Dispatch::one_group(prog.va, &ud, [32, 1, 1]) };
    assert!(gpu.dispatch(&d, &prog, &[&glob, &out]).unwrap());
    let got = out.map.read_u32s(0, 64).unwrap();
    for lane in 0..32u32 {
        assert_eq!(got[2 * lane as usize], 0x700 + lane, "LDS written through FLAT, lane {lane}");
        let want = if lane % 2 == 1 { 0x9000 + lane } else { 0x700 + lane };
        assert_eq!(got[2 * lane as usize + 1], want, "FLAT load, lane {lane}");
    }
}

/// A dwordx4 load and store straddling NUM_RECORDS of a raw V#: the dwords in range are
/// read and written, the others read 0 and are dropped.
#[test]
fn raw_buffer_range_is_checked_per_dword() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    buf.map.write_u32s(0, &(0..16).map(|i| 0x100 + i).collect::<Vec<_>>()).unwrap();
    let mut p = Asm::new();
    // v1 = 16 (byte offset), load dwords 4..8 of a 24-byte buffer, store them at 32.. of a
    // 40-byte view.
    p.vop1(Op::V_MOV_B32, V(1), Int(16))
        .mubuf(Op::BUFFER_LOAD_DWORDX4, 2, 1, 0, false)
        .waitcnt(0, 63)
        .vop1(Op::V_MOV_B32, V(1), Int(32))
        .mubuf(Op::BUFFER_STORE_DWORDX4, 2, 1, 4, false)
        .vop1(Op::V_MOV_B32, V(1), Literal(64))
        .mubuf(Op::BUFFER_STORE_DWORDX2, 4, 1, 8, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let mut ud = raw_vsharp(buf.va, 24).to_vec();
    ud.extend(raw_vsharp(buf.va, 40));
    ud.extend(raw_vsharp(buf.va, 4096));
    let d = Dispatch::one_group(prog.va, &ud, [1, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&buf]).unwrap());
    let got = buf.map.read_u32s(0, 18).unwrap();
    assert_eq!(&got[8..12], &[0x104, 0x105, 0x10a, 0x10b], "dwords 10 and 11 are out of range");
    assert_eq!(&got[16..18], &[0, 0], "dwords 6 and 7 were out of range and read 0");
}

/// A swizzled structured buffer (STRIDE 8, INDEX_STRIDE 8, OOB_SELECT index-only with 20
/// records): lane `i` stores to record `i`, field 4, at the ISA guide's swizzled address;
/// indices 20.. are out of range.
#[test]
fn swizzled_structured_buffer_store() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    buf.map.write_u32s(0, &[0xdead_beef; 256]).unwrap();
    let mut p = Asm::new();
    p.vop2(Op::V_ADD_NC_U32, 1, Literal(0x300), 0);
    p.i(Inst::Mubuf(Buffer {
        op: Op::BUFFER_STORE_DWORD,
        vdata: 1,
        vaddr: 0,
        srsrc: 0,
        soffset: Int(0),
        offset: 4,
        offen: false,
        idxen: true,
        glc: false,
        slc: false,
        dlc: false,
        lds: false,
        tfe: false,
        format: 0,
    }));
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let word1 = (buf.va >> 32) as u32 & 0xffff | 8 << 16 | 1 << 31;
    let ud = [buf.va as u32, word1, 20, 0xfac | (22 << 12) | (1 << 24) | (1 << 28)];
    let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&buf]).unwrap());
    let words = buf.map.read_u32s(0, 256).unwrap();
    let mut want = vec![0xdead_beef; 256];
    for lane in 0..20usize {
        // (index / 8 * STRIDE + offset / 4 * 4) * 8 + index % 8 * 4 + offset % 4
        let addr = (lane / 8 * 8 + 4) * 8 + lane % 8 * 4;
        want[addr / 4] = 0x300 + lane as u32;
    }
    assert_eq!(words, want);
}

/// FLAT atomics through the LDS aperture: every lane adds lane + 1 to one LDS dword and gets
/// the previous value back.
#[test]
fn flat_atomic_add_through_the_lds_aperture() {
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, V(1), Int(0))
        .ds(Op::DS_WRITE_B32, 0, 1, 1, 0)
        .waitcnt(63, 0)
        .sop1(Op::S_MOV_B64, S(16), SHARED_BASE)
        .vop1(Op::V_MOV_B32, V(2), Int(8))
        .vop1(Op::V_MOV_B32, V(3), S(17))
        .vop2(Op::V_ADD_NC_U32, 1, Int(1), 0);
    p.i(Inst::Flat(Flat {
        op: Op::FLAT_ATOMIC_ADD,
        seg: Seg::Flat,
        vdst: 4,
        addr: 2,
        data: 1,
        saddr: NULL,
        offset: 0,
        glc: true,
        slc: false,
        dlc: false,
    }));
    p.waitcnt(0, 0)
        .vop1(Op::V_MOV_B32, V(5), Int(8))
        .ds(Op::DS_READ_B32, 6, 5, 0, 0)
        .waitcnt(63, 0)
        .vop2(Op::V_LSHLREV_B32, 7, Int(3), 0)
        .mubuf(Op::BUFFER_STORE_DWORD, 4, 7, 0, false)
        .vop2(Op::V_ADD_NC_U32, 7, Int(4), 7)
        .mubuf(Op::BUFFER_STORE_DWORD, 6, 7, 0, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let ud = raw_vsharp(out.va, 4096);
    let d = Dispatch { lds_bytes: 512, ..Dispatch::one_group(prog.va, &ud, [32, 1, 1]) };
    assert!(gpu.dispatch(&d, &prog, &[&out]).unwrap());
    let got = out.map.read_u32s(0, 64).unwrap();
    // Whatever order the lanes applied in, the returned values chain from 0 to the total,
    // each step adding the returning lane's operand (lane + 1).
    let total: u32 = (1..=32).sum();
    let mut steps: Vec<(u32, u32)> = (0..32).map(|l| (got[2 * l], l as u32 + 1)).collect();
    steps.sort();
    let end = steps.iter().try_fold(0, |at, &(ret, add)| (ret == at).then_some(at + add));
    assert_eq!(end, Some(total), "returned values {steps:?}");
    assert!((0..32).all(|l| got[2 * l + 1] == total), "final LDS value");
}

/// 16-bit GLOBAL loads into one half of a register (`_d16`, `_d16_hi`, sign- or
/// zero-extended bytes) and a store of a register's high half.
#[test]
fn d16_loads_and_high_half_stores() {
    let gpu = Gpu::new();
    let input = gpu.buffer(4096);
    let out = gpu.buffer(4096);
    let bytes: Vec<u32> = (0..32).map(|l| 0x5634_1280 + l).collect();
    input.map.write_u32s(0, &bytes).unwrap();
    out.map.write_u32s(0, &[0xdead_beef; 128]).unwrap();
    let mut p = Asm::new();
    p.vop2(Op::V_LSHLREV_B32, 1, Int(2), 0);
    for r in 2..5 {
        p.vop1(Op::V_MOV_B32, V(r), Literal(0x1122_3344));
    }
    p.global(Op::GLOBAL_LOAD_SBYTE_D16_HI, 2, 1, 0, 0, false)
        .global(Op::GLOBAL_LOAD_SHORT_D16, 3, 1, 0, 0, false)
        .global(Op::GLOBAL_LOAD_UBYTE_D16, 4, 1, 0, 0, false)
        .waitcnt(0, 63)
        .global(Op::GLOBAL_STORE_SHORT_D16_HI, 0, 1, 2, 2, false)
        .vop2(Op::V_ADD_NC_U32, 1, Literal(128), 1)
        .global(Op::GLOBAL_STORE_DWORD, 0, 1, 3, 2, false)
        .vop2(Op::V_ADD_NC_U32, 1, Literal(128), 1)
        .global(Op::GLOBAL_STORE_DWORD, 0, 1, 4, 2, false)
        .vop2(Op::V_ADD_NC_U32, 1, Literal(128), 1)
        .global(Op::GLOBAL_STORE_BYTE_D16_HI, 0, 1, 3, 2, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let ud = [input.va as u32, (input.va >> 32) as u32, out.va as u32, (out.va >> 32) as u32];
    let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&input, &out]).unwrap());
    let got = out.map.read_u32s(0, 128).unwrap();
    for l in 0..32u32 {
        let lane = l as usize;
        assert_eq!(got[lane], 0xdead_0000 | (0xff80 + l), "short_d16_hi store, lane {lane}");
        assert_eq!(got[32 + lane], 0x1122_1280 + l, "short_d16, lane {lane}");
        assert_eq!(got[64 + lane], 0x1122_0080 + l, "ubyte_d16, lane {lane}");
        assert_eq!(got[96 + lane], 0xdead_be22, "byte_d16_hi store, lane {lane}");
    }
}

/// Inactive lanes' address VGPRs hold anything: a scratch load and a FLAT-private load
/// address only the active lanes (an odd offset in an inactive lane would fault as a
/// misaligned swizzled access). Odd lanes read private dword 1, written by a full-EXEC store.
#[test]
fn private_accesses_ignore_inactive_lanes_addresses() {
    let gpu = Gpu::new();
    let ring = gpu.buffer(4096);
    let out = gpu.buffer(4096);
    let mut p = Asm::new();
    init_flat_scratch(&mut p);
    p.vop2(Op::V_ADD_NC_U32, 1, Literal(500), 0).vop1(Op::V_MOV_B32, V(2), Int(4));
    flat(&mut p, Op::SCRATCH_STORE_DWORD, Seg::Scratch, 0, 2, 1, NULL);
    p.waitcnt(63, 0);
    // Even lanes get a misaligned offset (3) in v2, then leave EXEC.
    p.vop2(Op::V_AND_B32, 6, Int(1), 0)
        .vopc(Op::V_CMP_NE_U32, Int(0), 6)
        .vop2(Op::V_CNDMASK_B32, 2, Int(3), 2)
        .sop1(Op::S_AND_SAVEEXEC_B32, S(20), common::asm::VCC);
    flat(&mut p, Op::SCRATCH_LOAD_DWORD, Seg::Scratch, 3, 2, 0, NULL);
    // The same through the private aperture: v[7:8] = PRIVATE_BASE + v2.
    p.sop1(Op::S_MOV_B64, S(16), PRIVATE_BASE).vop1(Op::V_MOV_B32, V(7), V(2)).vop1(
        Op::V_MOV_B32,
        V(8),
        S(17),
    );
    flat(&mut p, Op::FLAT_LOAD_DWORD, Seg::Flat, 4, 7, 0, NULL);
    p.waitcnt(0, 0)
        .vop2(Op::V_LSHLREV_B32, 5, Int(3), 0)
        .mubuf(Op::BUFFER_STORE_DWORD, 3, 5, 4, false)
        .vop2(Op::V_ADD_NC_U32, 5, Int(4), 5)
        .mubuf(Op::BUFFER_STORE_DWORD, 4, 5, 4, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let mut ud = scratch_vsharp(ring.va, 4096).to_vec();
    ud.extend(raw_vsharp(out.va, 4096));
    let d = scratch_dispatch(&prog, &ud, 32, 1);
    assert!(run_scratch(&gpu, &d, 1 | 1 << 12, &[&ring, &out, &prog]));
    let got = out.map.read_u32s(0, 64).unwrap();
    for lane in (1..32).step_by(2) {
        assert_eq!(got[2 * lane..2 * lane + 2], [500 + lane as u32; 2], "lane {lane}");
    }
}
