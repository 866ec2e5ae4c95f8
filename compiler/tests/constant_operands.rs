//! Selects, min/max, clamps and arithmetic between arbitrary constants (mostly ones that are
//! not inline constants, so each needs a literal) and uniform or divergent values: every
//! shader compiles (operand legalization leaves no instruction with two literals or too many
//! scalar operands) and runs on the simulator like the interpreter.

mod common;

use common::gpu::Gpu;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{self, Buffer, Resources};
use ferrum_compiler::ir::Stage;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

const LOCAL: usize = 32;
const STMTS: usize = 24;

/// An integer constant: mostly literals, sometimes inline constants or the edges.
fn int_const(r: &mut Lcg) -> String {
    match r.next(8) {
        0 => format!("{}u", r.next(65)),
        1 => "0xffffffffu".into(),
        2 => "0x80000000u".into(),
        3 => "0x7fffffffu".into(),
        _ => format!("{}u", 65 + r.next(0xffff_ff00)),
    }
}

fn float_const(r: &mut Lcg) -> String {
    match r.next(6) {
        0 => "1.0".into(),
        1 => "-0.0".into(),
        2 => format!("{}.0", r.next(100_000)),
        _ => format!("{}.{}", r.next(1000) as i64 - 500, 1 + r.next(999)),
    }
}

/// One uint expression mixing constants with the uniform `u`/`uf` and divergent `x`/`xf`.
fn expr(r: &mut Lcg) -> String {
    let iv = |r: &mut Lcg| match r.next(3) {
        0 => "u".to_string(),
        1 => "x".to_string(),
        _ => int_const(r),
    };
    let fv = |r: &mut Lcg| match r.next(3) {
        0 => "uf".to_string(),
        1 => "xf".to_string(),
        _ => float_const(r),
    };
    let (a, b, c) = (int_const(r), int_const(r), iv(r));
    match r.next(12) {
        0 => format!("(({c} == {}) ? {a} : {b})", iv(r)),
        1 => format!("((u < {}) ? {a} : {b})", int_const(r)),
        2 => format!("min({c}, {a})"),
        3 => format!("max({a}, {c})"),
        4 => format!("uint(clamp(int({c}), int({}), int({})))", r.next(60), 100 + r.next(10_000)),
        5 => format!("clamp({c}, {a}, max({a}, {b}))"),
        6 => format!("({c} * {a} + {b})"),
        7 => format!("(({c} ^ {a}) & ({} | {b}))", iv(r)),
        8 => format!("floatBitsToUint(min({}, {}) + {})", fv(r), float_const(r), float_const(r)),
        9 => format!("floatBitsToUint(max({}, {}) * {})", float_const(r), fv(r), float_const(r)),
        10 => {
            format!(
                "floatBitsToUint(({} > {}) ? {} : {})",
                fv(r),
                fv(r),
                float_const(r),
                float_const(r)
            )
        }
        _ => format!("({c} >> {}) + ({a} << {})", r.next(32), r.next(32)),
    }
}

fn shader(seed: u64) -> String {
    let mut r = Lcg(seed);
    let mut s = format!(
        "#version 450\nlayout(local_size_x = {LOCAL}) in;\n\
         layout(std430, binding = 0) readonly buffer I {{ uint xs[]; }};\n\
         layout(std430, binding = 1) writeonly buffer O {{ uint o[]; }};\n\
         layout(std140, binding = 2) uniform U {{ uint uu; float ufu; }};\n\
         void main() {{\n uint i = gl_LocalInvocationID.x;\n uint x = xs[i];\n\
         float xf = uintBitsToFloat(x);\n uint u = uu;\n float uf = ufu;\n"
    );
    for k in 0..STMTS {
        s += &format!(" o[i * {STMTS}u + {k}u] = {};\n", expr(&mut r));
    }
    s + "}\n"
}

fn inputs(seed: u64) -> Resources {
    let mut r = Lcg(seed ^ 0x9e37_79b9);
    let edges =
        [0u32, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0x3f80_0000, 0x7f80_0000, 0x8000_0000];
    let xs: Vec<u8> = (0..LOCAL)
        .flat_map(|i| {
            let v = if i < edges.len() { edges[i] } else { r.next(1 << 32) as u32 };
            v.to_le_bytes()
        })
        .collect();
    let mut ubo = vec![0u8; 16];
    ubo[..4].copy_from_slice(&(r.next(1 << 32) as u32).to_le_bytes());
    ubo[4..8].copy_from_slice(&(r.next(2000) as f32 - 1000.5).to_bits().to_le_bytes());
    Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: xs },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0; LOCAL * STMTS * 4] },
            Buffer { set: 0, binding: 2, index: 0, data: ubo },
        ],
        ..Default::default()
    }
}

#[test]
fn constant_operands_compile_and_match_the_interpreter() {
    let gpu = Gpu::new();
    let mut fails = Vec::new();
    for seed in 0..16u64 {
        let src = shader(seed);
        let p = std::env::temp_dir()
            .join(format!("ferrum-constops-{}-{seed}.comp", std::process::id()));
        std::fs::write(&p, &src).unwrap();
        let words = common::glsl_to_spirv(&p);
        let _ = std::fs::remove_file(&p);
        let none = std::collections::HashMap::new();
        let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &none).unwrap();
        let layout = amd::default_layout(&ir);
        let bin = match amd::compile(&ir, &layout) {
            Ok(b) => b,
            Err(e) => {
                fails.push(format!("seed {seed}: {e}\n{src}"));
                continue;
            }
        };
        let res = inputs(seed);
        let mut want = res.clone();
        interp::run(&ir, [1, 1, 1], &mut want).unwrap();
        let got = gpu.run(&bin, &layout, [1, 1, 1], &res).unwrap();
        if want.buffers[1].data != got.buffers[1].data {
            let at =
                want.buffers[1].data.iter().zip(&got.buffers[1].data).position(|(a, b)| a != b);
            let k = at.unwrap_or(0) / 4 % STMTS;
            fails.push(format!("seed {seed}: statement {k} differs\n{src}"));
        }
    }
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n\n"));
}
