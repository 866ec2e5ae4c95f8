//! Invalid, truncated and randomly mutated SPIR-V gives an error value, never a panic.

mod common;

use ferrum_compiler::ir::Stage;
use ferrum_compiler::{compile_to_ir, CompileError};
use proptest::prelude::*;

fn compile(words: &[u32]) -> Result<(), CompileError> {
    compile_to_ir(words, "main", Stage::Compute, &Default::default()).map(|_| ())
}

fn corpus() -> Vec<Vec<u32>> {
    corpus_cached().clone()
}

#[test]
fn empty_and_garbage_inputs_are_errors() {
    assert!(matches!(compile(&[]), Err(CompileError::Malformed(_))));
    assert!(matches!(compile(&[0xdead_beef; 16]), Err(CompileError::Malformed(_))));
    let words = &corpus()[0];
    assert!(compile(&words[..5]).is_err());
}

#[test]
fn truncations_of_every_corpus_shader_are_errors() {
    for words in corpus() {
        for len in (0..words.len()).step_by(11) {
            let r = compile(&words[..len]);
            assert!(r.is_err(), "truncated to {len} words still compiled");
        }
    }
}

#[test]
fn debug_names_that_are_not_utf8_are_ignored() {
    // OpName %1 and OpMemberName %1 0 with an overlong encoding of '/' (0xc0 0xaf) and a
    // stray continuation byte, inserted after the memory model of a real module (where the
    // debug section starts; %1 need not be a struct for the module to compile).
    let mut words = corpus()[0].clone();
    let mut at = 5;
    while words[at] & 0xffff != 14 {
        at += (words[at] >> 16) as usize;
    }
    at += (words[at] >> 16) as usize;
    let name = u32::from_le_bytes([b'x', 0xc0, 0xaf, 0]);
    let member = u32::from_le_bytes([0x80, b'y', 0, 0]);
    words.splice(at..at, [(3 << 16) | 5, 1, name, (4 << 16) | 6, 1, 0, member]);
    compile(&words).expect("names are debug information only");
}

#[test]
fn unsupported_capability_names_it() {
    // OpCapability Geometry (2) appended to the capability section of a real module.
    let mut words = corpus()[0].clone();
    words.splice(5..5, [(2 << 16) | 17, 2]);
    let e = compile(&words).unwrap_err();
    assert_eq!(e.to_string(), "unsupported capability Geometry");
}

#[test]
fn wrong_entry_point_is_an_error() {
    let words = &corpus()[0];
    let e = compile_to_ir(words, "nope", Stage::Compute, &Default::default()).unwrap_err();
    assert!(matches!(e, CompileError::NoEntryPoint(_)));
    let e = compile_to_ir(words, "main", Stage::Fragment, &Default::default()).unwrap_err();
    assert!(matches!(e, CompileError::NoEntryPoint(_)));
}

/// Applies `edits` (word overwrites, bit flips, low-half replacements, truncations) to corpus
/// shader `which` and compiles the result, which must not panic.
fn mutate_and_compile(which: usize, edits: Vec<(prop::sample::Index, u32, u8)>) {
    let all = corpus_cached();
    let mut words = all[which % all.len()].clone();
    for (at, val, kind) in edits {
        if words.len() <= 5 {
            break;
        }
        let i = 5 + at.index(words.len() - 5);
        match kind {
            0 => words[i] = val,
            1 => words[i] ^= 1 << (val % 32),
            2 => words[i] = (words[i] & 0xffff_0000) | (val & 0xffff),
            _ => words.truncate(i),
        }
    }
    let _ = compile(&words);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn mutated_corpus_never_panics(
        which in 0usize..64,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>(), 0u8..4), 1..6),
    ) {
        mutate_and_compile(which, edits);
    }
}

proptest! {
    // Seed 295 (with this corpus) found a store past a local array's end that
    // opt_constant_arrays sliced its table with; replayed whatever the random seed is.
    #![proptest_config(ProptestConfig {
        cases: 3000,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(295),
        ..ProptestConfig::default()
    })]
    #[test]
    fn mutated_corpus_seed_295_never_panics(
        which in 0usize..64,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>(), 0u8..4), 1..6),
    ) {
        mutate_and_compile(which, edits);
    }
}

/// Word offsets of every instruction's operands (never the opcode/word-count word).
fn operand_words(words: &[u32]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let wc = (words[at] >> 16) as usize;
        if wc == 0 {
            break;
        }
        out.extend(at + 1..(at + wc).min(words.len()));
        at += wc;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]
    /// Mutations that keep the instruction stream well-formed, so they reach the translator
    /// and the passes rather than stopping in the decoder.
    #[test]
    fn operand_mutations_never_panic(
        which in 0usize..64,
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u32..64, any::<bool>()), 1..4),
    ) {
        let all = corpus_cached();
        let mut words = all[which % all.len()].clone();
        let ops = operand_words(&words);
        let bound = words[3];
        for (at, val, small) in edits {
            let i = ops[at.index(ops.len())];
            // Small literals or ids inside the module's id bound.
            words[i] = if small { val } else { val * bound / 64 };
        }
        let _ = compile(&words);
    }
}

fn corpus_cached() -> &'static Vec<Vec<u32>> {
    static C: std::sync::OnceLock<Vec<Vec<u32>>> = std::sync::OnceLock::new();
    C.get_or_init(|| common::all_cases().into_iter().map(|c| c.words).collect())
}

#[test]
fn exponential_inlining_is_refused() {
    // f0 calls f1 twice, f1 calls f2 twice, ...: 2^30 copies if inlined blindly.
    let mut asm = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %f0 \"main\"\n\
         OpExecutionMode %f0 LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n",
    );
    let depth = 30;
    for i in 0..depth {
        asm += &format!("%f{i} = OpFunction %void None %fn\n%l{i} = OpLabel\n");
        if i + 1 < depth {
            let n = i + 1;
            asm += &format!(
                "%a{i} = OpFunctionCall %void %f{n}\n%b{i} = OpFunctionCall %void %f{n}\n"
            );
        }
        asm += "OpReturn\nOpFunctionEnd\n";
    }
    let path = std::env::temp_dir().join(format!("ferrum-{}-deep.spvasm", std::process::id()));
    std::fs::write(&path, asm).unwrap();
    let words = common::spvasm_to_spirv(&path);
    let _ = std::fs::remove_file(&path);
    let e = compile(&words).unwrap_err();
    assert!(e.to_string().contains("too large after inlining"), "{e}");
}
