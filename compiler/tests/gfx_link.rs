//! Linked graphics stages (`VsKey::unread_outputs`, `GfxKey::single_view`): a vertex shader
//! compiled knowing which input components its fragment shader reads stores and exports
//! only those, in fewer instructions, and the simulated pipeline draws the same pixels bit
//! for bit; without multiview gl_ViewIndex folds to 0.

mod common;

use common::draw::{draw, draw_with, DrawSetup, VertexInput};
use ferrum_compiler::amd::abi::graphics::{self as g, GfxKey, PsKey, VsKey};
use ferrum_compiler::amd::{compile_graphics, default_layout, GfxBinary, GfxMetadata};
use ferrum_compiler::ir::Stage;

fn compile(file: &str, stage: Stage, key: impl Into<GfxKey>) -> GfxBinary {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", stage, &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    compile_graphics(&ir, &default_layout(&ir), key).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn params(b: &GfxBinary) -> Vec<u32> {
    let GfxMetadata::Vertex(m) = &b.metadata else { panic!("not a vertex shader") };
    m.param_locations.clone()
}

/// How many pixels of `a` and `b` differ in any bit.
fn differing(a: &[[f32; 4]], b: &[[f32; 4]]) -> usize {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).filter(|(p, q)| p.map(f32::to_bits) != q.map(f32::to_bits)).count()
}

#[test]
fn outputs_the_fragment_shader_does_not_read_are_not_written() {
    let ps = compile("link_partial.frag", Stage::Fragment, PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!("not a pixel shader") };
    // u: location 1 component 2; s.q: location 5 component 0 (each member starts a
    // location; s.p takes 4); np.x and np.z: location 8 components 0 and 2.
    let want = 1u128 << 6 | 1 << 20 | 1 << 32 | 1 << 34;
    assert_eq!(pm.input_reads, want, "{:#x}", pm.input_reads);
    let full = compile("varyings.vert", Stage::Vertex, VsKey::default());
    let key = VsKey { unread_outputs: !pm.input_reads, ..Default::default() };
    let linked = compile("varyings.vert", Stage::Vertex, key);
    assert_eq!(params(&full), (0..=8).collect::<Vec<_>>());
    assert_eq!(params(&linked), vec![1, 5, 8]);
    let (n, m) = (linked.stats.instructions, full.stats.instructions);
    assert!(n + 10 < m, "linked VS {n} instructions, unlinked {m}\n{}", linked.isa_text);
    let a = draw(&full, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\n{}", full.isa_text));
    let b = draw(&linked, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\n{}", linked.isa_text));
    assert!(a.iter().any(|p| p[3] != 0.0), "the triangle is drawn");
    assert_eq!(differing(&a, &b), 0, "pixels the linked VS draws differently");
}

#[test]
fn a_partly_read_vector_output_exports_only_the_read_components() {
    // point.vert stores v = vec4(1.0, float(gl_VertexIndex), 0.0, 1.0); point_coord.frag
    // reads v.y alone: the linked VS exports that component and no constants.
    let ps = compile("point_coord.frag", Stage::Fragment, PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!("not a pixel shader") };
    assert_eq!(pm.input_reads, 0b0010, "{:#x}", pm.input_reads);
    let full = compile("point.vert", Stage::Vertex, VsKey::default());
    let key = VsKey { unread_outputs: !pm.input_reads, ..Default::default() };
    let linked = compile("point.vert", Stage::Vertex, key);
    let param = |b: &GfxBinary| {
        b.isa_text.lines().find(|l| l.starts_with("exp param0")).unwrap_or_default().to_string()
    };
    assert!(!param(&full).contains("off"), "{}", full.isa_text);
    let p = param(&linked);
    assert!(p.starts_with("exp param0 off, v") && p.contains(", off, off"), "{}", linked.isa_text);
    let (n, m) = (linked.stats.instructions, full.stats.instructions);
    assert!(n + 3 <= m, "linked VS {n} instructions, unlinked {m}\n{}", linked.isa_text);
    // Two points (point_coord.frag reads gl_PointCoord): vertex 0 at (-0.6, -0.6), 1 at
    // (0.2, 0.2), from a R32G32_FLOAT input (GFX10 format 64, components X Y 0 1).
    let pos: Vec<u8> = [-0.6f32, -0.6, 0.2, 0.2].iter().flat_map(|v| v.to_le_bytes()).collect();
    let input =
        VertexInput { offset: 0, stride: 8, num_records: 2, format: 64, dst_sel: [4, 5, 0, 1] };
    let setup = DrawSetup {
        vertices: 2,
        instances: 1,
        data: pos,
        inputs: vec![input],
        points: true,
        ..Default::default()
    };
    let a = draw_with(&full, &ps, &setup).unwrap_or_else(|e| panic!("{e}\n{}", full.isa_text));
    let b = draw_with(&linked, &ps, &setup).unwrap_or_else(|e| panic!("{e}\n{}", linked.isa_text));
    assert!(a.iter().filter(|p| p[2] == 1.0).count() >= 16, "vertex 1's point is drawn");
    assert_eq!(differing(&a, &b), 0, "pixels the linked VS draws differently");
}

#[test]
fn constant_varyings_are_the_fragment_shaders_constants() {
    // clip.vert stores color = vec4(float(gl_InstanceIndex), 1.0, 0.0, 1.0): y, z and w are
    // constants the PS takes from its key instead of interpolating; it then reads x alone and
    // the linked VS exports x alone.
    let path = common::corpus_dir().join("../graphics/draw/clip.vert");
    let words = common::glsl_to_spirv(&path);
    let vs_ir =
        ferrum_compiler::compile_to_ir(&words, "main", Stage::Vertex, &Default::default()).unwrap();
    let consts = ferrum_compiler::passes::link_stages::constant_outputs(&vs_ir);
    assert_eq!(consts.mask, 0b1110, "{consts:?}");
    assert_eq!(consts.values[..4], [0, 1f32.to_bits(), 0, 1f32.to_bits()]);
    let full_ps = compile("clip.frag", Stage::Fragment, PsKey::default());
    let ps = compile(
        "clip.frag",
        Stage::Fragment,
        PsKey { constant_inputs: consts, ..Default::default() },
    );
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!("not a pixel shader") };
    assert_eq!(pm.input_reads, 0b0001, "{:#x}", pm.input_reads);
    assert_eq!(ps.isa_text.matches("v_interp_p1").count(), 1, "{}", ps.isa_text);
    let full = compile("clip.vert", Stage::Vertex, VsKey::default());
    let key = VsKey { unread_outputs: !pm.input_reads, ..Default::default() };
    let linked = compile("clip.vert", Stage::Vertex, key);
    let (n, m) = (linked.stats.instructions, full.stats.instructions);
    assert!(n < m, "linked VS {n} instructions, unlinked {m}\n{}", linked.isa_text);
    // Both instances: instance 1 is culled by its cull distance, instance 0 drawn.
    let a = draw(&full, &full_ps, 3, 2).unwrap_or_else(|e| panic!("{e}\n{}", full.isa_text));
    let b = draw(&linked, &ps, 3, 2).unwrap_or_else(|e| panic!("{e}\n{}", linked.isa_text));
    assert!(a.iter().filter(|p| p[1] == 1.0 && p[3] == 1.0).count() > 100, "the triangle is drawn");
    assert_eq!(differing(&a, &b), 0, "pixels the linked pipeline draws differently");
}

#[test]
fn varyings_are_constant_only_when_every_store_agrees() {
    let src = |body: &str| {
        format!(
            "#version 450\nlayout(location = 0) out vec4 c;\nlayout(location = 1) out vec2 d;\n\
             void main() {{\n gl_Position = vec4(float(gl_VertexIndex));\n{body}\n}}\n"
        )
    };
    let consts = |name: &str, body: &str| {
        let ir = common::glsl_source_to_ir(&format!("{name}.vert"), &src(body), Stage::Vertex);
        ferrum_compiler::passes::link_stages::constant_outputs(&ir)
    };
    // Two paths storing different constants to c.x: not constant; c.y agrees on both.
    let k = consts(
        "branches",
        " if (gl_VertexIndex > 1) { c = vec4(2.0, 3.0, 0.0, 0.0); } else { c = vec4(5.0, 3.0, 0.0, 0.0); }\n\
         d = vec2(1.0 / 0.0, -0.0);",
    );
    assert_eq!(k.mask & 0xf, 0b1110, "{k:?}");
    assert_eq!(k.get(0, 1), Some(3f32.to_bits()));
    // Infinity is not propagated (interpolating it computes inf - inf); -0.0 is.
    assert_eq!((k.get(1, 0), k.get(1, 1)), (None, Some(0x8000_0000)), "{k:?}");
    let k = consts("varying", " c = vec4(float(gl_VertexIndex), 1.0, 2.0, 3.0);\n d = vec2(0.5);");
    assert_eq!(k.mask, 0b1110 | 0b11 << 4, "{k:?}");
}

#[test]
fn clip_distances_without_a_reader_are_not_parameters() {
    let ps = compile("clip.frag", Stage::Fragment, PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!("not a pixel shader") };
    assert!(!pm.input_locations.contains(&g::CLIP_DIST_LOCATION), "{:?}", pm.input_locations);
    let full = compile("clip.vert", Stage::Vertex, VsKey::default());
    let key = VsKey { unread_clip_distances: true, ..Default::default() };
    let linked = compile("clip.vert", Stage::Vertex, key);
    assert_eq!(params(&full), vec![0, g::CLIP_DIST_LOCATION]);
    assert_eq!(params(&linked), vec![0]);
    assert!(linked.stats.instructions < full.stats.instructions, "{}", linked.isa_text);
    // The clipper still gets every distance: the same pixels (both instances).
    let a = draw(&full, &ps, 3, 2).unwrap_or_else(|e| panic!("{e}\n{}", full.isa_text));
    let b = draw(&linked, &ps, 3, 2).unwrap_or_else(|e| panic!("{e}\n{}", linked.isa_text));
    assert!(a.iter().any(|p| p[3] != 0.0), "the triangle is drawn");
    assert_eq!(differing(&a, &b), 0, "pixels the linked VS draws differently");
}

#[test]
fn a_vertex_shader_without_a_reader_exports_no_parameters() {
    // A pipeline whose fragment shader reads nothing (or has none): every location goes,
    // gl_Position stays.
    let all = VsKey { unread_outputs: u128::MAX, ..Default::default() };
    let linked = compile("color.vert", Stage::Vertex, all);
    assert!(params(&linked).is_empty());
    let GfxMetadata::Vertex(m) = &linked.metadata else { unreachable!() };
    assert_eq!(m.vs_out_config, 1 << 7, "NO_PC_EXPORT");
    assert!(linked.isa_text.contains("exp pos0"), "{}", linked.isa_text);
    // Unread bits of locations the shader does not write change nothing.
    let key = VsKey { unread_outputs: !0xffu128, ..Default::default() };
    let kept = compile("color.vert", Stage::Vertex, key);
    assert_eq!(params(&kept), vec![0, 1]);
    assert_eq!(kept.code, compile("color.vert", Stage::Vertex, VsKey::default()).code);
}

#[test]
fn without_multiview_the_view_index_is_zero() {
    let vs = compile("color.vert", Stage::Vertex, VsKey::default());
    let multi = compile("view_index.frag", Stage::Fragment, PsKey::default());
    let single_key = GfxKey { single_view: true, ..Default::default() };
    let single = compile("view_index.frag", Stage::Fragment, single_key);
    // Multiview reads the view-index user SGPR; a single view reads the constant.
    let sgpr = format!(", s{}", g::PS_SGPR_VIEW_INDEX);
    assert!(multi.isa_text.contains(&sgpr), "{}", multi.isa_text);
    assert!(!single.isa_text.contains(&sgpr), "{}", single.isa_text);
    assert!(single.stats.instructions <= multi.stats.instructions);
    // The harness passes view index 0, which is what the folded constant says.
    let a = draw(&vs, &multi, 3, 1).unwrap_or_else(|e| panic!("{e}"));
    let b = draw(&vs, &single, 3, 1).unwrap_or_else(|e| panic!("{e}"));
    assert!(a.iter().any(|p| p[3] == 1.0), "the triangle is drawn");
    assert_eq!(differing(&a, &b), 0, "pixels the single-view PS draws differently");
}

#[test]
fn outputs_read_back_into_read_outputs_keep_their_values() {
    let ps = compile("readback.frag", Stage::Fragment, PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!("not a pixel shader") };
    assert_eq!(pm.input_reads, 0xf << 8);
    let full = compile("readback.vert", Stage::Vertex, VsKey::default());
    let key = VsKey { unread_outputs: !pm.input_reads, ..Default::default() };
    let linked = compile("readback.vert", Stage::Vertex, key);
    assert!(params(&linked).contains(&2), "{:?}", params(&linked));
    assert!(linked.stats.instructions <= full.stats.instructions);
    let a = draw(&full, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\n{}", full.isa_text));
    let b = draw(&linked, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\n{}", linked.isa_text));
    assert!(a.iter().any(|p| p[3] != 0.0), "the triangle is drawn");
    assert_eq!(differing(&a, &b), 0, "pixels the linked VS draws differently");
}

#[test]
fn linking_keeps_the_64_bit_varyings_the_fragment_shader_reads() {
    // double_varyings.frag reads every double it declares: each takes two components, the
    // wider ones continuing into the next location, and linking removes none of them.
    let ps = compile("double_varyings.frag", Stage::Fragment, PsKey::default());
    let GfxMetadata::Fragment(pm) = &ps.metadata else { panic!("not a pixel shader") };
    let full = compile("double_varyings.vert", Stage::Vertex, VsKey::default());
    let key = VsKey { unread_outputs: !pm.input_reads, ..Default::default() };
    let linked = compile("double_varyings.vert", Stage::Vertex, key);
    assert_eq!(params(&linked), params(&full));
    let a = draw(&full, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\n{}", full.isa_text));
    let b = draw(&linked, &ps, 3, 1).unwrap_or_else(|e| panic!("{e}\n{}", linked.isa_text));
    assert!(a.iter().any(|p| p[3] != 0.0), "the triangle is drawn");
    assert_eq!(differing(&a, &b), 0, "pixels the linked VS draws differently");
}
