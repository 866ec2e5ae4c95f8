//! `opt_loop_unroll` on hand-written loops: the interpreter gives the same buffers before any
//! pass, right after the unroll and after the whole pipeline, the simulator agrees with the
//! interpreter on the compiled code, and exactly the loops with a constant trip count within
//! the budget are gone (the mechanism on every loop: the pipeline unrolls only loops that
//! index an invocation's arrays by the counter, which the last test checks).

mod common;

use common::gpu::Gpu;
use ferrum_compiler::analysis::divergence::natural_loops;
use ferrum_compiler::analysis::dominance::Dominance;
use ferrum_compiler::interp::{self, Resources};
use ferrum_compiler::ir::validate::{validate, Expect};
use ferrum_compiler::ir::{print, Shader, Stage};
use ferrum_compiler::passes::opt_loop_unroll::{unroll_loops, MAX_TRIPS};
use ferrum_compiler::passes::{inline_functions, lower_vars_to_ssa};
use ferrum_compiler::pipeline::optimize;

/// A compute shader around `body`: 16 invocations, `uint i` their index, `x` 64 input words
/// (0, 1, 2, ...), `o` the output, `uint acc` stored to `o[i]` at the end.
fn shader(name: &str, body: &str) -> common::Case {
    let src = format!(
        "#version 450\nlayout(local_size_x = 16) in;\n\
         layout(std430, binding = 0) readonly buffer I {{ uint x[]; }};\n\
         layout(std430, binding = 1) buffer O {{ uint o[]; }};\n\
         void main() {{\n uint i = gl_LocalInvocationID.x;\n uint acc = 0u;\n{body}\n o[i] = acc;\n}}\n"
    );
    let path =
        std::env::temp_dir().join(format!("ferrum-unroll-{}-{name}.comp", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_file(&path);
    let mut res = Resources::default();
    for (binding, init) in [(0, "ramp"), (1, "zero")] {
        res.buffers.push(interp::Buffer {
            set: 0,
            binding,
            index: 0,
            data: common::fill(init, 64),
        });
    }
    common::Case { name: name.into(), words, groups: [1, 1, 1], res, spec: Default::default() }
}

fn run(case: &common::Case, s: &Shader) -> Vec<u8> {
    let mut res = case.res.clone();
    interp::run(s, case.groups, &mut res)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", case.name, print::shader_text(s)));
    res.buffers[1].data.clone()
}

fn loops(s: &Shader) -> usize {
    let f = s.entry_fn();
    natural_loops(f, &Dominance::new(f)).len()
}

/// Checks `body` and returns its outputs; `left` is how many loops must stay after the unroll.
fn check(name: &str, body: &str, left: usize) -> Vec<u32> {
    let case = shader(name, body);
    let mut s = ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let reference = run(&case, &s);
    let ex = Expect { inlined: true, ..Expect::default() };
    inline_functions::inline_functions(&mut s).unwrap();
    lower_vars_to_ssa::lower_vars_to_ssa(&mut s);
    optimize(&mut s, ex).unwrap();
    unroll_loops(&mut s, false);
    let text = print::shader_text(&s);
    validate(&s, ex).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    assert_eq!(run(&case, &s), reference, "{name} after opt_loop_unroll\n{text}");
    assert_eq!(loops(&s), left, "{name}: loops left\n{text}");
    let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(run(&case, &ir), reference, "{name} after the pipeline");
    let layout = ferrum_compiler::amd::default_layout(&ir);
    let bin = ferrum_compiler::amd::compile(&ir, &layout).unwrap();
    let got = Gpu::new().run(&bin, &layout, case.groups, &case.res).unwrap();
    assert_eq!(got.buffers[1].data, reference, "{name}: simulator");
    reference[..64].chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn zero_and_one_trip_loops_unroll() {
    let out = check("zero", "for (int k = 5; k < 5; k++) acc += x[k] + 1u;", 0);
    assert_eq!(out, vec![0; 16]);
    let out = check("one", "for (uint k = 7u; k < 8u; k++) acc += x[k + i] * k;", 0);
    assert_eq!(out, (0..16).map(|i| (7 + i) * 7).collect::<Vec<u32>>());
}

#[test]
fn trip_count_at_the_limit_unrolls_and_one_more_stays() {
    let at = format!("for (uint k = 0u; k < {MAX_TRIPS}u; k++) acc ^= k * 3u + i;");
    let want: u32 = (0..MAX_TRIPS as u32).fold(0, |a, k| a ^ (k * 3));
    let out = check("at_limit", &at, 0);
    assert_eq!(out[0], want);
    let over = format!("for (uint k = 0u; k <= {MAX_TRIPS}u; k++) acc ^= k * 3u + i;");
    check("over_limit", &over, 1);
}

#[test]
fn large_bodies_stay_loops() {
    // Eight iterations of a body of ~100 instructions is over the instruction budget.
    let mut body = String::from("for (uint k = 0u; k < 8u; k++) {\n");
    for j in 0..24 {
        body += &format!(" acc = (acc ^ x[(k * {j}u + i) & 63u]) * {}u + k;\n", 2 * j + 3);
    }
    body += "}";
    check("large", &body, 1);
}

#[test]
fn nested_loops_unroll_from_the_inside() {
    let out = check(
        "nested",
        "for (uint a = 0u; a < 3u; a++) for (uint b = 0u; b < 4u; b++) acc += x[a * 4u + b] ^ i;",
        0,
    );
    assert_eq!(out[0], (0..12).sum::<u32>());
    // The outer loop unrolls around an inner one whose trip count depends on data.
    check(
        "nested_data",
        "for (uint a = 0u; a < 2u; a++) for (uint b = 0u; b < x[i] % 3u; b++) acc += a * 5u + b;",
        2,
    );
}

#[test]
fn break_and_continue_at_constant_iterations_unroll() {
    let out = check(
        "break_continue",
        "for (uint k = 0u; k < 10u; k++) { if (k == 2u) continue; if (k == 6u) break; acc += x[k] * k + i; }",
        0,
    );
    assert_eq!(out[1], [0u32, 1, 3, 4, 5].iter().map(|k| k * k + 1).sum::<u32>());
    // A data-dependent if inside a constant loop does not stop the unroll.
    check(
        "inner_if",
        "for (uint k = 0u; k < 4u; k++) { if (x[k + i] % 3u == 0u) acc += k; else acc -= 1u; }",
        0,
    );
    check("do_while", "uint k = 0u; do { acc += x[k] + i; k++; } while (k < 3u);", 0);
}

#[test]
fn data_dependent_trip_counts_stay_loops() {
    check("data_bound", "for (uint k = 0u; k < x[i] % 5u; k++) acc += k;", 1);
    check(
        "data_break",
        "for (uint k = 0u; k < 8u; k++) { acc += x[k]; if (acc > i * 3u) break; }",
        1,
    );
    check(
        "data_continue",
        "for (uint k = 0u; k < 6u; k++) { if (x[k + i] % 2u == 0u) continue; if (k == 4u) break; acc += k; }",
        1,
    );
}

#[test]
fn overflowing_induction_variables_wrap_as_at_run_time() {
    // INT_MAX - 2, INT_MAX - 1, INT_MAX, then the counter wraps negative and the loop ends.
    let out =
        check("int_max", "for (int k = 2147483645; k > 0; k++) acc += uint(k) & 0xffu + i;", 0);
    assert_eq!(out[0], (0xfd & 0xff) + (0xfe & 0xff) + (0xff & 0xff));
    let out = check("uint_wrap", "for (uint k = 0xfffffffeu; k != 2u; k++) acc += k ^ i;", 0);
    assert_eq!(out[0], 0xfffffffeu32.wrapping_add(0xffffffff).wrapping_add(1));
}

#[test]
fn arrays_indexed_by_the_counter_leave_scratch() {
    let case = shader(
        "array",
        "uint t[4]; for (uint k = 0u; k < 4u; k++) t[k] = x[i] + k; acc = t[0] + t[3] * 2u;",
    );
    check(
        "array",
        "uint t[4]; for (uint k = 0u; k < 4u; k++) t[k] = x[i] + k; acc = t[0] + t[3] * 2u;",
        0,
    );
    let ir =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    assert_eq!(ir.scratch_size, 0, "{}", print::shader_text(&ir));
}

/// The pipeline unrolls only loops whose local arrays end up indexed by constants alone: an
/// array also read at a dynamic index, or indexed by the counter mixed with an invocation
/// value, stays in memory, and unrolling would only multiply its loads and stores.
#[test]
fn the_pipeline_keeps_loops_over_arrays_that_stay_dynamic() {
    for (name, body) in [
        (
            "read_dynamically",
            "uint t[4]; for (uint k = 0u; k < 4u; k++) t[k] = x[i] + k; acc = t[i % 4u];",
        ),
        (
            "mixed_index",
            "uint t[4]; t[0] = x[i]; t[1] = 2u; t[2] = 3u; t[3] = x[0]; \
             for (uint k = 0u; k < 4u; k++) acc += t[(i + k) % 4u] * (k + 1u);",
        ),
    ] {
        let case = shader(name, body);
        let s = ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let reference = run(&case, &s);
        let ir = ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(run(&case, &ir), reference, "{name} after the pipeline");
        assert_eq!(loops(&ir), 1, "{name}: the loop stays\n{}", print::shader_text(&ir));
    }
}
