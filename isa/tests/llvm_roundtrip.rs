//! Every opcode of every table, in several operand shapes, checked against llvm-mc:
//! our bytes disassemble to our text, our text assembles to our bytes, and LLVM's bytes decode
//! and re-encode to themselves. One llvm-mc run per direction for all instructions.

mod common;

use common::*;
use ferrum_isa::tables::Enc;
use ferrum_isa::{decode, encode, Inst};

fn all_samples() -> Vec<(Inst, Vec<u32>, String)> {
    let mut v = Vec::new();
    for enc in Enc::ALL {
        for form in enc.forms() {
            for inst in samples(enc, form) {
                let words = encode(&inst).unwrap_or_else(|e| panic!("{inst:?}: {e}"));
                inst.validate().unwrap_or_else(|e| panic!("{inst}: {e}"));
                v.push((inst, words, inst.to_string()));
            }
        }
    }
    v
}

#[test]
fn every_opcode_matches_llvm() {
    if !require_llvm() {
        return;
    }
    let samples = all_samples();
    let forms: usize = Enc::ALL.iter().map(|e| e.forms().len()).sum();
    eprintln!("{} instructions over {forms} forms", samples.len());

    // Our text -> LLVM bytes.
    let text: String = samples.iter().map(|s| s.2.clone() + "\n").collect();
    let (out, err) = llvm_mc(&["-show-encoding"], &text).expect("llvm-mc runs");
    let bad = error_lines(&err);
    let mut failures = Vec::new();
    for &l in bad.iter().take(40) {
        failures.push(format!(
            "llvm-mc rejects our text: {}  ({})",
            samples[l - 1].2,
            hex_line(&samples[l - 1].1)
        ));
    }
    let enc = parse_encodings(&out);
    let ok: Vec<_> = (0..samples.len()).filter(|i| !bad.contains(&(i + 1))).collect();
    assert_eq!(enc.len(), ok.len(), "llvm-mc output lines");
    for (&i, (_, llvm_words)) in ok.iter().zip(&enc) {
        let (inst, words, text) = &samples[i];
        if llvm_words != words {
            failures.push(format!(
                "{text}: ours {} llvm {}",
                hex_line(words),
                hex_line(llvm_words)
            ));
        }
        // LLVM's bytes decode and re-encode to themselves.
        match decode(llvm_words) {
            Ok((d, n)) if n == llvm_words.len() => {
                if encode(&d).as_deref() != Ok(llvm_words.as_slice()) {
                    failures.push(format!(
                        "{text}: re-encode of decoded LLVM bytes differs ({d:?} vs {inst:?})"
                    ));
                }
            }
            other => failures.push(format!("{text}: cannot decode LLVM bytes: {other:?}")),
        }
    }

    // Our bytes -> LLVM text.
    let bytes: String = samples.iter().map(|s| hex_line(&s.1) + "\n").collect();
    let (out, err) = llvm_mc(&["--disassemble", "-show-encoding"], &bytes).expect("llvm-mc runs");
    let dis = parse_encodings(&out);
    if !error_lines(&err).is_empty() || dis.len() != samples.len() {
        failures.push(format!(
            "disassembler rejected some of our words: {}",
            err.lines().take(6).collect::<Vec<_>>().join(" | ")
        ));
    } else {
        for ((inst, words, text), (llvm_text, llvm_words)) in samples.iter().zip(&dis) {
            // LLVM prints VOP3 `v_nop` without `_e64`, which would re-assemble as VOP1; we print
            // the suffix so that the text round-trips (checked above).
            let bare = inst.form().is_some_and(|f| f.operands.is_empty())
                && text.strip_suffix("_e64") == Some(llvm_text);
            if (llvm_text != text && !bare) || llvm_words != words {
                failures.push(format!("text: ours `{text}` llvm `{llvm_text}`"));
            }
        }
    }
    if !failures.is_empty() {
        let n = failures.len();
        failures.sort_by_key(|s| s.split_whitespace().next().map(|w| w.to_string()));
        failures.truncate(80);
        panic!("{n} mismatches:\n{}", failures.join("\n"));
    }
}
