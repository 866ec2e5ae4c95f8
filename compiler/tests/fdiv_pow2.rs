//! Division by constant powers of two becomes a multiplication by the reciprocal; that is
//! exact only when the reciprocal is a normal f32. Checked on the simulator against the host's
//! own IEEE division (not the interpreter) for edge dividends: zeros, infinities, NaN,
//! denormals, the largest and smallest normals and values one ulp around them, over divisors
//! that take the multiplication (2^±k, negative, the exponent range's ends) and ones that must
//! not (2^127, whose reciprocal is denormal, and 3). The rewrite happens in the IR
//! (`opt_constant_fold`), so the interpreter also runs the front end's IR and the optimized IR
//! on the same inputs, byte for byte, and f16 and f64 divisions take the same path.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{self, Buffer, Resources};
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
    // Only 2^127 (denormal reciprocal) and 3 are still divisions.
    let text = ferrum_compiler::ir::print::shader_text(&ir);
    assert_eq!(text.matches("fdiv").count(), 2, "{text}");
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
    assert_eq!(interpret_both(&words, &res), got.buffers[1].data);
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

/// Runs the front end's IR and the optimized IR in the interpreter; they must agree byte for
/// byte. Returns the output buffer.
fn interpret_both(words: &[u32], res: &Resources) -> Vec<u8> {
    let none = Default::default();
    let raw = ferrum_compiler::spirv::to_ir(words, "main", Stage::Compute, &none).unwrap();
    let ir = ferrum_compiler::compile_to_ir(words, "main", Stage::Compute, &none).unwrap();
    let (mut a, mut b) = (res.clone(), res.clone());
    interp::run(&raw, [1, 1, 1], &mut a).unwrap();
    interp::run(&ir, [1, 1, 1], &mut b).unwrap();
    assert!(a.buffers[1].data == b.buffers[1].data, "optimized IR differs from the front end's");
    b.buffers.swap_remove(1).data
}

/// f16 and f64 divisions by powers of two (and the exponent range's ends, where the reciprocal
/// stops being normal) on edge dividends: the front end's IR in the interpreter (host IEEE
/// division), the optimized IR, and the simulator all agree.
#[test]
fn f16_and_f64_divisions_by_powers_of_two_agree_everywhere() {
    // Dividends: (f64 bits, f16 bits). NaNs are the quiet default ones: the divisions that
    // stay divisions need not keep a NaN's payload.
    let edges: &[(u64, u16)] = &[
        (0, 0),
        (0x8000_0000_0000_0000, 0x8000), // -0
        (0x7ff0_0000_0000_0000, 0x7c00), // +inf
        (0xfff0_0000_0000_0000, 0xfc00), // -inf
        (0x7ff8_0000_0000_0000, 0x7e00), // NaN
        (0x0000_0000_0000_0001, 0x0001), // smallest denormal
        (0x800f_ffff_ffff_ffff, 0x83ff), // largest negative denormal
        (0x0010_0000_0000_0000, 0x0400), // smallest normal
        (0x7fef_ffff_ffff_ffff, 0x7bff), // largest finite
        (0x3ff0_0000_0000_0000, 0x3c00), // 1
        (0xbff0_0000_0000_0001, 0xbc01), // -(1 + ulp)
        (0x4009_21fb_5444_2d18, 0x4248), // pi
    ];
    let src = format!(
        "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types : require\n\
         #extension GL_ARB_gpu_shader_int64 : require\n\
         layout(local_size_x = {n}) in;\n\
         layout(std430, binding = 0) readonly buffer I {{ uint64_t x[]; }};\n\
         layout(std430, binding = 1) writeonly buffer O {{ uint64_t o[]; }};\n\
         void main() {{\n uint i = gl_GlobalInvocationID.x;\n\
         double d = uint64BitsToDouble(x[i]);\n\
         float16_t h = uint16BitsToHalf(uint16_t(x[i + {n}u]));\n\
         o[i * 8u + 0u] = doubleBitsToUint64(d / 4.0lf);\n\
         o[i * 8u + 1u] = doubleBitsToUint64(d / -0.125lf);\n\
         o[i * 8u + 2u] = doubleBitsToUint64(d / uint64BitsToDouble(0x7fd0000000000000ul));\n\
         o[i * 8u + 3u] = doubleBitsToUint64(d / uint64BitsToDouble(0x7fe0000000000000ul));\n\
         o[i * 8u + 4u] = uint64_t(halfBitsToUint16(h / 2.0hf));\n\
         o[i * 8u + 5u] = uint64_t(halfBitsToUint16(h / -0.25hf));\n\
         o[i * 8u + 6u] = uint64_t(halfBitsToUint16(h / 16384.0hf));\n\
         o[i * 8u + 7u] = uint64_t(halfBitsToUint16(h / 32768.0hf));\n}}\n",
        n = edges.len()
    );
    let dir = std::env::temp_dir().join(format!("ferrum-fdiv-pow2-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.comp");
    std::fs::write(&path, src).unwrap();
    let words = common::glsl_to_spirv(&path);
    std::fs::remove_dir_all(&dir).ok();
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    // 2^1023 and 2^15 have denormal reciprocals (2^1022 and 2^14 do not): those two stay divisions.
    let text = ferrum_compiler::ir::print::shader_text(&ir);
    assert_eq!(text.matches("fdiv").count(), 2, "{text}");
    let res = Resources {
        buffers: vec![
            Buffer {
                set: 0,
                binding: 0,
                index: 0,
                data: (edges.iter().map(|e| e.0))
                    .chain(edges.iter().map(|e| u64::from(e.1)))
                    .flat_map(|v| v.to_le_bytes())
                    .collect(),
            },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0; edges.len() * 64] },
        ],
        ..Default::default()
    };
    let want = interpret_both(&words, &res);
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    let got = Gpu::new().run(&bin, &layout, [1, 1, 1], &res).unwrap();
    for (i, (w, g)) in want.chunks(8).zip(got.buffers[1].data.chunks(8)).enumerate() {
        assert_eq!(w, g, "output {i} (dividends {:#x?})", edges[i / 8]);
    }
}
