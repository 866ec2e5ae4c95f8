//! Inline constants on 16-bit operands: on half-precision sources the float constants are the
//! f16 encodings of ±0.5, ±1, ±2, ±4 and 1/(2π) (0x3118), and the integers -16..=64 are their
//! 16-bit patterns (RDNA2 ISA guide, "Inline constants"; LLVM's AMDGPU operand syntax). Each
//! constant is read through a VOP1, VOP2, VOPC and VOP3 source of an f16 or i16 instruction
//! whose result exposes the 16-bit value the source had.

mod common;

use common::asm::{Asm, Int, Literal, Op, V, VCC};
use common::{raw_vsharp, Dispatch, Gpu};
use ferrum_isa::{FloatConst as F, Operand};

/// Each inline float constant with the f16 pattern the hardware substitutes.
const FLOATS: [(F, u16); 9] = [
    (F::Half, 0x3800),
    (F::NegHalf, 0xb800),
    (F::One, 0x3c00),
    (F::NegOne, 0xbc00),
    (F::Two, 0x4000),
    (F::NegTwo, 0xc000),
    (F::Four, 0x4400),
    (F::NegFour, 0xc400),
    (F::InvTwoPi, 0x3118),
];

/// Runs `body` for each (operand, expected 16-bit value) and returns the low halves stored.
fn run(consts: &[(Operand, u16)], body: impl Fn(&mut Asm, Operand, u16)) -> Vec<u16> {
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let mut p = Asm::new();
    for (k, &(c, bits)) in consts.iter().enumerate() {
        body(&mut p, c, bits);
        p.vop1(Op::V_MOV_B32, V(7), Literal(4 * k as u32)).mubuf(
            Op::BUFFER_STORE_DWORD,
            4,
            7,
            0,
            false,
        );
    }
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let ud = raw_vsharp(out.va, 4096);
    let d = Dispatch::one_group(prog.va, &ud, [1, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&out]).unwrap());
    let got = out.map.read_u32s(0, consts.len()).unwrap();
    got.iter().map(|&w| w as u16).collect()
}

fn float_consts() -> Vec<(Operand, u16)> {
    let mut v: Vec<_> = FLOATS.iter().map(|&(c, b)| (Operand::Float(c), b)).collect();
    // Small integers are f16 denormals with the integer's bit pattern.
    v.extend([(Int(0), 0), (Int(1), 1), (Int(17), 17), (Int(64), 64)]);
    v
}

fn want(consts: &[(Operand, u16)]) -> Vec<u16> {
    consts.iter().map(|c| c.1).collect()
}

#[test]
fn f16_sources_read_half_precision_float_constants() {
    let consts = float_consts();
    // VOP2: c + 0 (the constant as src0, +0 in a VGPR).
    let vop2 = run(&consts, |p, c, _| {
        p.vop1(Op::V_MOV_B32, V(1), Int(0)).vop2(Op::V_ADD_F16, 4, c, 1);
    });
    assert_eq!(vop2, want(&consts), "v_add_f16");
    // VOP3, the constant as src2: 0 * 0 + c.
    let vop3 = run(&consts, |p, c, _| {
        p.vop1(Op::V_MOV_B32, V(1), Int(0)).vop3(Op::V_FMA_F16, V(4), [V(1), V(1), c]);
    });
    assert_eq!(vop3, want(&consts), "v_fma_f16");
    // VOP1: the constant converted to f32 and back is the constant.
    let vop1 = run(&consts, |p, c, _| {
        p.vop1(Op::V_CVT_F32_F16, V(1), c).vop1(Op::V_CVT_F16_F32, V(4), V(1));
    });
    assert_eq!(vop1, want(&consts), "v_cvt_f32_f16");
    // VOPC: the constant equals a VGPR holding its f16 pattern, and differs from the f32 one.
    let vopc =
        run(&consts, |p, c, bits| {
            p.vop1(Op::V_MOV_B32, V(1), Literal(u32::from(bits)))
                .vopc(Op::V_CMP_EQ_F16, c, 1)
                .vop3(Op::V_CNDMASK_B32, V(4), [Int(0), Int(1), VCC]);
        });
    assert_eq!(vopc, vec![1; consts.len()], "v_cmp_eq_f16");
}

#[test]
fn i16_sources_read_sixteen_bit_integer_constants() {
    let consts: Vec<(Operand, u16)> =
        [-16i8, -5, -1, 0, 1, 33, 64].iter().map(|&i| (Int(i), i as i16 as u16)).collect();
    let got = run(&consts, |p, c, _| {
        p.vop1(Op::V_MOV_B32, V(1), Int(0)).vop3(Op::V_ADD_NC_U16, V(4), [c, V(1), Int(0)]);
    });
    assert_eq!(got, want(&consts), "v_add_nc_u16");
    let got = run(&consts, |p, c, _| {
        p.vop1(Op::V_CVT_F16_I16, V(1), c).vop1(Op::V_CVT_I16_F16, V(4), V(1));
    });
    assert_eq!(got, want(&consts), "v_cvt_f16_i16");
}

#[test]
fn f16_exp_and_log_take_and_give_half_precision() {
    // exp2 and log2 of inline constants: 2^2 = 4, 2^-0.5 = 0x39a8 (0.70703125, rounded), log2(4)
    // = 2, log2(0.5) = -1.
    let consts = [(Operand::Float(F::Two), 0x4400), (Operand::Float(F::NegHalf), 0x39a8)];
    let got = run(&consts, |p, c, _| {
        p.vop1(Op::V_EXP_F16, V(4), c);
    });
    assert_eq!(got, want(&consts), "v_exp_f16");
    let consts = [(Operand::Float(F::Four), 0x4000), (Operand::Float(F::Half), 0xbc00)];
    let got = run(&consts, |p, c, _| {
        p.vop1(Op::V_LOG_F16, V(4), c);
    });
    assert_eq!(got, want(&consts), "v_log_f16");
}
