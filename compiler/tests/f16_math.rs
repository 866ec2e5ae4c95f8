//! Half-precision transcendentals (sqrt, inversesqrt, exp2, log2, exp, log, sin, cos, tan,
//! pow, normalize) on the simulator against the IR interpreter. The interpreter evaluates
//! them in f64 and rounds once; the hardware's instructions are specified to about one ulp,
//! so results are compared within two f16 ulps (sqrt exactly, as it is correctly rounded).

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
    uint base = i * 12u;
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
}
"#;

const RESULTS: usize = 12;
const NAMES: [&str; RESULTS] =
    ["sqrt", "inversesqrt", "exp2", "log2", "exp", "log", "sin", "cos", "tan", "pow", "nx", "ny"];

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

#[test]
fn f16_transcendentals_match_the_interpreter_within_two_ulps() {
    let dir = std::env::temp_dir().join(format!("ferrum-f16-math-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("f16_math.comp");
    std::fs::write(&path, SHADER).unwrap();
    let words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_dir_all(&dir);

    let groups = [4, 1, 1];
    let lanes = 64 * groups[0] as usize;
    let input: Vec<u8> = (0..lanes as u32)
        .flat_map(|i| i.wrapping_mul(2_246_822_519).rotate_left(13).to_le_bytes())
        .collect();
    let res = Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: input },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0; lanes * RESULTS * 4] },
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

    let word = |d: &[u8], k: usize| u32::from_le_bytes(d[k * 4..k * 4 + 4].try_into().unwrap());
    let (w, g) = (&want.buffers[1].data, &got.buffers[1].data);
    let mut bad = Vec::new();
    let mut exact = 0;
    for k in 0..lanes * RESULTS {
        let (x, y) = (word(w, k) as u16, word(g, k) as u16);
        exact += usize::from(x == y);
        let tolerance = if k % RESULTS == 0 { 0 } else { 2 };
        let close = (is_nan(x) && is_nan(y)) || (ordered(x) - ordered(y)).abs() <= tolerance;
        if !close || word(g, k) >> 16 != 0 {
            bad.push(format!(
                "lane {} {}: want {x:#06x} got {:#010x}",
                k / RESULTS,
                NAMES[k % RESULTS],
                word(g, k)
            ));
        }
    }
    eprintln!("{exact} of {} results bit-exact", lanes * RESULTS);
    bad.truncate(20);
    assert!(bad.is_empty(), "{}\n{}", bad.join("\n"), bin.isa_text);
}
