//! Clip and cull distances and the misc vector from the vertex shader, on the simulator's
//! legacy graphics pipeline (its clipper honours PA_CL_VS_OUT_CNTL's CLIP_DIST_ENA and
//! CULL_DIST_ENA). Expectations are the planes' half-spaces in window coordinates.

mod common;

use common::draw::{draw, H, W};
use common::tri::inside;
use ferrum_compiler::amd::abi::graphics::{PsKey, VsExtras};
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary, GfxMetadata};
use ferrum_compiler::ir::Stage;

fn compile(file: &str, stage: Stage) -> GfxBinary {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    compile_graphics(&ir, &default_layout(&ir), PsKey::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn clip_distances_cut_and_cull_distances_drop_whole_primitives() {
    let vs = compile("clip.vert", Stage::Vertex);
    let GfxMetadata::Vertex(vm) = &vs.metadata else { unreachable!() };
    // Distances 0..2 clip, distance 3 (gl_CullDistance[0] after three clip distances) culls.
    let want = VsExtras { clip_mask: 0b111, cull_mask: 0b1000, ..Default::default() };
    assert_eq!(vm.extras, want);
    assert_eq!(vm.pos_format, 0x44, "pos0 and one CCDIST vector, 4 components each");
    assert!(vs.isa_text.contains("exp pos1 ") && vs.isa_text.contains(" done"), "{}", vs.isa_text);
    let ps = compile("clip.frag", Stage::Fragment);
    let pixels = draw(&vs, &ps, 3, 2).unwrap_or_else(|e| panic!("{e}\nVS:\n{}", vs.isa_text));
    // The planes in window coordinates: x >= (0.1 + 1) * W / 2, y <= (0.3 + 1) * H / 2.
    let (x0, y1) = (1.1 * W as f64 / 2.0, 1.3 * H as f64 / 2.0);
    let (mut drawn, mut cut) = (0, 0);
    for y in 0..H {
        for x in 0..W {
            let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
            let Some(tri) = inside(x, y) else { continue };
            if (cx - x0).abs() < 0.01 || (cy - y1).abs() < 0.01 {
                continue;
            }
            let kept = tri && cx > x0 && cy < y1;
            let got = pixels[(y * W + x) as usize];
            let want = if kept { [0.0, 1.0, 0.0, 1.0] } else { [0.0; 4] };
            assert_eq!(got, want, "({x}, {y})");
            drawn += u32::from(kept);
            cut += u32::from(tri && !kept);
        }
    }
    assert!(drawn > 300 && cut > 1000, "{drawn} drawn, {cut} clipped away");
}
