//! Timeouts as the kernel wants them: absolute CLOCK_MONOTONIC nanoseconds.

use std::time::Duration;

/// The current CLOCK_MONOTONIC time in nanoseconds.
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec to write; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64).saturating_mul(1_000_000_000).saturating_add(ts.tv_nsec as u64)
}

/// A relative timeout turned into the kernel's absolute form; `None` waits forever.
pub fn deadline_ns(timeout: Option<Duration>) -> i64 {
    match timeout {
        None => i64::MAX,
        Some(t) => {
            let rel = u64::try_from(t.as_nanos()).unwrap_or(u64::MAX);
            monotonic_ns().saturating_add(rel).min(i64::MAX as u64) as i64
        }
    }
}
