//! Golden IR text: the IR after key passes for a few shaders, compared as text.
//! Run with `FERRUM_BLESS=1` to rewrite the expectations after an intended change.

mod common;

use std::fmt::Write;

use ferrum_compiler::ir::{print::shader_text, Stage};
use ferrum_compiler::passes::*;
use ferrum_compiler::pipeline::optimize;

fn pipeline_text(name: &str) -> String {
    let case = common::load_case(&common::corpus_dir().join(format!("{name}.comp")));
    let mut s =
        ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    let mut out = String::new();
    let mut dump = |stage: &str, s: &ferrum_compiler::ir::Shader| {
        let _ = write!(out, "=== {stage}\n{}\n", shader_text(s));
    };
    dump("spirv_to_ir", &s);
    inline_functions::inline_functions(&mut s).unwrap();
    dump("inline_functions", &s);
    lower_vars_to_ssa::lower_vars_to_ssa(&mut s);
    dump("lower_vars_to_ssa", &s);
    let ex = ferrum_compiler::ir::validate::Expect { inlined: true, explicit_io_lowered: false };
    optimize(&mut s, ex).unwrap();
    lower_system_values::lower_system_values(&mut s);
    lower_explicit_io::lower_explicit_io(&mut s);
    dump("lower_system_values + lower_explicit_io", &s);
    optimize(&mut s, ferrum_compiler::ir::validate::Expect { explicit_io_lowered: true, ..ex })
        .unwrap();
    dump("optimized", &s);
    out
}

fn golden(name: &str) {
    let got = pipeline_text(name);
    let path = common::corpus_dir().join("../golden").join(format!("{name}.ir"));
    if std::env::var_os("FERRUM_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}; run with FERRUM_BLESS=1", path.display()));
    if got != want {
        let line = got.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{name}: IR differs from {} at line {}:\n got: {}\nwant: {}\n(FERRUM_BLESS=1 to accept)",
            path.display(),
            line + 1,
            got.lines().nth(line).unwrap_or(""),
            want.lines().nth(line).unwrap_or("")
        );
    }
}

#[test]
fn golden_std140_row_major() {
    golden("std140_row_major");
}

#[test]
fn golden_function_ptr_params() {
    golden("function_ptr_params");
}

#[test]
fn golden_buffer_reference_select() {
    golden("buffer_reference_select");
}

#[test]
fn golden_local_array_dynamic() {
    golden("local_array_dynamic");
}

#[test]
fn golden_shared_reduction() {
    golden("shared_reduction");
}
