//! Fences.
//!
//! Until queue submission exists nothing on the GPU side can signal a fence, so a fence is a
//! host-side flag: created signaled or not, reset by the application, and waited on with a
//! real timeout. Waiters sleep on the device's fence event so that submission, when it lands,
//! only has to call [`Fence::signal`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ash::vk;
use parking_lot::{Condvar, Mutex};

use crate::core::object::{vk_object, ObjectBase};

/// A `VkFence`.
#[repr(C)]
pub struct Fence {
    base: ObjectBase,
    signaled: AtomicBool,
}
vk_object!(Fence, vk::Fence, vk::ObjectType::FENCE);

impl Fence {
    pub fn new(signaled: bool) -> Self {
        Fence { base: ObjectBase::new(vk::ObjectType::FENCE), signaled: AtomicBool::new(signaled) }
    }

    pub fn is_signaled(&self) -> bool {
        self.signaled.load(Ordering::Acquire)
    }

    pub fn reset(&self) {
        self.signaled.store(false, Ordering::Release);
    }

    pub fn signal(&self, event: &FenceEvent) {
        self.signaled.store(true, Ordering::Release);
        event.notify();
    }
}

/// Wakes fence waiters of one device.
#[derive(Default)]
pub struct FenceEvent {
    lock: Mutex<()>,
    cond: Condvar,
}

impl FenceEvent {
    fn notify(&self) {
        let _g = self.lock.lock();
        self.cond.notify_all();
    }

    /// Waits until `done()` holds or `timeout_ns` passes; returns whether `done()` held.
    pub fn wait(&self, timeout_ns: u64, done: impl Fn() -> bool) -> bool {
        let deadline = Instant::now().checked_add(Duration::from_nanos(timeout_ns));
        let mut guard = self.lock.lock();
        loop {
            if done() {
                return true;
            }
            match deadline {
                Some(d) if Instant::now() >= d => return false,
                Some(d) => {
                    self.cond.wait_until(&mut guard, d);
                }
                // A timeout too far away to represent: wait without one.
                None => self.cond.wait(&mut guard),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wait_times_out_then_sees_signal() {
        let ev = FenceEvent::default();
        let f = Fence::new(false);
        assert!(!ev.wait(1_000_000, || f.is_signaled()));
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(5));
                f.signal(&ev);
            });
            assert!(ev.wait(u64::MAX, || f.is_signaled()));
        });
        f.reset();
        assert!(!f.is_signaled());
    }
}
