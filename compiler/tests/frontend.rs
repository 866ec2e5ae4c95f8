//! Front end + interpreter on unlowered IR, with hand-checked results.

mod common;

use ferrum_compiler::interp;
use ferrum_compiler::ir::{print, validate, Stage};

fn front(case: &common::Case) -> ferrum_compiler::ir::Shader {
    ferrum_compiler::spirv::to_ir(&case.words, "main", Stage::Compute, &case.spec)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

#[test]
fn every_corpus_shader_parses_validates_and_runs() {
    for case in common::all_cases() {
        let s = front(&case);
        validate::validate(&s, Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", case.name, print::shader_text(&s)));
        let mut res = case.res.clone();
        interp::run(&s, case.groups, &mut res)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", case.name, print::shader_text(&s)));
    }
}

#[test]
fn saxpy_matches_hand_computation() {
    let case = common::load_case(&common::corpus_dir().join("ssbo_std430_basic.comp"));
    let s = front(&case);
    let mut res = case.res.clone();
    interp::run(&s, case.groups, &mut res).unwrap();
    let a = common::f32_at(&case.res.push, 0);
    for i in 0..64 {
        let x = common::f32_at(&case.res.buffers[0].data, i);
        let y = common::f32_at(&case.res.buffers[1].data, i);
        assert_eq!(common::f32_at(&res.buffers[1].data, i), a * x + y, "element {i}");
    }
    // Invocations beyond the dispatch did not write.
    assert_eq!(res.buffers[1].data[256..], case.res.buffers[1].data[256..]);
}

#[test]
fn std140_row_major_reads_match_hand_computation() {
    let case = common::load_case(&common::corpus_dir().join("std140_row_major.comp"));
    let s = front(&case);
    let mut res = case.res.clone();
    interp::run(&s, case.groups, &mut res).unwrap();
    let u = |i: usize| common::f32_at(&case.res.buffers[0].data, i);
    let o = |i: usize| common::f32_at(&res.buffers[1].data, i);
    // Row-major, MatrixStride 16: element (column c, row r) lives at float r*4 + c.
    let m = |c: usize, r: usize| u(r * 4 + c);
    let v = [u(16), u(17), u(18), 1.0];
    for r in 0..4 {
        let mut acc = 0.0f32;
        for (c, vc) in v.iter().enumerate() {
            acc = if c == 0 { m(c, r) * vc } else { acc + m(c, r) * vc };
        }
        assert_eq!(o(r), acc, "m*v row {r}");
    }
    for i in 0..4 {
        for r in 0..4 {
            assert_eq!(o(16 + i * 4 + r), m(i, r), "column {i} row {r}");
        }
        assert_eq!(o(32 + i * 4), m(i, 1));
        assert_eq!(o(32 + i * 4 + 1), u(20 + (i % 3) * 4), "s[] has std140 stride 16");
        assert_eq!(o(32 + i * 4 + 2), u(16 + i % 3));
    }
}

fn run_named(name: &str) -> (common::Case, ferrum_compiler::interp::Resources) {
    let case = common::load_case(&common::corpus_dir().join(name));
    let s =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    let mut res = case.res.clone();
    interp::run(&s, case.groups, &mut res).unwrap();
    (case, res)
}

#[test]
fn variable_pointers_pick_the_right_buffer() {
    let (case, res) = run_named("variable_pointers.spvasm");
    // Even invocations below 2 write through b, everything else through a.
    let (a0, b0) = (&case.res.buffers[0].data, &case.res.buffers[1].data);
    let (a, b) = (&res.buffers[0].data, &res.buffers[1].data);
    assert_eq!(common::u32_at(b, 0), common::u32_at(b0, 0) + 100);
    assert_eq!(common::u32_at(a, 0), common::u32_at(a0, 0));
    for i in 1..4 {
        assert_eq!(common::u32_at(a, i), common::u32_at(a0, i) + 100, "a[{i}]");
        assert_eq!(common::u32_at(b, i), common::u32_at(b0, i), "b[{i}]");
    }
}

#[test]
fn copy_memory_copies_every_member_at_its_offset() {
    let (case, res) = run_named("copy_memory_layouts.spvasm");
    let src = &case.res.buffers[0].data;
    let dst = &res.buffers[1].data;
    for w in [0, 4, 8, 9] {
        assert_eq!(common::u32_at(dst, w), common::u32_at(src, w), "word {w}");
    }
    // Padding between members is not written.
    for w in [1, 2, 3, 5, 6, 7, 10, 11] {
        assert_eq!(common::u32_at(dst, w), 0, "padding word {w}");
    }
}

#[test]
fn specialization_constants_are_applied() {
    // SCALE (id 0) = 3 overridden, OFFSET (id 1) = 7 default, BOTH = SCALE * 10 + OFFSET,
    // workgroup size x from id 2 = 4.
    let (_, res) = run_named("spec_constants.comp");
    for i in 0..4 {
        assert_eq!(common::u32_at(&res.buffers[0].data, i), i as u32 * 3 + 7 + 37 + 4);
    }
    assert_eq!(common::u32_at(&res.buffers[0].data, 4), 0, "only 4 invocations ran");
}

#[test]
fn int64_atomics_match_hand_computation() {
    let (_, res) = run_named("int64_atomics.comp");
    let d = &res.buffers[0].data;
    let q = |i: usize| u64::from_le_bytes(d[i * 8..i * 8 + 8].try_into().unwrap());
    assert_eq!(q(0), (0..32u64).sum::<u64>() << 33);
    assert_eq!(q(1), 31 * 0x1_0000_0001);
    assert_eq!(q(2) as i64, -31);
    assert_eq!(q(3), 0xffff_ffff);
}

#[test]
fn atomic_increment_and_decrement_add_one_and_minus_one() {
    let (_, res) = run_named("atomic_inc_dec.spvasm");
    let d = &res.buffers[0].data;
    // The words start as a ramp 0, 1, 2, 3; 32 invocations each add +1 to word 0 and -1 to
    // word 1, and the old values they saw (0..32 and 1, 0, ..., -30) to words 2 and 3.
    assert_eq!(common::u32_at(d, 0), 32);
    assert_eq!(common::u32_at(d, 1), 1u32.wrapping_sub(32));
    assert_eq!(common::u32_at(d, 2), 2 + (0..32).sum::<u32>());
    let dec_sum = (0..32u32).fold(0u32, |s, k| s.wrapping_add(1u32.wrapping_sub(k)));
    assert_eq!(common::u32_at(d, 3), 3u32.wrapping_add(dec_sum));
}

#[test]
fn kernels_compute_what_they_claim() {
    // Exclusive prefix sum per 64-element workgroup block.
    let (case, res) = run_named("kernel_prefix_sum.comp");
    let x = &case.res.buffers[0].data;
    for blk in 0..2 {
        let mut acc = 0u32;
        for i in 0..64 {
            assert_eq!(common::u32_at(&res.buffers[1].data, blk * 64 + i), acc, "scan {blk}:{i}");
            acc += common::u32_at(x, blk * 64 + i);
        }
    }
    // Bitonic sort.
    let (case, res) = run_named("kernel_bitonic_sort.comp");
    let mut want: Vec<u32> =
        (0..64).map(|i| common::u32_at(&case.res.buffers[0].data, i)).collect();
    want.sort();
    let got: Vec<u32> = (0..64).map(|i| common::u32_at(&res.buffers[0].data, i)).collect();
    assert_eq!(got, want);
    // Tiled matrix multiply: same summation order as the shader (tile by tile, k ascending).
    let (case, res) = run_named("kernel_tiled_matmul.comp");
    let a = |r: usize, k: usize| common::f32_at(&case.res.buffers[0].data, r * 8 + k);
    let b = |k: usize, c: usize| common::f32_at(&case.res.buffers[1].data, k * 8 + c);
    for r in 0..8 {
        for c in 0..8 {
            let mut acc = 0.0f32;
            for k in 0..8 {
                acc += a(r, k) * b(k, c);
            }
            assert_eq!(common::f32_at(&res.buffers[2].data, r * 8 + c), acc, "c[{r}][{c}]");
        }
    }
}

#[test]
fn packing_builtins_match_hand_values() {
    let (_, res) = run_named("glsl_packing.comp");
    let d = &res.buffers[1].data;
    assert_eq!(common::u32_at(d, 0), 0xc000_3c00, "packHalf2x16(1, -2)");
    // round(0.5 * 255) = 128 (ties to even gives 128 too).
    assert_eq!(common::u32_at(d, 1), 0xffff_8000, "packUnorm4x8(0, .5, 1, 2)");
    // -1 -> 0x81, 0.5 -> round(63.5) = 64, 0 -> 0, 1 -> 0x7f.
    assert_eq!(common::u32_at(d, 2), 0x7f00_4081, "packSnorm4x8(-1, .5, 0, 1)");
    let u: Vec<f32> = (32..36).map(|i| common::f32_at(d, i)).collect();
    assert_eq!(u, [0.0, 128.0 / 255.0, 1.0, 0.0]);
}

#[test]
fn uvec2_buffer_reference_reads_global_memory() {
    let (_, res) = run_named("buffer_reference_uvec2.comp");
    for i in 0..16 {
        assert_eq!(common::u32_at(&res.buffers[1].data, i), 16 - i as u32);
    }
}

#[test]
fn spec_constant_ops_with_literal_lists_evaluate_every_literal() {
    let (_, res) = run_named("spec_op_composites.spvasm");
    let want = [4, 11, 20, 3, 20, 20, 3, 4, 3, 7, 11, 11, 4, 20];
    for (i, w) in want.iter().enumerate() {
        assert_eq!(common::u32_at(&res.buffers[0].data, i), *w, "word {i}");
    }
}

#[test]
fn private_initializers_start_every_invocation() {
    let (_, res) = run_named("private_initializers.spvasm");
    for i in 0..4u32 {
        let want = [7, 7 + i, i, 5];
        for (k, w) in want.iter().enumerate() {
            let got = common::u32_at(&res.buffers[0].data, (4 * i) as usize + k);
            assert_eq!(got, *w, "invocation {i} word {k}");
        }
    }
}

#[test]
fn decoration_groups_decorate_every_target() {
    let (_, res) = run_named("decoration_groups.spvasm");
    for i in 0..8u32 {
        let want = if i < 4 { 2 * i + 1 } else { 0 };
        assert_eq!(common::u32_at(&res.buffers[1].data, i as usize), want, "out[{i}]");
    }
}
