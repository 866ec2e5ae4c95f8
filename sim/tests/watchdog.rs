//! The hang detection: a wave's instruction budget stops runaway waves at the same instruction
//! on both engines, whatever the host's load; a chain of IBs that loops is caught by counting
//! hops. Every device here has a wall clock far beyond the test's own wait, so only the
//! counted limits can end these jobs.

mod common;

use std::time::Duration;

use common::asm::*;
use common::*;
use ferrum_isa::Opcode as Op;
use ferrum_sim::jit::Engine;
use ferrum_sim::SimConfig;
use ferrum_winsys::{Error, LostReason};

/// A device whose only hang detection in reach is `budget` instructions per wave.
fn gpu(engine: Engine, budget: u64) -> Gpu {
    capture::install();
    Gpu::with_config(SimConfig {
        engine,
        wave_budget: budget,
        watchdog: Duration::from_secs(600),
        threads: 1,
        host_memory_limit: 64 << 20,
        ..Default::default()
    })
}

/// Runs `words` as one workgroup of `threads` and returns `Ok` or the fault report (the
/// logged line without its context numbering). Tests that look at reports hold [`SERIAL`].
fn run(engine: Engine, budget: u64, words: &[u32], threads: u32) -> Result<(), String> {
    let g = gpu(engine, budget);
    let prog = g.program(words);
    let d = Dispatch::one_group(prog.va, &[], [threads, 1, 1]);
    capture::clear();
    match g.dispatch(&d, &prog, &[]) {
        Ok(true) => Ok(()),
        Err(Error::ContextLost(LostReason::Guilty)) => {
            let lines = capture::take();
            let line = lines.iter().find(|l| l.contains("GPU fault")).cloned().unwrap_or_default();
            let report = line.split_once("): ").map_or(line.as_str(), |(_, rest)| rest);
            Err(report.trim_end_matches("; context lost").to_string())
        }
        other => panic!("{engine:?}: neither done nor lost: {other:?}"),
    }
}

/// The capture is process-wide: tests that read it run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

const ENGINES: [Engine; 2] = [Engine::Interp, Engine::Jit];

/// `s_add; s_branch` forever: taken branches after instruction 2, 4, 6, ...
fn endless() -> Vec<u32> {
    let mut a = Asm::new();
    let top = a.label();
    a.bind(top);
    a.sop2(Op::S_ADD_U32, S(0), S(0), Int(1)).branch(Op::S_BRANCH, top).endpgm();
    a.finish()
}

#[test]
fn a_runaway_wave_stops_after_its_budget_on_both_engines() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for engine in ENGINES {
        // The first taken branch past 1000 instructions is the one after instruction 1002.
        let report = run(engine, 1000, &endless(), 32).unwrap_err();
        assert_eq!(
            report,
            "hang: dispatch of 0x200000: watchdog: wave 0 still running at pc 0x200000 after \
             1002 instructions",
            "{engine:?}"
        );
    }
}

#[test]
fn a_wave_that_needs_exactly_its_budget_completes() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let n = 5000;
    let last_jump = 1 + 3 * (n as u64 - 1);
    for engine in ENGINES {
        assert_eq!(run(engine, last_jump, &counted_loop(n), 64), Ok(()), "{engine:?}");
        let report = run(engine, last_jump - 1, &counted_loop(n), 64).unwrap_err();
        assert!(
            report.ends_with(&format!("at pc 0x200008 after {last_jump} instructions")),
            "{engine:?}: {report}"
        );
    }
}

#[test]
fn the_count_goes_on_across_barriers() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Two waves meeting at a barrier in every iteration: each run of a wave ends at the
    // barrier, the count must not start again there.
    let mut a = Asm::new();
    let top = a.label();
    a.bind(top);
    a.sopp(Op::S_BARRIER, 0).sop2(Op::S_ADD_U32, S(0), S(0), Int(1)).branch(Op::S_BRANCH, top);
    a.endpgm();
    let words = a.finish();
    for engine in ENGINES {
        let report = run(engine, 3000, &words, 64).unwrap_err();
        assert!(
            report.ends_with("wave 0 still running at pc 0x200000 after 3003 instructions"),
            "{engine:?}: {report}"
        );
    }
}

#[test]
fn jumps_through_s_setpc_count_like_branches() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // s_getpc s[4:5] (= the next instruction); top: s_add; s_setpc s[4:5].
    let mut a = Asm::new();
    a.sop1(Op::S_GETPC_B64, S(4), Int(0));
    a.sop2(Op::S_ADD_U32, S(0), S(0), Int(1)).sop1(Op::S_SETPC_B64, NULL, S(4)).endpgm();
    let words = a.finish();
    let reports: Vec<_> = ENGINES.map(|e| run(e, 999, &words, 32).unwrap_err()).into();
    assert!(reports[0].ends_with("at pc 0x200004 after 1001 instructions"), "{}", reports[0]);
    assert_eq!(reports[0], reports[1], "the engines disagree");
}

#[test]
fn a_chain_of_ibs_that_loops_is_a_hang() {
    let g = gpu(Engine::Jit, 1 << 20);
    let ib = g.buffer(4096);
    // One INDIRECT_BUFFER packet chaining to itself.
    let mut words = Vec::new();
    pm4::indirect_buffer(&mut words, ib.va, 4, true);
    ib.map.write_u32s(0, &words).unwrap();
    let mut first = Vec::new();
    pm4::indirect_buffer(&mut first, ib.va, 4, true);
    let err = g.run(&first, &[&ib]).unwrap_err();
    assert!(matches!(err, Error::ContextLost(LostReason::Guilty)), "{err:?}");
}
