//! Typed (format) buffer accesses through the shared format conversions, and V# checks.

mod common;

use common::asm::{Asm, Int, Op};
use common::{raw_vsharp, Dispatch, Gpu};
use ferrum_isa::{Buffer, Inst, Opcode};
use ferrum_winsys::{Error, LostReason};

fn typed(op: Opcode, vdata: u8, srsrc: u8, mtbuf_format: Option<u8>) -> Inst {
    let b = Buffer {
        op,
        vdata,
        vaddr: 0,
        srsrc,
        soffset: Int(0),
        offset: 0,
        offen: false,
        idxen: true,
        glc: false,
        slc: false,
        dlc: false,
        lds: false,
        tfe: false,
        format: mtbuf_format.unwrap_or(0),
    };
    if mtbuf_format.is_some() {
        Inst::Mtbuf(b)
    } else {
        Inst::Mubuf(b)
    }
}

/// Stores (lane, 0.5, -1) as 10_11_11_FLOAT (B10G11R11) with tbuffer; loads 32_FLOAT
/// elements through a V# whose DST_SEL is (X, 1, 0, X), with an out-of-range tail.
#[test]
fn small_float_store_and_dst_sel_constants() {
    let gpu = Gpu::new();
    let (packed, shared, out) = (gpu.buffer(4096), gpu.buffer(4096), gpu.buffer(4096));
    let data: Vec<u32> = (0..32u32).map(|l| l | 4 << 9 | 22 << 27).collect();
    shared.map.write_u32s(0, &data).unwrap();
    let mut p = Asm::new();
    p.vop1(Op::V_CVT_F32_U32, ferrum_isa::Operand::Vgpr(2), ferrum_isa::Operand::Vgpr(0))
        .vop1(
            Op::V_MOV_B32,
            ferrum_isa::Operand::Vgpr(3),
            ferrum_isa::Operand::Literal(0.5f32.to_bits()),
        )
        .vop1(
            Op::V_MOV_B32,
            ferrum_isa::Operand::Vgpr(4),
            ferrum_isa::Operand::Literal((-1.0f32).to_bits()),
        )
        .i(typed(Op::TBUFFER_STORE_FORMAT_XYZ, 2, 0, Some(36)))
        .i(typed(Op::BUFFER_LOAD_FORMAT_XYZW, 4, 4, None))
        .vop2(Op::V_LSHLREV_B32, 1, Int(4), 0)
        .waitcnt(0, 63)
        .mubuf(Op::BUFFER_STORE_DWORDX4, 4, 1, 8, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let k = [packed.va as u32, (packed.va >> 32) as u32 | 4 << 16, 32, 0xfac | 1 << 24 | 1 << 28];
    let s = [
        shared.va as u32,
        (shared.va >> 32) as u32 | 4 << 16,
        20,
        4 | 1 << 3 | 4 << 9 | 22 << 12 | 1 << 24 | 1 << 28,
    ];
    let o = raw_vsharp(out.va, 4096);
    let ud: Vec<u32> = k.iter().chain(&s).chain(&o).copied().collect();
    let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&packed, &shared, &out]).unwrap());
    let got = packed.map.read_u32s(0, 32).unwrap();
    for (l, &g) in got.iter().enumerate() {
        // R11: lane as an 11-bit float; G11: 0.5 = exponent 14; B10: negative -> 0.
        let r = ferrum_sim::tex::format::f32_to_small_float(l as f32, 5, 6, false);
        assert_eq!(g, r | (14 << 6) << 11, "lane {l}");
    }
    let got = out.map.read_u32s(0, 128).unwrap();
    for l in 0..32 {
        let want = if l < 20 { [data[l], 1f32.to_bits(), 0, data[l]] } else { [0, 0, 0, 0] };
        assert_eq!(got[4 * l..4 * l + 4], want, "lane {l}");
    }
}

#[test]
fn malformed_v_sharp_is_reported_in_strict_mode() {
    for word3 in [0x3101_6fac & !(1 << 24), 0x9000_0fac] {
        let gpu = Gpu::new();
        let buf = gpu.buffer(4096);
        let mut p = Asm::new();
        p.i(typed(Op::BUFFER_LOAD_FORMAT_X, 2, 0, None)).waitcnt(0, 63).endpgm();
        let prog = gpu.program(&p.finish());
        let ud = [buf.va as u32, (buf.va >> 32) as u32 | 4 << 16, 4, word3];
        let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
        match gpu.dispatch(&d, &prog, &[&buf]) {
            Err(Error::ContextLost(LostReason::Guilty)) => {}
            other => panic!("word3 {word3:#x}: expected a guilty context loss, got {other:?}"),
        }
    }
}
