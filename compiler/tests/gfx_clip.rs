//! Clip and cull distances and the misc vector from the vertex shader, on the simulator's
//! legacy graphics pipeline (its clipper honours PA_CL_VS_OUT_CNTL's CLIP_DIST_ENA and
//! CULL_DIST_ENA). Expectations are the planes' half-spaces in window coordinates.

mod common;

use common::draw::{draw, H, W};
use common::tri::{cross, inside, window};
use ferrum_compiler::amd::abi::graphics::{self as g, PsKey, VsExtras};
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

#[test]
fn fragment_shaders_read_the_interpolated_distances() {
    let vs = compile("clip.vert", Stage::Vertex);
    let GfxMetadata::Vertex(vm) = &vs.metadata else { unreachable!() };
    // The distances go out again as a parameter after the colour (location 0).
    assert_eq!(vm.param_locations, vec![0, g::CLIP_DIST_LOCATION]);
    let ps = compile("clip_read.frag", Stage::Fragment);
    let GfxMetadata::Fragment(pm) = &ps.metadata else { unreachable!() };
    assert_eq!(pm.input_locations, vec![g::CLIP_DIST_LOCATION]);
    let pixels = draw(&vs, &ps, 3, 2).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let win = window();
    let area = cross(win[0], win[1], win[2]);
    // clip.vert's vertices: NDC position and clip w = i + 1.
    let ndc = [[-0.8, -0.8], [0.9, -0.6], [-0.5, 0.9f64]];
    let w = [1.0, 2.0, 3.0];
    let per_vertex: [[f64; 3]; 4] = [
        core::array::from_fn(|i| (ndc[i][0] - 0.1) * w[i]),
        core::array::from_fn(|i| (0.3 - ndc[i][1]) * w[i]),
        [0.0; 3],
        [-1.0, 1.0, 1.0],
    ];
    let mut n = 0;
    for y in 0..H {
        for x in 0..W {
            let got = pixels[(y * W + x) as usize];
            if got == [0.0; 4] || inside(x, y) != Some(true) {
                continue;
            }
            n += 1;
            let p = [x as f64 + 0.5, y as f64 + 0.5];
            let b = [cross(win[1], win[2], p), cross(win[2], win[0], p), cross(win[0], win[1], p)]
                .map(|e| e / area);
            // Perspective-correct interpolation: weights b_i / w_i, normalised.
            let q: [f64; 3] = core::array::from_fn(|i| b[i] / w[i]);
            let sum: f64 = q.iter().sum();
            for c in 0..4 {
                let want = (0..3).map(|i| q[i] * per_vertex[c][i]).sum::<f64>() / sum;
                assert!((got[c] as f64 - want).abs() < 5e-4, "({x}, {y}) {c}: {got:?} vs {want}");
                if c < 2 {
                    assert!(want >= 0.0, "({x}, {y}) survived clip distance {c} = {want}");
                }
            }
        }
    }
    assert!(n > 300, "{n} pixels");
}
