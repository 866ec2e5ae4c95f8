//! MODE.FP_ROUND for f32, set with `s_setreg_imm32_b32`, on hand-picked inexact operations
//! whose correctly rounded results are known.

mod common;

use common::asm::{Asm, Int, Literal, Op, NULL, V};
use common::{raw_vsharp, Dispatch, Gpu};
use ferrum_isa::{Inst, Sopk};

const EPS: f32 = f32::EPSILON;

/// One wave computes, for each rounding mode 0..=3, four results into consecutive dwords:
/// 1 + 2^-30, -1 - 2^-30, (1/3) * 3 and u32::MAX as f32.
#[test]
fn f32_rounding_modes_follow_mode_register() {
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, V(1), Literal(1.0f32.to_bits()))
        .vop1(Op::V_MOV_B32, V(2), Literal((1.0f32 / 1073741824.0).to_bits()))
        .vop1(Op::V_MOV_B32, V(3), Literal((1.0f32 / 3.0).to_bits()))
        .vop1(Op::V_MOV_B32, V(4), Int(-1))
        .vop1(Op::V_MOV_B32, V(10), Int(0));
    for mode in 0..4u32 {
        // hwreg(HW_REG_MODE, 0, 2) = FP_ROUND for f32.
        p.i(Inst::Sopk(Sopk {
            op: Op::S_SETREG_IMM32_B32,
            sdst: NULL,
            simm16: 1 | 1 << 11,
            imm32: mode,
        }));
        p.vop2(Op::V_ADD_F32, 5, V(1), 2).vop3(Op::V_ADD_F32, V(6), [V(1), V(2), Int(0)]);
        p.i(Inst::Vop3(ferrum_isa::Vop3 {
            op: Op::V_ADD_F32,
            vdst: V(6),
            sdst: NULL,
            src: [V(1), V(2), Int(0)],
            abs: 0,
            neg: 0b11,
            opsel: 0,
            clamp: false,
            omod: 0,
        }));
        p.vop2(Op::V_MUL_F32, 7, Literal(3.0f32.to_bits()), 3).vop1(Op::V_CVT_F32_U32, V(8), V(4));
        for r in 5..9 {
            p.mubuf(Op::BUFFER_STORE_DWORD, r, 10, 0, false).vop2(Op::V_ADD_NC_U32, 10, Int(4), 10);
        }
    }
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let ud = raw_vsharp(out.va, 4096);
    let d = Dispatch { vgprs: 16, ..Dispatch::one_group(prog.va, &ud, [1, 1, 1]) };
    assert!(gpu.dispatch(&d, &prog, &[&out]).unwrap());
    let got: Vec<f32> = out.map.read_u32s(0, 16).unwrap().into_iter().map(f32::from_bits).collect();
    let third3 = 1.0f32 / 3.0 * 3.0; // nearest
    let (third_lo, third_hi) =
        if (1.0f32 / 3.0) as f64 * 3.0 < 1.0 { (1.0 - EPS / 2.0, 1.0) } else { (1.0, 1.0 + EPS) };
    let big = 4294967296.0f32;
    let below_big = 4294967040.0f32;
    let want = [
        [1.0, -1.0, third3, big],               // nearest even
        [1.0 + EPS, -1.0, third_hi, big],       // toward +inf
        [1.0, -1.0 - EPS, third_lo, below_big], // toward -inf
        [1.0, -1.0, third_lo, below_big],       // toward zero
    ];
    for (mode, w) in want.iter().enumerate() {
        assert_eq!(&got[4 * mode..4 * mode + 4], w, "FP_ROUND {mode}");
    }
}
