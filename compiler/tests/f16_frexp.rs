//! frexp's expansion into bit-field arithmetic checked against a host frexp: the corpus shader
//! `f16_frexp.comp` runs on the simulator (which the corpus test already holds to the
//! interpreter), and every lane's significand and exponent are compared with the definition
//! x = significand * 2^exponent, 0.5 <= |significand| < 1, zeros/infinities/NaNs unchanged
//! with exponent 0.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::ir::ops::f16_to_f32;
use ferrum_compiler::ir::Stage;

/// Host frexp on a finite or special f64 (exact for every f16/f32/f64 input).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (mut y, mut e) = (x, 0);
    while y.abs() >= 1.0 {
        y /= 2.0;
        e += 1;
    }
    while y.abs() < 0.5 {
        y *= 2.0;
        e -= 1;
    }
    (y, e)
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

#[test]
fn frexp_matches_its_definition_on_every_width() {
    let case = common::load_case(&common::corpus_dir().join("f16_frexp.comp"));
    let ir =
        ferrum_compiler::compile_to_ir(&case.words, "main", Stage::Compute, &case.spec).unwrap();
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    let got = Gpu::new().run(&bin, &layout, case.groups, &case.res).unwrap();
    let input = &case.res.buffers[0].data;
    let out = &got.buffers[1].data;
    let word = |d: &[u8], k: usize| u32::from_le_bytes(d[k * 4..k * 4 + 4].try_into().unwrap());
    let mut bad = Vec::new();
    for i in 0..32u32 {
        let r = word(input, i as usize).wrapping_mul(2_654_435_761).wrapping_add(i * 40503);
        let o = |k: u32| word(out, (i * 8 + k) as usize);
        // f16
        let hb = if i == 4 { 0x8000 } else { ((r & 0x83ff) | (i << 10)) as u16 };
        let (m, e) = frexp(f64::from(f16_to_f32(hb)));
        let gm = f64::from(f16_to_f32(o(0) as u16));
        if !same(m, gm) || e != (o(0) >> 16) as i16 as i32 {
            bad.push(format!("f16 {hb:#06x}: want ({m}, {e}) got {:#010x}", o(0)));
        }
        // f32, first component
        let fb = if i == 5 { 0x8000_0000 } else { (r & 0x807f_ffff) | (((i * 9) % 256) << 23) };
        let (m, e) = frexp(f64::from(f32::from_bits(fb)));
        if !same(m, f64::from(f32::from_bits(o(1)))) || e != o(2) as i32 {
            bad.push(format!("f32 {fb:#010x}: want ({m}, {e}) got ({:#x}, {})", o(1), o(2)));
        }
        // f64
        let db = if i == 6 {
            1u64
        } else {
            u64::from(r.wrapping_mul(69069))
                | u64::from((r & 0x800f_ffff) | (((i * 67) % 2048) << 20)) << 32
        };
        let (m, e) = frexp(f64::from_bits(db));
        let gm = f64::from_bits(u64::from(o(4)) | u64::from(o(5)) << 32);
        if !same(m, gm) || e != o(6) as i32 {
            bad.push(format!("f64 {db:#018x}: want ({m}, {e}) got ({gm}, {})", o(6) as i32));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
