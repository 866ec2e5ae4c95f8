//! Every scalar and vector ALU opcode of the gfx1030 tables, not only those the translator
//! emits as host code: translated code hands the others to the interpreter, and the hand-off
//! (registers written back before the call and read again after it, EXEC and SCC included)
//! is what this checks. Each opcode runs on random register state under both engines; the
//! memory the harness stores (every register the instruction may touch), or the fault report
//! when the instruction faults (unimplemented, a jump to nowhere, a register beyond the
//! allocation), must be identical.

use super::common::capture;
use super::{dispatch, instance, program, random_inputs, Enc, Engines, Rng, BYTES};
use ferrum_isa::encode;
use ferrum_isa::tables::Enc as Family;

/// The harness's encodings for each opcode of the families it can express (a VOP3 form in
/// whichever of the three VOP3 shapes encodes).
fn opcodes() -> Vec<(ferrum_isa::Opcode, Vec<Enc>)> {
    let families = [
        (Family::Vop1, vec![Enc::Vop1]),
        (Family::Vop2, vec![Enc::Vop2]),
        (Family::Vopc, vec![Enc::Vopc]),
        (Family::Vop3, vec![Enc::Vop3, Enc::Vop3b, Enc::Vop3c]),
        (Family::Sop1, vec![Enc::Sop1]),
        (Family::Sop2, vec![Enc::Sop2]),
        (Family::Sopc, vec![Enc::Sopc]),
        (Family::Sopk, vec![Enc::Sopk]),
    ];
    let mut out = Vec::new();
    for (family, encs) in families {
        for form in family.forms() {
            out.push((form.op, encs.clone()));
        }
    }
    out
}

/// Both engines' outcomes: the buffer after the dispatch, or the fault report.
fn outcomes(
    e: &Engines,
    words: &[u32],
    input: &[u32],
    scalars: &[u32],
) -> Vec<Result<Vec<u32>, String>> {
    e.gpus
        .iter()
        .map(|g| {
            capture::clear();
            let (outcome, buf) = dispatch(g, words, input, scalars, 2);
            match outcome {
                Ok(true) => Ok(buf.map.read_u32s(0, (BYTES * 2 / 4) as usize).unwrap()),
                Ok(false) => Err("did not finish".into()),
                Err(_) => {
                    let lines = capture::take();
                    let line =
                        lines.iter().find(|l| l.contains("GPU fault")).cloned().unwrap_or_default();
                    Err(line.split_once("): ").map_or(line.clone(), |(_, rest)| rest.to_string()))
                }
            }
        })
        .collect()
}

#[test]
fn every_alu_opcode_matches_the_interpreter() {
    capture::install();
    let _turn = capture::exclusive();
    let mut e = Engines::both();
    let mut r = Rng::with_seed(0xe7e7_0b0c_0de5_0001);
    let (mut ran, mut faulted) = (0, 0);
    let mut mismatches = Vec::new();
    let ops = opcodes();
    for (op, encs) in &ops {
        let mut tried = 0;
        for enc in encs {
            for _ in 0..8 {
                if tried == 2 {
                    break;
                }
                let inst = instance(&mut r, *op, *enc);
                let Ok(words) = encode(&inst) else { continue };
                tried += 1;
                let (input, scalars) = random_inputs(&mut r);
                let out = outcomes(&e, &program(Some(&words)), &input, &scalars);
                ran += 1;
                if !out.iter().all(|o| o.is_ok()) {
                    // A fault loses the context: new devices for what follows.
                    faulted += 1;
                    e = Engines::both();
                }
                if out[0] != out[1] {
                    let what = match (&out[0], &out[1]) {
                        (Ok(a), Ok(b)) => {
                            let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
                            format!("word {at}: interp {:#x} jit {:#x}", a[at], b[at])
                        }
                        (a, b) => format!("interp {a:.200?}, jit {b:.200?}"),
                    };
                    mismatches.push(format!("{inst}: {what}"));
                }
            }
        }
    }
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
    // Most opcodes must have run, and most runs completed (the harness is not vacuous).
    assert!(ran > ops.len(), "{ran} runs for {} opcodes", ops.len());
    assert!(faulted * 4 < ran, "{faulted} of {ran} runs faulted");
}
