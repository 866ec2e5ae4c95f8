//! Graphics corpus shaders drawn on the simulator's legacy pipeline compared with the IR
//! interpreter running the same vertex and fragment shaders: the interpreter's vertex outputs
//! place the triangle, and every quad of pixels the triangle touches runs through the
//! interpreter's fragment stage; each pixel clearly inside the triangle (or clearly
//! discarded) must hold what the interpreter exported.

mod common;

use common::draw::{draw_full, draw_samples, DrawSetup, H, W};
use ferrum_compiler::amd::abi::graphics::GfxKey;
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary};
use ferrum_compiler::interp::{self, Outputs, Quad, Resources, Triangle, VertexLane};
use ferrum_compiler::ir::{BuiltinOut, IoSlot, Shader, Stage};

fn ir(file: &str) -> (Shader, Stage) {
    let stage = if file.ends_with(".vert") { Stage::Vertex } else { Stage::Fragment };
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let s = ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    (s, stage)
}

fn binary(s: &Shader, file: &str) -> GfxBinary {
    compile_graphics(s, &default_layout(s), GfxKey::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The window-space triangle of the interpreter's vertex outputs (viewport (0, 0, W, H),
/// depth range [0, 1]).
fn triangle(outs: &[Outputs]) -> Triangle {
    let pos = |o: &Outputs, c| {
        f64::from(f32::from_bits(o[&(IoSlot::Builtin(BuiltinOut::Position), c)] as u32))
    };
    let mut tri = Triangle { samples: 1, ..Default::default() };
    for (v, out) in outs.iter().enumerate().take(3) {
        let w = pos(out, 3);
        tri.w[v] = w;
        tri.window[v] = [
            (pos(out, 0) / w + 1.0) * f64::from(W) / 2.0,
            (pos(out, 1) / w + 1.0) * f64::from(H) / 2.0,
            pos(out, 2) / w,
        ];
        tri.vertices[v] = out.clone();
    }
    // Vulkan's facing ("Basic Polygon Rasterization"): a = -1/2 sum(x_i y_i+1 - x_i+1 y_i)
    // in framebuffer coordinates, front when positive for VK_FRONT_FACE_COUNTER_CLOCKWISE
    // (the draw's PA_SU_SC_MODE_CNTL.FACE = 0).
    let [a, b, c] = tri.window;
    let cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    tri.front_facing = -cross / 2.0 > 0.0;
    tri
}

/// Whether pixel (x, y)'s centre is inside the triangle; `None` within 1/64 pixel of an edge
/// (where the rasterizer's snapping decides).
fn inside(tri: &Triangle, x: u32, y: u32) -> Option<bool> {
    inside_at(tri, [f64::from(x) + 0.5, f64::from(y) + 0.5])
}

/// Whether window position `p` is inside the triangle; `None` within 1/64 pixel of an edge.
fn inside_at(tri: &Triangle, p: [f64; 2]) -> Option<bool> {
    let v = tri.window;
    let mut sign = Vec::new();
    for (a, b) in [(v[1], v[2]), (v[2], v[0]), (v[0], v[1])] {
        let e = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        if (e / len).abs() < 1.0 / 64.0 {
            return None;
        }
        sign.push(e > 0.0);
    }
    Some(sign.iter().all(|&s| s) || sign.iter().all(|&s| !s))
}

/// How far the simulator's colour channel may be from the interpreter's `want`: the
/// interpreter interpolates exactly (f64) and the hardware with f32 barycentrics; where the
/// shader rounds an interpolated input to f16 (`half*`), that difference may move it by one
/// f16 step (2^-10 relative, up to 2^-8 absolute for the inputs of half.frag, |x| < 4).
fn tolerance(ps_file: &str, want: f32) -> f32 {
    if ps_file.starts_with("half") {
        4e-3 + want.abs() / 512.0
    } else {
        2e-4 + 1e-5 * want.abs()
    }
}

/// Draws `vs` + `ps` (one triangle, one instance, from vertex `first[0]` and instance
/// `first[1]`) on the simulator and checks every pixel clearly inside against the
/// interpreter; returns the number of pixels compared.
fn compare(vs_file: &str, ps_file: &str, first: [u32; 2]) -> usize {
    let (vs_ir, _) = ir(vs_file);
    let (ps_ir, _) = ir(ps_file);
    let (vs, ps) = (binary(&vs_ir, vs_file), binary(&ps_ir, ps_file));
    let depth_slot = (IoSlot::Builtin(BuiltinOut::FragDepth), 0);
    let writes_depth =
        ps_ir.vars.iter().any(|v| v.builtin_out.contains(&Some(BuiltinOut::FragDepth)));
    let setup = DrawSetup {
        vertices: 3,
        instances: 1,
        first_vertex: first[0],
        first_instance: first[1],
        depth: writes_depth,
        ..Default::default()
    };
    let (pixels, depth) = draw_full(&vs, &ps, &setup)
        .unwrap_or_else(|e| panic!("{vs_file} + {ps_file}: {e}\nPS:\n{}", ps.isa_text));
    let lanes: Vec<VertexLane> = (0..3)
        .map(|i| VertexLane {
            vertex_index: first[0] + i,
            instance_index: first[1],
            base_vertex: first[0],
            base_instance: first[1],
            ..Default::default()
        })
        .collect();
    let outs = interp::run_vertex(&vs_ir, &lanes, &mut Resources::default()).unwrap();
    let tri = triangle(&outs);
    let mut compared = 0;
    for qy in (0..H).step_by(2) {
        for qx in (0..W).step_by(2) {
            let at = |l: u32| (qx + (l & 1), qy + (l >> 1));
            let cov = [0, 1, 2, 3].map(|l| {
                let (x, y) = at(l);
                inside(&tri, x, y)
            });
            if cov.iter().all(|c| *c == Some(false)) {
                continue;
            }
            let quad = Quad {
                x: qx,
                y: qy,
                coverage: cov.map(|c| u32::from(c != Some(false))),
                sample: None,
            };
            let frags = interp::run_fragment(&ps_ir, &tri, &quad, &mut Resources::default())
                .unwrap_or_else(|e| panic!("{ps_file}: {e}"));
            for (l, frag) in frags.iter().enumerate() {
                let (x, y) = at(l as u32);
                if cov[l] != Some(true) || frag.helper {
                    continue;
                }
                let got = pixels[(y * W + x) as usize];
                let want = [0u8, 1, 2, 3].map(|c| {
                    let v = frag.outputs.get(&(IoSlot::Location(0), c)).copied().unwrap_or(0);
                    if frag.killed {
                        0.0
                    } else {
                        f32::from_bits(v as u32)
                    }
                });
                for c in 0..4 {
                    let tol = tolerance(ps_file, want[c]);
                    assert!(
                        (got[c] - want[c]).abs() <= tol,
                        "{vs_file} + {ps_file}: pixel ({x}, {y}) channel {c}: simulator {} vs \
                         interpreter {}",
                        got[c],
                        want[c]
                    );
                }
                if let (Some(d), Some(&z)) = (&depth, frag.outputs.get(&depth_slot)) {
                    let got = d[(y * W + x) as usize];
                    let want = f32::from_bits(z as u32);
                    assert_eq!(got, want, "{ps_file}: depth of ({x}, {y})");
                }
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn the_simulator_draws_what_the_interpreter_computes() {
    for ps in [
        "color.frag",
        "discard.frag",
        "discard_chain.frag",
        "deriv_quad.frag",
        "deriv_linear.frag",
        "demote.frag",
        "linear.frag",
        "flat.frag",
        "facing.frag",
        "interp_at.frag",
        "mrt.frag",
        "view_index.frag",
        "sample_id.frag",
    ] {
        let n = compare("color.vert", ps, [0, 0]);
        assert!(n > 1000, "{ps}: only {n} pixels compared");
    }
    for (vs, ps, first) in [
        ("varyings.vert", "varyings.frag", [0, 0]),
        ("block_members.vert", "block_members.frag", [0, 0]),
        ("half.vert", "half.frag", [0, 0]),
        ("double_varyings.vert", "double_varyings.frag", [0, 0]),
        ("draw_params.vert", "flat.frag", [5, 3]),
    ] {
        let n = compare(vs, ps, first);
        assert!(n > 1000, "{vs} + {ps}: only {n} pixels compared");
    }
}

/// Samples of pixel (x, y) inside the triangle at Vulkan's standard locations for `n`
/// samples; `None` when one is within 1/64 pixel of an edge.
fn sample_coverage(tri: &Triangle, x: u32, y: u32, n: u32) -> Option<u32> {
    let locs = ferrum_compiler::amd::abi::graphics::standard_sample_locations(n);
    let mut cov = 0;
    for (s, &(sx, sy)) in locs.iter().enumerate() {
        let p = [f64::from(x) + f64::from(sx) / 16.0, f64::from(y) + f64::from(sy) / 16.0];
        cov |= u32::from(inside_at(tri, p)?) << s;
    }
    Some(cov)
}

/// Draws `vs` + `ps` with `n` samples per pixel (one PS invocation per sample when the
/// shader asks for it or `shading` is set) and compares every sample of every pixel whose
/// samples are all clearly inside or outside with the interpreter: a fragment's outputs go
/// to the samples it covers (only its own sample when it runs per sample) that its
/// gl_SampleMask keeps; the other samples keep the cleared 0. Returns the samples compared.
fn compare_ms(vs_file: &str, ps_file: &str, n: u32, shading: bool) -> usize {
    let (vs_ir, _) = ir(vs_file);
    let (ps_ir, _) = ir(ps_file);
    let vs = binary(&vs_ir, vs_file);
    let mut key = GfxKey::default();
    key.ps.samples = n;
    let ps = compile_graphics(&ps_ir, &default_layout(&ps_ir), key)
        .unwrap_or_else(|e| panic!("{ps_file}: {e}"));
    let per_sample = shading
        || matches!(&ps.metadata, ferrum_compiler::amd::GfxMetadata::Fragment(m) if m.per_sample());
    let setup = DrawSetup {
        vertices: 3,
        instances: 1,
        samples: n,
        sample_shading: shading,
        ..Default::default()
    };
    let what = format!("{vs_file} + {ps_file}, {n} samples, per sample {per_sample}");
    let (pixels, _) = draw_samples(&vs, &ps, &setup)
        .unwrap_or_else(|e| panic!("{what}: {e}\nPS:\n{}", ps.isa_text));
    let lanes: Vec<VertexLane> =
        (0..3).map(|i| VertexLane { vertex_index: i, ..Default::default() }).collect();
    let outs = interp::run_vertex(&vs_ir, &lanes, &mut Resources::default()).unwrap();
    let mut tri = triangle(&outs);
    tri.samples = n;
    let mask_slot = (IoSlot::Builtin(BuiltinOut::SampleMask), 0);
    let mut compared = 0;
    for qy in (0..H).step_by(2) {
        for qx in (0..W).step_by(2) {
            let at = |l: u32| (qx + (l & 1), qy + (l >> 1));
            let cov = [0, 1, 2, 3].map(|l| {
                let (x, y) = at(l);
                sample_coverage(&tri, x, y, n)
            });
            if cov.iter().all(|c| *c == Some(0)) {
                continue;
            }
            // Each run shades the samples in its mask: all of them, or one per run.
            let runs: Vec<(Option<u32>, u32)> = if per_sample {
                (0..n).map(|s| (Some(s), 1 << s)).collect()
            } else {
                vec![(None, (1 << n) - 1)]
            };
            let mut want = [[[0f32; 4]; 8]; 4];
            for (sample, shaded) in runs {
                // Uncertain lanes count as covered: their quad neighbours' derivatives see
                // them compute either way, and they are not compared.
                let coverage = cov.map(|c| c.unwrap_or((1 << n) - 1));
                let quad = Quad { x: qx, y: qy, coverage, sample };
                let frags = interp::run_fragment(&ps_ir, &tri, &quad, &mut Resources::default())
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                for (l, frag) in frags.iter().enumerate() {
                    if !frag.live() {
                        continue;
                    }
                    let keep = frag.outputs.get(&mask_slot).map_or(u32::MAX, |&m| m as u32);
                    let written = coverage[l] & shaded & keep;
                    for s in (0..n).filter(|s| written >> s & 1 != 0) {
                        want[l][s as usize] = [0u8, 1, 2, 3].map(|c| {
                            let v = frag.outputs.get(&(IoSlot::Location(0), c));
                            f32::from_bits(v.copied().unwrap_or(0) as u32)
                        });
                    }
                }
            }
            for l in 0..4 {
                let (x, y) = at(l as u32);
                if cov[l].is_none() {
                    continue;
                }
                for s in 0..n as usize {
                    let got = pixels[(y * W + x) as usize][s];
                    for c in 0..4 {
                        let w = want[l][s][c];
                        assert!(
                            (got[c] - w).abs() <= tolerance(ps_file, w),
                            "{what}: pixel ({x}, {y}) sample {s} channel {c}: simulator {} vs \
                             interpreter {w}",
                            got[c]
                        );
                    }
                    compared += 1;
                }
            }
        }
    }
    compared
}

#[test]
fn multisampled_draws_match_the_interpreter_per_sample() {
    for n in [2, 4, 8] {
        for (ps, shading) in [
            ("color.frag", false),
            ("color.frag", true),
            ("coord.frag", true),
            ("centroid.frag", false),
            ("interp_at.frag", false),
            ("sample_rate.frag", false),
            ("sample_id.frag", false),
            ("sample_mask.frag", false),
        ] {
            let got = compare_ms("color.vert", ps, n, shading);
            assert!(got > 1000 * n as usize, "{ps} at {n} samples: only {got} compared");
        }
    }
}

/// The instruction bytes llvm-mc assembles `listing` (our disassembly) to.
fn llvm_mc(listing: &str) -> Result<Vec<u8>, String> {
    use std::io::Write;
    let src: String =
        listing.lines().map(|l| format!("{}\n", l.split("//").next().unwrap_or(""))).collect();
    let mut child = std::process::Command::new("llvm-mc")
        .args(["-arch=amdgcn", "-mcpu=gfx1030", "-show-encoding"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("llvm-mc: {e}"))?;
    child.stdin.take().ok_or("no stdin")?.write_all(src.as_bytes()).map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let mut bytes = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(enc) = line.split("encoding: [").nth(1) else { continue };
        for b in enc.trim_end_matches(']').split(',') {
            let b = b.trim().trim_start_matches("0x");
            bytes.push(u8::from_str_radix(b, 16).map_err(|e| e.to_string())?);
        }
    }
    Ok(bytes)
}

#[test]
fn every_graphics_corpus_shader_reassembles_with_llvm_mc() {
    let dir = common::corpus_dir().join("../graphics/draw");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".vert") || n.ends_with(".frag"))
        .collect();
    files.sort();
    let mut refused = Vec::new();
    for file in &files {
        let (s, _) = ir(file);
        let bin = match compile_graphics(&s, &default_layout(&s), GfxKey::default()) {
            Ok(b) => b,
            Err(e) => {
                refused.push((file.as_str(), e.to_string()));
                continue;
            }
        };
        let bytes =
            llvm_mc(&bin.isa_text).unwrap_or_else(|e| panic!("{file}: {e}\n{}", bin.isa_text));
        let (code, data) = common::split_constant_data(&bin.code, bytes.len());
        assert_eq!(data, &s.constant_data[..], "{file}: constant data");
        assert_eq!(
            bytes, code,
            "{file}: llvm-mc encodes the listing differently:\n{}",
            bin.isa_text
        );
    }
    assert!(refused.is_empty(), "{refused:?}");
}
