//! DRM syncobj semantics on the simulated kernel, through winsys.

mod common;

use std::time::{Duration, Instant};

use common::{pm4, Gpu};
use ferrum_winsys::{Error, Ib, Ip, Submission, SyncPoint, WaitMode};

const SHORT: Option<Duration> = Some(Duration::from_millis(20));
const LONG: Option<Duration> = Some(Duration::from_secs(10));

#[test]
fn binary_signal_reset_and_timeout() {
    let gpu = Gpu::new();
    let s = gpu.dev.create_syncobj(false).unwrap();
    // An empty binary syncobj has no fence yet: waiting for submit times out.
    let t0 = Instant::now();
    assert!(matches!(s.wait(0, SHORT), Err(Error::Timeout)));
    assert!(t0.elapsed() >= Duration::from_millis(15), "the wait really blocked");
    s.signal().unwrap();
    s.wait(0, SHORT).unwrap();
    assert!(s.is_signaled(0).unwrap());
    s.reset().unwrap();
    assert!(!s.is_signaled(0).unwrap());
    let pre = gpu.dev.create_syncobj(true).unwrap();
    assert!(pre.is_signaled(0).unwrap());
}

#[test]
fn timeline_points_query_and_waits() {
    let gpu = Gpu::new();
    let t = gpu.dev.create_syncobj(false).unwrap();
    assert_eq!(t.query().unwrap(), 0);
    t.signal_point(3).unwrap();
    t.signal_point(5).unwrap();
    assert_eq!(t.query().unwrap(), 5);
    assert_eq!(t.query_last_submitted().unwrap(), 5);
    t.wait(4, SHORT).unwrap();
    assert!(matches!(t.wait(6, SHORT), Err(Error::Timeout)));

    // Without WAIT_FOR_SUBMIT an unsubmitted point is an error, not a wait.
    let strict = WaitMode { all: true, for_submit: false, available: false };
    let err = gpu.dev.wait_syncobjs(&[SyncPoint { syncobj: &t, point: 9 }], strict, SHORT);
    assert!(matches!(err, Err(Error::Ioctl { .. })), "{err:?}");

    // A CPU thread signals point 7 later; the waiter wakes up.
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(30));
            t.signal_point(7).unwrap();
        });
        t.wait(7, LONG).unwrap();
    });
    assert_eq!(t.query().unwrap(), 7);
}

#[test]
fn wait_any_reports_the_first_signaled() {
    let gpu = Gpu::new();
    let a = gpu.dev.create_syncobj(false).unwrap();
    let b = gpu.dev.create_syncobj(false).unwrap();
    b.signal().unwrap();
    let any = WaitMode { all: false, for_submit: true, available: false };
    let points = [SyncPoint { syncobj: &a, point: 0 }, SyncPoint { syncobj: &b, point: 0 }];
    assert_eq!(gpu.dev.wait_syncobjs(&points, any, SHORT).unwrap(), 1);
    let all = WaitMode { all: true, ..any };
    assert!(matches!(gpu.dev.wait_syncobjs(&points, all, SHORT), Err(Error::Timeout)));
}

#[test]
fn transfer_between_binary_and_timeline() {
    let gpu = Gpu::new();
    let timeline = gpu.dev.create_syncobj(false).unwrap();
    let binary = gpu.dev.create_syncobj(false).unwrap();
    binary.signal().unwrap();
    timeline.transfer_from(&binary, 0, 10).unwrap();
    assert_eq!(timeline.query().unwrap(), 10);
    let other = gpu.dev.create_syncobj(false).unwrap();
    other.transfer_from(&timeline, 10, 0).unwrap();
    assert!(other.is_signaled(0).unwrap());
}

#[test]
fn submission_waits_for_and_signals_syncobjs() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let gate = gpu.dev.create_syncobj(false).unwrap();
    let done = gpu.dev.create_syncobj(false).unwrap();
    let out = gpu.dev.create_syncobj(false).unwrap();

    let mut pm = Vec::new();
    pm4::write_data(&mut pm, buf.va, &[0xfeed]);
    let ib = gpu.buffer(4096);
    ib.map.write_u32s(0, &pm).unwrap();
    let ibs = [Ib { va: ib.va, size_dw: pm.len() as u32, flags: 0 }];
    let handles = [buf.bo.handle(), ib.bo.handle()];
    let waits = [SyncPoint { syncobj: &gate, point: 2 }];
    let signals = [SyncPoint { syncobj: &done, point: 1 }, SyncPoint { syncobj: &out, point: 0 }];
    let sub = Submission {
        waits: &waits,
        signals: &signals,
        ..Submission::new(Ip::Compute, &ibs, &handles)
    };

    // Wait-before-signal: the gate's points are signaled by the CPU after the submission was
    // made; the kernel holds the submission until point 2 exists.
    let fence = std::thread::scope(|scope| {
        let h = scope.spawn(|| gpu.ctx.submit(&sub).unwrap());
        std::thread::sleep(Duration::from_millis(20));
        gate.signal_point(1).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(buf.map.read_u32(0).unwrap(), 0, "point 2 not reached: nothing ran");
        assert!(!out.is_signaled(0).unwrap());
        gate.signal_point(2).unwrap();
        h.join().unwrap()
    });
    done.wait(1, LONG).unwrap();
    out.wait(0, LONG).unwrap();
    assert!(gpu.ctx.wait(fence, LONG).unwrap());
    assert_eq!(buf.map.read_u32(0).unwrap(), 0xfeed);
    assert_eq!(done.query().unwrap(), 1);
}

#[test]
fn gpu_signaled_timeline_orders_two_submissions() {
    let gpu = Gpu::new();
    let buf = gpu.buffer(4096);
    let timeline = gpu.dev.create_syncobj(false).unwrap();
    // Job 1 waits on memory the CPU writes; job 2 (another context) waits on job 1's point.
    let mut p1 = Vec::new();
    pm4::wait_mem_eq(&mut p1, buf.va, 1, 1);
    pm4::write_data(&mut p1, buf.va + 4, &[10]);
    let mut p2 = Vec::new();
    pm4::copy_mem32(&mut p2, buf.va + 4, buf.va + 8);
    let (ib1, ib2) = (gpu.buffer(4096), gpu.buffer(4096));
    ib1.map.write_u32s(0, &p1).unwrap();
    ib2.map.write_u32s(0, &p2).unwrap();
    let ibs1 = [Ib { va: ib1.va, size_dw: p1.len() as u32, flags: 0 }];
    let ibs2 = [Ib { va: ib2.va, size_dw: p2.len() as u32, flags: 0 }];
    let h1 = [buf.bo.handle(), ib1.bo.handle()];
    let h2 = [buf.bo.handle(), ib2.bo.handle()];
    let point = [SyncPoint { syncobj: &timeline, point: 4 }];
    let s1 = Submission { signals: &point, ..Submission::new(Ip::Compute, &ibs1, &h1) };
    let s2 = Submission { waits: &point, ..Submission::new(Ip::Compute, &ibs2, &h2) };
    let ctx2 = gpu.dev.create_context(ferrum_winsys::Priority::Normal).unwrap();
    gpu.ctx.submit(&s1).unwrap();
    let f2 = ctx2.submit(&s2).unwrap();
    assert_eq!(timeline.query_last_submitted().unwrap(), 4);
    assert!(!ctx2.wait(f2, SHORT).unwrap());
    assert_eq!(timeline.query().unwrap(), 0);
    buf.map.write_u32s(0, &[1]).unwrap();
    assert!(ctx2.wait(f2, LONG).unwrap());
    assert_eq!(buf.map.read_u32(8).unwrap(), 10);
    assert_eq!(timeline.query().unwrap(), 4);
}

#[test]
fn export_and_import_across_devices() {
    let a = Gpu::new();
    let b = Gpu::new();
    let shared = a.dev.create_syncobj(false).unwrap();
    let fd = shared.export(false).unwrap();
    let imported = b.dev.import_syncobj(&fd).unwrap();
    drop(fd);
    assert!(!imported.is_signaled(0).unwrap());
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(20));
            shared.signal().unwrap();
        });
        imported.wait(0, LONG).unwrap();
    });

    // A sync_file carries the current fence only.
    let src = a.dev.create_syncobj(true).unwrap();
    let file = src.export(true).unwrap();
    let dst = b.dev.create_syncobj(false).unwrap();
    dst.import_sync_file(&file).unwrap();
    assert!(dst.is_signaled(0).unwrap());
    // Exporting an empty syncobj as a sync_file is refused.
    let empty = a.dev.create_syncobj(false).unwrap();
    assert!(empty.export(true).is_err());
}
