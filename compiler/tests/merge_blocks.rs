//! `opt_merge_blocks`: straight-line code left by unrolled loops and folded branches becomes
//! one block, φs of merged blocks become their one source, and a block a construct header
//! names keeps its place. What the shaders compute is checked elsewhere (every pass alone
//! against the interpreter in passes.rs and gfx_interp.rs).

mod common;

use ferrum_compiler::ir::{print::shader_text, Function, Shader, Stage, Terminator};

fn compile(name: &str, src: &str, stage: Stage) -> Shader {
    common::glsl_source_to_ir(name, src, stage)
}

/// Blocks that hold code or lead somewhere (emptied unreachable blocks stay in the list).
fn live_blocks(f: &Function) -> usize {
    f.blocks.iter().filter(|b| !b.insts.is_empty() || b.term != Terminator::Unreachable).count()
}

#[test]
fn a_branch_on_a_folded_condition_is_one_block_with_the_code_around_it() {
    // glslang keeps the branch; constant folding decides it and dead-CF removal leaves a
    // chain of jumps that merging turns back into straight-line code.
    let s = compile(
        "folded.comp",
        "#version 450\nlayout(std430, binding = 0) buffer B { float v[8]; float total; };\n\
         void main() {\n int k = 3;\n float t = v[7];\n\
         if (k > 2) { t += v[1]; } else { t -= v[2]; }\n total = t;\n}\n",
        Stage::Compute,
    );
    assert_eq!(live_blocks(s.entry_fn()), 1, "{}", shader_text(&s));
}

#[test]
fn a_vertex_shaders_stores_after_an_unrolled_loop_join_the_entry_block() {
    // clip.vert writes its distances in a loop: once merged, every store_output is in the
    // entry block and no output register needs a zero default.
    let path = common::corpus_dir().join("../graphics/draw/clip.vert");
    let words = common::glsl_to_spirv(&path);
    let s =
        ferrum_compiler::compile_to_ir(&words, "main", Stage::Vertex, &Default::default()).unwrap();
    assert_eq!(live_blocks(s.entry_fn()), 1, "{}", shader_text(&s));
    let layout = ferrum_compiler::amd::default_layout(&s);
    let vs = ferrum_compiler::amd::compile_graphics(
        &s,
        &layout,
        ferrum_compiler::amd::abi::graphics::GfxKey::default(),
    )
    .unwrap();
    // The zeros left are the written distance 2 (0.0) and the colour's z, each exported.
    let zeros =
        vs.isa_text.lines().filter(|l| l.starts_with("v_mov_b32_e32") && l.contains(", 0 ;"));
    assert!(zeros.count() <= 2, "{}", vs.isa_text);
}

#[test]
fn branches_that_stay_keep_their_blocks() {
    let s = compile(
        "branch.comp",
        "#version 450\nlayout(local_size_x = 32) in;\n\
         layout(std430, binding = 0) buffer B { float v[32]; };\n\
         void main() {\n uint i = gl_LocalInvocationID.x;\n float x = v[i];\n\
         if (x > 0.0) { x = sqrt(x) * 3.0; v[(i + 1u) % 32u] = x; }\n v[i] = x + 1.0;\n}\n",
        Stage::Compute,
    );
    let f = s.entry_fn();
    // Header, then-block, merge: the merge block is named by the header and stays apart.
    assert_eq!(live_blocks(f), 3, "{}", shader_text(&s));
    assert!(f.blocks.iter().any(|b| b.merge.is_some()), "{}", shader_text(&s));
}
