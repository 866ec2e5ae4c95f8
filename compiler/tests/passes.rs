//! Every pass on every corpus shader: interpret before and after, compare byte for byte.

mod common;

use ferrum_compiler::interp::{self, Resources};
use ferrum_compiler::ir::validate::{validate, Expect};
use ferrum_compiler::ir::{print, Shader, Stage};
use ferrum_compiler::passes::*;
use ferrum_compiler::pipeline::optimize;

fn run(case: &common::Case, s: &Shader) -> Resources {
    let mut res = case.res.clone();
    interp::run(s, case.groups, &mut res)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", case.name, print::shader_text(s)));
    res
}

fn check(case: &common::Case, stage: &str, s: &Shader, expect: Expect, reference: &Resources) {
    validate(s, expect)
        .unwrap_or_else(|e| panic!("{} after {stage}: {e}\n{}", case.name, print::shader_text(s)));
    let got = run(case, s);
    for (i, (a, b)) in reference.buffers.iter().zip(&got.buffers).enumerate() {
        assert!(
            a.data == b.data,
            "{}: buffer {i} differs after {stage}\n{}",
            case.name,
            print::shader_text(s)
        );
    }
    for (i, (a, b)) in reference.globals.iter().zip(&got.globals).enumerate() {
        assert!(a.data == b.data, "{}: global buffer {i} differs after {stage}", case.name);
    }
}

/// The read-only and mutable operand walks visit the same values in the same order.
fn operand_accessors_agree(s: &Shader) {
    for b in &s.funcs.iter().flat_map(|f| f.blocks.iter()).collect::<Vec<_>>() {
        for i in &b.insts {
            let mut a = Vec::new();
            i.for_each_src(|v| a.push(v));
            let mut c = i.clone();
            let mut m = Vec::new();
            c.for_each_src_mut(|v| m.push(*v));
            assert_eq!(a, m, "{:?}", i.kind);
        }
    }
}

/// Runs each optimization pass alone on `s`, checking the result each time.
fn each_opt(case: &common::Case, s: &Shader, expect: Expect, reference: &Resources, at: &str) {
    type P = fn(&mut Shader) -> bool;
    let passes: [(&str, P); 8] = [
        ("opt_copy_prop", opt_copy_prop::opt_copy_prop),
        ("opt_constant_fold", opt_constant_fold::opt_constant_fold),
        ("opt_dead_cf", opt_dead_cf::opt_dead_cf),
        ("opt_merge_blocks", opt_merge_blocks::opt_merge_blocks),
        ("opt_if_convert", opt_if_convert::opt_if_convert),
        ("opt_cse", opt_cse::opt_cse),
        ("opt_dce", opt_dce::opt_dce),
        ("opt_licm", opt_licm::opt_licm),
    ];
    for (name, p) in passes {
        let mut t = s.clone();
        p(&mut t);
        check(case, &format!("{name} ({at})"), &t, expect, reference);
    }
}

#[test]
fn every_pass_preserves_results_on_the_corpus() {
    let cases = common::all_cases();
    assert!(cases.len() >= 40, "corpus has only {} shaders", cases.len());
    for case in &cases {
        let mut s = ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let reference = run(case, &s);
        operand_accessors_agree(&s);
        let mut ex = Expect::default();
        inline_functions::inline_functions(&mut s).unwrap();
        ex.inlined = true;
        check(case, "inline_functions", &s, ex, &reference);
        lower_vars_to_ssa::lower_vars_to_ssa(&mut s);
        check(case, "lower_vars_to_ssa", &s, ex, &reference);
        each_opt(case, &s, ex, &reference, "before lowering");
        optimize(&mut s, ex).unwrap();
        check(case, "optimize", &s, ex, &reference);
        opt_loop_unroll::opt_loop_unroll(&mut s);
        check(case, "opt_loop_unroll", &s, ex, &reference);
        optimize(&mut s, ex).unwrap();
        lower_vars_to_ssa::lower_vars_to_ssa(&mut s);
        check(case, "lower_vars_to_ssa (unrolled)", &s, ex, &reference);
        optimize(&mut s, ex).unwrap();
        check(case, "optimize (unrolled)", &s, ex, &reference);
        opt_memory_forward::opt_memory_forward(&mut s);
        check(case, "opt_memory_forward", &s, ex, &reference);
        lower_system_values::lower_system_values(&mut s);
        check(case, "lower_system_values", &s, ex, &reference);
        opt_constant_arrays::opt_constant_arrays(&mut s);
        check(case, "opt_constant_arrays", &s, ex, &reference);
        lower_explicit_io::lower_explicit_io(&mut s);
        ex.explicit_io_lowered = true;
        check(case, "lower_explicit_io", &s, ex, &reference);
        each_opt(case, &s, ex, &reference, "after lowering");
        optimize(&mut s, ex).unwrap();
        check(case, "optimize (lowered)", &s, ex, &reference);
        // The public entry point gives the same final result.
        let full = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap();
        check(case, "compile_to_ir", &full, ex, &reference);
    }
}
