//! 32-bit division in vertex and fragment shaders is `x * rcp(y)` (spirv/fast_div.rs); compute
//! shaders and other widths keep the correctly rounded quotient. The fragment path runs on
//! the simulator's graphics pipeline over edge and random operand pairs read from a texture,
//! and every result is held to the Vulkan specification's bound for OpFDiv (2.5 ULP of the
//! exact quotient for divisors in [2^-126, 2^126]) and IEEE 754's special cases; the exact
//! quotient comes from the host's f64 division, not from the compiler or the interpreter.

mod common;

use common::draw::{draw_with, DrawSetup, Texture, H, W};
use common::tri::inside;
use ferrum_compiler::amd::abi::graphics::PsKey;
use ferrum_compiler::amd::{compile_graphics, default_layout};
use ferrum_compiler::ir::{print, Shader, Stage};

fn compile(name: &str, src: &str, stage: Stage) -> Shader {
    common::glsl_source_to_ir(name, src, stage)
}

/// Reads (x, y) from the texel at the fragment's pixel: x / y, 1 / y, x / 3 and y itself
/// (which shows the pixel read the texel it was meant to).
const FRAG: &str = "#version 450
layout(set = 0, binding = 0) uniform sampler2D operands;
layout(location = 0) out vec4 o;
void main() {
    vec4 t = texelFetch(operands, ivec2(gl_FragCoord.xy), 0);
    o = vec4(t.x / t.y, 1.0 / t.y, t.x / 3.0, t.y);
}
";

fn ops(s: &Shader, op: &str) -> usize {
    print::shader_text(s).matches(&format!(" {op} ")).count()
}

#[test]
fn graphics_stages_divide_by_the_reciprocal_and_compute_keeps_the_quotient() {
    let fs = compile("d.frag", FRAG, Stage::Fragment);
    assert_eq!(ops(&fs, "fdiv"), 0, "{}", print::shader_text(&fs));
    // x / y and 1 / y share one reciprocal; x / 3 multiplies by the folded constant.
    assert_eq!(ops(&fs, "frcp"), 1, "{}", print::shader_text(&fs));
    let ps = compile_graphics(&fs, &default_layout(&fs), PsKey::default()).unwrap();
    assert_eq!(ps.isa_text.matches("v_rcp_f32").count(), 1, "{}", ps.isa_text);
    assert!(!ps.isa_text.contains("v_div_"), "{}", ps.isa_text);

    let vs = compile(
        "d.vert",
        "#version 450\nlayout(location = 0) in vec4 a;\nlayout(location = 1) in float b;\n\
         void main() { gl_Position = a / b; }\n",
        Stage::Vertex,
    );
    assert_eq!((ops(&vs, "fdiv"), ops(&vs, "frcp")), (0, 1), "{}", print::shader_text(&vs));

    let cs = compile(
        "d.comp",
        "#version 450\nlayout(std430, binding = 0) buffer B { float x, y, q; };\n\
         void main() { q = x / y; }\n",
        Stage::Compute,
    );
    assert_eq!((ops(&cs, "fdiv"), ops(&cs, "frcp")), (1, 0), "{}", print::shader_text(&cs));

    let fs64 = compile(
        "d64.frag",
        "#version 450\nlayout(location = 0) flat in dvec2 v;\nlayout(location = 0) out vec4 o;\n\
         void main() { o = vec4(float(v.x / v.y)); }\n",
        Stage::Fragment,
    );
    assert_eq!((ops(&fs64, "fdiv"), ops(&fs64, "frcp")), (1, 0), "{}", print::shader_text(&fs64));
}

/// Operand pairs (x, y) as f32 bits: the ends of the divisor range, exact and inexact
/// quotients, denormal dividends and results, and IEEE 754's special cases.
const EDGES: &[(u32, u32)] = &[
    (0x3f80_0000, 0x4040_0000), // 1 / 3
    (0x40a0_0000, 0x4040_0000), // 5 / 3
    (0xc0e0_0000, 0x3dcc_cccd), // -7 / 0.1
    (0x4049_0fdb, 0x402d_f854), // pi / e
    (0x3f80_0000, 0x0080_0000), // 1 / 2^-126 = 2^126
    (0x3f80_0000, 0x7e80_0000), // 1 / 2^126 = 2^-126
    (0x3f7f_ffff, 0x7e7f_ffff), // just inside the range's top
    (0x4000_0000, 0x0080_0001), // just above its bottom
    (0x7f7f_ffff, 0x4000_0000), // the largest finite / 2
    (0x7f7f_ffff, 0x7f7f_ffff), // beyond the range: no bound (checked only for being finite or 0)
    (0x0000_0001, 0x3f00_0000), // the smallest denormal / 0.5
    (0x007f_ffff, 0x4080_0000), // a denormal result
    (0x3f80_0001, 0x3f80_0000), // 1 + ulp
    (0xbf80_0000, 0xbf7f_ffff), // -1 / -(1 - ulp/2)
    (0x0000_0000, 0x0000_0000), // 0 / 0 = NaN
    (0x7f80_0000, 0x7f80_0000), // inf / inf = NaN
    (0x3f80_0000, 0x0000_0000), // 1 / +0 = +inf
    (0xbf80_0000, 0x0000_0000), // -1 / +0 = -inf
    (0x3f80_0000, 0x8000_0000), // 1 / -0 = -inf
    (0x0000_0000, 0x40a0_0000), // 0 / 5 = +0
    (0x8000_0000, 0x40a0_0000), // -0 / 5 = -0
    (0x40a0_0000, 0x7f80_0000), // 5 / inf = +0
    (0xc0a0_0000, 0x7f80_0000), // -5 / inf = -0
    (0x7f80_0000, 0x40a0_0000), // inf / 5 = inf
    (0xff80_0000, 0xc0a0_0000), // -inf / -5 = inf
    (0x7fc0_0000, 0x3f80_0000), // NaN / 1
    (0x3f80_0000, 0x7fc0_0000), // 1 / NaN
];

/// What the specification allows for `x / y` (f32 bits), given the exact quotient.
fn check(x: u32, y: u32, got: f32) -> Result<(), String> {
    let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
    let exact = f64::from(fx) / f64::from(fy);
    let fail =
        || Err(format!("{fx:e} / {fy:e} = {got:e} ({:#010x}), exact {exact:e}", got.to_bits()));
    if exact.is_nan() {
        return if got.is_nan() { Ok(()) } else { fail() };
    }
    if exact.is_infinite() || exact == 0.0 {
        // Infinities and zeros (signs included) are exact in IEEE 754 and in x * rcp(y).
        return if f64::from(got) == exact && got.is_sign_negative() == exact.is_sign_negative() {
            Ok(())
        } else {
            fail()
        };
    }
    let magnitude = fy.abs();
    if !(2f32.powi(-126)..=2f32.powi(126)).contains(&magnitude) {
        // Outside the divisor range the precision is undefined, but never a NaN or infinity
        // for finite operands.
        return if got.is_finite() { Ok(()) } else { fail() };
    }
    if exact.abs() > f64::from(f32::MAX) {
        // Overflow: the largest finite value or infinity, with the quotient's sign.
        let big = got.is_infinite() || got.abs() == f32::MAX;
        return if big && got.is_sign_negative() == (exact < 0.0) { Ok(()) } else { fail() };
    }
    if exact.abs() < f64::from(f32::MIN_POSITIVE) && got == 0.0 {
        // Denormal values may be flushed to zero (the specification's default float mode).
        return Ok(());
    }
    let ulp = 2f64.powi((exact.abs().log2().floor() as i32 - 23).max(-149));
    if (f64::from(got) - exact).abs() <= 2.5 * ulp {
        Ok(())
    } else {
        fail()
    }
}

#[test]
fn fragment_division_meets_the_specifications_precision_on_the_simulator() {
    let mut rng = fastrand::Rng::with_seed(0xfd1f);
    let mut pairs = EDGES.to_vec();
    while pairs.len() < 1000 {
        // Random normal dividends and divisors within the divisor range, their quotients
        // normal.
        let ex = rng.u32(1..254);
        let ey = rng.u32(ex.saturating_sub(117).max(1)..(ex + 117).min(253));
        let x = rng.u32(..) & 0x807f_ffff | ex << 23;
        let y = rng.u32(..) & 0x807f_ffff | ey << 23;
        pairs.push((x, y));
    }
    // The k-th pixel clearly inside color.vert's triangle reads pair k (edge pairs first).
    let mut slot = vec![None; (W * H) as usize];
    let mut k = 0;
    for p in 0..W * H {
        if inside(p % W, p / W) == Some(true) {
            slot[p as usize] = Some(k % pairs.len());
            k += 1;
        }
    }
    let at = |x: u32, y: u32| slot[(y * W + x) as usize].map_or((0, 0x3f80_0000), |k| pairs[k]);

    let vs = compile("c.vert", &std::fs::read_to_string(vert_path()).unwrap(), Stage::Vertex);
    let vs = compile_graphics(&vs, &default_layout(&vs), PsKey::default()).unwrap();
    let fs = compile("d.frag", FRAG, Stage::Fragment);
    let layout = default_layout(&fs);
    let ps = compile_graphics(&fs, &layout, PsKey::default()).unwrap();
    let texture = Texture {
        width: W,
        height: H,
        texels: (0..H)
            .flat_map(|y| (0..W).map(move |x| (x, y)))
            .map(|(x, y)| {
                let (a, b) = at(x, y);
                [f32::from_bits(a), f32::from_bits(b), 0.0, 0.0]
            })
            .collect(),
        ssharp: [0; 4],
        offset: layout.get(0, 0).unwrap().offset,
        arrayed: false,
    };
    let setup =
        DrawSetup { vertices: 3, instances: 1, texture: Some(texture), ..Default::default() };
    let pixels = draw_with(&vs, &ps, &setup).unwrap_or_else(|e| panic!("{e}\n{}", ps.isa_text));
    let three = 3f32.to_bits();
    let one = 1f32.to_bits();
    let (mut wrong, mut seen) = (Vec::new(), vec![false; pairs.len()]);
    for y in 0..H {
        for x in 0..W {
            let Some(k) = slot[(y * W + x) as usize] else { continue };
            let (a, b) = pairs[k];
            seen[k] = true;
            let got = pixels[(y * W + x) as usize];
            assert_eq!(got[3].to_bits(), b, "pixel ({x}, {y}) read another texel");
            for (i, (n, d)) in [(a, b), (one, b), (a, three)].into_iter().enumerate() {
                if let Err(e) = check(n, d, got[i]) {
                    wrong.push(format!("({x}, {y}) output {i}: {e}"));
                }
            }
        }
    }
    let missed: Vec<_> = EDGES.iter().zip(&seen).filter(|(_, s)| !**s).map(|(p, _)| p).collect();
    assert!(missed.is_empty(), "edge pairs not drawn: {missed:x?}");
    assert!(seen.iter().filter(|s| **s).count() > 900, "too few pairs drawn");
    assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
}

fn vert_path() -> std::path::PathBuf {
    common::corpus_dir().join("../graphics/draw/color.vert")
}
