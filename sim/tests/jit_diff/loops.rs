//! Loops whose registers the translator keeps in host values across the back edge, against
//! the interpreter: random native bodies under counted loops (tested at the head and at the
//! bottom, nested, with EXEC changes and memory between), and a watchdog stop inside one.

use super::*;

/// `n` random native instructions (registers v0..v9, s4..s15, VCC, EXEC), and with `exec`
/// an EXEC change among them.
pub(super) fn native_body(r: &mut Rng, native: &[(Opcode, Enc)], n: usize, exec: bool) -> Vec<u32> {
    let mut words = Vec::new();
    let mut k = 0;
    while k < n {
        let (op, enc) = native[r.u32(..native.len() as u32) as usize];
        let Ok(w) = encode(&instance(r, op, enc)) else { continue };
        words.extend_from_slice(&w);
        k += 1;
    }
    if exec {
        let mut p = Asm::new();
        p.sop2(Op::S_XOR_B32, EXEC, EXEC, sreg(r));
        words.extend_from_slice(&p.finish());
    }
    words
}

/// A loop of `body` counting s26 to `n`: tested at the bottom, or at the head as compilers
/// emit `for` loops (`s_cmp; s_cbranch_scc0 out; body; s_branch head`).
pub(super) fn counted_loop(p: &mut Asm, body: &[u32], n: u32, head_test: bool) {
    p.sop1(Op::S_MOV_B32, S(26), Int(0));
    let (top, out) = (p.label(), p.label());
    p.bind(top);
    if head_test {
        p.sopc(Op::S_CMP_LT_U32, S(26), Literal(n)).branch(Op::S_CBRANCH_SCC0, out);
    }
    p.words.extend_from_slice(body);
    p.sop2(Op::S_ADD_U32, S(26), S(26), Int(1));
    if head_test {
        p.branch(Op::S_BRANCH, top);
    } else {
        p.sopc(Op::S_CMP_LT_U32, S(26), Literal(n)).branch(Op::S_CBRANCH_SCC1, top);
    }
    p.bind(out);
}

/// Loops whose bodies keep registers in host values across the back edge (see the
/// translator's `loops`): random native bodies with EXEC changes, loops tested at the head
/// and at the bottom, a native inner loop inside an outer loop that loads from memory (an
/// interpreter call between the inner loop's runs), and a loop long enough that the
/// watchdog's periodic check leaves and re-enters the translated code in the middle of it.
/// Registers and memory after the loops must be identical to the interpreter's.
#[test]
fn loops_keeping_registers_match_the_interpreter() {
    capture::install();
    let e = Engines::both();
    let mut r = Rng::with_seed(0x100b_5eed_c0ff_ee00);
    let native = native_cases();
    let mut mismatches = Vec::new();
    let trials = 31;
    for trial in 0..trials {
        let (n, exec) = (3 + r.u32(..6) as usize, r.u32(..2) == 0);
        let body = native_body(&mut r, &native, n, exec);
        let mut p = Asm::new();
        // The last trial runs one wave past the watchdog's clock stride (2^20 instructions),
        // on accumulators: a register reloaded stale at the re-entry changes the result.
        let kind = if trial == trials - 1 { 3 } else { r.u32(..3) };
        match kind {
            0 | 1 => counted_loop(&mut p, &body, 1 + r.u32(..6), kind == 1),
            2 => {
                p.sop1(Op::S_MOV_B32, S(27), Int(0));
                let outer = p.label();
                p.bind(outer);
                counted_loop(&mut p, &body, 1 + r.u32(..4), r.u32(..2) == 0);
                let k = r.u32(..u32::from(VREGS)) as u8;
                p.mubuf(Op::BUFFER_LOAD_DWORD, k, 10, 0, false)
                    .waitcnt(0, 63)
                    .sop2(Op::S_ADD_U32, S(27), S(27), Int(1))
                    .sopc(Op::S_CMP_LT_U32, S(27), Int(3))
                    .branch(Op::S_CBRANCH_SCC1, outer);
            }
            _ => {
                let mut acc = Asm::new();
                acc.vop2(Op::V_ADD_NC_U32, 1, V(0), 1).vop2(Op::V_XOR_B32, 2, V(1), 2).sop2(
                    Op::S_ADD_U32,
                    S(5),
                    S(5),
                    S(4),
                );
                counted_loop(&mut p, &acc.finish(), (1 << 20) / 5, false);
            }
        }
        let words = p.finish();
        let (input, scalars) = random_inputs(&mut r);
        let groups = if kind == 3 { 1 } else { GROUPS };
        let (out, _) = run_groups(&e, &program(Some(&words)), &input, &scalars, groups);
        if out[0] != out[1] {
            let at = out[0].iter().zip(&out[1]).position(|(a, b)| a != b).unwrap_or(0);
            mismatches.push(format!(
                "trial {trial} (kind {kind}): word {at}: interp {:#x} jit {:#x}",
                out[0].get(at).copied().unwrap_or(0),
                out[1].get(at).copied().unwrap_or(0)
            ));
        }
    }
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

/// The watchdog stops a wave inside a native loop nested in a loop that stores to memory:
/// the same report (PC and instruction count) and the same memory as the interpreter.
#[test]
fn watchdog_stop_inside_a_loop_matches_the_interpreter() {
    capture::install();
    let _turn = capture::exclusive();
    let mut p = Asm::new();
    p.vop2(Op::V_LSHLREV_B32, 1, Int(2), 0).vop1(Op::V_MOV_B32, V(2), Int(1));
    p.sop1(Op::S_MOV_B32, S(27), Int(0));
    let outer = p.label();
    p.bind(outer);
    let mut inner = Asm::new();
    inner.vop2(Op::V_MUL_U32_U24, 2, Int(3), 2).vop2(Op::V_ADD_NC_U32, 2, V(0), 2).sop2(
        Op::S_ADD_U32,
        S(8),
        S(8),
        Int(5),
    );
    counted_loop(&mut p, &inner.finish(), 7, false);
    p.mubuf(Op::BUFFER_STORE_DWORD, 2, 1, 0, false)
        .vop2(Op::V_ADD_NC_U32, 1, Literal(128), 1)
        .sop2(Op::S_ADD_U32, S(27), S(27), Int(1))
        .sopc(Op::S_CMP_LT_U32, S(27), Int(30))
        .branch(Op::S_CBRANCH_SCC1, outer)
        .endpgm();
    let words = p.finish();
    let mut seen = Vec::new();
    for engine in [Engine::Interp, Engine::Jit] {
        let g = Gpu::with_config(SimConfig {
            engine,
            threads: 1,
            wave_budget: 700,
            ..Default::default()
        });
        let prog = g.program(&words);
        let buf = g.buffer(30 * 128);
        let ud = raw_vsharp(buf.va, 30 * 128);
        let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
        capture::clear();
        assert!(
            g.dispatch(&d, &prog, &[&buf]).is_err(),
            "{engine:?}: the watchdog did not stop it"
        );
        let lines = capture::take();
        let report = lines.iter().find(|l| l.contains("watchdog")).cloned().unwrap_or_default();
        let memory = buf.map.read_u32s(0, 30 * 32).unwrap();
        seen.push((
            report.split_once("): ").map_or(report.clone(), |(_, r)| r.to_string()),
            memory,
        ));
    }
    assert!(seen[0].0.contains("still running"), "interpreter report: {}", seen[0].0);
    let stored = seen[0].1.iter().filter(|&&x| x != 0).count();
    assert!(stored > 32 && stored < 29 * 32, "the stop is not in the middle: {stored} dwords");
    assert_eq!(seen[0].0, seen[1].0, "reports");
    assert!(seen[0].1 == seen[1].1, "memory differs");
}
