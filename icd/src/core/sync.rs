//! Fences and semaphores (binary and timeline), all of them DRM syncobjs.
//!
//! The kernel does the signalling: a submission names the syncobjs to signal when its job
//! completes and the points to wait for before it starts, so no driver thread is involved.
//! Waits that end also ask the kernel whether the context was lost, because a job that faulted
//! still signals its syncobjs.

use std::sync::Arc;
use std::time::Duration;

use ash::vk;
use ferrum_winsys as winsys;

use crate::core::device::DeviceShared;
use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

/// A Vulkan timeout in nanoseconds; `u64::MAX` (and anything beyond a century) waits forever.
pub fn timeout(ns: u64) -> Option<Duration> {
    const FOREVER: u64 = 100 * 365 * 24 * 3600 * 1_000_000_000;
    (ns < FOREVER).then(|| Duration::from_nanos(ns))
}

/// A syncobj point that keeps its syncobj alive (a submission may outlive the call).
#[derive(Debug, Clone)]
pub struct OwnedPoint {
    pub syncobj: Arc<winsys::Syncobj>,
    pub point: u64,
}

impl OwnedPoint {
    pub fn borrow(&self) -> winsys::SyncPoint<'_> {
        winsys::SyncPoint { syncobj: &self.syncobj, point: self.point }
    }
}

/// A `VkFence`.
#[repr(C)]
pub struct Fence {
    base: ObjectBase,
    shared: Arc<DeviceShared>,
    pub syncobj: Arc<winsys::Syncobj>,
}
vk_object!(Fence, vk::Fence, vk::ObjectType::FENCE);

impl Fence {
    pub fn new(shared: Arc<DeviceShared>, signaled: bool) -> VkResult<Self> {
        let syncobj = shared.winsys().create_syncobj(signaled).map_err(|e| shared.error(e))?;
        Ok(Fence {
            base: ObjectBase::new(vk::ObjectType::FENCE),
            shared,
            syncobj: Arc::new(syncobj),
        })
    }

    /// `vkGetFenceStatus`.
    pub fn is_signaled(&self) -> VkResult<bool> {
        self.shared.check_lost()?;
        let signaled = self.syncobj.is_signaled(0).map_err(|e| self.shared.error(e))?;
        if signaled {
            self.shared.refresh_lost()?;
        }
        Ok(signaled)
    }

    pub fn reset(&self) -> VkResult<()> {
        self.syncobj.reset().map_err(|e| self.shared.error(e))
    }
}

/// Waits for syncobj points; `Ok(false)` at the timeout.
pub fn wait_points(
    shared: &DeviceShared,
    points: &[winsys::SyncPoint<'_>],
    all: bool,
    timeout_ns: u64,
) -> VkResult<bool> {
    shared.check_lost()?;
    let mode = winsys::WaitMode { all, for_submit: true, available: false };
    match shared.winsys().wait_syncobjs(points, mode, timeout(timeout_ns)) {
        Ok(_) => {
            shared.refresh_lost()?;
            Ok(true)
        }
        Err(winsys::Error::Timeout) => {
            shared.refresh_lost()?;
            Ok(false)
        }
        Err(e) => Err(shared.error(e)),
    }
}

/// A `VkSemaphore`.
#[repr(C)]
pub struct Semaphore {
    base: ObjectBase,
    shared: Arc<DeviceShared>,
    pub syncobj: Arc<winsys::Syncobj>,
    pub timeline: bool,
}
vk_object!(Semaphore, vk::Semaphore, vk::ObjectType::SEMAPHORE);

impl Semaphore {
    pub fn new(shared: Arc<DeviceShared>, timeline: bool, initial: u64) -> VkResult<Self> {
        let syncobj = shared.winsys().create_syncobj(false).map_err(|e| shared.error(e))?;
        if timeline && initial > 0 {
            syncobj.signal_point(initial).map_err(|e| shared.error(e))?;
        }
        Ok(Semaphore {
            base: ObjectBase::new(vk::ObjectType::SEMAPHORE),
            shared,
            syncobj: Arc::new(syncobj),
            timeline,
        })
    }

    /// The syncobj point a wait or signal of `value` refers to (binary semaphores: point 0).
    pub fn point(&self, value: u64) -> winsys::SyncPoint<'_> {
        winsys::SyncPoint { syncobj: &self.syncobj, point: if self.timeline { value } else { 0 } }
    }

    /// As [`Semaphore::point`], owning a reference to the syncobj (for deferred submission).
    pub fn owned_point(&self, value: u64) -> OwnedPoint {
        OwnedPoint { syncobj: self.syncobj.clone(), point: if self.timeline { value } else { 0 } }
    }

    fn require_timeline(&self) -> VkResult<()> {
        // VUID-VkSemaphoreSignalInfo-semaphore-03257 / VUID-vkGetSemaphoreCounterValue-
        // semaphore-03255: "semaphore must have been created with a VkSemaphoreType of
        // VK_SEMAPHORE_TYPE_TIMELINE".
        if !self.timeline {
            return Err(VkError::InvalidUsage("timeline operation on a binary semaphore"));
        }
        Ok(())
    }

    /// `vkGetSemaphoreCounterValue`.
    pub fn counter_value(&self) -> VkResult<u64> {
        self.require_timeline()?;
        self.shared.check_lost()?;
        self.syncobj.query().map_err(|e| self.shared.error(e))
    }

    /// `vkSignalSemaphore`.
    pub fn signal(&self, value: u64) -> VkResult<()> {
        self.require_timeline()?;
        self.shared.check_lost()?;
        self.syncobj.signal_point(value).map_err(|e| self.shared.error(e))
    }
}
