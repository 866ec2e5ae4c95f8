//! A host thread reuses its waves (and its LDS) for workgroup after workgroup: nothing a wave
//! leaves behind may reach the next one. Each wave here reads state it never wrote (a VGPR, an
//! SGPR, VCC, its own LDS dwords, the register an unwaited scalar load targets), then dirties
//! all of it and ends with a scalar load still outstanding. Every later wave must still see
//! what a fresh wave sees (zeros, as `Wave::new` and the SPI define them), on both engines,
//! and strict mode must not report the previous wave's load. The watchdog's budget is per
//! wave, so a reused wave starts its count at zero.

mod common;

use std::time::Duration;

use common::asm::*;
use common::*;
use ferrum_isa::{Operand, Special};
use ferrum_sim::jit::Engine;
use ferrum_sim::SimConfig;

/// Workgroups of 64 threads (two waves), all on one host thread.
const GROUPS: u32 = 6;
const THREADS: u32 = 64;
/// Dwords each thread writes (a 32-byte record).
const RECORD: u32 = 8;
const FILL: u32 = 0xaaaa_aaaa;

fn gpu(engine: Engine, budget: u64) -> Gpu {
    Gpu::with_config(SimConfig {
        engine,
        threads: 1,
        strict: true,
        wave_budget: budget,
        watchdog: Duration::from_secs(600),
        host_memory_limit: 64 << 20,
        ..Default::default()
    })
}

/// s[0:3] = the output V#, s4 = workgroup id; v0 = local id.
fn leaky_program() -> Vec<u32> {
    let mut a = Asm::new();
    // A write to s21 faults in strict mode while a load into it is outstanding.
    a.sop1(Op::S_MOV_B32, S(21), Int(0))
        // v1 = this thread's record: (group * 64 + id) * 32 bytes.
        .sop2(Op::S_LSHL_B32, S(6), S(4), Int(11))
        .vop2(Op::V_LSHLREV_B32, 1, Int(5), 0)
        .vop2(Op::V_ADD_NC_U32, 1, S(6), 1)
        // Record: v5, s20, LDS[id * 4], VCC, id, group, M0, EXEC.
        .mubuf(Op::BUFFER_STORE_DWORD, 5, 1, 0, false)
        .vop1(Op::V_MOV_B32, V(2), S(20))
        .vop2(Op::V_ADD_NC_U32, 3, Int(4), 1)
        .mubuf(Op::BUFFER_STORE_DWORD, 2, 3, 0, false)
        .vop2(Op::V_LSHLREV_B32, 4, Int(2), 0)
        .ds(Op::DS_READ_B32, 6, 4, 0, 0)
        .waitcnt(63, 0)
        .vop2(Op::V_ADD_NC_U32, 3, Int(8), 1)
        .mubuf(Op::BUFFER_STORE_DWORD, 6, 3, 0, false)
        .vop1(Op::V_MOV_B32, V(2), VCC)
        .vop2(Op::V_ADD_NC_U32, 3, Int(12), 1)
        .mubuf(Op::BUFFER_STORE_DWORD, 2, 3, 0, false)
        .vop2(Op::V_ADD_NC_U32, 3, Int(16), 1)
        .mubuf(Op::BUFFER_STORE_DWORD, 0, 3, 0, false)
        .vop1(Op::V_MOV_B32, V(2), S(4))
        .vop2(Op::V_ADD_NC_U32, 3, Int(20), 1)
        .mubuf(Op::BUFFER_STORE_DWORD, 2, 3, 0, false)
        .vop1(Op::V_MOV_B32, V(2), Operand::Special(Special::M0))
        .vop2(Op::V_ADD_NC_U32, 3, Int(24), 1)
        .mubuf(Op::BUFFER_STORE_DWORD, 2, 3, 0, false)
        .vop1(Op::V_MOV_B32, V(2), EXEC)
        .vop2(Op::V_ADD_NC_U32, 3, Literal(28), 1)
        .mubuf(Op::BUFFER_STORE_DWORD, 2, 3, 0, false)
        // Dirty everything read above, then end with a scalar load outstanding.
        .vop1(Op::V_MOV_B32, V(5), Int(-1))
        .ds(Op::DS_WRITE_B32, 0, 4, 5, 0)
        .sop1(Op::S_MOV_B32, S(20), Literal(0xdead))
        .sop1(Op::S_MOV_B32, VCC, Literal(0xbeef))
        .sop1(Op::S_MOV_B32, Operand::Special(Special::M0), Literal(0xf00d))
        .waitcnt(0, 0)
        .smem(Op::S_LOAD_DWORD, 21, 0, 0)
        .endpgm();
    a.finish()
}

fn run_leaky(engine: Engine) -> Vec<u32> {
    let g = gpu(engine, 1 << 20);
    let bytes = GROUPS * THREADS * RECORD * 4;
    let out = g.buffer(u64::from(bytes));
    out.map.write_u32s(0, &vec![FILL; (bytes / 4) as usize]).unwrap();
    let prog = g.program(&leaky_program());
    let ud = raw_vsharp(out.va, bytes);
    let d = Dispatch {
        tgid_x: true,
        lds_bytes: THREADS * 4,
        groups: [GROUPS, 1, 1],
        ..Dispatch::one_group(prog.va, &ud, [THREADS, 1, 1])
    };
    assert_eq!(g.dispatch(&d, &prog, &[&out]).ok(), Some(true), "{engine:?}: dispatch failed");
    out.map.read_u32s(0, (bytes / 4) as usize).unwrap()
}

#[test]
fn reused_waves_see_what_fresh_waves_see() {
    for engine in [Engine::Interp, Engine::Jit] {
        let got = run_leaky(engine);
        for group in 0..GROUPS {
            for id in 0..THREADS {
                let at = ((group * THREADS + id) * RECORD) as usize;
                // A fresh wave: v5, s20, its LDS, VCC and M0 zero; all 32 lanes active.
                let want = [0, 0, 0, 0, id, group, 0, u32::MAX];
                assert_eq!(got[at..at + 8], want, "{engine:?}: group {group}, thread {id}");
            }
        }
    }
}

#[test]
fn the_budget_is_per_wave_on_reused_waves() {
    let n = 300;
    let last_jump = 1 + 3 * (u64::from(n) - 1);
    for engine in [Engine::Interp, Engine::Jit] {
        for (budget, ok) in [(last_jump, true), (last_jump - 1, false)] {
            let g = gpu(engine, budget);
            let prog = g.program(&counted_loop(n));
            let d = Dispatch {
                groups: [GROUPS, 1, 1],
                ..Dispatch::one_group(prog.va, &[], [THREADS, 1, 1])
            };
            let r = g.dispatch(&d, &prog, &[]);
            assert_eq!(matches!(r, Ok(true)), ok, "{engine:?}, budget {budget}: {r:?}");
        }
    }
}
