//! Fragment-stage invocation state on the simulator's legacy graphics pipeline: demotion to
//! helper invocations and the helper-invocation built-ins. Expectations are computed here
//! from the triangle's geometry and the shaders' patterns.

mod common;

use common::draw::{draw, H, W};
use common::tri::inside;
use ferrum_compiler::amd::abi::graphics::PsKey;
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary};
use ferrum_compiler::ir::Stage;

fn compile(file: &str, stage: Stage) -> GfxBinary {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    compile_graphics(&ir, &default_layout(&ir), PsKey::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// demote.frag's pattern.
fn demoted(x: u32, y: u32) -> bool {
    (x + 2 * y) % 3 == 0
}

/// Whether pixel (x, y) runs as a helper in demote.frag: outside the triangle (a whole-quad
/// helper) or demoted; `None` when its centre is too close to an edge to say.
fn helper(x: u32, y: u32) -> Option<bool> {
    inside(x, y).map(|i| !i || demoted(x, y))
}

#[test]
fn demoted_lanes_keep_derivatives_and_report_themselves_as_helpers() {
    let vs = compile("color.vert", Stage::Vertex);
    let ps = compile("demote.frag", Stage::Fragment);
    let pm = match &ps.metadata {
        ferrum_compiler::amd::GfxMetadata::Fragment(m) => m.clone(),
        _ => unreachable!(),
    };
    assert_ne!(pm.db_shader_control & 1 << 6, 0, "KILL_ENABLE: demoted pixels are not written");
    let pixels = draw(&vs, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let (mut live, mut dropped, mut seen_helper) = (0, 0, [0; 2]);
    for y in 0..H {
        for x in 0..W {
            let got = pixels[(y * W + x) as usize];
            match helper(x, y) {
                Some(true) => {
                    assert_eq!(got, [0.0; 4], "({x}, {y}) is a helper: nothing written");
                    dropped += u32::from(inside(x, y) == Some(true));
                    continue;
                }
                None => continue,
                Some(false) => {}
            }
            // The horizontal and vertical quad neighbours.
            let (nx, ny) = (x ^ 1, y ^ 1);
            let (Some(hx), Some(hy)) = (helper(nx, y), helper(x, ny)) else { continue };
            live += 1;
            // Fine d/dx = right lane - left lane: +h(right) from the left lane, -h(left) from
            // the right one.
            let sx = if x & 1 == 0 { 1.0 } else { -1.0 };
            let sy = if y & 1 == 0 { 1.0 } else { -1.0 };
            let want = [
                y as f32 + 0.5,
                x as f32 + 0.5,
                sx * f32::from(u8::from(hx)),
                sy * f32::from(u8::from(hy)),
            ];
            seen_helper[0] += u32::from(hx && demoted(nx, y));
            seen_helper[1] += u32::from(hy && inside(x, ny) == Some(false));
            assert_eq!(got, want, "({x}, {y}): fine d/dx p, d/dy p, d/dx helper, d/dy helper");
        }
    }
    assert!(live > 500 && dropped > 300, "{live} live pixels, {dropped} demoted");
    assert!(seen_helper[0] > 100 && seen_helper[1] > 10, "{seen_helper:?}");
}

#[test]
fn sample_mask_output_drops_pixels_and_the_input_is_the_covered_sample() {
    let vs = compile("color.vert", Stage::Vertex);
    let ps = compile("sample_mask.frag", Stage::Fragment);
    let pm = match &ps.metadata {
        ferrum_compiler::amd::GfxMetadata::Fragment(m) => m.clone(),
        _ => unreachable!(),
    };
    assert_eq!(pm.z_format, 9, "SPI_SHADER_32_ABGR: the mask travels in z");
    assert_ne!(pm.db_shader_control & 1 << 8, 0, "MASK_EXPORT_ENABLE");
    assert_ne!(pm.input_ena & 1 << 14, 0, "SAMPLE_COVERAGE_ENA");
    let pixels = draw(&vs, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let (mut kept, mut dropped) = (0, 0);
    for y in 0..H {
        for x in 0..W {
            let Some(tri) = inside(x, y) else { continue };
            let keep = tri && (x + y) % 4 != 0;
            let want = if keep { [1.0, 0.5, 0.25, 1.0] } else { [0.0; 4] };
            assert_eq!(pixels[(y * W + x) as usize], want, "({x}, {y})");
            kept += u32::from(keep);
            dropped += u32::from(tri && !keep);
        }
    }
    assert!(kept > 1000 && dropped > 300, "{kept} kept, {dropped} dropped");
}
