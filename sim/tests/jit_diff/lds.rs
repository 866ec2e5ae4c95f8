//! LDS reads and writes, which translated code runs through its direct call-out, against the
//! interpreter: random writes of every width (one and two elements, `st64` strides) then
//! random reads of the LDS they changed, at random addresses (in range, at the allocation's
//! end, and beyond it, which strict mode reports and the lenient mode drops or reads as 0)
//! under random EXEC masks. The registers read and any fault report must be identical.

use super::common::asm::{Asm, Int, Literal, Op, EXEC};
use super::common::{capture, raw_vsharp, Dispatch, Gpu};
use super::Rng;
use ferrum_isa::{Ds, Inst, Opcode};
use ferrum_sim::jit::Engine;
use ferrum_sim::SimConfig;

/// The allocation: twice what the masked addresses and small offsets reach (st64 forms
/// included), so that only the unmasked ones and the large offsets leave it.
const LDS: u32 = 8192;

const WRITES: [Opcode; 10] = [
    Op::DS_WRITE_B8,
    Op::DS_WRITE_B16,
    Op::DS_WRITE_B32,
    Op::DS_WRITE_B64,
    Op::DS_WRITE_B96,
    Op::DS_WRITE_B128,
    Op::DS_WRITE2_B32,
    Op::DS_WRITE2_B64,
    Op::DS_WRITE2ST64_B32,
    Op::DS_WRITE2ST64_B64,
];

const READS: [Opcode; 12] = [
    Op::DS_READ_U8,
    Op::DS_READ_I8,
    Op::DS_READ_U16,
    Op::DS_READ_I16,
    Op::DS_READ_B32,
    Op::DS_READ_B64,
    Op::DS_READ_B96,
    Op::DS_READ_B128,
    Op::DS_READ2_B32,
    Op::DS_READ2_B64,
    Op::DS_READ2ST64_B32,
    Op::DS_READ2ST64_B64,
];

fn ds(op: Opcode, vdst: u8, addr: u8, data: [u8; 2], offsets: [u8; 2]) -> Inst {
    Inst::Ds(Ds {
        op,
        vdst,
        addr,
        data0: data[0],
        data1: data[1],
        offset0: offsets[0],
        offset1: offsets[1],
        gds: false,
    })
}

/// Offsets mostly small (in range), sometimes large enough to leave the allocation.
fn offsets(r: &mut Rng) -> [u8; 2] {
    let one = |r: &mut Rng| if r.u32(..8) == 0 { r.u8(..) } else { r.u8(..8) };
    [one(r), one(r)]
}

/// The program: v1 = the lane's dword offset, v2..v5 its data, v6 and v7 write and read
/// addresses (masked into the allocation, or not), one write, one read into v8..v11, and
/// the read registers stored to rows 0..3 of the buffer.
fn program(r: &mut Rng) -> Vec<u32> {
    let mut p = Asm::new();
    p.vop2(Op::V_LSHLREV_B32, 1, Int(2), 0);
    for (k, reg) in (2u8..8).enumerate() {
        p.vop2(Op::V_ADD_NC_U32, 12, Literal(128 * k as u32), 1).mubuf(
            Op::BUFFER_LOAD_DWORD,
            reg,
            12,
            0,
            false,
        );
    }
    p.waitcnt(0, 63);
    for reg in [6, 7] {
        let mask = if r.u32(..6) == 0 { 0xffff } else { LDS / 2 - 1 };
        p.vop2(Op::V_AND_B32, reg, Literal(mask), reg);
    }
    let exec = match r.u32(..3) {
        0 => u32::MAX,
        _ => r.u32(..),
    };
    p.sop1(Op::S_MOV_B32, EXEC, Literal(exec));
    let write = WRITES[r.usize(..WRITES.len())];
    p.i(ds(write, 0, 6, [2, 4], offsets(r)));
    let read = READS[r.usize(..READS.len())];
    p.i(ds(read, 8, 7, [0, 0], offsets(r)));
    p.waitcnt(63, 0).sop1(Op::S_MOV_B32, EXEC, Int(-1));
    for k in 0..4u8 {
        p.vop2(Op::V_ADD_NC_U32, 12, Literal(128 * (8 + u32::from(k))), 1).mubuf(
            Op::BUFFER_STORE_DWORD,
            8 + k,
            12,
            0,
            false,
        );
    }
    p.endpgm();
    p.finish()
}

/// Rows 8..11 of the buffer after the program, or the fault report.
fn run(engine: Engine, strict: bool, words: &[u32], input: &[u32]) -> Result<Vec<u32>, String> {
    let g = Gpu::with_config(SimConfig { engine, strict, threads: 1, ..Default::default() });
    let buf = g.buffer(4096);
    buf.map.write_u32s(0, input).unwrap();
    let prog = g.program(words);
    let ud = raw_vsharp(buf.va, 4096);
    let d = Dispatch { vgprs: 16, lds_bytes: LDS, ..Dispatch::one_group(prog.va, &ud, [32, 1, 1]) };
    capture::clear();
    match g.dispatch(&d, &prog, &[&buf]) {
        Ok(true) => Ok(buf.map.read_u32s(8 * 128, 4 * 32).unwrap()),
        _ => {
            let lines = capture::take();
            let line = lines.iter().find(|l| l.contains("GPU fault")).cloned().unwrap_or_default();
            Err(line.split_once("): ").map_or(line.clone(), |(_, rest)| rest.to_string()))
        }
    }
}

#[test]
fn lds_accesses_match_the_interpreter() {
    capture::install();
    let _turn = capture::exclusive();
    let mut r = Rng::with_seed(0x1d5_d1ff);
    let (mut faults, mut done) = (0, 0);
    for trial in 0..150 {
        let words = program(&mut r);
        let input: Vec<u32> = (0..6 * 32).map(|_| r.u32(..)).collect();
        let strict = r.bool();
        let a = run(Engine::Interp, strict, &words, &input);
        let b = run(Engine::Jit, strict, &words, &input);
        assert_eq!(a, b, "trial {trial} (strict: {strict})");
        faults += usize::from(a.is_err());
        done += usize::from(a.is_ok());
    }
    assert!(faults > 5 && done > 80, "{faults} faults, {done} completed runs");
}
