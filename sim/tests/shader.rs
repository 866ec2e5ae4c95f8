//! Hand-assembled RDNA2 programs dispatched through winsys into the simulator.

mod common;

use common::asm::{Asm, Int, Literal, Op, EXEC, NULL, S, V, VCC};
use common::{pm4, raw_vsharp, Dispatch, Gpu};
use ferrum_winsys::{Error, LostReason};

fn f32s(v: &[f32]) -> Vec<u32> {
    v.iter().map(|f| f.to_bits()).collect()
}

/// c[i] = a[i] + b[i] over 1000 floats with 16 workgroups of 64: the last 24 lanes are out of
/// the V# range, so their loads read 0 and their stores are dropped.
#[test]
fn vector_add_with_out_of_bounds_tail() {
    let gpu = Gpu::new();
    let n = 1000usize;
    let (a, b, c) = (gpu.buffer(8192), gpu.buffer(8192), gpu.buffer(8192));
    let av: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let bv: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
    a.map.write_u32s(0, &f32s(&av)).unwrap();
    b.map.write_u32s(0, &f32s(&bv)).unwrap();
    c.map.write_u32s(0, &vec![0xdead_beef; 2048]).unwrap();

    let mut p = Asm::new();
    p.sop2(Op::S_LSHL_B32, S(13), S(12), Int(6))
        .vop2(Op::V_ADD_NC_U32, 1, S(13), 0)
        .vop2(Op::V_LSHLREV_B32, 1, Int(2), 1)
        .mubuf(Op::BUFFER_LOAD_DWORD, 2, 1, 0, false)
        .mubuf(Op::BUFFER_LOAD_DWORD, 3, 1, 4, false)
        .waitcnt(0, 63)
        .vop2(Op::V_ADD_F32, 2, V(2), 3)
        .mubuf(Op::BUFFER_STORE_DWORD, 2, 1, 8, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let mut ud = Vec::new();
    for buf in [&a, &b, &c] {
        ud.extend(raw_vsharp(buf.va, (n * 4) as u32));
    }
    let d = Dispatch {
        tgid_x: true,
        groups: [16, 1, 1],
        ..Dispatch::one_group(prog.va, &ud, [64, 1, 1])
    };
    assert!(gpu.dispatch(&d, &prog, &[&a, &b, &c]).unwrap());
    let out = c.map.read_u32s(0, 1024).unwrap();
    for i in 0..n {
        assert_eq!(f32::from_bits(out[i]), av[i] + bv[i], "element {i}");
    }
    assert!(out[n..].iter().all(|&x| x == 0xdead_beef), "out-of-bounds stores are dropped");
}

/// Each workgroup of 256 threads (8 waves) sums its 256 inputs in LDS with a tree of barriers;
/// thread 0 adds the partial sum to a global total with an atomic.
#[test]
fn lds_reduction_with_barriers_and_global_atomic() {
    let gpu = Gpu::new();
    let groups = 6u32;
    let input = gpu.buffer(groups as u64 * 1024);
    let total = gpu.buffer(4096);
    let values: Vec<u32> = (0..groups * 256).map(|i| i * 7 % 1000).collect();
    input.map.write_u32s(0, &values).unwrap();

    let mut p = Asm::new();
    // s[0:1] input base, s[2:3] total address, s4 = workgroup id.
    // v1 = tid * 4 (LDS address), v2 = global index * 4.
    p.vop2(Op::V_LSHLREV_B32, 1, Int(2), 0)
        .sop2(Op::S_LSHL_B32, S(5), S(4), Literal(10))
        .vop2(Op::V_ADD_NC_U32, 2, S(5), 1)
        .global(Op::GLOBAL_LOAD_DWORD, 3, 2, 0, 0, false)
        .waitcnt(0, 63)
        .ds(Op::DS_WRITE_B32, 0, 1, 3, 0)
        .waitcnt(63, 0)
        .sopp(Op::S_BARRIER, 0);
    let mut stride = 128u32;
    while stride >= 1 {
        let skip = p.label();
        p.vopc(Op::V_CMP_GT_U32, Literal(stride), 0)
            .sop1(Op::S_AND_SAVEEXEC_B32, S(20), VCC)
            .branch(Op::S_CBRANCH_EXECZ, skip)
            .ds(Op::DS_READ_B32, 4, 1, 0, 0)
            .ds(Op::DS_READ_B32, 5, 1, 0, (stride * 4) as u16)
            .waitcnt(63, 0)
            .vop2(Op::V_ADD_NC_U32, 4, V(4), 5)
            .ds(Op::DS_WRITE_B32, 0, 1, 4, 0)
            .waitcnt(63, 0);
        p.bind(skip);
        p.sop1(Op::S_MOV_B32, EXEC, S(20)).sopp(Op::S_BARRIER, 0);
        stride /= 2;
    }
    let end = p.label();
    p.vopc(Op::V_CMP_EQ_U32, Int(0), 0)
        .sop1(Op::S_AND_SAVEEXEC_B32, S(20), VCC)
        .branch(Op::S_CBRANCH_EXECZ, end)
        .ds(Op::DS_READ_B32, 4, 1, 0, 0)
        .vop1(Op::V_MOV_B32, V(6), Int(0))
        .waitcnt(63, 0)
        .global(Op::GLOBAL_ATOMIC_ADD, 7, 6, 4, 2, false);
    p.bind(end);
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let ud = [input.va as u32, (input.va >> 32) as u32, total.va as u32, (total.va >> 32) as u32];
    let d = Dispatch {
        tgid_x: true,
        lds_bytes: 1024,
        groups: [groups, 1, 1],
        ..Dispatch::one_group(prog.va, &ud, [256, 1, 1])
    };
    assert!(gpu.dispatch(&d, &prog, &[&input, &total]).unwrap());
    assert_eq!(total.map.read_u32(0).unwrap(), values.iter().sum::<u32>());
}

/// Every lane takes a ticket with a returning atomic; the tickets are a permutation.
#[test]
fn returning_atomics_hand_out_unique_tickets() {
    let gpu = Gpu::new();
    let counter = gpu.buffer(4096);
    let out = gpu.buffer(4 * 4096);
    let mut p = Asm::new();
    // s[0:3] counter V#, s[4:7] out V#, s8 = workgroup id.
    p.vop1(Op::V_MOV_B32, V(1), Int(1))
        .vop1(Op::V_MOV_B32, V(2), Int(0))
        .mubuf(Op::BUFFER_ATOMIC_ADD, 1, 2, 0, true)
        .sop2(Op::S_LSHL_B32, S(9), S(8), Int(6))
        .vop2(Op::V_ADD_NC_U32, 3, S(9), 0)
        .vop2(Op::V_LSHLREV_B32, 3, Int(2), 3)
        .waitcnt(0, 63)
        .mubuf(Op::BUFFER_STORE_DWORD, 1, 3, 4, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let mut ud = raw_vsharp(counter.va, 4).to_vec();
    ud.extend(raw_vsharp(out.va, 4 * 4096));
    let d = Dispatch {
        tgid_x: true,
        groups: [20, 1, 1],
        ..Dispatch::one_group(prog.va, &ud, [64, 1, 1])
    };
    assert!(gpu.dispatch(&d, &prog, &[&counter, &out]).unwrap());
    assert_eq!(counter.map.read_u32(0).unwrap(), 1280);
    let mut tickets = out.map.read_u32s(0, 1280).unwrap();
    tickets.sort_unstable();
    assert_eq!(tickets, (0..1280).collect::<Vec<u32>>());
}

/// if (tid odd) x = tid * 3 else x = tid + 100; plus a scalar loop summing 0..10.
#[test]
fn divergent_branches_mask_lanes() {
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let mut p = Asm::new();
    let (els, end, lp) = (p.label(), p.label(), p.label());
    p.vop2(Op::V_AND_B32, 1, Int(1), 0)
        .vopc(Op::V_CMP_EQ_U32, Int(1), 1)
        .sop1(Op::S_AND_SAVEEXEC_B32, S(20), VCC)
        .branch(Op::S_CBRANCH_EXECZ, els)
        .vop2(Op::V_MUL_U32_U24, 2, Int(3), 0);
    p.bind(els);
    p.sop2(Op::S_ANDN2_B32, EXEC, S(20), EXEC).branch(Op::S_CBRANCH_EXECZ, end);
    p.vop2(Op::V_ADD_NC_U32, 2, Literal(100), 0);
    p.bind(end);
    p.sop1(Op::S_MOV_B32, EXEC, S(20))
        // s10 = sum of 0..10 with a scalar loop.
        .sop1(Op::S_MOV_B32, S(10), Int(0))
        .sop1(Op::S_MOV_B32, S(11), Int(0));
    p.bind(lp);
    p.sop2(Op::S_ADD_U32, S(10), S(10), S(11))
        .sop2(Op::S_ADD_U32, S(11), S(11), Int(1))
        .sopc(Op::S_CMP_LT_U32, S(11), Int(10))
        .branch(Op::S_CBRANCH_SCC1, lp)
        .vop2(Op::V_ADD_NC_U32, 2, S(10), 2)
        .vop2(Op::V_LSHLREV_B32, 3, Int(2), 0)
        .mubuf(Op::BUFFER_STORE_DWORD, 2, 3, 0, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let ud = raw_vsharp(out.va, 4096);
    let d = Dispatch::one_group(prog.va, &ud, [48, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&out]).unwrap());
    let got = out.map.read_u32s(0, 48).unwrap();
    for (t, &x) in got.iter().enumerate() {
        let t = t as u32;
        let want = if t % 2 == 1 { t * 3 } else { t + 100 } + 45;
        assert_eq!(x, want, "thread {t}");
    }
}

fn expect_guilty(r: ferrum_winsys::Result<bool>) {
    match r {
        Err(Error::ContextLost(LostReason::Guilty)) => {}
        other => panic!("expected a guilty context loss, got {other:?}"),
    }
}

fn one_wave(
    gpu: &Gpu,
    prog: &common::Buffer,
    ud: &[u32],
    vgprs: u32,
    lds: u32,
) -> ferrum_winsys::Result<bool> {
    let d = Dispatch { vgprs, lds_bytes: lds, ..Dispatch::one_group(prog.va, ud, [32, 1, 1]) };
    gpu.dispatch(&d, prog, &[])
}

#[test]
fn strict_mode_catches_a_missing_waitcnt() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let ud = raw_vsharp(buf.va, 4096);
    let program = |wait: bool| {
        let mut p = Asm::new();
        p.vop1(Op::V_MOV_B32, V(1), Int(0)).mubuf(Op::BUFFER_LOAD_DWORD, 2, 1, 0, false);
        if wait {
            p.waitcnt(0, 63);
        }
        p.vop2(Op::V_ADD_NC_U32, 3, Int(1), 2)
            .mubuf(Op::BUFFER_STORE_DWORD, 3, 1, 0, false)
            .endpgm();
        p.finish()
    };
    let good = gpu.program(&program(true));
    let d = Dispatch::one_group(good.va, &ud, [32, 1, 1]);
    assert!(gpu.dispatch(&d, &good, &[&buf]).unwrap());
    assert_eq!(buf.map.read_u32(0).unwrap(), 1);

    let bad = gpu.program(&program(false));
    let d = Dispatch { pgm: bad.va, ..d };
    expect_guilty(gpu.dispatch(&d, &bad, &[&buf]));
}

#[test]
fn registers_and_lds_beyond_the_allocation_fault() {
    let gpu = Gpu::new();
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, V(9), Int(1)).endpgm();
    let prog = gpu.program(&p.finish());
    expect_guilty(one_wave(&gpu, &prog, &[], 8, 0));
    let gpu = Gpu::new();
    let prog = gpu.program(&p.finish());
    assert!(one_wave(&gpu, &prog, &[], 16, 0).unwrap(), "v9 is fine with 16 VGPRs");

    let gpu = Gpu::new();
    let mut p = Asm::new();
    p.vop2(Op::V_LSHLREV_B32, 1, Int(4), 0)
        .ds(Op::DS_WRITE_B32, 0, 1, 0, 0)
        .waitcnt(63, 0)
        .endpgm();
    let prog = gpu.program(&p.finish());
    // 32 lanes x 16 bytes = 512 bytes needed: one 512-byte granule is enough, 0 is not.
    assert!(one_wave(&gpu, &prog, &[], 8, 512).unwrap());
    expect_guilty(one_wave(&gpu, &prog, &[], 8, 0));
}

#[test]
fn an_infinite_loop_is_a_context_loss() {
    let gpu = Gpu::new();
    let mut p = Asm::new();
    let top = p.label();
    p.bind(top);
    p.sop2(Op::S_ADD_U32, S(0), S(0), Int(1)).branch(Op::S_BRANCH, top).endpgm();
    let prog = gpu.program(&p.finish());
    let t0 = std::time::Instant::now();
    expect_guilty(one_wave(&gpu, &prog, &[], 8, 0));
    assert!(t0.elapsed() < std::time::Duration::from_secs(5));
    assert!(gpu.ctx.query_state().unwrap().guilty);
}

#[test]
fn a_shader_store_to_unmapped_memory_is_a_vm_fault() {
    let gpu = Gpu::new();
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, V(1), Int(0)).global(Op::GLOBAL_STORE_DWORD, 0, 1, 0, 0, false).endpgm();
    let prog = gpu.program(&p.finish());
    let ud = [0x0000_1000u32, 0x10];
    expect_guilty(one_wave(&gpu, &prog, &ud, 8, 0));
}

/// Descriptors fetched with SMEM, f64 and f16 arithmetic.
#[test]
fn scalar_loads_and_wide_and_narrow_floats() {
    let gpu = Gpu::new();
    let table = gpu.buffer(4096);
    let out = gpu.buffer(4096);
    table.map.write_u32s(0, &raw_vsharp(out.va, 4096)).unwrap();
    let mut p = Asm::new();
    p.smem(Op::S_LOAD_DWORDX4, 4, 0, 0)
        .vop1(Op::V_CVT_F32_U32, V(1), V(0))
        .vop1(Op::V_CVT_F64_F32, V(2), V(1))
        .vop3(Op::V_MUL_F64, V(2), [V(2), V(2), NULL])
        .vop1(Op::V_CVT_F32_F64, V(4), V(2))
        .vop1(Op::V_CVT_F16_F32, V(5), V(1))
        .vop2(Op::V_ADD_F16, 5, V(5), 5)
        .vop1(Op::V_CVT_F32_F16, V(5), V(5))
        .vop2(Op::V_ADD_F32, 4, V(4), 5)
        .vop2(Op::V_LSHLREV_B32, 6, Int(2), 0)
        .waitcnt(63, 0)
        .mubuf(Op::BUFFER_STORE_DWORD, 4, 6, 4, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let ud = [table.va as u32, (table.va >> 32) as u32];
    let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&table, &out]).unwrap());
    let got = out.map.read_u32s(0, 32).unwrap();
    for (t, &x) in got.iter().enumerate() {
        let t = t as f32;
        assert_eq!(f32::from_bits(x), t * t + 2.0 * t, "lane {t}");
    }
}

#[test]
fn dispatch_indirect_reads_its_dimensions_from_memory() {
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let args = gpu.buffer(4096);
    args.map.write_u32s(0, &[3, 1, 1]).unwrap();
    let mut p = Asm::new();
    // out[wg] = wg + 1 from lane 0 of each group.
    p.vopc(Op::V_CMP_EQ_U32, Int(0), 0)
        .sop1(Op::S_AND_SAVEEXEC_B32, S(20), VCC)
        .sop2(Op::S_ADD_U32, S(5), S(4), Int(1))
        .vop1(Op::V_MOV_B32, V(1), S(5))
        .vop1(Op::V_MOV_B32, V(2), S(4))
        .vop2(Op::V_LSHLREV_B32, 2, Int(2), 2)
        .mubuf(Op::BUFFER_STORE_DWORD, 1, 2, 0, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let ud = raw_vsharp(out.va, 4096);
    let d = Dispatch {
        tgid_x: true,
        groups: [0, 0, 0],
        ..Dispatch::one_group(prog.va, &ud, [32, 1, 1])
    };
    let mut pm = Vec::new();
    d.emit(&mut pm);
    // Replace the DISPATCH_DIRECT (5 dwords before the final EVENT_WRITE) by an indirect one.
    let at = pm.len() - 7;
    pm.truncate(at);
    pm4::packet(&mut pm, pm4::DISPATCH_INDIRECT, &[args.va as u32, (args.va >> 32) as u32, 0x8005]);
    assert!(gpu.run(&pm, &[&out, &args, &prog]).unwrap());
    assert_eq!(out.map.read_u32s(0, 4).unwrap(), vec![1, 2, 3, 0]);
}

/// VOP3 compares into an SGPR pair, VOP3b carries for 64-bit address arithmetic, lane
/// intrinsics (mbcnt, readfirstlane, readlane) and a VOP3 select.
#[test]
fn vop3_compares_carries_and_lane_operations() {
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let mut p = Asm::new();
    p.vop3(Op::V_MBCNT_LO_U32_B32, V(1), [Int(-1), Int(0), NULL])
        .vop3(Op::V_CMP_LT_U32, S(20), [V(1), Int(5), NULL])
        .vop3(Op::V_CNDMASK_B32, V(2), [Int(10), Int(20), S(20)])
        .vop1(Op::V_READFIRSTLANE_B32, S(21), V(1))
        .vop3(Op::V_READLANE_B32, S(24), [V(2), Int(7), NULL])
        .vop2(Op::V_ADD_NC_U32, 2, S(24), 2)
        .vop2(Op::V_ADD_NC_U32, 2, S(21), 2)
        .vop2(Op::V_LSHLREV_B32, 4, Int(2), 1)
        .vop3b(Op::V_ADD_CO_U32, V(6), S(22), [S(0), V(4), NULL])
        .vop3b(Op::V_ADD_CO_CI_U32, V(7), S(23), [S(1), Int(0), S(22)])
        .global64(Op::GLOBAL_STORE_DWORD, 0, 6, 2)
        .endpgm();
    let prog = gpu.program(&p.finish());
    // Put the buffer 8 bytes below a 4 GiB boundary of the address arithmetic? The carry is
    // exercised by starting the base at the top of a 32-bit window.
    let ud = [out.va as u32, (out.va >> 32) as u32];
    let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&out]).unwrap());
    let got = out.map.read_u32s(0, 32).unwrap();
    for (lane, &x) in got.iter().enumerate() {
        let sel = if lane < 5 { 20 } else { 10 };
        assert_eq!(x, sel + 10, "lane {lane}");
    }
}

/// 32-bit carry propagation into the high half of a 64-bit address: a buffer mapped across a
/// 4 GiB boundary, written by lanes on both sides of it.
#[test]
fn carry_out_of_the_low_address_half() {
    use ferrum_winsys::{BoDesc, BoFlags, Domain, VaFlags};
    let gpu = Gpu::new();
    let bo = gpu
        .dev
        .create_bo(&BoDesc {
            size: 8192,
            alignment: 4096,
            domain: Domain::Gtt,
            flags: BoFlags::CPU_ACCESS,
        })
        .unwrap();
    let map = bo.map().unwrap();
    let va = 0xffff_f000u64;
    gpu.dev.map_va(&bo, va, 0, 8192, VaFlags::READ | VaFlags::WRITE).unwrap();
    let mut p = Asm::new();
    p.vop2(Op::V_LSHLREV_B32, 4, Int(2), 0)
        .vop1(Op::V_MOV_B32, V(5), V(0))
        .vop3b(Op::V_ADD_CO_U32, V(6), S(22), [S(0), V(4), NULL])
        .vop3b(Op::V_ADD_CO_CI_U32, V(7), S(23), [S(1), Int(0), S(22)])
        .global64(Op::GLOBAL_STORE_DWORD, 0, 6, 5)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let base = 0xffff_ffc0u64; // 16 lanes below the boundary, 16 above.
    let ud = [base as u32, (base >> 32) as u32];
    let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
    let mut pm = Vec::new();
    d.emit(&mut pm);
    let ib = gpu.buffer(4096);
    ib.map.write_u32s(0, &pm).unwrap();
    let ibs = [ferrum_winsys::Ib { va: ib.va, size_dw: pm.len() as u32, flags: 0 }];
    let handles = [bo.handle(), ib.bo.handle(), prog.bo.handle()];
    let fence = gpu
        .ctx
        .submit(&ferrum_winsys::Submission::new(ferrum_winsys::Ip::Compute, &ibs, &handles))
        .unwrap();
    assert!(gpu.ctx.wait(fence, None).unwrap());
    let got = map.read_u32s((base - va) as usize, 32).unwrap();
    assert_eq!(got, (0..32).collect::<Vec<u32>>());
}

/// Packed f16 math (VOP3P with OPSEL_HI and NEG), and the f32 denormal mode switching from
/// RSRC1's flush-to-zero to `s_denorm_mode` keeping denormals.
#[test]
fn packed_math_and_denormal_modes() {
    use ferrum_isa::{Inst, Vop3p};
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let h = |x: f32| ferrum_sim::core::wave::f32_to_f16(x) as u32;
    let packed = h(1.5) | h(-2.0) << 16;
    let denorm = f32::from_bits(0x0000_1000);
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, V(0), ferrum_isa::Operand::Float(ferrum_isa::FloatConst::One))
        .vop1(Op::V_MOV_B32, V(1), Literal(packed))
        .i(Inst::Vop3p(Vop3p {
            op: Op::V_PK_MUL_F16,
            vdst: 2,
            src: [V(1), V(1), NULL],
            neg: 0,
            neg_hi: 1, // high result: (-hi) * hi
            opsel: 0,
            opsel_hi: 0b11,
            clamp: false,
        }))
        .vop2(Op::V_MUL_F32, 3, Literal(denorm.to_bits()), 0)
        .sopp(Op::S_DENORM_MODE, 0xf)
        .vop2(Op::V_MUL_F32, 4, Literal(denorm.to_bits()), 0)
        .vop1(Op::V_MOV_B32, V(5), Int(0))
        .mubuf(Op::BUFFER_STORE_DWORD, 2, 5, 0, false)
        .vop1(Op::V_MOV_B32, V(5), Int(4))
        .mubuf(Op::BUFFER_STORE_DWORD, 3, 5, 0, false)
        .vop1(Op::V_MOV_B32, V(5), Int(8))
        .mubuf(Op::BUFFER_STORE_DWORD, 4, 5, 0, false)
        .endpgm();
    let prog = gpu.program(&p.finish());
    let ud = raw_vsharp(out.va, 4096);
    let d = Dispatch::one_group(prog.va, &ud, [1, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&out]).unwrap());
    let got = out.map.read_u32s(0, 3).unwrap();
    assert_eq!(got[0], h(2.25) | h(-4.0) << 16);
    assert_eq!(got[1], 0, "FLOAT_MODE 0xC0 flushes f32 denormals");
    assert_eq!(got[2], 0x1000, "s_denorm_mode 0xf keeps them");
}

/// Texel-buffer style typed loads (8_8_8_8_UNORM through the V# with a BGRA swizzle and
/// structured bounds) and a typed store with the format in the instruction (MTBUF).
#[test]
fn typed_buffer_loads_and_stores() {
    use ferrum_isa::{Buffer, Inst};
    let gpu = Gpu::new();
    let texels = gpu.buffer(4096);
    let out = gpu.buffer(4096);
    let packed = gpu.buffer(4096);
    let data: Vec<u32> =
        (0..32u32).map(|i| i | (2 * i) << 8 | (255 - i) << 16 | 0x80 << 24).collect();
    texels.map.write_u32s(0, &data).unwrap();
    let mubuf = |op, vdata, vaddr, srsrc, idxen: bool, offen: bool| {
        Inst::Mubuf(Buffer {
            op,
            vdata,
            vaddr,
            srsrc,
            soffset: Int(0),
            offset: 0,
            offen,
            idxen,
            glc: false,
            slc: false,
            dlc: false,
            lds: false,
            tfe: false,
            format: 0,
        })
    };
    let mut p = Asm::new();
    // v[2:5] = texel[lane] as (B, G, R, A) floats; out[lane*4 + c] = v[2 + c].
    p.i(mubuf(Op::BUFFER_LOAD_FORMAT_XYZW, 2, 0, 0, true, false))
        .vop2(Op::V_LSHLREV_B32, 6, Int(4), 0)
        .waitcnt(0, 63)
        .i(mubuf(Op::BUFFER_STORE_DWORDX4, 2, 6, 4, false, true))
        // packed[lane] = (x, y) as 16_16_FLOAT from v[2:3] (tbuffer, format 29).
        .i(Inst::Mtbuf(Buffer {
            op: Op::TBUFFER_STORE_FORMAT_XY,
            vdata: 2,
            vaddr: 0,
            srsrc: 8,
            soffset: Int(0),
            offset: 0,
            offen: false,
            idxen: true,
            glc: false,
            slc: false,
            dlc: false,
            lds: false,
            tfe: false,
            format: 29,
        }))
        .endpgm();
    let prog = gpu.program(&p.finish());
    // Structured V#: stride 4, 20 records, 8_8_8_8_UNORM, DST_SEL = Z, Y, X, W, OOB_SELECT 1.
    let bgra = 6 | 5 << 3 | 4 << 6 | 7 << 9;
    let t = [
        texels.va as u32,
        (texels.va >> 32) as u32 | 4 << 16,
        20,
        bgra | 56 << 12 | 1 << 24 | 1 << 28,
    ];
    let o = raw_vsharp(out.va, 4096);
    let k = [packed.va as u32, (packed.va >> 32) as u32 | 4 << 16, 32, 0xfac | 1 << 24 | 1 << 28];
    let ud: Vec<u32> = t.iter().chain(&o).chain(&k).copied().collect();
    let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&texels, &out, &packed]).unwrap());
    let got = out.map.read_u32s(0, 128).unwrap();
    let h = |x: f32| ferrum_sim::core::wave::f32_to_f16(x) as u32;
    for lane in 0..32usize {
        let c = |k: usize| f32::from_bits(got[lane * 4 + k]);
        let texel = |byte: u32| (data[lane] >> (8 * byte) & 0xff) as f32 / 255.0;
        if lane < 20 {
            assert_eq!(
                [c(0), c(1), c(2), c(3)],
                [texel(2), texel(1), texel(0), texel(3)],
                "lane {lane}"
            );
            assert_eq!(packed.map.read_u32(lane * 4).unwrap(), h(texel(2)) | h(texel(1)) << 16);
        } else {
            assert_eq!([c(0), c(1), c(2), c(3)], [0.0; 4], "out-of-bounds lane {lane}");
        }
    }
}

/// `ds_swizzle_b32` lane shuffles: quad permute (reverse each quad) and bit-mask mode (swap
/// neighbouring groups of 8).
#[test]
fn ds_swizzle_shuffles_lanes() {
    let gpu = Gpu::new();
    let out = gpu.buffer(4096);
    let mut p = Asm::new();
    let quad_reverse = 0x8000 | 3 | 2 << 2 | 1 << 4; // lanes (3, 2, 1, 0)
    let swap8 = 0x1f | 8 << 10; // and = 31, or = 0, xor = 8
    p.vop2(Op::V_ADD_NC_U32, 1, Literal(100), 0)
        .ds(Op::DS_SWIZZLE_B32, 2, 1, 0, quad_reverse)
        .ds(Op::DS_SWIZZLE_B32, 3, 1, 0, swap8)
        .waitcnt(63, 0)
        .vop2(Op::V_LSHLREV_B32, 4, Int(3), 0)
        .mubuf(Op::BUFFER_STORE_DWORDX2, 2, 4, 0, false)
        .endpgm();
    let words = p.finish();
    let (inst, _) = ferrum_isa::decode(&words[2..]).unwrap();
    assert_eq!(inst.to_string(), "ds_swizzle_b32 v2, v1 offset:swizzle(QUAD_PERM,3,2,1,0)");
    let prog = gpu.program(&words);
    let ud = raw_vsharp(out.va, 4096);
    let d = Dispatch::one_group(prog.va, &ud, [32, 1, 1]);
    assert!(gpu.dispatch(&d, &prog, &[&out]).unwrap());
    let got = out.map.read_u32s(0, 64).unwrap();
    for lane in 0..32u32 {
        assert_eq!(
            got[2 * lane as usize],
            100 + (lane & !3) + (3 - (lane & 3)),
            "quad lane {lane}"
        );
        assert_eq!(got[2 * lane as usize + 1], 100 + (lane ^ 8), "swap lane {lane}");
    }
}

/// Pipeline statistics: CS invocations counted between PIPELINESTAT_START and _STOP and
/// written by SAMPLE_PIPELINESTAT as the eleven 64-bit GFX10.3 counters.
#[test]
fn pipeline_statistics_count_compute_invocations() {
    let gpu = Gpu::new();
    let stats = gpu.buffer(4096);
    let mut p = Asm::new();
    p.endpgm();
    let prog = gpu.program(&p.finish());
    let d = Dispatch { groups: [3, 2, 1], ..Dispatch::one_group(prog.va, &[], [48, 1, 1]) };
    let sample = |pm: &mut Vec<u32>, at: u64| {
        pm4::packet(pm, pm4::EVENT_WRITE, &[30 | 2 << 8, at as u32, (at >> 32) as u32]);
    };
    let mut pm = Vec::new();
    d.emit(&mut pm); // not counted: statistics not started
    pm4::packet(&mut pm, pm4::EVENT_WRITE, &[25]);
    d.emit(&mut pm);
    pm4::packet(&mut pm, pm4::EVENT_WRITE, &[26]);
    d.emit(&mut pm); // not counted: stopped
    sample(&mut pm, stats.va + 128);
    assert!(gpu.run(&pm, &[&stats, &prog]).unwrap());
    let counters: Vec<u64> = (0..11).map(|k| stats.map.read_u64(128 + 8 * k).unwrap()).collect();
    assert_eq!(counters[10], 48 * 3 * 2, "CS_INVOCATIONS");
    assert!(counters[..10].iter().all(|&c| c == 0));
    assert_eq!(stats.map.read_u64(128 + 88).unwrap(), 0, "exactly eleven counters");
}
