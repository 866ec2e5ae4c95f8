//! Transcendentals on the simulator against the IR interpreter: on f16 (sqrt, inversesqrt,
//! exp2, log2, exp, log, sin, cos, tan, pow, normalize, atan, atan2, asin, acos) and the
//! inverse trigonometric functions on f32. The interpreter evaluates them in f64 and rounds
//! once; the hardware's instructions are specified to about one ulp and the inverse
//! trigonometry is a series evaluated in f32, so f16 results are compared within two ulps
//! (sqrt exactly, as it is correctly rounded) and f32 ones within the bound stated below.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{self, Buffer, Resources};
use ferrum_compiler::ir::Stage;

const SHADER: &str = r#"#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer I { uint v[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
float16_t half_of(uint r) {
    // Sign and mantissa from r, biased exponent 9..19 (2^-6 .. 2^4).
    return uint16BitsToFloat16(uint16_t((r & 0x83ffu) | (((r >> 16) % 11u + 9u) << 10)));
}
uint bits(float16_t x) { return uint(float16BitsToUint16(x)); }
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    float16_t a = half_of(r);
    float16_t b = half_of(r * 69069u + 1u);
    float16_t p = abs(a);
    f16vec3 n = normalize(f16vec3(a, b, float16_t(0.75)));
    float16_t c = clamp(a * float16_t(0.125), float16_t(-1.0), float16_t(1.0));
    uint base = i * 16u;
    o[base + 0u] = bits(sqrt(p));
    o[base + 1u] = bits(inversesqrt(p));
    o[base + 2u] = bits(exp2(a));
    o[base + 3u] = bits(log2(p));
    o[base + 4u] = bits(exp(b));
    o[base + 5u] = bits(log(p));
    o[base + 6u] = bits(sin(a));
    o[base + 7u] = bits(cos(b));
    o[base + 8u] = bits(tan(a * float16_t(0.25)));
    o[base + 9u] = bits(pow(p, b * float16_t(0.25)));
    o[base + 10u] = bits(n.x);
    o[base + 11u] = bits(n.y);
    o[base + 12u] = bits(atan(a));
    o[base + 13u] = bits(atan(a, b));
    o[base + 14u] = bits(asin(c));
    o[base + 15u] = bits(acos(c));
}
"#;

const RESULTS: usize = 16;
const NAMES: [&str; RESULTS] = [
    "sqrt",
    "inversesqrt",
    "exp2",
    "log2",
    "exp",
    "log",
    "sin",
    "cos",
    "tan",
    "pow",
    "nx",
    "ny",
    "atan",
    "atan2",
    "asin",
    "acos",
];

/// f16 bits as a number line: adjacent floats differ by one, +0 and -0 coincide.
fn ordered(h: u16) -> i32 {
    if h & 0x8000 != 0 {
        -i32::from(h & 0x7fff)
    } else {
        i32::from(h)
    }
}

fn is_nan(h: u16) -> bool {
    h & 0x7c00 == 0x7c00 && h & 0x3ff != 0
}

/// Compiles `src`, runs it on `groups` workgroups of 64 lanes over a pseudo-random input
/// word per lane, and returns (interpreter, simulator) output words and the listing.
fn run(src: &str, groups: [u32; 3], results: usize) -> (Vec<u32>, Vec<u32>, String) {
    let dir = std::env::temp_dir().join(format!("ferrum-f16-math-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("math-{}.comp", src.len()));
    std::fs::write(&path, src).unwrap();
    let words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_file(&path);

    let lanes = 64 * groups[0] as usize;
    let input: Vec<u8> = (0..lanes as u32)
        .flat_map(|i| i.wrapping_mul(2_246_822_519).rotate_left(13).to_le_bytes())
        .collect();
    let res = Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: input },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0; lanes * results * 4] },
        ],
        ..Default::default()
    };
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    let mut want = res.clone();
    interp::run(&ir, groups, &mut want).unwrap();
    let got = Gpu::new().run(&bin, &layout, groups, &res).unwrap();
    let words = |d: &[u8]| -> Vec<u32> {
        d.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
    };
    (words(&want.buffers[1].data), words(&got.buffers[1].data), bin.isa_text)
}

#[test]
fn f16_transcendentals_match_the_interpreter_within_two_ulps() {
    let (w, g, isa) = run(SHADER, [4, 1, 1], RESULTS);
    let mut bad = Vec::new();
    let mut exact = 0;
    for (k, (&ww, &gw)) in w.iter().zip(&g).enumerate() {
        let (x, y) = (ww as u16, gw as u16);
        exact += usize::from(x == y);
        let tolerance = if k % RESULTS == 0 { 0 } else { 2 };
        let close = (is_nan(x) && is_nan(y)) || (ordered(x) - ordered(y)).abs() <= tolerance;
        if !close || gw >> 16 != 0 {
            bad.push(format!(
                "lane {} {}: want {x:#06x} got {gw:#010x}",
                k / RESULTS,
                NAMES[k % RESULTS]
            ));
        }
    }
    eprintln!("{exact} of {} results bit-exact", w.len());
    bad.truncate(20);
    assert!(bad.is_empty(), "{}\n{isa}", bad.join("\n"));
}

const SHADER32: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer I { uint v[]; };
layout(std430, binding = 1) buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    // Sign and mantissa from r, exponents 2^-20 .. 2^19.
    float a = uintBitsToFloat((r & 0x807fffffu) | (((r >> 13) % 40u + 107u) << 23));
    float b = uintBitsToFloat(((r * 69069u) & 0x807fffffu) | (((r >> 5) % 12u + 121u) << 23));
    float c = clamp(b * 0.25, -1.0, 1.0);
    o[i * 5u] = atan(a);
    o[i * 5u + 1u] = atan(a, b);
    o[i * 5u + 2u] = atan(b, a);
    o[i * 5u + 3u] = asin(c);
    o[i * 5u + 4u] = acos(c);
}
"#;

/// f32 atan, atan2, asin and acos within 4 ulps of the f64 reference (Vulkan allows 4096;
/// the series kernel measures 2), over tiny, huge, negative and ±1 arguments.
#[test]
fn f32_inverse_trigonometry_is_close_to_the_interpreter() {
    let (w, g, isa) = run(SHADER32, [4, 1, 1], 5);
    let names = ["atan", "atan2(a, b)", "atan2(b, a)", "asin", "acos"];
    let mut bad = Vec::new();
    let mut worst = 0;
    for (k, (&x, &y)) in w.iter().zip(&g).enumerate() {
        // Same sign: the bit patterns are ordered like the floats.
        let ulps =
            if (x ^ y) as i32 >= 0 { (x as i32 - y as i32).unsigned_abs() } else { u32::MAX };
        worst = worst.max(ulps);
        if ulps > 4 {
            let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
            bad.push(format!("lane {} {}: want {fx:e} got {fy:e}", k / 5, names[k % 5]));
        }
    }
    eprintln!("largest difference: {worst} ulps");
    bad.truncate(20);
    assert!(bad.is_empty(), "{}\n{isa}", bad.join("\n"));
}

const HYPERBOLIC: &str = r#"#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer I { uint v[]; };
layout(std430, binding = 1) buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = v[i] * 2654435761u + i * 40503u;
    // x in (-4, 4), y in [1, 9), z in (-1, 1).
    float x = float(int(r % 8001u) - 4000) * 0.001;
    float y = 1.0 + float(r >> 20) * (8.0 / 4096.0);
    float z = float(int((r >> 8) % 1999u) - 999) * 0.001;
    float16_t hx = float16_t(x);
    uint b = i * 12u;
    o[b] = sinh(x);
    o[b + 1u] = cosh(x);
    o[b + 2u] = tanh(x);
    o[b + 3u] = asinh(x * 10.0);
    o[b + 4u] = acosh(y);
    o[b + 5u] = atanh(z);
    o[b + 6u] = float(sinh(hx));
    o[b + 7u] = float(cosh(hx));
    o[b + 8u] = float(tanh(hx));
    o[b + 9u] = float(asinh(hx * float16_t(10.0)));
    o[b + 10u] = float(acosh(float16_t(y)));
    o[b + 11u] = float(atanh(float16_t(z)));
}
"#;

/// sinh, cosh, tanh, asinh, acosh and atanh expand into exp/log/sqrt: the simulator's result
/// is the interpreter's within 2^-20 (f32) or 2^-8 (f16) relative to max(1, |result|), the
/// scale of the terms whose difference they are; and the interpreter's is the host's f64
/// function of the same argument within 2^-18 (f32) or 2^-7 (f16) on that scale.
#[test]
fn hyperbolic_functions_match_the_interpreter() {
    use ferrum_compiler::ir::ops::{f16_to_f32, f32_to_f16};
    let (w, g, isa) = run(HYPERBOLIC, [2, 1, 1], 12);
    let names = ["sinh", "cosh", "tanh", "asinh", "acosh", "atanh"];
    let mut bad = Vec::new();
    for (k, (&x, &y)) in w.iter().zip(&g).enumerate() {
        let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
        let narrow = k % 12 >= 6;
        let tol = if narrow { 2f32.powi(-8) } else { 2f32.powi(-20) };
        let w16 = if narrow { "f16" } else { "f32" };
        // (NaN anywhere fails the comparison, and with it the check.)
        let close = (fx - fy).abs() <= tol * fx.abs().max(1.0);
        if !close {
            bad.push(format!("lane {} {w16} {}: want {fx} got {fy}", k / 12, names[k % 6]));
        }
        // The same arguments on the host.
        let i = (k / 12) as u32;
        let v = i.wrapping_mul(2_246_822_519).rotate_left(13);
        let r = v.wrapping_mul(2_654_435_761).wrapping_add(i.wrapping_mul(40503));
        let h = |a: f32| if narrow { f16_to_f32(f32_to_f16(a)) } else { a };
        let x = h(((r % 8001) as i32 - 4000) as f32 * 0.001) as f64;
        let y = h(1.0 + (r >> 20) as f32 * (8.0 / 4096.0)) as f64;
        let z = h((((r >> 8) % 1999) as i32 - 999) as f32 * 0.001) as f64;
        let ten = if narrow { h(x as f32 * 10.0) as f64 } else { (x as f32 * 10.0) as f64 };
        let exact = [x.sinh(), x.cosh(), x.tanh(), ten.asinh(), y.acosh(), z.atanh()][k % 6];
        let tol = if narrow { 2f64.powi(-7) } else { 2f64.powi(-18) };
        let close = (f64::from(fx) - exact).abs() <= tol * exact.abs().max(1.0);
        if !close {
            bad.push(format!(
                "lane {} {w16} {}: interpreter {fx} host {exact}",
                k / 12,
                names[k % 6]
            ));
        }
    }
    bad.truncate(20);
    assert!(bad.is_empty(), "{}\n{isa}", bad.join("\n"));
}
