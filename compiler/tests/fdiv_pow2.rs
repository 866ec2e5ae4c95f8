//! Division by constant powers of two becomes a multiplication by the reciprocal; that is
//! exact only when the reciprocal is a normal f32. Checked on the simulator against the host's
//! own IEEE division (not the interpreter) for edge dividends: zeros, infinities, NaN,
//! denormals, the largest and smallest normals and values one ulp around them, over divisors
//! that take the multiplication (2^±k, negative, the exponent range's ends) and ones that must
//! not (2^127, whose reciprocal is denormal, and 3).

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{Buffer, Resources};
use ferrum_compiler::ir::Stage;

/// Divisors: GLSL literal (bit pattern) and value.
const DIVISORS: &[u32] = &[
    0x4000_0000, // 2
    0x3f00_0000, // 0.5
    0xc080_0000, // -4
    0x4300_0000, // 128
    0x0080_0000, // 2^-126, reciprocal 2^126
    0x7e80_0000, // 2^126, reciprocal 2^-126 (the smallest normal)
    0x7f00_0000, // 2^127, reciprocal denormal: divided, not multiplied
    0x4040_0000, // 3
    0x3f80_0000, // 1
];

const EDGES: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x0000_0001,
    0x807f_ffff,
    0x0080_0000,
    0x0080_0001,
    0x007f_ffff,
    0x7f7f_ffff,
    0xff7f_fffe,
    0x3f80_0000,
    0xbf80_0001,
    0x4049_0fdb,
    0x0100_0000,
    0x00ff_ffff,
    0x3eaa_aaab,
];

fn shader() -> String {
    let mut s = format!(
        "#version 450\nlayout(local_size_x = {}) in;\n\
         layout(std430, binding = 0) readonly buffer I {{ float x[]; }};\n\
         layout(std430, binding = 1) writeonly buffer O {{ float o[]; }};\n\
         void main() {{\n uint i = gl_GlobalInvocationID.x;\n float v = x[i];\n",
        EDGES.len()
    );
    for (k, d) in DIVISORS.iter().enumerate() {
        s.push_str(&format!(
            " o[i * {n}u + {k}u] = v / uintBitsToFloat({d:#x}u);\n",
            n = DIVISORS.len()
        ));
    }
    s.push_str("}\n");
    s
}

#[test]
fn fdiv_by_powers_of_two_is_exact() {
    let dir = std::env::temp_dir().join(format!("ferrum-fdiv-pow2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("s.comp");
    std::fs::write(&src, shader()).unwrap();
    let words = common::glsl_to_spirv(&src);
    std::fs::remove_dir_all(&dir).ok();
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    let input: Vec<u8> = EDGES.iter().flat_map(|v| v.to_le_bytes()).collect();
    let res = Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: input },
            Buffer {
                set: 0,
                binding: 1,
                index: 0,
                data: vec![0; EDGES.len() * DIVISORS.len() * 4],
            },
        ],
        ..Default::default()
    };
    let gpu = Gpu::new();
    let got = gpu.run(&bin, &layout, [1, 1, 1], &res).unwrap();
    let mut wrong = Vec::new();
    for (i, &x) in EDGES.iter().enumerate() {
        for (k, &d) in DIVISORS.iter().enumerate() {
            let at = (i * DIVISORS.len() + k) * 4;
            let g = u32::from_le_bytes(got.buffers[1].data[at..at + 4].try_into().unwrap());
            let want = f32::from_bits(x) / f32::from_bits(d);
            let ok = if want.is_nan() { f32::from_bits(g).is_nan() } else { g == want.to_bits() };
            if !ok {
                wrong.push(format!(
                    "{x:#010x} / {d:#010x}: want {:#010x} got {g:#010x}",
                    want.to_bits()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
