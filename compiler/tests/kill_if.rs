//! `opt_kill_if`: `if (c) discard;` on every invocation's path becomes a conditional kill in
//! straight-line code (`KillIf`, one `s_andn2_b32 exec_lo` in the backend); discards in
//! divergent branches and loops keep their kill blocks. What the shaders compute is checked
//! elsewhere: every pass against the interpreter (gfx_interp.rs, which runs `opt_kill_if`
//! alone too), the simulator's pixels against the interpreter (gfx_interp_sim.rs,
//! discard.frag and discard_chain.frag) and against hand-computed colours (gfx_draw.rs).

mod common;

use ferrum_compiler::amd::abi::graphics::GfxKey;
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxMetadata};
use ferrum_compiler::ir::{print::shader_text, InstKind, Shader, Stage, Terminator};

fn front_end_glsl(name: &str, body: &str) -> Shader {
    let src = format!(
        "#version 450\n#extension GL_EXT_demote_to_helper_invocation : require\n\
         layout(location = 0) in vec4 c;\nlayout(location = 0) out vec4 o;\n\
         void main() {{\n{body}\n}}\n"
    );
    let path =
        std::env::temp_dir().join(format!("ferrum-kill-if-{}-{name}.frag", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_file(&path);
    ferrum_compiler::compile_to_ir(&words, "main", Stage::Fragment, &Default::default()).unwrap()
}

fn corpus(file: &str) -> Shader {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    ferrum_compiler::compile_to_ir(&words, "main", Stage::Fragment, &Default::default()).unwrap()
}

/// (`KillIf` instructions, `kill` terminators) of the entry function.
fn kills(s: &Shader) -> (usize, usize) {
    let f = s.entry_fn();
    let ifs = f.blocks.iter().flat_map(|b| &b.insts);
    let ifs = ifs.filter(|i| matches!(i.kind, InstKind::KillIf(_))).count();
    (ifs, f.blocks.iter().filter(|b| matches!(b.term, Terminator::Kill)).count())
}

#[test]
fn discards_on_every_path_become_conditional_kills() {
    let s = front_end_glsl("chain", "if (c.x > c.y) discard;\n o = c;\n if (c.z < 0.0) discard;");
    assert_eq!(kills(&s), (2, 0), "{}", shader_text(&s));
    // The false edge kills: the condition is negated.
    let s = front_end_glsl("negated", "if (c.x > c.y) { o = c; } else { discard; }");
    assert_eq!(kills(&s), (1, 0), "{}", shader_text(&s));
    assert_eq!(s.entry_fn().blocks.iter().filter(|b| !b.insts.is_empty()).count(), 1);
}

#[test]
fn discards_in_branches_and_loops_keep_their_kill_blocks() {
    let s = front_end_glsl(
        "branch",
        "if (c.w > 0.0) { o = c; if (c.x > c.y) discard; } else { o = -c; }",
    );
    assert_eq!(kills(&s), (0, 1), "{}", shader_text(&s));
    let s = front_end_glsl(
        "loop",
        "o = c;\n for (int i = 0; i < int(c.w); i++) { if (c[i & 3] > 1.0) discard; }",
    );
    assert_eq!(kills(&s), (0, 1), "{}", shader_text(&s));
    // After a branch that may kill, a later discard is not on every path.
    assert_eq!(kills(&corpus("discard_chain.frag")), (1, 2));
}

#[test]
fn a_conditional_kill_is_one_exec_update_and_the_outputs_are_entry_values() {
    let s = corpus("discard.frag");
    assert_eq!(kills(&s), (1, 0), "{}", shader_text(&s));
    let bin = compile_graphics(&s, &default_layout(&s), GfxKey::default()).unwrap();
    let text = &bin.isa_text;
    let GfxMetadata::Fragment(pm) = &bin.metadata else { panic!() };
    assert_eq!(pm.db_shader_control & (1 << 6), 1 << 6, "KILL_ENABLE");
    assert_eq!(text.matches("s_andn2_b32 exec_lo, exec_lo,").count(), 1, "{text}");
    // No copy of the launch mask to narrow the exports to (the first EXEC access is the
    // kill), no zeroed output registers.
    let first = text.lines().find(|l| l.contains("exec_lo")).unwrap_or_default();
    assert!(first.starts_with("s_andn2_b32 exec_lo, exec_lo,"), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("v_mov_b32_e32 v") && l.contains(", 0 ;")),
        "{text}"
    );
}

#[test]
fn a_demote_on_every_path_takes_lanes_out_of_the_live_mask_without_a_branch() {
    let s = corpus("demote.frag");
    let demotes = |k: &InstKind| matches!(k, InstKind::Demote | InstKind::DemoteIf(_));
    let all: Vec<&InstKind> =
        s.entry_fn().blocks.iter().flat_map(|b| &b.insts).map(|i| &i.kind).collect();
    assert_eq!(all.iter().filter(|k| demotes(k)).count(), 1, "{}", shader_text(&s));
    assert!(all.iter().any(|k| matches!(k, InstKind::DemoteIf(_))), "{}", shader_text(&s));
    let bin = compile_graphics(&s, &default_layout(&s), GfxKey::default()).unwrap();
    assert!(!bin.isa_text.contains("s_cbranch"), "{}", bin.isa_text);
    // A demote in a divergent branch keeps its block.
    let s = front_end_glsl(
        "demote_branch",
        "o = c;\n if (c.w > 0.0) { o.x = 1.0; if (c.x > c.y) demote; }",
    );
    let text = shader_text(&s);
    assert!(text.contains("demote\n") && !text.contains("demote_if"), "{text}");
}
