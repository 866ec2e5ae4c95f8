//! Integer division on the simulator against Rust's own arithmetic: random and edge-case
//! operand pairs (zero, one, all ones, `i64::MIN`, -1, divisors on both sides of 2^32,
//! dividends below their divisors, powers of two) through 64- and 32-bit division,
//! remainder and modulo by divergent, uniform and constant divisors. The expected values
//! are computed here from `/` and `%` with the IR's definitions for the cases Rust refuses
//! (division by zero: all ones and the dividend; `i64::MIN / -1`: all ones, remainder the
//! dividend, modulo zero), not by the IR interpreter.

mod common;

use common::gpu::Gpu;
use fastrand::Rng;
use ferrum_compiler::amd;
use ferrum_compiler::interp::{Buffer, Resources};
use ferrum_compiler::ir::Stage;

const LOCAL: u32 = 32;
const GROUPS: u32 = 16;
const LANES: usize = (LOCAL * GROUPS) as usize;

/// Signed constant divisors (GLSL literals) and their values.
const SIGNED: &[(&str, i64)] = &[
    ("0l", 0),
    ("1l", 1),
    ("-1l", -1),
    ("2l", 2),
    ("-2l", -2),
    ("3l", 3),
    ("-7l", -7),
    ("10l", 10),
    ("4096l", 4096),
    ("-4294967296l", -4294967296),
    ("4294967297l", 4294967297),
    ("-1000000007l", -1_000_000_007),
    ("0x40000000000l", 1 << 42),
    ("0x123456789abcdl", 0x1_2345_6789_abcd),
    ("-0x7fffffffffffffffl", -0x7fff_ffff_ffff_ffff),
    ("int64_t(0x8000000000000000ul)", i64::MIN),
];

/// Unsigned constant divisors.
const UNSIGNED: &[(&str, u64)] =
    &[("7ul", 7), ("0x100000000ul", 1 << 32), ("0xfffffffffffffffful", u64::MAX)];

/// Signed 32-bit constant divisors: each gives a divergent and a uniform (scalar-unit) slot
/// holding quotient | remainder-or-modulo << 32.
const SIGNED32: &[(&str, i32)] = &[
    ("1", 1),
    ("-1", -1),
    ("2", 2),
    ("-2", -2),
    ("3", 3),
    ("-3", -3),
    ("7", 7),
    ("-7", -7),
    ("9", 9),
    ("10", 10),
    ("641", 641),
    ("4096", 4096),
    ("-4096", -4096),
    ("-1000000007", -1_000_000_007),
    ("0x7fffffff", i32::MAX),
    ("int(0x80000000u)", i32::MIN),
    ("5", 5),
    ("-5", -5),
    ("6", 6),
    ("-9", -9),
    ("25", 25),
    ("0x40000001", 0x4000_0001),
    ("-0x7fffffff", -i32::MAX),
    ("-0x40000000", -0x4000_0000),
];

/// 32-bit divisions of dividends with a known range (masked, shifted, the local invocation
/// index), which select shorter sequences: (GLSL expression of `x32`, `ul` and the index; its
/// value from the same inputs, with `srem` when `%` on signed integers is OpSRem).
type Bounded = fn(u32, u32, u32, bool) -> u32;
const BOUNDED32: &[(&str, Bounded)] = &[
    ("uint(int(x32 & 0xffffu) / 7) | uint(int(x32 & 0xffffu) % 7) << 16", |x, _, _, _| {
        ((x & 0xffff) / 7) | (((x & 0xffff) % 7) << 16)
    }),
    ("uint(int(x32 >> 1) / 9) ^ uint(int(x32 >> 1) % 9)", |x, _, _, _| {
        ((x >> 1) / 9) ^ ((x >> 1) % 9)
    }),
    ("uint(int(x32 >> 1) / -7)", |x, _, _, _| ((x >> 1) as i32 / -7) as u32),
    ("uint(int(x32 & 1023u) % -3)", |x, _, _, srem| {
        let r = (x & 1023) as i32 % 3;
        (if srem || r == 0 { r } else { r - 3 }) as u32
    }),
    ("uint(int(x32 & 1023u) % -4)", |x, _, _, srem| {
        let r = (x & 1023) as i32 % 4;
        (if srem || r == 0 { r } else { r - 4 }) as u32
    }),
    ("(x32 & 0xfffu) / 641u | (x32 & 0xfffu) % 641u << 16", |x, _, _, _| {
        ((x & 0xfff) / 641) | (((x & 0xfff) % 641) << 16)
    }),
    ("(x32 >> 1) / 7u", |x, _, _, _| (x >> 1) / 7),
    ("(x32 >> 1) % 0x7ffffffdu", |x, _, _, _| (x >> 1) % 0x7fff_fffd),
    ("(x32 & 7u) / 9u | (x32 & 7u) % 9u << 8", |x, _, _, _| ((x & 7) / 9) | (((x & 7) % 9) << 8)),
    (
        "uint(int(gl_LocalInvocationIndex) % 3) | uint(int(gl_LocalInvocationIndex) / 3) << 8",
        |_, _, l, _| (l % 3) | ((l / 3) << 8),
    ),
    ("uint(int(ul & 0xffffu) / 10) | uint(int(ul & 0xffffu) % 10) << 16", |_, u, _, _| {
        ((u & 0xffff) / 10) | (((u & 0xffff) % 10) << 16)
    }),
    ("uint(int(ul >> 1) / 3) ^ uint(int(ul >> 1) % 3)", |_, u, _, _| {
        ((u >> 1) / 3) ^ ((u >> 1) % 3)
    }),
];

/// Unsigned 32-bit constant divisors (one divergent slot each: quotient | remainder << 32):
/// both magic-number forms (the 32-bit multiplier and the one with its top bit added back).
const UNSIGNED32: &[u32] = &[3, 7, 9, 10, 641, 1_000_000_007, 0x8000_0001, 0xffff_fffe];

/// Results per invocation, in the order the shader writes them.
/// Slots before the constant divisors' (see [`NAMES`]).
const BASE: usize = 16;

fn slots() -> usize {
    BASE + 2 * SIGNED.len()
        + UNSIGNED.len()
        + CONST_DIVIDEND
        + 2 * SIGNED32.len()
        + UNSIGNED32.len()
        + BOUNDED32.len()
}

/// Slots at the end with constant dividends (a literal in every partial product).
const CONST_DIVIDEND: usize = 3;

fn shader() -> String {
    let mut s = format!(
        "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n\
         layout(local_size_x = {LOCAL}) in;\n\
         layout(std430, binding = 0) readonly buffer I {{ uint64_t n[{LANES}]; uint64_t d[{LANES}]; }};\n\
         layout(std430, binding = 1) writeonly buffer O {{ uint64_t o[]; }};\n\
         layout(std140, binding = 2) uniform U {{ u64vec2 u[{GROUPS}]; }};\n\
         void main() {{\n\
         uint i = gl_GlobalInvocationID.x;\n\
         uint w = gl_WorkGroupID.x;\n\
         uint b = i * {}u;\n\
         uint64_t x = n[i], y = d[i];\n\
         uint64_t ux = u[w].x, uy = u[w].y;\n\
         int64_t sx = int64_t(x), sy = int64_t(y), sux = int64_t(ux), suy = int64_t(uy);\n\
         o[b + 0u] = x / y; o[b + 1u] = x % y;\n\
         o[b + 2u] = uint64_t(sx / sy); o[b + 3u] = uint64_t(sx % sy);\n\
         o[b + 4u] = x / uy; o[b + 5u] = x % uy;\n\
         o[b + 6u] = uint64_t(sx / suy); o[b + 7u] = uint64_t(sx % suy);\n\
         o[b + 8u] = ux / uy; o[b + 9u] = ux % uy;\n\
         o[b + 10u] = uint64_t(sux / suy); o[b + 11u] = uint64_t(sux % suy);\n\
         uint x32 = uint(x ^ (x >> 32)), y32 = uint(y ^ (y >> 32)), uy32 = uint(uy ^ (uy >> 32));\n\
         o[b + 12u] = uint64_t(x32 / y32) | (uint64_t(x32 % uy32) << 32);\n\
         o[b + 13u] = uint64_t(uint(int(x32) / int(y32))) | (uint64_t(uint(int(x32) % int(uy32))) << 32);\n\
         uint ul = uint(ux), vl = uint(uy);\n\
         o[b + 14u] = uint64_t(ul / vl) | (uint64_t(ul % vl) << 32);\n\
         o[b + 15u] = uint64_t(uint(int(ul) / int(vl))) | (uint64_t(uint(int(ul) % int(vl))) << 32);\n",
        slots()
    );
    for (k, (lit, _)) in SIGNED.iter().enumerate() {
        let at = BASE + 2 * k;
        s.push_str(&format!(
            "o[b + {at}u] = uint64_t(sx / {lit}); o[b + {}u] = uint64_t(sx % {lit});\n",
            at + 1
        ));
    }
    for (k, (lit, _)) in UNSIGNED.iter().enumerate() {
        let at = BASE + 2 * SIGNED.len() + k;
        s.push_str(&format!("o[b + {at}u] = (x >> (i & 7u)) / {lit};\n"));
    }
    let at = BASE + 2 * SIGNED.len() + UNSIGNED.len();
    s.push_str(&format!(
        "o[b + {at}u] = 0x123456789abcdef0ul / y;\n\
         o[b + {}u] = 0xfedcba9876543210ul % uy;\n\
         o[b + {}u] = uint64_t(-5000000000l / sy);\n",
        at + 1,
        at + 2
    ));
    for (k, (lit, _)) in SIGNED32.iter().enumerate() {
        let at = at + CONST_DIVIDEND + 2 * k;
        for (slot, v) in [(at, "int(x32)"), (at + 1, "int(ul)")] {
            s.push_str(&format!(
                "o[b + {slot}u] = uint64_t(uint({v} / {lit})) | (uint64_t(uint({v} % {lit})) << 32);\n"
            ));
        }
    }
    let at = at + CONST_DIVIDEND + 2 * SIGNED32.len();
    for (k, c) in UNSIGNED32.iter().enumerate() {
        s.push_str(&format!(
            "o[b + {}u] = uint64_t(x32 / {c}u) | (uint64_t(x32 % {c}u) << 32);\n",
            at + k
        ));
    }
    let at = at + UNSIGNED32.len();
    for (k, (expr, _)) in BOUNDED32.iter().enumerate() {
        s.push_str(&format!("o[b + {}u] = uint64_t({expr});\n", at + k));
    }
    s.push_str("}\n");
    s
}

/// SPIR-V of the test shader; with `srem`, every `OpSMod` (what GLSL's `%` on signed
/// integers becomes) is turned into `OpSRem`, which has the same operands.
fn spirv(srem: bool) -> Vec<u32> {
    let dir = std::env::temp_dir().join(format!("ferrum-div-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("div.comp");
    std::fs::write(&path, shader()).unwrap();
    let mut words = common::glsl_to_spirv(&path);
    let _ = std::fs::remove_dir_all(&dir);
    let (op_smod, op_srem) = (139, 138);
    let mut at = 5;
    while at < words.len() {
        let (len, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if srem && op == op_smod {
            words[at] = (words[at] & !0xffff) | op_srem;
        }
        at += len.max(1);
    }
    words
}

/// A random value, often shortened, near a power of two or an edge case.
fn operand(rng: &mut Rng) -> u64 {
    const EDGE: [u64; 12] = [
        0,
        1,
        2,
        3,
        u64::MAX,
        u64::MAX - 1,
        1 << 63,
        (1 << 63) + 1,
        i64::MAX as u64,
        (1 << 32) - 1,
        1 << 32,
        (1 << 32) + 1,
    ];
    let r = rng.u64(..);
    let sh = (r >> 58) as u32;
    match r % 8 {
        0 | 1 => EDGE[(r >> 8) as usize % EDGE.len()],
        2 => 1u64 << sh,
        3 => (1u64 << sh).wrapping_add((r >> 16) % 5).wrapping_sub(2),
        4 => (rng.u64(..) >> sh).wrapping_neg(),
        _ => rng.u64(..) >> sh,
    }
}

/// Operand pairs: random, plus the pairs the IR defines specially and dividends below
/// their divisors.
fn operands(seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut rng = Rng::with_seed(seed);
    let (mut n, mut d): (Vec<u64>, Vec<u64>) =
        (0..LANES).map(|_| (operand(&mut rng), operand(&mut rng))).unzip();
    let special = [(1 << 63, u64::MAX), (5, 0), (u64::MAX, 0), (0, 0), (3, 1 << 40), (7, 8)];
    for (k, (a, b)) in special.into_iter().enumerate() {
        n[100 + 3 * k] = a;
        d[100 + 3 * k] = b;
        // The same pairs as the uniform operands of workgroup 8 + k.
        n[uniform_dividend(8 + k)] = a;
        d[8 + k] = b;
    }
    (n, d)
}

/// Which dividend workgroup `w` gets as its uniform one.
fn uniform_dividend(w: usize) -> usize {
    (w * 7 + 3) % LANES
}

fn udiv(a: u64, b: u64) -> u64 {
    a.checked_div(b).unwrap_or(u64::MAX)
}
fn urem(a: u64, b: u64) -> u64 {
    a.checked_rem(b).unwrap_or(a)
}
fn sdiv(a: i64, b: i64) -> i64 {
    a.checked_div(b).unwrap_or(-1)
}
/// `%` with the dividend's sign (`srem`) or the divisor's (modulo).
fn srem_or_mod(a: i64, b: i64, srem: bool) -> i64 {
    match a.checked_rem(b) {
        _ if b == 0 => a,
        None if srem => a,
        None => 0,
        Some(r) if !srem && r != 0 && (r < 0) != (b < 0) => r + b,
        Some(r) => r,
    }
}
fn div32(a: u32, b: u32, ua: u32, signed: bool, srem: bool) -> u64 {
    let (q, r) = if signed {
        // 32-bit results are exact in 64 bits: i32::MIN / -1 is 2^31.
        let (x, y, uy) = (i64::from(a as i32), i64::from(b as i32), i64::from(ua as i32));
        let q = if y == 0 { u32::MAX } else { (x / y) as u32 };
        let r = if uy == 0 { a } else { srem_or_mod(x, uy, srem) as u32 };
        (q, r)
    } else {
        (a.checked_div(b).unwrap_or(u32::MAX), a.checked_rem(ua).unwrap_or(a))
    };
    u64::from(q) | u64::from(r) << 32
}

/// What the shader must write for invocation `i`.
fn expected(n: &[u64], d: &[u64], i: usize, srem: bool) -> Vec<u64> {
    let w = i / LOCAL as usize;
    let (x, y, ux, uy) = (n[i], d[i], n[uniform_dividend(w)], d[w]);
    let s = |v: i64| v as u64;
    let fold = |v: u64| (v ^ (v >> 32)) as u32;
    let mut out = vec![
        udiv(x, y),
        urem(x, y),
        s(sdiv(x as i64, y as i64)),
        s(srem_or_mod(x as i64, y as i64, srem)),
        udiv(x, uy),
        urem(x, uy),
        s(sdiv(x as i64, uy as i64)),
        s(srem_or_mod(x as i64, uy as i64, srem)),
        udiv(ux, uy),
        urem(ux, uy),
        s(sdiv(ux as i64, uy as i64)),
        s(srem_or_mod(ux as i64, uy as i64, srem)),
        div32(fold(x), fold(y), fold(uy), false, srem),
        div32(fold(x), fold(y), fold(uy), true, srem),
        // Low halves: still in SGPRs, so these run on the scalar unit.
        div32(ux as u32, uy as u32, uy as u32, false, srem),
        div32(ux as u32, uy as u32, uy as u32, true, srem),
    ];
    for &(_, c) in SIGNED {
        out.push(s(sdiv(x as i64, c)));
        out.push(s(srem_or_mod(x as i64, c, srem)));
    }
    for &(_, c) in UNSIGNED {
        out.push(udiv(x >> (i & 7), c));
    }
    out.push(udiv(0x1234_5678_9abc_def0, y));
    out.push(urem(0xfedc_ba98_7654_3210, uy));
    out.push(s(sdiv(-5_000_000_000, y as i64)));
    for &(_, c) in SIGNED32 {
        for a in [fold(x), ux as u32] {
            out.push(div32(a, c as u32, c as u32, true, srem));
        }
    }
    for &c in UNSIGNED32 {
        out.push(div32(fold(x), c, c, false, srem));
    }
    for (_, value) in BOUNDED32 {
        out.push(u64::from(value(fold(x), ux as u32, (i % LOCAL as usize) as u32, srem)));
    }
    out
}

const NAMES: [&str; BASE] = [
    "udiv",
    "urem",
    "sdiv",
    "srem/smod",
    "udiv by uniform",
    "urem by uniform",
    "sdiv by uniform",
    "srem/smod by uniform",
    "uniform udiv",
    "uniform urem",
    "uniform sdiv",
    "uniform srem/smod",
    "32-bit udiv | urem by uniform",
    "32-bit sdiv | srem/smod by uniform",
    "uniform 32-bit udiv | urem",
    "uniform 32-bit sdiv | srem/smod",
];

fn slot_name(k: usize) -> String {
    match k {
        0..BASE => NAMES[k].to_string(),
        _ if k < BASE + 2 * SIGNED.len() => {
            let (lit, _) = SIGNED[(k - BASE) / 2];
            format!("{} by {lit}", ["sdiv", "srem/smod"][(k - BASE) % 2])
        }
        _ if k < BASE + 2 * SIGNED.len() + UNSIGNED.len() => {
            format!("udiv by {}", UNSIGNED[k - BASE - 2 * SIGNED.len()].0)
        }
        _ if k < BASE + 2 * SIGNED.len() + UNSIGNED.len() + CONST_DIVIDEND => {
            ["constant udiv", "constant urem by uniform", "constant sdiv"]
                [k - BASE - 2 * SIGNED.len() - UNSIGNED.len()]
            .to_string()
        }
        _ if k >= slots() - BOUNDED32.len() => {
            format!("bounded {}", BOUNDED32[k + BOUNDED32.len() - slots()].0)
        }
        _ if k >= slots() - BOUNDED32.len() - UNSIGNED32.len() => {
            let j = k + BOUNDED32.len() + UNSIGNED32.len() - slots();
            format!("32-bit udiv | urem by {}", UNSIGNED32[j])
        }
        _ => {
            let j = k - BASE - 2 * SIGNED.len() - UNSIGNED.len() - CONST_DIVIDEND;
            let (lit, _) = SIGNED32[j / 2];
            format!("{}32-bit sdiv | srem/smod by {lit}", ["", "uniform "][j % 2])
        }
    }
}

fn run(gpu: &Gpu, srem: bool, seed: u64) {
    let words = spirv(srem);
    let ir = ferrum_compiler::compile_to_ir(&words, "main", Stage::Compute, &Default::default())
        .unwrap();
    let layout = amd::default_layout(&ir);
    let bin = amd::compile(&ir, &layout).unwrap();
    let (n, d) = operands(seed);
    let input: Vec<u8> = n.iter().chain(&d).flat_map(|v| v.to_le_bytes()).collect();
    // Uniform operands come from a uniform buffer, so they live in SGPRs.
    let uniform: Vec<u8> = (0..GROUPS as usize)
        .flat_map(|w| [n[uniform_dividend(w)], d[w]])
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let res = Resources {
        buffers: vec![
            Buffer { set: 0, binding: 0, index: 0, data: input },
            Buffer { set: 0, binding: 1, index: 0, data: vec![0; LANES * slots() * 8] },
            Buffer { set: 0, binding: 2, index: 0, data: uniform },
        ],
        ..Default::default()
    };
    let got = gpu.run(&bin, &layout, [GROUPS, 1, 1], &res).unwrap();
    let out: Vec<u64> = got.buffers[1]
        .data
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut wrong = Vec::new();
    for i in 0..LANES {
        let want = expected(&n, &d, i, srem);
        for (k, &w) in want.iter().enumerate() {
            let g = out[i * slots() + k];
            if g != w {
                let w_ = i / LOCAL as usize;
                let (ux, uy) = (n[uniform_dividend(w_)], d[w_]);
                wrong.push(format!(
                    "lane {i} {}: n={:#x} d={:#x} uniform n={ux:#x} d={uy:#x}: want {w:#x} got {g:#x}",
                    slot_name(k),
                    n[i],
                    d[i]
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong results (srem: {srem}, seed {seed:#x}):\n{}",
        wrong.len(),
        wrong.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn division_matches_rust_for_random_and_edge_operands() {
    let gpu = Gpu::new();
    run(&gpu, false, 0x9e37_79b9_7f4a_7c15);
    run(&gpu, true, 0xd1b5_4a32_d192_ed03);
}
