//! The interpreter on vertex and fragment shaders: hand-computed expectations from the
//! Vulkan spec for a few shaders, and the per-pass check on the whole graphics corpus (every
//! pass leaves each shader's outputs on random inputs unchanged, bit for bit).

mod common;

use std::collections::BTreeMap;

use fastrand::Rng;
use ferrum_compiler::interp::{
    self, Fragment, Outputs, Quad, Resources, TexelKind, Triangle, VertexLane,
};
use ferrum_compiler::ir::validate::{validate, Expect};
use ferrum_compiler::ir::{
    print, BuiltinOut, InstKind, IoSlot, Mode, Shader, Stage, SysVal, Terminator, Type, TypeId,
};
use ferrum_compiler::passes::*;
use ferrum_compiler::pipeline::optimize;

fn stage_of(file: &str) -> Stage {
    if file.ends_with(".vert") {
        Stage::Vertex
    } else {
        Stage::Fragment
    }
}

fn front_end(file: &str) -> Shader {
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    ferrum_compiler::spirv::to_ir(&words, "main", stage_of(file), &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn loc(l: u32, c: u8) -> (IoSlot, u8) {
    (IoSlot::Location(l), c)
}

fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn fv(o: &Outputs, l: u32, c: u8) -> f32 {
    f32::from_bits(o[&loc(l, c)] as u32)
}

/// Window positions of a triangle with an area of at least one pixel: the interpreter
/// refuses degenerate ones, which a rasterizer never hands to a pixel shader.
fn random_window(rng: &mut Rng) -> [[f64; 3]; 3] {
    loop {
        let mut win = || [float(rng, 0.0, 48.0) as f64, float(rng, 0.0, 48.0) as f64, rng.f64()];
        let [a, b, c] = [win(), win(), win()];
        let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
        if area.abs() >= 2.0 {
            return [a, b, c];
        }
    }
}

/// A float in [lo, hi) rounded to a multiple of 1/64 (exact sums stay exact).
fn float(rng: &mut Rng, lo: f64, hi: f64) -> f32 {
    ((lo + (hi - lo) * rng.f64()) * 64.0).floor() as f32 / 64.0
}

#[test]
fn a_vertex_shader_stores_its_position_varyings_and_flat_id() {
    let s = front_end("color.vert");
    let lane = VertexLane { vertex_index: 1, instance_index: 2, ..Default::default() };
    let out = interp::run_vertex(&s, &[lane], &mut Resources::default()).unwrap();
    let pos = IoSlot::Builtin(BuiltinOut::Position);
    // i = 1: x = 0.9, y = -0.6, w = 2; id = 1 + 10 * 2 + 7.
    let want_pos = [0.9f32 * 2.0, -0.6 * 2.0, 0.5 * 2.0, 2.0];
    for (c, w) in want_pos.iter().enumerate() {
        assert_eq!(out[0][&(pos, c as u8)], f(*w), "position {c}");
    }
    assert_eq!([0, 1, 2].map(|c| fv(&out[0], 0, c)), [0.0, 1.0, 0.0]);
    assert_eq!(out[0][&loc(1, 0)], 28);
}

/// The triangle (0,0), (4,0), (0,4) with w = 1, 2, 4; red, green, blue and flat ids 5, 9, 11.
fn rgb_triangle() -> Triangle {
    let mut vertices: [Outputs; 3] = Default::default();
    for (v, o) in vertices.iter_mut().enumerate() {
        for c in 0..3u8 {
            o.insert(loc(0, c), f(if usize::from(c) == v { 1.0 } else { 0.0 }));
        }
        o.insert(loc(1, 0), [5, 9, 11][v]);
    }
    Triangle {
        window: [[0.0, 0.0, 0.25], [4.0, 0.0, 0.5], [0.0, 4.0, 1.0]],
        w: [1.0, 2.0, 4.0],
        vertices,
        samples: 1,
        front_facing: true,
        ..Default::default()
    }
}

#[test]
fn fragment_inputs_interpolate_with_perspective_and_flat_takes_the_provoking_vertex() {
    let s = front_end("color.frag");
    let quad = Quad { x: 0, y: 0, coverage: [1, 1, 1, 0], sample: None };
    let r = interp::run_fragment(&s, &rgb_triangle(), &quad, &mut Resources::default()).unwrap();
    // Pixel (0, 0), centre (0.5, 0.5): screen barycentrics (0.75, 0.125, 0.125); divided by
    // w: (0.75, 0.0625, 0.03125), sum 0.84375.
    let want = [0.75 / 0.84375, 0.0625 / 0.84375, 0.03125 / 0.84375];
    for (c, w) in want.iter().enumerate() {
        assert_eq!(fv(&r[0].outputs, 0, c as u8), *w as f32, "channel {c}");
    }
    assert_eq!(fv(&r[0].outputs, 0, 3), 5.0);
    assert!(r.iter().take(3).all(Fragment::live));
    assert!(r[3].helper && !r[3].killed, "lane 3 covers no sample");
}

#[test]
fn noperspective_centroid_inputs_and_frag_coord() {
    let s = front_end("centroid.frag");
    let mut tri = rgb_triangle();
    tri.samples = 4;
    // Lane 0 covers every sample (centroid = centre); lane 1 only sample 2 at (0.125, 0.625).
    let quad = Quad { x: 0, y: 0, coverage: [0xf, 0b0100, 0xf, 0xf], sample: None };
    let r = interp::run_fragment(&s, &tri, &quad, &mut Resources::default()).unwrap();
    // Linear in screen space: barycentrics (1 - (x + y) / 4, x / 4, y / 4).
    let at = |x: f64, y: f64| [1.0 - (x + y) / 4.0, x / 4.0, y / 4.0].map(|v| v as f32);
    let o = |l: usize| [0, 1, 2].map(|c| fv(&r[l].outputs, 0, c));
    assert_eq!(o(0), at(0.5, 0.5));
    assert_eq!(o(1), at(1.125, 0.625));
    assert_eq!(fv(&r[1].outputs, 0, 3), 1.5, "FragCoord.x is the pixel centre");
}

#[test]
fn derivatives_take_quad_differences_fine_and_coarse() {
    let s = front_end("deriv_quad.frag");
    let quad = Quad { x: 2, y: 4, coverage: [1, 0, 1, 1], sample: None };
    let mut tri = rgb_triangle();
    tri.window = [[0.0, 0.0, 0.0], [64.0, 0.0, 0.0], [0.0, 64.0, 0.0]];
    let r = interp::run_fragment(&s, &tri, &quad, &mut Resources::default()).unwrap();
    // p = x * y at centres x in {2.5, 3.5}, y in {4.5, 5.5}: fine d/dx is the row's y, fine
    // d/dy the column's x; coarse ones take the top row and left column.
    let want =
        [[4.5, 2.5, 4.5, 2.5], [4.5, 3.5, 4.5, 2.5], [5.5, 2.5, 4.5, 2.5], [5.5, 3.5, 4.5, 2.5]];
    for lane in 0..4 {
        let got = [0, 1, 2, 3].map(|c| fv(&r[lane].outputs, 0, c));
        assert_eq!(got, want[lane], "lane {lane}");
    }
    assert!(r[1].helper, "the uncovered lane still ran as a helper");
}

#[test]
fn discard_kills_and_demote_makes_helpers() {
    let s = front_end("discard.frag");
    let mut tri = rgb_triangle();
    tri.window = [[0.0, 0.0, 0.0], [64.0, 0.0, 0.0], [0.0, 64.0, 0.0]];
    tri.w = [1.0; 3];
    let quad = Quad { x: 30, y: 0, coverage: [1; 4], sample: None };
    let r = interp::run_fragment(&s, &tri, &quad, &mut Resources::default()).unwrap();
    // Red falls and green rises with x: at x = 30.5 red is 33/64 > green 30.5/64, killed.
    for (lane, frag) in r.iter().enumerate() {
        let x = 30.5 + (lane & 1) as f64;
        let y = 0.5 + (lane >> 1) as f64;
        let (red, green) = (1.0 - (x + y) / 64.0, x / 64.0);
        assert_eq!(frag.killed, red > green, "lane {lane}");
    }
    let s = front_end("demote.frag");
    let quad = Quad { x: 0, y: 0, coverage: [1; 4], sample: None };
    let r = interp::run_fragment(&s, &tri, &quad, &mut Resources::default()).unwrap();
    // (x + 2y) % 3 == 0 demotes pixels (0, 0) and (1, 1) of this quad.
    assert_eq!(r.each_ref().map(|f| f.helper), [true, false, false, true]);
    assert!(r.iter().all(|f| !f.killed));
    // Lane 1: d/dx of the helper flag is 0 - 1 along the row; lane 2: d/dy of it likewise.
    assert_eq!(fv(&r[1].outputs, 0, 2), -1.0);
    assert_eq!(fv(&r[2].outputs, 0, 3), -1.0);
}

#[test]
fn helper_lanes_write_no_memory() {
    let s = front_end("deriv_store.frag");
    let mut res = Resources::default();
    res.buffers.push(interp::Buffer { set: 0, binding: 0, index: 0, data: vec![0; 4] });
    let quad = Quad { x: 0, y: 0, coverage: [1, 0, 0, 1], sample: None };
    let mut tri = rgb_triangle();
    tri.window = [[0.0, 0.0, 0.0], [64.0, 0.0, 0.0], [0.0, 64.0, 0.0]];
    interp::run_fragment(&s, &tri, &quad, &mut res).unwrap();
    assert_eq!(res.buffers[0].data, 2u32.to_le_bytes(), "two live lanes add 1 each");
}

#[test]
fn implicit_lod_comes_from_the_quads_coordinate_derivatives() {
    let s = front_end("query_lod.frag");
    let mut res = Resources::default();
    let mut rng = Rng::with_seed(7);
    let ty = s.vars.iter().find(|v| v.mode == Mode::Handle).unwrap().ty;
    res.images.push(random_image(&s, ty, (0, 1), &mut rng));
    let quad = Quad { x: 8, y: 8, coverage: [1, 0, 0, 0], sample: None };
    let mut tri = rgb_triangle();
    tri.window = [[0.0, 0.0, 0.0], [64.0, 0.0, 0.0], [0.0, 64.0, 0.0]];
    let r = interp::run_fragment(&s, &tri, &quad, &mut res).unwrap();
    // xy * 2 moves 2 per pixel (128 texels of 64): lambda = 7, level clamped to 6 of 7; xy /
    // 256 moves 1/4 texel per pixel: lambda = -2, level 0.
    let got = [0, 1, 2, 3].map(|c| fv(&r[0].outputs, 0, c));
    assert_eq!(got, [6.0, 7.0, 0.0, -2.0]);
}

#[test]
fn point_coord_sample_id_and_sample_position() {
    // A point of size 4 centred on (20, 20): pixel (18, 18)'s centre is 1/8 of the way in.
    let s = front_end("point_coord.frag");
    let mut tri = rgb_triangle();
    tri.point = Some(([20.0, 20.0], 4.0));
    tri.vertices[0].insert(loc(0, 1), f(3.0));
    let quad = Quad { x: 18, y: 18, coverage: [1; 4], sample: None };
    let r = interp::run_fragment(&s, &tri, &quad, &mut Resources::default()).unwrap();
    assert_eq!([0, 1, 2].map(|c| fv(&r[0].outputs, 0, c)), [0.125, 0.125, 3.0]);
    assert_eq!([0, 1].map(|c| fv(&r[3].outputs, 0, c)), [0.375, 0.375]);
    // Per-sample shading of sample 2 of 4, at (0.125, 0.625) in the pixel (Vulkan's standard
    // locations); FragCoord is then at the sample.
    let s = front_end("sample_id.frag");
    let mut tri = rgb_triangle();
    tri.samples = 4;
    let quad = Quad { x: 0, y: 0, coverage: [0xf, 0b0100, 0b1011, 0xf], sample: Some(2) };
    let r = interp::run_fragment(&s, &tri, &quad, &mut Resources::default()).unwrap();
    assert_eq!([0, 1, 2, 3].map(|c| fv(&r[1].outputs, 0, c)), [2.0, 0.125, 0.625, 1.125]);
    assert!(r[2].helper, "lane 2 does not cover the shaded sample");
}

/// The 64-bit values double_varyings.vert writes for vertex `i`, in the order
/// double_varyings.frag lists them (without the last, a sum), as (low, high) dwords.
fn double_varyings(i: u32) -> [(u32, u32); 14] {
    let halves = |x: f64| (x.to_bits() as u32, (x.to_bits() >> 32) as u32);
    let mut arr = [f64::from(i + 1) * 0.1, 1.0 / 3.0];
    arr[(i & 1) as usize] *= -3.0;
    [
        (i, 0x8000_0000),
        (1 + i, 0),
        (!i, 0x000f_ffff),
        (0, 0xfff0_0000 - (i << 20)),
        (1 + i, 0x7ff0_0000),
        (0x9abc_def0 ^ i, 0xfff8_1234),
        (i, 0x8000_0000),
        (!i, 0xffff_ffff),
        (0xffff_ffff, 0x7fef_ffff - i),
        (!i, 0xffef_ffff),
        (1 + i, 0x3ff0_0000),
        (i, 0x7ff0_0000),
        halves(arr[0]),
        halves(arr[1]),
    ]
}

#[test]
fn double_varyings_take_two_components_each_across_locations() {
    let s = front_end("double_varyings.vert");
    let lanes: Vec<VertexLane> =
        (0..3).map(|i| VertexLane { vertex_index: i, ..Default::default() }).collect();
    let out = interp::run_vertex(&s, &lanes, &mut Resources::default()).unwrap();
    // Vulkan "Location Assignment": a 64-bit component takes two 32-bit ones (low first), a
    // dvec3/dvec4 continues into the next location, an array element takes one location.
    let places: [(u32, u8); 14] = [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2), (3, 0), (3, 2)]
        .into_iter()
        .chain([(4, 0), (4, 2), (5, 0), (5, 2), (6, 0), (7, 0)])
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    for (i, o) in out.iter().enumerate() {
        for (k, (&(l, c), (lo, hi))) in places.iter().zip(double_varyings(i as u32)).enumerate() {
            let got = (o[&loc(l, c)], o[&loc(l, c + 1)]);
            assert_eq!(got, (u64::from(lo), u64::from(hi)), "vertex {i}, value {k}");
        }
    }
    // The fragment shader shows value (x + 4y) % 15 of the provoking vertex (flat) as four
    // 16-bit pieces; y's parity picks the dynamically indexed array element.
    let s = front_end("double_varyings.frag");
    let tri = Triangle {
        window: [[0.0, 0.0, 0.5], [64.0, 0.0, 0.5], [0.0, 64.0, 0.5]],
        w: [1.0; 3],
        vertices: [out[0].clone(), out[1].clone(), out[2].clone()],
        samples: 1,
        front_facing: true,
        ..Default::default()
    };
    let v = double_varyings(0);
    let sum = f64::from_bits(u64::from(v[12].0) | u64::from(v[12].1) << 32)
        + f64::from_bits(u64::from(v[13].0) | u64::from(v[13].1) << 32);
    let sum = (sum.to_bits() as u32, (sum.to_bits() >> 32) as u32);
    let mut seen = [false; 15];
    for (qx, qy) in (0..8).step_by(2).flat_map(|y| (0..8).step_by(2).map(move |x| (x, y))) {
        let quad = Quad { x: qx, y: qy, coverage: [1; 4], sample: None };
        let r = interp::run_fragment(&s, &tri, &quad, &mut Resources::default()).unwrap();
        for (lane, frag) in r.iter().enumerate() {
            let (x, y) = (qx + lane as u32 % 2, qy + lane as u32 / 2);
            let k = ((x + 4 * y) % 15) as usize;
            let (lo, hi) = match k {
                12 | 13 if y % 2 == 1 => v[25 - k],
                14 => sum,
                _ => v[k],
            };
            let want = [lo & 0xffff, lo >> 16, hi & 0xffff, hi >> 16].map(|p| p as f32);
            assert_eq!([0, 1, 2, 3].map(|c| fv(&frag.outputs, 0, c)), want, "pixel ({x}, {y})");
            seen[k] = true;
        }
    }
    assert!(seen.iter().all(|&b| b));
}

/// The per-pass check can fail: moving one output store a component up, or turning a kill
/// into a return, changes the results it compares.
#[test]
fn the_check_sees_a_misplaced_component_and_a_lost_kill() {
    let lowered = |file: &str| {
        let path = common::corpus_dir().join("../graphics/draw").join(file);
        let words = common::glsl_to_spirv(&path);
        ferrum_compiler::compile_to_ir(&words, "main", stage_of(file), &Default::default()).unwrap()
    };
    let s = lowered("varyings.vert");
    let inp = random_inputs(&s, 5);
    let want = run(&s, &inp).unwrap();
    let mut bad = s.clone();
    let store =
        bad.funcs[0].blocks.iter_mut().flat_map(|b| b.insts.iter_mut()).find_map(|i| match &mut i
            .kind
        {
            InstKind::IoStore { slot: IoSlot::Location(0), comp, .. } if *comp == 0 => Some(comp),
            _ => None,
        });
    *store.expect("a store to location 0, component 0") += 3;
    assert_ne!(run(&bad, &inp).unwrap(), want, "misplaced component unnoticed");
    let s = lowered("discard.frag");
    let inp = random_inputs(&s, 6);
    let want = run(&s, &inp).unwrap();
    assert!(want.fragments.iter().any(|f| f.0), "some fragment is killed");
    let mut bad = s.clone();
    for b in &mut bad.funcs[0].blocks {
        if b.term == Terminator::Kill {
            b.term = Terminator::Return(Vec::new());
        }
        // discard.frag's `if (c) discard;` is a conditional kill in the entry block.
        b.insts.retain(|i| !matches!(i.kind, InstKind::KillIf(_)));
    }
    assert_ne!(run(&bad, &inp).unwrap(), want, "lost kill unnoticed");
}

/// Whether the shader runs per sample (SampleId, SamplePosition or a `sample` input).
fn per_sample(s: &Shader) -> bool {
    s.vars.iter().any(|v| {
        matches!(v.sysval, Some(SysVal::SampleId | SysVal::SamplePosition))
            || (v.mode == Mode::Input && v.interp == ferrum_compiler::ir::Interp::Sample)
    })
}

fn reads_point_coord(s: &Shader) -> bool {
    s.vars.iter().any(|v| v.builtin_out.contains(&Some(BuiltinOut::PointCoord)))
}

/// Random inputs for one run of a corpus shader.
struct Inputs {
    res: Resources,
    vertex: Vec<VertexLane>,
    quads: Vec<(Triangle, Quad)>,
}

fn random_outputs(rng: &mut Rng) -> Outputs {
    let mut o = BTreeMap::new();
    for l in 0..8 {
        for c in 0..4 {
            o.insert(loc(l, c), f(float(rng, -2.0, 2.0)));
        }
    }
    for b in [BuiltinOut::ClipDistance, BuiltinOut::CullDistance] {
        for c in 0..8 {
            o.insert((IoSlot::Builtin(b), c), f(float(rng, -2.0, 2.0)));
        }
    }
    o
}

/// A 64x64 image (7 levels, or 4 samples) of random texels for a handle of type `ty`, with a
/// linear repeating sampler if it is a combined image/sampler.
fn random_image(s: &Shader, ty: TypeId, key: (u32, u32), rng: &mut Rng) -> interp::Image {
    let (image, combined) = match s.types.get(ty) {
        Type::SampledImage { image } => (*image, true),
        _ => (ty, false),
    };
    let Type::Image { ms, arrayed, sampled_ty, .. } = s.types.get(image).clone() else {
        panic!("handle of type {:?}", s.types.get(image));
    };
    let kind = match s.types.get(sampled_ty) {
        Type::Float { .. } => TexelKind::Float,
        Type::Int { signed: true, .. } => TexelKind::Sint,
        _ => TexelKind::Uint,
    };
    let levels = if ms { 1 } else { 7 };
    let mut img =
        interp::Image::new((key.0, key.1, 0), [64, 64, 1], 1 + u32::from(arrayed), levels, kind);
    if ms {
        img.samples = 4;
        img.texels = vec![[0; 4]; img.texels.len() * 4];
    }
    for t in &mut img.texels {
        *t = [0; 4].map(|_| match kind {
            TexelKind::Float => float(rng, 0.0, 1.0).to_bits(),
            _ => (rng.u64(..) % 100) as u32,
        });
    }
    img.sampler = combined.then_some(interp::Sampler {
        set: key.0,
        binding: key.1,
        index: 0,
        linear: true,
        mip_linear: true,
        address: [interp::Address::Repeat; 3],
        compare: None,
        unnormalized: false,
        border: [0; 4],
    });
    img
}

fn random_inputs(s: &Shader, seed: u64) -> Inputs {
    let mut rng = Rng::with_seed(seed | 1);
    let mut res =
        Resources { push: (0..256).map(|_| rng.u64(..) as u8).collect(), ..Default::default() };
    for v in s.vars.iter().filter(|v| matches!(v.mode, Mode::Uniform | Mode::Storage)) {
        if let Some((set, binding)) = v.binding {
            let data = (0..4096).map(|_| rng.u64(..) as u8 & 0x3f).collect();
            res.buffers.push(interp::Buffer { set, binding, index: 0, data });
        }
    }
    for v in s.vars.iter().filter(|v| v.mode == Mode::Handle) {
        if let Some((set, binding)) = v.binding {
            res.images.push(random_image(s, v.ty, (set, binding), &mut rng));
        }
    }
    let vertex = (0..40)
        .map(|i| VertexLane {
            attributes: (0..8)
                .flat_map(|l| (0..4).map(move |c| (l, c)))
                .map(|k| (k, f(float(&mut rng, -3.0, 3.0))))
                .collect(),
            vertex_index: i,
            instance_index: (rng.u64(..) % 3) as u32,
            base_vertex: (rng.u64(..) % 5) as u32,
            base_instance: (rng.u64(..) % 2) as u32,
            draw_index: (rng.u64(..) % 2) as u32,
            view_index: 0,
        })
        .collect();
    let samples = 4;
    let mut quads = Vec::new();
    for _ in 0..6 {
        let tri = Triangle {
            window: random_window(&mut rng),
            w: [0, 1, 2].map(|_| f64::from(float(&mut rng, 0.5, 4.0))),
            vertices: [
                random_outputs(&mut rng),
                random_outputs(&mut rng),
                random_outputs(&mut rng),
            ],
            front_facing: rng.u64(..) & 1 == 1,
            samples,
            view_index: 0,
            point: reads_point_coord(s).then_some(([20.0, 20.0], 16.0)),
        };
        let quad = Quad {
            x: (rng.u64(..) % 46) as u32 & !1,
            y: (rng.u64(..) % 46) as u32 & !1,
            coverage: [0, 1, 2, 3].map(|_| (rng.u64(..) % 20).min(15) as u32),
            sample: per_sample(s).then(|| (rng.u64(..) % 4) as u32),
        };
        quads.push((tri, quad));
    }
    Inputs { res, vertex, quads }
}

/// Everything a run produced: memory, and per lane the outputs that reach the framebuffer.
#[derive(Debug, PartialEq)]
struct Results {
    res: Resources,
    vertex: Vec<Outputs>,
    fragments: Vec<(bool, bool, Option<Outputs>)>,
}

fn run(s: &Shader, inp: &Inputs) -> Result<Results, interp::InterpError> {
    let mut res = inp.res.clone();
    let (mut vertex, mut fragments) = (Vec::new(), Vec::new());
    match s.stage {
        Stage::Vertex => vertex = interp::run_vertex(s, &inp.vertex, &mut res)?,
        _ => {
            for (tri, quad) in &inp.quads {
                for frag in interp::run_fragment(s, tri, quad, &mut res)? {
                    let live = frag.live().then_some(frag.outputs);
                    fragments.push((frag.killed, frag.helper, live));
                }
            }
        }
    }
    Ok(Results { res, vertex, fragments })
}

fn check(file: &str, stage: &str, s: &Shader, ex: Expect, inp: &Inputs, want: &Results) {
    validate(s, ex).unwrap_or_else(|e| panic!("{file} after {stage}: {e}"));
    let got = run(s, inp)
        .unwrap_or_else(|e| panic!("{file} after {stage}: {e}\n{}", print::shader_text(s)));
    assert!(got == *want, "{file}: results differ after {stage}\n{}", print::shader_text(s));
}

fn each_opt(file: &str, s: &Shader, ex: Expect, inp: &Inputs, want: &Results, at: &str) {
    type P = fn(&mut Shader) -> bool;
    let passes: [(&str, P); 9] = [
        ("opt_copy_prop", opt_copy_prop::opt_copy_prop),
        ("opt_constant_fold", opt_constant_fold::opt_constant_fold),
        ("opt_dead_cf", opt_dead_cf::opt_dead_cf),
        ("opt_merge_blocks", opt_merge_blocks::opt_merge_blocks),
        ("opt_kill_if", opt_kill_if::opt_kill_if),
        ("opt_if_convert", opt_if_convert::opt_if_convert),
        ("opt_cse", opt_cse::opt_cse),
        ("opt_dce", opt_dce::opt_dce),
        ("opt_licm", opt_licm::opt_licm),
    ];
    for (name, p) in passes {
        let mut t = s.clone();
        p(&mut t);
        check(file, &format!("{name} ({at})"), &t, ex, inp, want);
    }
}

/// Runs every pass of the pipeline on `file`, checking the results after each.
fn every_pass(file: &str, seed: u64) -> Result<(), interp::InterpError> {
    let mut s = front_end(file);
    let inp = random_inputs(&s, seed);
    let want = run(&s, &inp)?;
    let mut ex = Expect::default();
    let chk = |stage: &str, s: &Shader, ex: Expect| check(file, stage, s, ex, &inp, &want);
    inline_functions::inline_functions(&mut s).unwrap();
    ex.inlined = true;
    chk("inline_functions", &s, ex);
    lower_vars_to_ssa::lower_vars_to_ssa(&mut s);
    chk("lower_vars_to_ssa", &s, ex);
    each_opt(file, &s, ex, &inp, &want, "before lowering");
    optimize(&mut s, ex).unwrap();
    chk("optimize", &s, ex);
    opt_memory_forward::opt_memory_forward(&mut s);
    chk("opt_memory_forward", &s, ex);
    lower_system_values::lower_system_values(&mut s);
    chk("lower_system_values", &s, ex);
    lower_io::lower_io(&mut s).unwrap();
    chk("lower_io", &s, ex);
    lower_explicit_io::lower_explicit_io(&mut s);
    ex.explicit_io_lowered = true;
    chk("lower_explicit_io", &s, ex);
    lower_image_handles::lower_image_handles(&mut s);
    chk("lower_image_handles", &s, ex);
    opt_split_offsets::opt_split_offsets(&mut s);
    chk("opt_split_offsets", &s, ex);
    each_opt(file, &s, ex, &inp, &want, "after lowering");
    optimize(&mut s, ex).unwrap();
    chk("optimize (lowered)", &s, ex);
    let path = common::corpus_dir().join("../graphics/draw").join(file);
    let words = common::glsl_to_spirv(&path);
    let full = ferrum_compiler::compile_to_ir(&words, "main", stage_of(file), &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    chk("compile_to_ir", &full, ex);
    Ok(())
}

#[test]
fn every_pass_preserves_results_on_the_graphics_corpus() {
    let dir = common::corpus_dir().join("../graphics/draw");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".vert") || n.ends_with(".frag"))
        .collect();
    files.sort();
    assert!(files.len() >= 28, "graphics corpus has {} shaders", files.len());
    let mut refused = Vec::new();
    for file in &files {
        // Two independent input sets per shader (the seed mixes in the name).
        let name_hash =
            file.bytes().fold(0u64, |h, b| h.wrapping_mul(131).wrapping_add(u64::from(b)));
        for k in 0..2u64 {
            let seed = 0x9e37_79b9_7f4a_7c15 ^ name_hash ^ (k << 40);
            if let Err(e) = every_pass(file, seed) {
                refused.push((file.clone(), e.to_string()));
                break;
            }
        }
    }
    assert!(refused.is_empty(), "the interpreter refuses: {refused:#?}");
}
