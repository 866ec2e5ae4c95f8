//! Derivatives and whole-quad mode in fragment shaders on the simulator's legacy graphics
//! pipeline. The simulator launches a pixel-shader wave with only the covered pixels in EXEC
//! (as the hardware does), so quads on the triangle's edges give right derivatives only if
//! the shader turns its helper lanes on (`s_wqm_b32`). Expectations are exact screen
//! gradients computed here.

mod common;

use common::draw::{draw, draw_with, DrawSetup, Texture, H, W};
use common::tri::{cross, inside, on_an_edge_quad, window};
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

#[test]
fn fine_and_coarse_derivatives_take_the_right_quad_lanes() {
    let vs = compile("color.vert", Stage::Vertex);
    let ps = compile("deriv_quad.frag", Stage::Fragment);
    assert!(ps.isa_text.contains("s_wqm_b32 exec_lo, exec_lo"), "{}", ps.isa_text);
    let pixels = draw(&vs, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let (mut n, mut edge) = (0, 0);
    for y in 0..H {
        for x in 0..W {
            let got = pixels[(y * W + x) as usize];
            match inside(x, y) {
                Some(true) => {}
                Some(false) => {
                    assert_eq!(got, [0.0; 4], "({x}, {y}) is outside");
                    continue;
                }
                None => continue,
            }
            n += 1;
            edge += on_an_edge_quad(x, y) as u32;
            // p = x * y at pixel centres: d/dx over one pixel is the row's y, d/dy the
            // column's x; coarse takes the quad's top row / left column (quads start even).
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            let want = [cy, cx, (y & !1) as f32 + 0.5, (x & !1) as f32 + 0.5];
            assert_eq!(got, want, "({x}, {y}): fine x, fine y, coarse x, coarse y");
        }
    }
    assert!(n > 1000 && edge > 50, "{n} pixels, {edge} on edge quads");
}

#[test]
fn derivatives_of_screen_affine_inputs_are_their_gradients() {
    let vs = compile("color.vert", Stage::Vertex);
    let ps = compile("deriv_linear.frag", Stage::Fragment);
    let pixels = draw(&vs, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    // Screen barycentric b_i = cross(w_j, w_k, p) / area: its gradient is constant.
    let w = window();
    let area = cross(w[0], w[1], w[2]);
    let grad = |a: [f64; 2], b: [f64; 2]| [-(b[1] - a[1]) / area, (b[0] - a[0]) / area];
    let (g0, g1) = (grad(w[1], w[2]), grad(w[2], w[0]));
    let want = [g0[0], g0[1], g1[0].abs() + g1[1].abs(), 1.0];
    let mut n = 0;
    for y in 0..H {
        for x in 0..W {
            if inside(x, y) != Some(true) {
                continue;
            }
            n += 1;
            let got = pixels[(y * W + x) as usize];
            for c in 0..4 {
                // Each interpolated value carries f32 rounding (~1e-7 at this scale); the
                // gradients are ~1e-2.
                assert!(
                    (got[c] as f64 - want[c]).abs() < 2e-6,
                    "({x}, {y}) channel {c}: {} vs {}",
                    got[c],
                    want[c]
                );
            }
        }
    }
    assert!(n > 1000);
}

#[test]
fn stores_and_atomics_run_in_exact_mode_inside_whole_quad_mode() {
    let ps = compile("deriv_store.frag", Stage::Fragment);
    let text = &ps.isa_text;
    let lines: Vec<&str> = text.lines().map(|l| l.split(';').next().unwrap().trim()).collect();
    let at = |p: &dyn Fn(&str) -> bool| {
        lines.iter().position(|l| p(l)).unwrap_or_else(|| panic!("{text}"))
    };
    let live = at(&|l| l.starts_with("s_mov_b32 s") && l.ends_with(", exec_lo"));
    let wqm = at(&|l| l.starts_with("s_wqm_b32 exec_lo, exec_lo"));
    let atomic = at(&|l| l.starts_with("buffer_atomic_add"));
    let live_reg = lines[live].split([' ', ',']).nth(1).unwrap();
    // The last EXEC write before the atomic ANDs in the live mask saved before s_wqm.
    let narrow =
        (0..atomic).rev().find(|&i| lines[i].starts_with("s_") && lines[i].contains(" exec_lo,"));
    let narrow = narrow.unwrap_or_else(|| panic!("{text}"));
    assert!(live < wqm && wqm < narrow, "{text}");
    assert!(lines[narrow].starts_with("s_and_b32 exec_lo, exec_lo, "), "{text}");
    assert!(lines[narrow].ends_with(live_reg), "{text}");
    // And EXEC goes back to the whole quads afterwards, before the export's exact mode.
    assert!(lines[atomic..].iter().any(|l| l.starts_with("s_mov_b32 exec_lo, s")), "{text}");
}

#[test]
fn centroid_is_the_centre_with_one_sample_and_sample_rate_is_refused() {
    // Ferrum advertises one sample per pixel only: the centroid of a covered pixel is its
    // centre, so `centroid` compiles to exactly the code of the plain input.
    let plain = compile("linear.frag", Stage::Fragment);
    let centroid = compile("centroid.frag", Stage::Fragment);
    assert_eq!(plain.code, centroid.code);
    let path = common::corpus_dir().join("../graphics/draw/sample_rate.frag");
    let words = common::glsl_to_spirv(&path);
    let err = ferrum_compiler::compile_to_ir(&words, "main", Stage::Fragment, &Default::default())
        .unwrap_err();
    assert!(err.to_string().contains("SampleRateShading"), "{err}");
}

/// Draws color.vert's triangle with `ps` sampling a 2x2 texture of the four unit vectors
/// (repeat; MAG nearest, MIN bilinear).
fn draw_textured(file: &str) -> Vec<[f32; 4]> {
    let vs = compile("color.vert", Stage::Vertex);
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Fragment, &Default::default())
        .unwrap();
    let layout = default_layout(&ir);
    let ps = compile_graphics(&ir, &layout, PsKey::default()).unwrap();
    let mimg = ["image_sample ", "image_get_lod "];
    assert!(mimg.iter().any(|m| ps.isa_text.contains(m)), "{}", ps.isa_text);
    assert!(ps.isa_text.contains("s_wqm_b32"), "{}", ps.isa_text);
    let texture = Texture {
        width: 2,
        height: 2,
        texels: vec![
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ],
        // Clamps 0 (repeat); MAX_LOD 15.0 (4.8 fixed); XY_MAG_FILTER point, XY_MIN_FILTER
        // bilinear, MIP_FILTER none (descriptors-gfx103.md, S#).
        ssharp: [0, (15 << 8) << 12, 1 << 22, 0],
        offset: layout.get(0, 1).unwrap().offset,
        arrayed: false,
    };
    let setup =
        DrawSetup { vertices: 3, instances: 1, texture: Some(texture), ..Default::default() };
    draw_with(&vs, &ps, &setup).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text))
}

/// Pixels clearly inside the triangle, and how many of them are in edge quads.
fn inside_pixels() -> (Vec<(u32, u32)>, usize) {
    let px: Vec<(u32, u32)> = (0..H)
        .flat_map(|y| (0..W).map(move |x| (x, y)))
        .filter(|&(x, y)| inside(x, y) == Some(true))
        .collect();
    let edge = px.iter().filter(|&&(x, y)| on_an_edge_quad(x, y)).count();
    (px, edge)
}

#[test]
fn implicit_lod_minifies_with_the_min_filter() {
    let pixels = draw_textured("sample_implicit.frag");
    // u * 2 - 0.5 = 4x + 1.5 texels: halfway between texels 1 and 0 in x and in y, so the
    // bilinear MIN filter averages all four. With LOD 0 (no derivatives) the MAG filter
    // would take one texel.
    let (px, edge) = inside_pixels();
    for &(x, y) in &px {
        let got = pixels[(y * W + x) as usize];
        for (c, v) in got.iter().enumerate() {
            assert!((v - 0.25).abs() < 1e-6, "({x}, {y}) channel {c}: {got:?}");
        }
    }
    assert!(px.len() > 1000 && edge > 50, "{} pixels, {edge} on edge quads", px.len());
}

#[test]
fn implicit_lod_magnifies_with_the_mag_filter() {
    let pixels = draw_textured("sample_mag.frag");
    // u * 2 = (x + 0.5) / 128 < 1: texel (0, 0) with the nearest MAG filter; bilinear would
    // blend in the neighbours.
    let (px, _) = inside_pixels();
    for &(x, y) in &px {
        assert_eq!(pixels[(y * W + x) as usize], [1.0, 0.0, 0.0, 0.0], "({x}, {y})");
    }
}

#[test]
fn query_lod_reports_the_computed_and_the_accessed_level() {
    let pixels = draw_textured("query_lod.frag");
    // Exact powers of two: log2(4) = 2 and log2(1/128) = -7 (computed, y), both clamped to
    // the texture's only level 0 (accessed, x); edge quads need their helper lanes.
    let (px, edge) = inside_pixels();
    for &(x, y) in &px {
        assert_eq!(pixels[(y * W + x) as usize], [0.0, 2.0, 0.0, -7.0], "({x}, {y})");
    }
    assert!(px.len() > 1000 && edge > 50, "{} pixels, {edge} on edge quads", px.len());
}
