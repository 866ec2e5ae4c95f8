//! Command submission through winsys into the simulated CP: PM4 packets, ordering, faults.

mod common;

use std::time::Duration;

use common::{pm4, Gpu};
use ferrum_winsys::{Error, Ib, Ip, LostReason, Priority, Submission, VaFlags};

#[test]
fn write_data_release_mem_and_user_fence() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let mut ib = Vec::new();
    pm4::write_data(&mut ib, buf.va + 16, &[11, 22, 33]);
    pm4::packet(&mut ib, pm4::ACQUIRE_MEM, &[0, 0xffff_ffff, 0xff_ffff, 0, 0, 10, 0xc3b1]);
    pm4::packet(&mut ib, pm4::EVENT_WRITE, &[0x407]);
    pm4::release_mem(&mut ib, buf.va + 64, 0x1234_5678, false);
    pm4::release_mem(&mut ib, buf.va + 72, 0xaaaa_bbbb_cccc_dddd, true);
    pm4::pad(&mut ib);

    let ib_buf = gpu.buffer(4096);
    ib_buf.map.write_u32s(0, &ib).unwrap();
    let handles = [buf.bo.handle(), ib_buf.bo.handle()];
    let ibs = [Ib { va: ib_buf.va, size_dw: ib.len() as u32, flags: 0 }];
    let mut sub = Submission::new(Ip::Compute, &ibs, &handles);
    sub.user_fence = Some((&buf.bo, 256));
    let fence = gpu.ctx.submit(&sub).unwrap();
    assert!(gpu.ctx.wait(fence, Some(Duration::from_secs(10))).unwrap());

    assert_eq!(buf.map.read_u32s(16, 3).unwrap(), vec![11, 22, 33]);
    assert_eq!(buf.map.read_u32(64).unwrap(), 0x1234_5678);
    assert_eq!(buf.map.read_u64(72).unwrap(), 0xaaaa_bbbb_cccc_dddd);
    assert_eq!(buf.map.read_u64(256).unwrap(), fence.seq, "kernel user fence");
}

#[test]
fn submissions_execute_in_order() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let mut fences = Vec::new();
    let mut ibs = Vec::new();
    for i in 1..=20u64 {
        // Job i copies what job i-1 wrote, then writes its own marker.
        let mut ib = Vec::new();
        pm4::copy_mem32(&mut ib, buf.va + 4 * (i - 1), buf.va + 1024 + 4 * i);
        pm4::write_data(&mut ib, buf.va + 4 * i, &[i as u32 * 100]);
        let (fence, ib_buf) = gpu.submit(&ib, &[&buf]);
        fences.push(fence);
        ibs.push(ib_buf);
    }
    assert!(fences.windows(2).all(|w| w[1].seq == w[0].seq + 1));
    assert!(gpu.ctx.wait(*fences.last().unwrap(), Some(Duration::from_secs(10))).unwrap());
    for i in 2..=20u32 {
        assert_eq!(buf.map.read_u32(1024 + 4 * i as usize).unwrap(), (i - 1) * 100);
    }
}

#[test]
fn chained_and_called_indirect_buffers() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let mut ib2 = Vec::new();
    pm4::write_data(&mut ib2, buf.va, &[2]);
    let mut ib3 = Vec::new();
    pm4::write_data(&mut ib3, buf.va + 4, &[3]);
    let b2 = gpu.buffer(4096);
    b2.map.write_u32s(0, &ib2).unwrap();
    let b3 = gpu.buffer(4096);
    b3.map.write_u32s(0, &ib3).unwrap();

    let mut ib1 = Vec::new();
    pm4::indirect_buffer(&mut ib1, b2.va, ib2.len() as u32, false);
    pm4::indirect_buffer(&mut ib1, b3.va, ib3.len() as u32, true);
    // Never reached: a chain does not return.
    pm4::write_data(&mut ib1, buf.va + 8, &[99]);
    assert!(gpu.run(&ib1, &[&buf, &b2, &b3]).unwrap());
    assert_eq!(buf.map.read_u32s(0, 3).unwrap(), vec![2, 3, 0]);
}

#[test]
fn vm_fault_loses_only_the_guilty_context() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let mut bad = Vec::new();
    pm4::write_data(&mut bad, 0x7000_0000_0000, &[1]);
    let err = gpu.run(&bad, &[&buf]).unwrap_err();
    assert!(matches!(err, Error::ContextLost(LostReason::Guilty)), "{err:?}");
    let state = gpu.ctx.query_state().unwrap();
    assert!(state.guilty && state.reset);

    // Further submissions on the lost context are refused.
    let mut ok = Vec::new();
    pm4::write_data(&mut ok, buf.va, &[5]);
    let ib = gpu.buffer(4096);
    ib.map.write_u32s(0, &ok).unwrap();
    let ibs = [Ib { va: ib.va, size_dw: ok.len() as u32, flags: 0 }];
    let handles = [buf.bo.handle(), ib.bo.handle()];
    let err = gpu.ctx.submit(&Submission::new(Ip::Compute, &ibs, &handles)).unwrap_err();
    assert!(matches!(err, Error::ContextLost(_)), "{err:?}");

    // A fresh context on the same device works.
    let ctx2 = gpu.dev.create_context(Priority::Normal).unwrap();
    let fence = ctx2.submit(&Submission::new(Ip::Compute, &ibs, &handles)).unwrap();
    assert!(ctx2.wait(fence, None).unwrap());
    assert_eq!(buf.map.read_u32(0).unwrap(), 5);
    assert_eq!(ctx2.query_state().unwrap().lost(), None);
}

#[test]
fn bos_missing_from_the_bo_list_fault() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let mut ib = Vec::new();
    pm4::write_data(&mut ib, buf.va, &[1]);
    assert!(matches!(gpu.run(&ib, &[]), Err(Error::ContextLost(LostReason::Guilty))));
    assert_eq!(buf.map.read_u32(0).unwrap(), 0);
}

#[test]
fn read_only_pages_fault_on_write() {
    let gpu = Gpu::new();
    let ro = gpu.buffer_with(4096, VaFlags::READ);
    let mut ib = Vec::new();
    pm4::write_data(&mut ib, ro.va, &[1]);
    assert!(matches!(gpu.run(&ib, &[&ro]), Err(Error::ContextLost(_))));
}

#[test]
fn unknown_and_malformed_packets_lose_the_context() {
    for stream in [
        vec![pm4::header(0x7f, 1), 0],                // unknown opcode
        vec![pm4::header(pm4::WRITE_DATA, 6), 0x500], // body runs past the end
        vec![0x1234_5678],                            // type-0 packet
        vec![pm4::header(pm4::NOP, 1) | 1, 0],        // predicated
    ] {
        let gpu = Gpu::new();
        let err = gpu.run(&stream, &[]).unwrap_err();
        assert!(matches!(err, Error::ContextLost(LostReason::Guilty)), "{stream:x?}: {err:?}");
    }
}

#[test]
fn wait_reg_mem_waits_for_the_cpu() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let mut ib = Vec::new();
    pm4::wait_mem_eq(&mut ib, buf.va, 0x42, 0xff);
    pm4::write_data(&mut ib, buf.va + 4, &[7]);
    let (fence, _ib) = gpu.submit(&ib, &[&buf]);
    assert!(!gpu.ctx.wait(fence, Some(Duration::from_millis(50))).unwrap(), "still waiting");
    assert_eq!(buf.map.read_u32(4).unwrap(), 0);
    buf.map.write_u32s(0, &[0x1042]).unwrap();
    assert!(gpu.ctx.wait(fence, Some(Duration::from_secs(10))).unwrap());
    assert_eq!(buf.map.read_u32(4).unwrap(), 7);
}

#[test]
fn a_wait_that_never_ends_is_a_hang() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let mut ib = Vec::new();
    pm4::wait_mem_eq(&mut ib, buf.va, 1, 1);
    let err = gpu.run(&ib, &[&buf]).unwrap_err();
    assert!(matches!(err, Error::ContextLost(LostReason::Guilty)), "{err:?}");
}

#[test]
fn copy_data_immediate_and_timestamp() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let dst = buf.va + 8;
    let mut ib = Vec::new();
    // SRC_SEL 5 (immediate), DST_SEL 5 (memory), COUNT_SEL 64-bit.
    let control = 5 | (5 << 8) | (1 << 16);
    pm4::packet(
        &mut ib,
        pm4::COPY_DATA,
        &[control, 0x1111_2222, 0x3333_4444, dst as u32, (dst >> 32) as u32],
    );
    let ts = buf.va + 16;
    let control = 9 | (5 << 8) | (1 << 16);
    pm4::packet(&mut ib, pm4::COPY_DATA, &[control, 0, 0, ts as u32, (ts >> 32) as u32]);
    assert!(gpu.run(&ib, &[&buf]).unwrap());
    assert_eq!(buf.map.read_u64(8).unwrap(), 0x3333_4444_1111_2222);
    assert!(buf.map.read_u64(16).unwrap() > 0);
}

#[test]
fn gem_wait_idle_tracks_submitted_work() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let mut ib = Vec::new();
    pm4::wait_mem_eq(&mut ib, buf.va, 1, 1);
    let (fence, _ib) = gpu.submit(&ib, &[&buf]);
    assert!(!buf.bo.wait_idle(Some(Duration::from_millis(10))).unwrap());
    buf.map.write_u32s(0, &[1]).unwrap();
    assert!(gpu.ctx.wait(fence, None).unwrap());
    assert!(buf.bo.wait_idle(Some(Duration::ZERO)).unwrap());
}

#[test]
fn cp_dma_copies_and_fills() {
    let gpu = Gpu::new();
    let src = gpu.buffer(3 * 65536);
    let dst = gpu.buffer(3 * 65536);
    let data: Vec<u32> = (0..3 * 16384u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    src.map.write_u32s(0, &data).unwrap();
    let mut ib = Vec::new();
    // Copy 150000 bytes (crossing the 64 KiB staging chunk), then fill 40 bytes.
    let copy = |ib: &mut Vec<u32>, s: u64, d: u64, n: u32| {
        pm4::packet(ib, 0x50, &[0, s as u32, (s >> 32) as u32, d as u32, (d >> 32) as u32, n]);
    };
    copy(&mut ib, src.va + 4, dst.va + 8, 150_000);
    let fill_at = dst.va + 160_000;
    pm4::packet(
        &mut ib,
        0x50,
        &[2 << 29, 0xabcd_ef01, 0, fill_at as u32, (fill_at >> 32) as u32, 40],
    );
    assert!(gpu.run(&ib, &[&src, &dst]).unwrap());
    let got = dst.map.read_u32s(8, 150_000 / 4).unwrap();
    assert_eq!(got[..], data[1..1 + 150_000 / 4]);
    assert_eq!(dst.map.read_u32(4).unwrap(), 0, "nothing before the destination");
    assert_eq!(dst.map.read_u32s(160_000, 11).unwrap(), [vec![0xabcd_ef01; 10], vec![0]].concat());
}
