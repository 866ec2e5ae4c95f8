//! Vertex and fragment shaders from GLSL through the compiler onto the simulator's legacy
//! graphics pipeline: pixels compared with values computed here from Vulkan's rasterization
//! and attribute-interpolation rules, and the code reassembled by llvm-mc.

mod common;

use common::draw::{draw, H, W};
use ferrum_compiler::amd::abi::graphics::{GfxKey, InputRate, PsKey, VsKey};
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary, GfxMetadata};
use ferrum_compiler::ir::Stage;
use ferrum_regs::gfx103::enums::SPI_SHADER_EX_FORMAT as EX;

fn compile(file: &str, stage: Stage, key: impl Into<GfxKey>) -> GfxBinary {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    compile_graphics(&ir, &default_layout(&ir), key).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The test triangle (color.vert): clip-space x, y and w per vertex.
const CLIP: [[f32; 3]; 3] = [[-0.8, -0.8, 1.0], [0.9, -0.6, 2.0], [-0.5, 0.9, 3.0]];

/// For each pixel centre clearly inside the triangle (more than 1/64 pixel from every edge,
/// so snapping and tie rules do not matter), the screen-space barycentrics; `None` for
/// pixels clearly outside; pixels near an edge are skipped.
fn coverage() -> Vec<(u32, u32, Option<[f64; 3]>)> {
    // Viewport (0, 0, W, H): window = (ndc + 1) * size / 2; ndc = clip / w (w cancels).
    let win = CLIP
        .map(|[x, y, _]| [(x as f64 + 1.0) * W as f64 / 2.0, (y as f64 + 1.0) * H as f64 / 2.0]);
    let cross = |a: [f64; 2], b: [f64; 2], p: [f64; 2]| {
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    };
    let area = cross(win[0], win[1], win[2]);
    let mut out = Vec::new();
    for y in 0..H {
        for x in 0..W {
            let p = [x as f64 + 0.5, y as f64 + 0.5];
            let e = [cross(win[1], win[2], p), cross(win[2], win[0], p), cross(win[0], win[1], p)];
            let len =
                |a: [f64; 2], b: [f64; 2]| ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
            let lens = [len(win[1], win[2]), len(win[2], win[0]), len(win[0], win[1])];
            if e.iter().zip(lens).any(|(v, l)| (v / l).abs() < 1.0 / 64.0) {
                continue;
            }
            let b = e.map(|v| v / area);
            out.push((x, y, b.iter().all(|&v| v > 0.0).then_some(b)));
        }
    }
    out
}

/// Vulkan's perspective-correct interpolation (spec "Basic Polygon Rasterization"): screen
/// barycentrics `b` weighted by 1/w of each vertex.
fn perspective(b: [f64; 3], f: [f64; 3]) -> f64 {
    let q: Vec<f64> = (0..3).map(|i| b[i] / CLIP[i][2] as f64).collect();
    (0..3).map(|i| q[i] * f[i]).sum::<f64>() / q.iter().sum::<f64>()
}

#[test]
fn a_triangle_with_smooth_colour_and_a_flat_id_lands_in_the_colour_buffer() {
    let vs = compile("color.vert", Stage::Vertex, PsKey::default());
    let ps = compile("color.frag", Stage::Fragment, PsKey::default());
    let GfxMetadata::Vertex(vm) = &vs.metadata else { panic!() };
    assert_eq!(vm.param_locations, vec![0, 1]);
    let pixels = draw(&vs, &ps, 3, 2)
        .unwrap_or_else(|e| panic!("{e}\nVS:\n{}\nPS:\n{}", vs.isa_text, ps.isa_text));
    let mut inside = 0;
    for (x, y, b) in coverage() {
        let got = pixels[(y * W + x) as usize];
        let Some(b) = b else {
            assert_eq!(got, [0.0; 4], "({x}, {y}) is outside");
            continue;
        };
        inside += 1;
        for c in 0..3 {
            let mut f = [0.0; 3];
            f[c] = 1.0;
            let want = perspective(b, f);
            assert!(
                (got[c] as f64 - want).abs() < 2e-4,
                "({x}, {y}) channel {c}: {} vs {want}",
                got[c]
            );
        }
        // Flat: the provoking (first) vertex's id, from the second instance drawn last.
        assert_eq!(got[3], 17.0, "({x}, {y}) flat id");
    }
    assert!(inside > 1000, "{inside} pixels inside");
}

#[test]
fn frag_coord_and_a_half_float_export() {
    let vs = compile("color.vert", Stage::Vertex, PsKey::default());
    let key = PsKey { color_formats: [EX::SPI_SHADER_FP16_ABGR; 8], ..PsKey::default() };
    let ps = compile("coord.frag", Stage::Fragment, key);
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!() };
    assert_eq!(pm.col_format, EX::SPI_SHADER_FP16_ABGR);
    assert_eq!(pm.input_ena, 0xf02, "PERSP_CENTER and POS_*_FLOAT");
    let pixels = draw(&vs, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let mut inside = 0;
    for (x, y, b) in coverage() {
        let got = pixels[(y * W + x) as usize];
        let Some(b) = b else { continue };
        inside += 1;
        // z_ndc = 0.5 for every vertex (z = 0.5 w), viewport depth [0, 1]: linear in screen
        // space (FragCoord.z is not perspective-corrected).
        let want = [
            (x as f64 + 0.5) / 128.0,
            (y as f64 + 0.5) / 128.0,
            0.5,
            perspective(b, [0.0, 1.0, 0.0]),
        ];
        for c in 0..4 {
            // v_cvt_pkrtz_f16_f32 truncates to 11 significant bits.
            let tol = want[c].abs() * 2f64.powi(-10) + 2e-4;
            assert!(
                (got[c] as f64 - want[c]).abs() <= tol,
                "({x}, {y}) channel {c}: {} vs {}",
                got[c],
                want[c]
            );
        }
    }
    assert!(inside > 1000);
}

#[test]
fn graphics_code_reassembles_with_llvm_mc() {
    for (file, stage) in [
        ("color.vert", Stage::Vertex),
        ("color.frag", Stage::Fragment),
        ("coord.frag", Stage::Fragment),
        ("discard.frag", Stage::Fragment),
        ("fetch.vert", Stage::Vertex),
        ("pos.vert", Stage::Vertex),
        ("facing.frag", Stage::Fragment),
        ("linear.frag", Stage::Fragment),
        ("point.vert", Stage::Vertex),
        ("deriv_quad.frag", Stage::Fragment),
        ("deriv_linear.frag", Stage::Fragment),
        ("deriv_store.frag", Stage::Fragment),
        ("sample_implicit.frag", Stage::Fragment),
        ("sample_mag.frag", Stage::Fragment),
        ("demote.frag", Stage::Fragment),
        ("query_lod.frag", Stage::Fragment),
        ("sample_mask.frag", Stage::Fragment),
        ("clip_read.frag", Stage::Fragment),
        ("point_coord.frag", Stage::Fragment),
        ("query_lod_array.frag", Stage::Fragment),
        ("clip.vert", Stage::Vertex),
        ("subpass.frag", Stage::Fragment),
        ("subpass_ms.frag", Stage::Fragment),
        ("scratch.vert", Stage::Vertex),
        ("scratch.frag", Stage::Fragment),
    ] {
        let mut key = GfxKey::default();
        if file == "coord.frag" {
            key.ps = PsKey { color_formats: [EX::SPI_SHADER_FP16_ABGR; 8], ..PsKey::default() };
        }
        if file == "fetch.vert" {
            // Per-instance inputs with divisors 1, 2 and 0 (a division, an SGPR copy).
            key.vs = VsKey::default();
            key.vs.rates[1] = InputRate::Instance { divisor: 1 };
            key.vs.rates[6] = InputRate::Instance { divisor: 2 };
            key.vs.rates[8] = InputRate::Instance { divisor: 0 };
        }
        let bin = compile(file, stage, key);
        let mut src = String::new();
        for line in bin.isa_text.lines() {
            src.push_str(line.split("//").next().unwrap());
            src.push('\n');
        }
        let mut child = std::process::Command::new("llvm-mc")
            .args(["-arch=amdgcn", "-mcpu=gfx1030", "-show-encoding"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("llvm-mc");
        use std::io::Write;
        child.stdin.take().unwrap().write_all(src.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{file}:\n{}\n{}",
            bin.isa_text,
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let mut bytes = Vec::new();
        for line in text.lines() {
            let Some(enc) = line.split("encoding: [").nth(1) else { continue };
            for b in enc.trim_end_matches(']').split(',') {
                bytes.push(u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap());
            }
        }
        let (code, _data) = common::split_constant_data(&bin.code, bytes.len());
        assert_eq!(
            bytes, code,
            "{file}: llvm-mc encodes the listing differently:\n{}",
            bin.isa_text
        );
    }
}

#[test]
fn discarded_fragments_leave_the_target_alone_and_divergent_stores_stick() {
    let vs = compile("color.vert", Stage::Vertex, PsKey::default());
    let ps = compile("discard.frag", Stage::Fragment, PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!() };
    assert_eq!(pm.db_shader_control, 1 << 6, "KILL_ENABLE");
    let pixels = draw(&vs, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let (mut kept, mut killed, mut quarter) = (0, 0, 0);
    for (x, y, b) in coverage() {
        let got = pixels[(y * W + x) as usize];
        let Some(b) = b else { continue };
        let c: [f64; 3] = std::array::from_fn(|k| {
            let mut f = [0.0; 3];
            f[k] = 1.0;
            perspective(b, f)
        });
        // Interpolation rounding decides near-ties.
        if (c[0] - c[1]).abs() < 1e-3 || (c[2] - 0.5).abs() < 1e-3 {
            continue;
        }
        if c[0] > c[1] {
            killed += 1;
            assert_eq!(got, [0.0; 4], "({x}, {y}) was discarded");
            continue;
        }
        kept += 1;
        let w = if c[2] > 0.5 { 0.25 } else { 1.0 };
        quarter += (w == 0.25) as u32;
        for k in 0..3 {
            assert!((got[k] as f64 - c[k]).abs() < 2e-4, "({x}, {y}) channel {k}");
        }
        assert_eq!(got[3], w as f32, "({x}, {y}) alpha");
    }
    assert!(kept > 200 && killed > 200 && quarter > 100, "{kept} kept, {killed} killed, {quarter}");
}

#[test]
fn unimplemented_graphics_features_are_refused_not_miscompiled() {
    // A colour target whose export format is not a SPI_SHADER_EX_FORMAT value.
    let path = common::corpus_dir().join("../graphics/draw/color.frag");
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Fragment, &Default::default())
        .unwrap();
    let err = compile_graphics(
        &ir,
        &default_layout(&ir),
        PsKey { color_formats: [10; 8], ..PsKey::default() },
    )
    .unwrap_err();
    assert!(err.to_string().contains("export format"), "{err}");
}

#[test]
fn noperspective_inputs_interpolate_in_screen_space() {
    let vs = compile("color.vert", Stage::Vertex, PsKey::default());
    let ps = compile("linear.frag", Stage::Fragment, PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!() };
    assert_eq!(pm.input_ena, 0xf22, "PERSP_CENTER, LINEAR_CENTER, POS_*_FLOAT");
    let pixels = draw(&vs, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\nPS:\n{}", ps.isa_text));
    let mut inside = 0;
    for (x, y, b) in coverage() {
        let Some(b) = b else { continue };
        inside += 1;
        let got = pixels[(y * W + x) as usize];
        // Vulkan "Basic Polygon Rasterization": noperspective uses the screen barycentrics.
        for c in 0..3 {
            assert!(
                (got[c] as f64 - b[c]).abs() < 2e-4,
                "({x}, {y}) channel {c}: {} vs {}",
                got[c],
                b[c]
            );
        }
        assert_eq!(got[3], x as f32 + 0.5, "({x}, {y}) gl_FragCoord.x");
    }
    assert!(inside > 1000);
}
