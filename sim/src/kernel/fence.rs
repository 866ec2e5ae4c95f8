//! Fences (the kernel's dma_fence) and the wake-up channel all waiters share.
//!
//! One device-wide [`Notifier`] replaces per-fence wait queues: a signal wakes every waiter,
//! each re-checks its own condition. Waits in the simulator are few and short-lived, so this
//! keeps the logic (multi-object waits, wait-for-submit) simple without losing wake-ups: state
//! changes happen before `notify`, and waiters test their condition under the notifier lock.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrum_winsys::time::monotonic_ns;
use ferrum_winsys::Errno;
use parking_lot::{Condvar, Mutex};

#[derive(Debug, Default)]
pub struct Notifier {
    lock: Mutex<()>,
    cond: Condvar,
}

impl Notifier {
    /// Wakes all waiters; call after changing any state they may be waiting on.
    pub fn notify(&self) {
        let _guard = self.lock.lock();
        self.cond.notify_all();
    }

    /// Waits until `ready()` holds or `deadline` passes; returns the final `ready()`.
    /// `ready` runs with the notifier lock held and must not call [`Notifier::notify`].
    pub fn wait_until(&self, deadline: Option<Instant>, mut ready: impl FnMut() -> bool) -> bool {
        let mut guard = self.lock.lock();
        loop {
            if ready() {
                return true;
            }
            match deadline {
                None => self.cond.wait(&mut guard),
                Some(d) => {
                    if self.cond.wait_until(&mut guard, d).timed_out() {
                        return ready();
                    }
                }
            }
        }
    }
}

/// Deadline of a DRM syncobj wait: absolute CLOCK_MONOTONIC ns, past or negative = poll.
/// `None` means the deadline is beyond what `Instant` can represent, i.e. forever.
pub fn syncobj_deadline(abs_ns: i64) -> Option<Instant> {
    let rel = (abs_ns.max(0) as u64).saturating_sub(monotonic_ns());
    Instant::now().checked_add(Duration::from_nanos(rel))
}

/// Deadline of an amdgpu wait (WAIT_CS, GEM_WAIT_IDLE): like syncobjs, except that a value
/// with the top bit set means "forever" (amdgpu's `amdgpu_gem_timeout`).
pub fn amdgpu_deadline(abs_ns: u64) -> Option<Instant> {
    if abs_ns as i64 <= -1 {
        return None;
    }
    syncobj_deadline(abs_ns as i64)
}

/// A one-shot completion with an optional error, or the conjunction of other fences (what a
/// timeline point stands for: its own work and everything before it).
#[derive(Debug)]
pub struct Fence {
    signaled: AtomicBool,
    error: AtomicI32,
    parts: Vec<Arc<Fence>>,
    notifier: Arc<Notifier>,
}

impl Fence {
    pub fn new(notifier: Arc<Notifier>) -> Arc<Fence> {
        Arc::new(Fence {
            signaled: AtomicBool::new(false),
            error: AtomicI32::new(0),
            parts: Vec::new(),
            notifier,
        })
    }

    /// An already-signaled fence (the kernel's stub fence).
    pub fn signaled(notifier: Arc<Notifier>) -> Arc<Fence> {
        let f = Fence::new(notifier);
        f.signaled.store(true, Ordering::Release);
        f
    }

    /// A fence that is signaled once all of `parts` are.
    pub fn all(notifier: Arc<Notifier>, parts: Vec<Arc<Fence>>) -> Arc<Fence> {
        if parts.len() == 1 {
            return parts.into_iter().next().expect("one part");
        }
        let empty = parts.is_empty();
        Arc::new(Fence {
            signaled: AtomicBool::new(empty),
            error: AtomicI32::new(0),
            parts,
            notifier,
        })
    }

    pub fn is_signaled(&self) -> bool {
        if self.parts.is_empty() {
            self.signaled.load(Ordering::Acquire)
        } else {
            self.parts.iter().all(|p| p.is_signaled())
        }
    }

    /// The error the work ended with (ECANCELED, ETIME, ...), once signaled.
    pub fn error(&self) -> Option<Errno> {
        match self.error.load(Ordering::Acquire) {
            0 => self.parts.iter().find_map(|p| p.error()),
            e => Some(Errno(e)),
        }
    }

    /// Signals a plain fence (composites follow their parts).
    pub fn signal(&self, error: Option<Errno>) {
        if let Some(e) = error {
            self.error.store(e.0, Ordering::Release);
        }
        self.signaled.store(true, Ordering::Release);
        self.notifier.notify();
    }

    /// Waits for the fence; `false` on timeout.
    pub fn wait(&self, deadline: Option<Instant>) -> bool {
        self.notifier.wait_until(deadline, || self.is_signaled())
    }
}
