//! A table of VALU operations run on the simulator and compared with their definitions in the
//! RDNA2 ISA guide, evaluated on the host. Each row runs as `D = OP(S0, S1[, S2])` on lane 0.

mod common;

use common::asm::{Asm, Literal, Op, V};
use common::{raw_vsharp, Dispatch, Gpu};
use ferrum_isa::Opcode;

struct Row {
    /// VOP3 CLAMP bit.
    clamp: bool,
    op: Opcode,
    /// 1 = VOP1, 2 = VOP2, 3 = VOP3, 4 = VOPC (result 1/0 for lane 0's VCC bit).
    enc: u8,
    src: [u32; 3],
    want: u32,
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn rows() -> Vec<Row> {
    let (a, b, c) = (0x8000_0005u32, 7u32, 0x0001_0003u32);
    let one = |op, x: u32, want: u32| Row { op, enc: 1, src: [x, 0, 0], want, clamp: false };
    let two =
        |op, x: u32, y: u32, want: u32| Row { op, enc: 2, src: [x, y, 0], want, clamp: false };
    let three = |op, x: u32, y: u32, z: u32, want: u32| Row {
        op,
        enc: 3,
        src: [x, y, z],
        want,
        clamp: false,
    };
    let h = |x: f32| ferrum_sim::core::wave::f32_to_f16(x) as u32;
    let cmp = |op, x: u32, y: u32, want: bool| Row {
        op,
        enc: 4,
        src: [x, y, 0],
        want: want as u32,
        clamp: false,
    };
    let nan = f(f32::NAN);
    let sat = |op, x: u32, y: u32, want: u32| Row { op, enc: 3, src: [x, y, 0], want, clamp: true };
    vec![
        sat(Op::V_ADD_NC_U32, 0xffff_fff0, 0x20, u32::MAX),
        sat(Op::V_SUB_NC_U32, 5, 7, 0),
        sat(Op::V_ADD_NC_I32, 0x7fff_fff0, 0x20, 0x7fff_ffff),
        sat(Op::V_SUB_NC_I32, 0x8000_0010, 0x20, 0x8000_0000),
        cmp(Op::V_CMP_LT_F32, f(1.0), f(2.0), true),
        cmp(Op::V_CMP_LT_F32, nan, f(2.0), false),
        cmp(Op::V_CMP_NLT_F32, nan, f(2.0), true),
        cmp(Op::V_CMP_NEQ_F32, nan, nan, true),
        cmp(Op::V_CMP_LG_F32, nan, f(1.0), false),
        cmp(Op::V_CMP_O_F32, f(1.0), f(1.0), true),
        cmp(Op::V_CMP_U_F32, f(1.0), nan, true),
        cmp(Op::V_CMP_EQ_F32, f(0.0), f(-0.0), true),
        cmp(Op::V_CMP_GT_I32, (-1i32) as u32, 1, false),
        cmp(Op::V_CMP_GT_U32, (-1i32) as u32, 1, true),
        cmp(Op::V_CMP_NE_U32, 3, 3, false),
        cmp(Op::V_CMP_LE_I16, 0xffff, 0, true),
        cmp(Op::V_CMP_CLASS_F32, f(-0.0), 1 << 5, true),
        cmp(Op::V_CMP_CLASS_F32, f(f32::INFINITY), 1 << 9, true),
        cmp(Op::V_CMP_CLASS_F32, f(1.0), 1 << 3, false),
        one(Op::V_CVT_F32_I32, (-7i32) as u32, f(-7.0)),
        one(Op::V_CVT_F32_U32, 0xffff_ffff, f(4_294_967_296.0)),
        one(Op::V_CVT_U32_F32, f(-3.5), 0),
        one(Op::V_CVT_U32_F32, f(1e20), u32::MAX),
        one(Op::V_CVT_I32_F32, f(-3.75), (-3i32) as u32),
        one(Op::V_CVT_I32_F32, f(f32::NAN), 0),
        one(Op::V_CVT_FLR_I32_F32, f(-3.25), (-4i32) as u32),
        one(Op::V_CVT_RPI_I32_F32, f(2.5), 3),
        one(Op::V_CVT_F16_F32, f(1.5), h(1.5)),
        one(Op::V_CVT_F32_F16, h(-0.25), f(-0.25)),
        one(Op::V_CVT_F32_UBYTE2, 0x1122_3344, f(34.0)),
        one(Op::V_FLOOR_F32, f(-1.5), f(-2.0)),
        one(Op::V_CEIL_F32, f(-1.5), f(-1.0)),
        one(Op::V_TRUNC_F32, f(-1.75), f(-1.0)),
        one(Op::V_RNDNE_F32, f(2.5), f(2.0)),
        one(Op::V_FRACT_F32, f(-1.25), f(0.75)),
        one(Op::V_RCP_F32, f(4.0), f(0.25)),
        one(Op::V_RSQ_F32, f(16.0), f(0.25)),
        one(Op::V_SQRT_F32, f(2.25), f(1.5)),
        one(Op::V_EXP_F32, f(3.0), f(8.0)),
        one(Op::V_LOG_F32, f(0.125), f(-3.0)),
        one(Op::V_NOT_B32, 0x0f0f_0000, 0xf0f0_ffff),
        one(Op::V_BFREV_B32, 1, 0x8000_0000),
        one(Op::V_FFBH_U32, 0x0001_0000, 15),
        one(Op::V_FFBH_U32, 0, u32::MAX),
        one(Op::V_FFBL_B32, 0x0001_0000, 16),
        one(Op::V_FFBH_I32, (-2i32) as u32, 31),
        one(Op::V_FFBH_I32, 0x4000_0000, 1),
        one(Op::V_FFBH_I32, 0x0000_0001, 31),
        one(Op::V_FFBH_I32, 0x8000_0000, 1),
        one(Op::V_FFBH_I32, u32::MAX, u32::MAX),
        two(Op::V_ADD_NC_U32, a, b, a.wrapping_add(b)),
        two(Op::V_SUB_NC_U32, b, a, b.wrapping_sub(a)),
        two(Op::V_SUBREV_NC_U32, b, a, a.wrapping_sub(b)),
        two(Op::V_LSHLREV_B32, 4, b, b << 4),
        two(Op::V_LSHRREV_B32, 4, a, a >> 4),
        two(Op::V_ASHRREV_I32, 4, a, ((a as i32) >> 4) as u32),
        two(Op::V_MIN_I32, a, b, a),
        two(Op::V_MIN_U32, a, b, b),
        two(Op::V_MAX_I32, a, b, b),
        two(Op::V_MAX_U32, a, b, a),
        two(Op::V_AND_B32, a, c, a & c),
        two(Op::V_OR_B32, a, c, a | c),
        two(Op::V_XOR_B32, a, c, a ^ c),
        two(Op::V_XNOR_B32, a, c, !(a ^ c)),
        two(Op::V_MUL_U32_U24, 0x0100_0003, 0x0000_0005, 15),
        two(Op::V_MUL_I32_I24, 0x00ff_fffe, 3, (-6i32) as u32),
        two(
            Op::V_MUL_HI_U32_U24,
            0x00ff_ffff,
            0x00ff_ffff,
            ((0xff_ffffu64 * 0xff_ffff) >> 32) as u32,
        ),
        two(Op::V_ADD_F32, f(1.5), f(2.25), f(3.75)),
        two(Op::V_SUB_F32, f(1.5), f(2.25), f(-0.75)),
        two(Op::V_SUBREV_F32, f(1.5), f(2.25), f(0.75)),
        two(Op::V_MUL_F32, f(1.5), f(-2.0), f(-3.0)),
        two(Op::V_MIN_F32, f(1.5), f(f32::NAN), f(1.5)),
        two(Op::V_MAX_F32, f(-1.0), f(-2.0), f(-1.0)),
        three(Op::V_LDEXP_F32, f(1.5), 3, 0, f(12.0)),
        three(Op::V_BFM_B32, 4, 8, 0, 0xf00),
        three(Op::V_CVT_PK_U16_U32, 0x1_0000, 0x1234, 0, 0x1234_ffff),
        three(Op::V_CVT_PK_I16_I32, 0xffff_0000, 0x9000, 0, 0x7fff_8000),
        three(Op::V_BCNT_U32_B32, a, 10, 0, 13),
        three(Op::V_MUL_LO_U32, a, b, 0, a.wrapping_mul(b)),
        three(Op::V_MUL_HI_U32, a, b, 0, ((a as u64 * b as u64) >> 32) as u32),
        three(Op::V_MUL_HI_I32, a, b, 0, ((a as i32 as i64 * b as i64) >> 32) as u32),
        three(Op::V_BFE_U32, 0xabcd_1234, 8, 12, 0xd12),
        three(Op::V_BFE_I32, 0xabcd_1234, 16, 8, 0xffff_ffcd),
        three(Op::V_BFI_B32, 0xff00_ff00, 0x1234_5678, 0x9abc_def0, 0x12bc_56f0),
        three(Op::V_ALIGNBIT_B32, 0x1234_5678, 0x9abc_def0, 8, 0x789a_bcde),
        three(Op::V_ALIGNBYTE_B32, 0x1234_5678, 0x9abc_def0, 1, 0x789a_bcde),
        three(Op::V_LSHL_ADD_U32, 3, 4, 5, 53),
        three(Op::V_ADD_LSHL_U32, 3, 4, 5, 224),
        three(Op::V_LSHL_OR_B32, 3, 4, 5, 53),
        three(Op::V_AND_OR_B32, 0xf0f0, 0xff00, 0x000f, 0xf00f),
        three(Op::V_OR3_B32, 1, 2, 4, 7),
        three(Op::V_XOR3_B32, 7, 2, 4, 1),
        three(Op::V_ADD3_U32, a, b, c, a.wrapping_add(b).wrapping_add(c)),
        three(Op::V_MED3_I32, 5, (-3i32) as u32, 9, 5),
        three(Op::V_MED3_U32, 5, (-3i32) as u32, 9, 9),
        three(Op::V_MIN3_U32, 5, 3, 9, 3),
        three(Op::V_MAX3_I32, 5, (-3i32) as u32, 9, 9),
        three(Op::V_FMA_F32, f(1.5), f(2.0), f(0.25), f(3.25)),
        three(Op::V_MED3_F32, f(1.0), f(3.0), f(2.0), f(2.0)),
        three(Op::V_MAD_U32_U24, 0x00ff_ffff, 2, 5, 0x01ff_fffe + 5),
        // {S0, S1} is a 64-bit value with S0 in the high half: selectors 4..7 pick S0 bytes.
        three(Op::V_PERM_B32, 0x0403_0201, 0x0807_0605, 0x0004_0106, 0x0501_0603),
        three(Op::V_XAD_U32, 0xf0, 0x0f, 1, 0x100),
    ]
}

#[test]
fn valu_operations_match_their_definitions() {
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let table = rows();
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, V(7), common::asm::Int(0));
    for (k, row) in table.iter().enumerate() {
        p.vop1(Op::V_MOV_B32, V(1), Literal(row.src[0]))
            .vop1(Op::V_MOV_B32, V(2), Literal(row.src[1]))
            .vop1(Op::V_MOV_B32, V(3), Literal(row.src[2]));
        match row.enc {
            1 => p.vop1(row.op, V(4), V(1)),
            2 => p.vop2(row.op, 4, V(1), 2),
            4 => p.vopc(row.op, V(1), 2).vop3(
                Op::V_CNDMASK_B32,
                V(4),
                [common::asm::Int(0), common::asm::Int(1), common::asm::VCC],
            ),
            _ => p.i(ferrum_isa::Inst::Vop3(ferrum_isa::Vop3 {
                op: row.op,
                vdst: V(4),
                sdst: common::asm::NULL,
                src: [V(1), V(2), V(3)],
                abs: 0,
                neg: 0,
                opsel: 0,
                clamp: row.clamp,
                omod: 0,
            })),
        };
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
    let got = out.map.read_u32s(0, table.len()).unwrap();
    let bad: Vec<String> = table
        .iter()
        .zip(&got)
        .filter(|(r, g)| r.want != **g)
        .map(|(r, g)| {
            format!(
                "{}({:#x}, {:#x}, {:#x}) = {g:#x}, want {:#x}",
                r.op.name(),
                r.src[0],
                r.src[1],
                r.src[2],
                r.want
            )
        })
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
