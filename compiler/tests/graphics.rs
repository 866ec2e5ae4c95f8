//! Vertex and fragment modules and image operations: they parse, lower and print.

mod common;

use ferrum_compiler::compile_to_ir;
use ferrum_compiler::ir::{print::shader_text, validate, ImageOp, InstKind, IoSlot, Shader, Stage};

fn compile(file: &str, stage: Stage) -> Shader {
    let path = common::corpus_dir().join("../graphics").join(file);
    let words = common::glsl_to_spirv(&path);
    let s = compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    validate::validate(&s, validate::Expect { inlined: true, explicit_io_lowered: true }).unwrap();
    s
}

fn insts(s: &Shader) -> Vec<InstKind> {
    s.funcs[0].blocks.iter().flat_map(|b| b.insts.iter().map(|i| i.kind.clone())).collect()
}

#[test]
fn vertex_outputs_write_only_their_components() {
    let s = compile("textured.vert", Stage::Vertex);
    let text = shader_text(&s);
    let stores: Vec<(IoSlot, u8, u8)> = s.funcs[0]
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter())
        .filter_map(|i| match i.kind {
            InstKind::IoStore { slot, comp, value } => {
                Some((slot, comp, s.funcs[0].ty(value).shape().1))
            }
            _ => None,
        })
        .collect();
    // out_uv (location 0, xy) and out_depth (location 0, component 2) share a slot.
    assert!(stores.contains(&(IoSlot::Location(0), 0, 2)), "{text}");
    assert!(stores.contains(&(IoSlot::Location(0), 2, 1)), "{text}");
    assert!(stores.contains(&(IoSlot::Location(1), 0, 4)), "{text}");
    assert!(stores.contains(&(IoSlot::Location(2), 0, 1)), "{text}");
    assert!(stores.iter().any(|s| matches!(s.0, IoSlot::Builtin(_))), "{text}");
    assert!(!text.contains("in*") && !text.contains("out*"), "I/O derefs left:\n{text}");
}

#[test]
fn fragment_shader_keeps_image_ops() {
    let s = compile("textured.frag", Stage::Fragment);
    let ops: Vec<ImageOp> = insts(&s)
        .into_iter()
        .filter_map(|k| match k {
            InstKind::Image(i) => Some(i.op),
            _ => None,
        })
        .collect();
    // The separate image and sampler are combined into a descriptor pair by
    // lower_image_handles, so no Combine remains.
    assert!(!ops.contains(&ImageOp::Combine), "{ops:?}");
    for op in [ImageOp::Sample, ImageOp::Fetch, ImageOp::Read, ImageOp::Size, ImageOp::Levels] {
        assert!(ops.contains(&op), "{op:?} missing from {ops:?}");
    }
    // `if (a.w < 0.01) discard;` on every invocation's path: a conditional kill.
    assert!(insts(&s).iter().any(|k| matches!(k, InstKind::KillIf(_))));
}

#[test]
fn compute_storage_images_parse() {
    let s = compile("storage_image.comp", Stage::Compute);
    let ops: Vec<ImageOp> = insts(&s)
        .into_iter()
        .filter_map(|k| match k {
            InstKind::Image(i) => Some(i.op),
            _ => None,
        })
        .collect();
    assert!(ops.contains(&ImageOp::Atomic(ferrum_compiler::ir::AtomicOp::Add)));
    assert!(ops.contains(&ImageOp::Write));
    // Compute shaders with images run in the interpreter (given image contents).
    assert!(ferrum_compiler::interp::is_interpretable(&s));
}
