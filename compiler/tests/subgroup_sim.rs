//! The subgroup corpus (`tests/corpus/subgroup_*`) on the simulator against the interpreter,
//! and the tie between what the compiler claims (`amd::SUBGROUP_FEATURES`, which the driver
//! reports as its subgroup properties) and what runs: every claimed operation class is used by
//! a corpus shader that compiles and runs correctly.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd::{self, SUBGROUP_FEATURES};
use ferrum_compiler::interp;
use ferrum_compiler::ir::Stage;

/// Runs one case on the simulator and in the interpreter; the first difference, or a refusal
/// by the backend, is an error.
fn check(gpu: &Gpu, case: &common::Case, groups: [u32; 3]) -> Result<(), String> {
    let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
        .map_err(|e| e.to_string())?;
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).map_err(|e| e.to_string())?;
    let mut want = case.res.clone();
    interp::run(&ir, groups, &mut want).map_err(|e| format!("interpreter: {e}"))?;
    let got =
        gpu.run(&bin, &layout, groups, &case.res).map_err(|e| format!("{e}\n{}", bin.isa_text))?;
    for (i, (w, g)) in want.buffers.iter().zip(&got.buffers).enumerate() {
        if let Some(at) = w.data.iter().zip(&g.data).position(|(a, b)| a != b) {
            let at = at / 4 * 4;
            let end = (at + 16).min(w.data.len());
            return Err(format!(
                "buffer {i} differs first at byte {at}: want {:02x?} got {:02x?}",
                &w.data[at..end],
                &g.data[at..end],
            ));
        }
    }
    Ok(())
}

/// The capabilities a SPIR-V module declares (`OpCapability`, opcode 17).
fn capabilities(words: &[u32]) -> Vec<u32> {
    let mut caps = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let (len, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if op == 17 && len == 2 {
            caps.push(words[i + 1]);
        }
        i += len.max(1);
    }
    caps
}

fn subgroup_cases() -> Vec<common::Case> {
    common::all_cases().into_iter().filter(|c| c.name.starts_with("subgroup_")).collect()
}

/// Every subgroup corpus shader, at its own dispatch shape and at one workgroup, matches the
/// interpreter byte for byte; every class the compiler claims (and, if claimed, arithmetic on
/// every extended type) is declared by one of them.
#[test]
fn every_claimed_subgroup_class_runs_on_the_simulator() {
    let gpu = Gpu::new();
    let mut failures = Vec::new();
    let mut passed: Vec<Vec<u32>> = Vec::new();
    for case in subgroup_cases() {
        let mut ok = true;
        for groups in [case.groups, [1, 1, 1]] {
            if let Err(e) = check(&gpu, &case, groups) {
                failures.push(format!("{} {groups:?}: {e}", case.name));
                ok = false;
            }
        }
        if ok {
            passed.push(capabilities(&case.words));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
    for class in SUBGROUP_FEATURES.classes {
        let cap = class.capability() as u32;
        assert!(passed.iter().any(|c| c.contains(&cap)), "no passing corpus shader uses {class:?}");
    }
    if SUBGROUP_FEATURES.extended_types {
        // Extended types: arithmetic on each of them in a passing shader.
        use spirv::Capability as C;
        for ty in [C::Int8, C::Int16, C::Float16, C::Int64] {
            let arith = C::GroupNonUniformArithmetic as u32;
            let found = passed.iter().any(|c| c.contains(&(ty as u32)) && c.contains(&arith));
            assert!(found, "no passing corpus shader does subgroup arithmetic with {ty:?}");
        }
    }
}
