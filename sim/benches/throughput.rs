//! Simulated shader throughput: wave-instructions and lane-operations per second for an
//! ALU-bound and a memory-bound compute kernel, run through winsys -> sim like real work.
//! `cargo bench -p ferrum-sim --bench throughput`

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::asm::{Asm, Int, Literal, Op, NULL, S, V};
use common::{raw_vsharp, Dispatch, Gpu};
use ferrum_sim::jit::Engine;
use ferrum_sim::SimConfig;

fn gpu(engine: Engine) -> Gpu {
    Gpu::with_config(SimConfig {
        engine,
        strict: false,
        watchdog: Duration::from_secs(600),
        host_memory_limit: 1 << 30,
        ..Default::default()
    })
}

fn report(name: &str, gpu: &Gpu, run: impl Fn()) {
    run(); // warm-up
    let (i0, l0) = gpu.kernel.shader_stats();
    let t0 = Instant::now();
    let reps = 3;
    for _ in 0..reps {
        run();
    }
    let secs = t0.elapsed().as_secs_f64();
    let (i1, l1) = gpu.kernel.shader_stats();
    let (insts, lanes) = ((i1 - i0) as f64, (l1 - l0) as f64);
    println!(
        "{name:>19}: {:>8.1} ms/dispatch  {:>7.2} M wave-instr/s  {:>8.2} M lane-ops/s",
        secs * 1000.0 / reps as f64,
        insts / secs / 1e6,
        lanes / secs / 1e6
    );
}

fn alu_bound(engine: Engine) {
    let gpu = gpu(engine);
    let out = gpu.buffer(64 * 256 * 4);
    let mut p = Asm::new();
    let top = p.label();
    p.sop1(Op::S_MOV_B32, S(10), Int(0))
        .vop1(Op::V_CVT_F32_U32, V(1), V(0))
        .vop1(Op::V_MOV_B32, V(2), ferrum_isa::Operand::Float(ferrum_isa::FloatConst::One))
        .vop1(Op::V_MOV_B32, V(4), Int(0));
    p.bind(top);
    p.vop3(
        Op::V_FMA_F32,
        V(2),
        [V(1), V(2), ferrum_isa::Operand::Float(ferrum_isa::FloatConst::Half)],
    )
    .vop2(Op::V_MUL_F32, 3, V(2), 1)
    .vop2(Op::V_ADD_NC_U32, 4, V(4), 0)
    .vop2(Op::V_XOR_B32, 5, V(4), 3)
    .vop2(Op::V_MIN_F32, 2, V(2), 3)
    .vop2(Op::V_AND_B32, 5, Literal(0xffff), 5)
    .vop2(Op::V_OR_B32, 4, V(4), 5)
    .vop2(Op::V_SUB_F32, 2, V(2), 1)
    .sop2(Op::S_ADD_U32, S(10), S(10), Int(1))
    .sopc(Op::S_CMP_LT_U32, S(10), Literal(500))
    .branch(Op::S_CBRANCH_SCC1, top)
    .sop2(Op::S_LSHL_B32, S(5), S(4), Literal(10))
    .vop2(Op::V_LSHLREV_B32, 6, Int(2), 0)
    .vop2(Op::V_ADD_NC_U32, 6, S(5), 6)
    .mubuf(Op::BUFFER_STORE_DWORD, 2, 6, 0, false)
    .endpgm();
    let prog = gpu.program(&p.finish());
    let ud = raw_vsharp(out.va, 64 * 256 * 4);
    let d = Dispatch {
        pgm: prog.va,
        vgprs: 8,
        user_data: &ud,
        tgid_x: true,
        tg_size: false,
        lds_bytes: 0,
        group: [256, 1, 1],
        groups: [64, 1, 1],
    };
    report(&format!("ALU-bound {engine:?}"), &gpu, || {
        assert!(gpu.dispatch(&d, &prog, &[&out]).unwrap())
    });
}

fn memory_bound(engine: Engine) {
    let gpu = gpu(engine);
    let bytes = 16u64 << 20;
    let (src, dst) = (gpu.buffer(bytes), gpu.buffer(bytes));
    // Each thread copies 16 bytes per iteration, 8 iterations, strided by the grid.
    let groups = (bytes / 16 / 8 / 256) as u32;
    let mut p = Asm::new();
    let top = p.label();
    // v1 = (wg * 256 + tid) * 16; stride per iteration = groups * 256 * 16 bytes.
    p.sop2(Op::S_LSHL_B32, S(5), S(4), Int(8))
        .vop2(Op::V_ADD_NC_U32, 1, S(5), 0)
        .vop2(Op::V_LSHLREV_B32, 1, Int(4), 1)
        .sop1(Op::S_MOV_B32, S(10), Int(0));
    p.bind(top);
    p.global(Op::GLOBAL_LOAD_DWORDX4, 2, 1, 0, 0, false)
        .waitcnt(0, 63)
        .global(Op::GLOBAL_STORE_DWORDX4, 0, 1, 2, 2, false)
        .vop2(Op::V_ADD_NC_U32, 1, Literal(groups * 256 * 16), 1)
        .sop2(Op::S_ADD_U32, S(10), S(10), Int(1))
        .sopc(Op::S_CMP_LT_U32, S(10), Int(8))
        .branch(Op::S_CBRANCH_SCC1, top)
        .endpgm();
    let _ = NULL;
    let prog = gpu.program(&p.finish());
    let ud = [src.va as u32, (src.va >> 32) as u32, dst.va as u32, (dst.va >> 32) as u32];
    let d = Dispatch {
        pgm: prog.va,
        vgprs: 8,
        user_data: &ud,
        tgid_x: true,
        tg_size: false,
        lds_bytes: 0,
        group: [256, 1, 1],
        groups: [groups, 1, 1],
    };
    report(&format!("memory-bound {engine:?}"), &gpu, || {
        assert!(gpu.dispatch(&d, &prog, &[&src, &dst]).unwrap())
    });
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    println!("ferrum-sim throughput ({} host threads)", SimConfig::default().threads);
    for engine in [Engine::Interp, Engine::Jit] {
        alu_bound(engine);
        memory_bound(engine);
    }
}
