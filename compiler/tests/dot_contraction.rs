//! Dot and matrix products fuse their multiply-adds (SPIR-V allows contraction) unless the
//! result is decorated `NoContraction` (GLSL `precise`). The inputs make the two roundings
//! differ: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 loses its last term when rounded alone, so
//! -1 + e·e is 2^-11 rounded after each step and 2^-11 + 2^-24 fused (the chain rounds its
//! first product, then fuses each further one into the sum). Expectations are the
//! host's own f32 arithmetic (`mul_add` for the fused chain); the IR interpreter and the
//! simulator must both give them.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{self, Buffer, Resources};
use ferrum_compiler::ir::Stage;

const SRC: &str = "#version 450\nlayout(local_size_x = 1) in;\n\
    layout(std430, binding = 0) readonly buffer I { vec2 a; vec2 b; vec2 c; } i;\n\
    layout(std430, binding = 1) writeonly buffer O { float o[]; };\n\
    void main() {\n\
     float d = dot(i.a, i.b);\n precise float dp = dot(i.a, i.b);\n\
     mat2 m = mat2(i.a, i.c);\n vec2 mv = m * i.b;\n precise vec2 mvp = m * i.b;\n\
     vec2 vm = i.b * transpose(m);\n precise vec2 vmp = i.b * transpose(m);\n\
     o[0] = d; o[1] = dp;\n o[2] = mv.x; o[3] = mv.y; o[4] = mvp.x; o[5] = mvp.y;\n\
     o[6] = vm.x; o[7] = vm.y; o[8] = vmp.x; o[9] = vmp.y;\n}\n";

fn expected(a: [f32; 2], b: [f32; 2], c: [f32; 2]) -> [f32; 10] {
    let fused = |x: [f32; 2], y: [f32; 2]| x[1].mul_add(y[1], x[0] * y[0]);
    let exact = |x: [f32; 2], y: [f32; 2]| x[0] * y[0] + x[1] * y[1];
    // m * b: rows of m are (a.x, c.x) and (a.y, c.y); b * transpose(m) is the same vector.
    let (r0, r1) = ([a[0], c[0]], [a[1], c[1]]);
    [
        fused(a, b),
        exact(a, b),
        fused(r0, b),
        fused(r1, b),
        exact(r0, b),
        exact(r1, b),
        fused(r0, b),
        fused(r1, b),
        exact(r0, b),
        exact(r1, b),
    ]
}

/// glslang marks `precise` matrix products `NoContraction` but not dot products: decorate the
/// second `OpDot` (`dp`) by hand, as another producer of SPIR-V may.
fn precise_dots(words: &[u32]) -> Vec<u32> {
    const OP_DECORATE: u32 = 71;
    const OP_DOT: u32 = 148;
    const NO_CONTRACTION: u32 = 42;
    let mut at = 5;
    let (mut first_decoration, mut dots) = (None, Vec::new());
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if op == OP_DECORATE && first_decoration.is_none() {
            first_decoration = Some(at);
        }
        if op == OP_DOT {
            dots.push(words[at + 2]);
        }
        at += count;
    }
    let (Some(d), &[_, dp]) = (first_decoration, &dots[..]) else { panic!("unexpected module") };
    let mut out = words[..d].to_vec();
    out.extend([3 << 16 | OP_DECORATE, dp, NO_CONTRACTION]);
    out.extend(&words[d..]);
    out
}

#[test]
fn products_fuse_unless_precise() {
    let path = std::env::temp_dir().join(format!("ferrum-dot-fma-{}.comp", std::process::id()));
    std::fs::write(&path, SRC).unwrap();
    let words = precise_dots(&common::glsl_to_spirv(&path));
    std::fs::remove_file(&path).ok();
    let e = 1.0 + 2f32.powi(-12);
    let cases = [
        ([-1.0, e], [1.0, e], [e, 1.0]),
        ([1.0, -e], [-1.0, e], [e, -e]),
        ([0.0, -0.0], [-0.0, -0.0], [f32::INFINITY, 0.0]),
        ([3.0, f32::MAX], [2.0, 2.0], [f32::MIN_POSITIVE, -0.5]),
    ];
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    let gpu = Gpu::new();
    let mut differ = false;
    for (a, b, c) in cases {
        let input: Vec<u8> =
            [a, b, c].iter().flat_map(|v| v.iter().flat_map(|x| x.to_le_bytes())).collect();
        let res = Resources {
            buffers: vec![
                Buffer { set: 0, binding: 0, index: 0, data: input },
                Buffer { set: 0, binding: 1, index: 0, data: vec![0; 40] },
            ],
            ..Default::default()
        };
        let want = expected(a, b, c);
        differ |= want[0] != want[1];
        let mut interp_res = res.clone();
        interp::run(&ir, [1, 1, 1], &mut interp_res).unwrap();
        let sim = gpu.run(&bin, &layout, [1, 1, 1], &res).unwrap();
        for (who, out) in [("interpreter", &interp_res), ("simulator", &sim)] {
            let got: Vec<f32> = (0..10).map(|k| common::f32_at(&out.buffers[1].data, k)).collect();
            let same = got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits());
            assert!(same, "{who} on {a:?} {b:?} {c:?}: got {got:?}, want {want:?}");
        }
    }
    assert!(differ, "no input tells fused from separate rounding");
}

/// Source-level sums of products: the front end fuses `x * y + z` (either order), `x * y - k`
/// and `z - k * x` for a constant `k`, and vector-times-scalar products; `z - x * y` (a
/// negated variable product) and `precise` ones keep separate roundings, and so does a product
/// stored in a local variable first (`p`: the front end sees a load, not the product; the
/// contraction is decided before variables become SSA values).
const SUMS: &str = "#version 450\nlayout(local_size_x = 1) in;\n\
    layout(std430, binding = 0) readonly buffer I { float x; float y; float z; } i;\n\
    layout(std430, binding = 1) writeonly buffer O { float o[]; };\n\
    void main() {\n\
     float p = i.x * i.y;\n o[0] = p + i.z;\n o[1] = i.z + i.x * i.y;\n\
     o[2] = i.x * i.y - 0.5;\n o[3] = i.z - i.x * 3.0;\n o[4] = i.z - i.x * i.y;\n\
     precise float q = i.x * i.y + i.z;\n o[5] = q;\n\
     vec2 v = vec2(i.x, i.z) * 1.5 - 0.25;\n o[6] = v.x; o[7] = v.y;\n}\n";

fn expected_sums(x: f32, y: f32, z: f32) -> [f32; 8] {
    [
        x * y + z,
        x.mul_add(y, z),
        x.mul_add(y, -0.5),
        (-3f32).mul_add(x, z),
        z - x * y,
        x * y + z,
        x.mul_add(1.5, -0.25),
        z.mul_add(1.5, -0.25),
    ]
}

#[test]
fn sums_of_products_fuse_unless_precise() {
    let path = std::env::temp_dir().join(format!("ferrum-sum-fma-{}.comp", std::process::id()));
    std::fs::write(&path, SUMS).unwrap();
    let words = common::glsl_to_spirv(&path);
    std::fs::remove_file(&path).ok();
    let e = 1.0 + 2f32.powi(-12);
    let cases = [
        (e, e, -1.0),
        (-e, e, 1.0),
        (f32::MAX, 2.0, -f32::MAX),
        (0.0, -0.0, -0.0),
        (f32::MIN_POSITIVE, 0.5, 0.0),
        (f32::INFINITY, 0.0, 1.0),
        (f32::NEG_INFINITY, -1.0, f32::NAN),
    ];
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    let gpu = Gpu::new();
    let mut differ = false;
    for (x, y, z) in cases {
        let input: Vec<u8> = [x, y, z].iter().flat_map(|v| v.to_le_bytes()).collect();
        let res = Resources {
            buffers: vec![
                Buffer { set: 0, binding: 0, index: 0, data: input },
                Buffer { set: 0, binding: 1, index: 0, data: vec![0; 32] },
            ],
            ..Default::default()
        };
        let want = expected_sums(x, y, z);
        differ |= want[1].to_bits() != want[5].to_bits() && !want[1].is_nan();
        let mut interp_res = res.clone();
        interp::run(&ir, [1, 1, 1], &mut interp_res).unwrap();
        let sim = gpu.run(&bin, &layout, [1, 1, 1], &res).unwrap();
        for (who, out) in [("interpreter", &interp_res), ("simulator", &sim)] {
            let got: Vec<f32> = (0..8).map(|k| common::f32_at(&out.buffers[1].data, k)).collect();
            // NaN results: any NaN (the host's default NaN has another sign than the GPU's).
            let same = got
                .iter()
                .zip(&want)
                .all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()));
            assert!(same, "{who} on {x:?} {y:?} {z:?}: got {got:?}, want {want:?}");
        }
    }
    assert!(differ, "no input tells fused from separate rounding");
}
