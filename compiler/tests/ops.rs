//! Reference semantics of ALU ops against Rust's own integer and IEEE arithmetic.

use ferrum_compiler::ir::ops::{eval, f16_to_f32, f32_to_f16, Src};
use ferrum_compiler::ir::AluOp;
use proptest::prelude::*;

fn ev(op: AluOp, bits: u8, srcs: &[u64]) -> u64 {
    let v: Vec<[u64; 1]> = srcs.iter().map(|s| [*s]).collect();
    let s: Vec<Src<'_>> = v.iter().map(|c| Src { bits, comps: c }).collect();
    eval(op, bits, 1, &s).unwrap()[0]
}

fn evf(op: AluOp, srcs: &[f32]) -> f32 {
    let raw: Vec<u64> = srcs.iter().map(|f| u64::from(f.to_bits())).collect();
    f32::from_bits(ev(op, 32, &raw) as u32)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn integer_ops_match_rust(a in any::<u32>(), b in any::<u32>()) {
        let (x, y) = (u64::from(a), u64::from(b));
        prop_assert_eq!(ev(AluOp::Iadd, 32, &[x, y]) as u32, a.wrapping_add(b));
        prop_assert_eq!(ev(AluOp::Isub, 32, &[x, y]) as u32, a.wrapping_sub(b));
        prop_assert_eq!(ev(AluOp::Imul, 32, &[x, y]) as u32, a.wrapping_mul(b));
        prop_assert_eq!(ev(AluOp::Ishl, 32, &[x, y]) as u32, a << (b & 31));
        prop_assert_eq!(ev(AluOp::Ushr, 32, &[x, y]) as u32, a >> (b & 31));
        prop_assert_eq!(ev(AluOp::Ishr, 32, &[x, y]) as u32, ((a as i32) >> (b & 31)) as u32);
        prop_assert_eq!(ev(AluOp::Imin, 32, &[x, y]) as u32, (a as i32).min(b as i32) as u32);
        prop_assert_eq!(ev(AluOp::Umax, 32, &[x, y]) as u32, a.max(b));
        prop_assert_eq!(ev(AluOp::UmulHigh, 32, &[x, y]) as u32, ((x * y) >> 32) as u32);
        prop_assert_eq!(ev(AluOp::BitCount, 32, &[x]) as u32, a.count_ones());
        prop_assert_eq!(ev(AluOp::BitReverse, 32, &[x]) as u32, a.reverse_bits());
        prop_assert_eq!(ev(AluOp::Ilt, 32, &[x, y]) == 1, (a as i32) < (b as i32));
        if let Some(q) = a.checked_div(b) {
            prop_assert_eq!(ev(AluOp::Udiv, 32, &[x, y]) as u32, q);
            prop_assert_eq!(ev(AluOp::Umod, 32, &[x, y]) as u32, a % b);
            if !(a == 0x8000_0000 && b == u32::MAX) {
                prop_assert_eq!(ev(AluOp::Idiv, 32, &[x, y]) as u32, ((a as i32) / (b as i32)) as u32);
                prop_assert_eq!(ev(AluOp::Irem, 32, &[x, y]) as u32, ((a as i32) % (b as i32)) as u32);
                prop_assert_eq!(ev(AluOp::Imod, 32, &[x, y]) as u32, (a as i32).rem_euclid(b as i32).wrapping_add(if (b as i32) < 0 && (a as i32).rem_euclid(b as i32) != 0 { b as i32 } else { 0 }) as u32);
            }
        }
        // 16-bit ops wrap at 16 bits.
        prop_assert_eq!(ev(AluOp::Iadd, 16, &[x & 0xffff, y & 0xffff]) as u16, (a as u16).wrapping_add(b as u16));
    }

    #[test]
    fn float_ops_match_ieee_single(a in any::<f32>(), b in any::<f32>(), c in any::<f32>()) {
        let same = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
        prop_assert!(same(evf(AluOp::Fadd, &[a, b]), a + b));
        prop_assert!(same(evf(AluOp::Fmul, &[a, b]), a * b));
        prop_assert!(same(evf(AluOp::Fdiv, &[a, b]), a / b));
        prop_assert!(same(evf(AluOp::Ffma, &[a, b, c]), a.mul_add(b, c)));
        prop_assert!(same(evf(AluOp::Fsqrt, &[a]), a.sqrt()));
        prop_assert!(same(evf(AluOp::Ffloor, &[a]), a.floor()));
        let lt = ev(AluOp::Flt, 32, &[u64::from(a.to_bits()), u64::from(b.to_bits())]) == 1;
        prop_assert_eq!(lt, a < b);
        let ltu = ev(AluOp::Fltu, 32, &[u64::from(a.to_bits()), u64::from(b.to_bits())]) == 1;
        prop_assert_eq!(ltu, a < b || a.is_nan() || b.is_nan());
    }

    #[test]
    fn half_conversion_round_trips(h in any::<u16>()) {
        let f = f16_to_f32(h);
        if !f.is_nan() {
            prop_assert_eq!(f32_to_f16(f), h);
        }
    }

    #[test]
    fn float_to_int_conversions(a in -3.0e9f32..3.0e9f32) {
        let x = u64::from(a.to_bits());
        let v: Vec<[u64; 1]> = vec![[x]];
        let s = [Src { bits: 32, comps: &v[0] }];
        prop_assert_eq!(eval(AluOp::F2i, 32, 1, &s).unwrap()[0] as u32 as i32, a as i32);
        prop_assert_eq!(eval(AluOp::F2u, 32, 1, &s).unwrap()[0] as u32, a as u32);
    }
}

#[test]
fn half_rounding_is_to_nearest_even() {
    // 1 + 2^-11 is exactly between two halves: rounds to even (1.0).
    assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
    assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
    assert_eq!(f32_to_f16(65520.0), 0x7c00);
    assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
}
