//! Loops on f32 values with denormal flushing on, against the interpreter: the translator
//! knows which VGPRs hold flushed values at each segment start (its `flushed` dataflow) and
//! skips flushing them again as inputs. Registers flushed before a loop and at its back edge,
//! or only on one of the two ways in, or in lanes an EXEC change then enables, or overwritten
//! by integer operations, must all read as the interpreter reads them.

use super::loops::{counted_loop, native_body};
use super::*;

/// f32 operations that flush their result, moves that pass the knowledge on, and integer
/// operations that write denormal bit patterns.
const FLOAT_BODY: [(Opcode, Enc); 8] = [
    (Op::V_FMA_F32, Enc::Vop3),
    (Op::V_FMAC_F32, Enc::Vop2),
    (Op::V_MUL_F32, Enc::Vop2),
    (Op::V_ADD_F32, Enc::Vop2),
    (Op::V_MOV_B32, Enc::Vop1),
    (Op::V_MOV_B32, Enc::Vop1),
    (Op::V_XOR_B32, Enc::Vop2),
    (Op::V_CVT_F32_U32, Enc::Vop1),
];

/// Flushes the active lanes of some of v0..v9 (`v_mul_f32 vK, 1.0, vK`), with an EXEC change
/// first when `exec`.
fn flush_some(r: &mut Rng, p: &mut Asm, exec: bool) {
    if exec {
        p.sop2(Op::S_XOR_B32, EXEC, EXEC, sreg(r));
    }
    for k in 0..VREGS {
        if r.u32(..3) != 0 {
            p.vop2(Op::V_MUL_F32, k, Literal(0x3f80_0000), k);
        }
    }
}

/// Random loops over f32 registers, in four shapes: flushed before the loop (so flushed at
/// the head when the body keeps them flushed), flushed on one way in only (a branch around
/// the flushing code), a flushing inner loop inside an outer loop that overwrites registers
/// with integers, and EXEC changes before and inside the loop. Inputs hold denormals (and
/// NaNs, infinities); registers and memory after the loops must be identical.
#[test]
fn flushed_values_across_loops_match_the_interpreter() {
    capture::install();
    let e = Engines::both();
    let mut r = Rng::with_seed(0xf1a5_4ed0_0000_0001);
    let native = native_cases();
    let mut mismatches = Vec::new();
    let mut native_total = 0;
    for trial in 0..32 {
        let mut body = Vec::new();
        for _ in 0..3 + r.u32(..6) {
            let (op, enc) = if r.u32(..3) == 0 {
                native[r.u32(..native.len() as u32) as usize]
            } else {
                FLOAT_BODY[r.u32(..FLOAT_BODY.len() as u32) as usize]
            };
            let Ok(w) = encode(&instance(&mut r, op, enc)) else { continue };
            body.extend_from_slice(&w);
        }
        if r.u32(..3) == 0 {
            body.extend(native_body(&mut r, &[], 0, true));
        }
        let mut p = Asm::new();
        let kind = trial % 4;
        match kind {
            0 => {
                flush_some(&mut r, &mut p, false);
                counted_loop(&mut p, &body, 1 + r.u32(..5), r.u32(..2) == 0);
            }
            1 => {
                // s28 (a random scalar) decides at run time whether the flush runs.
                let skip = p.label();
                p.sopc(Op::S_BITCMP1_B32, S(SREG0 + 5), Int(0)).branch(Op::S_CBRANCH_SCC1, skip);
                flush_some(&mut r, &mut p, false);
                p.bind(skip);
                counted_loop(&mut p, &body, 1 + r.u32(..5), r.u32(..2) == 0);
            }
            2 => {
                flush_some(&mut r, &mut p, false);
                p.sop1(Op::S_MOV_B32, S(27), Int(0));
                let outer = p.label();
                p.bind(outer);
                counted_loop(&mut p, &body, 1 + r.u32(..3), r.u32(..2) == 0);
                let k = r.u32(..u32::from(VREGS)) as u8;
                p.vop2(Op::V_XOR_B32, k, Literal(0x0000_0001), k)
                    .sop2(Op::S_ADD_U32, S(27), S(27), Int(1))
                    .sopc(Op::S_CMP_LT_U32, S(27), Int(3))
                    .branch(Op::S_CBRANCH_SCC1, outer);
            }
            _ => {
                flush_some(&mut r, &mut p, true);
                counted_loop(&mut p, &body, 1 + r.u32(..5), r.u32(..2) == 0);
            }
        }
        let words = p.finish();
        let (input, scalars) = random_inputs(&mut r);
        let (out, n) = run(&e, &program(Some(&words)), &input, &scalars);
        native_total += n;
        if out[0] != out[1] {
            let at = out[0].iter().zip(&out[1]).position(|(a, b)| a != b).unwrap_or(0);
            mismatches.push(format!(
                "trial {trial} (kind {kind}): word {at}: interp {:#x} jit {:#x}",
                out[0].get(at).copied().unwrap_or(0),
                out[1].get(at).copied().unwrap_or(0)
            ));
        }
    }
    assert!(native_total > 32 * 10, "only {native_total} native instructions");
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}
