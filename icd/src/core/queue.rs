//! `VkQueue` and submission: one amdgpu CS ioctl per batch.
//!
//! Queue family 0 (graphics + compute) maps to the kernel's GFX ring, the queues of family 1
//! to its compute rings. Work of one queue runs in submission order on its ring, so a fence
//! only needs to be attached to the last batch of a `vkQueueSubmit`.
//!
//! Timeline semaphores allow waiting for a value that nobody has submitted a signal for yet.
//! The kernel's CS ioctl cannot express that (it waits at most a few seconds for the point to
//! appear, then fails), so such a batch, and every batch of the queue after it, goes to a
//! per-queue submission thread ([`worker`](super::queue_worker)) that waits until the points
//! exist and then makes the ioctl, keeping the queue's order.

use std::sync::Arc;
use std::time::Duration;

use ash::vk;
use ferrum_winsys as winsys;
use parking_lot::Mutex;

use crate::cmd::CommandBuffer;
use crate::core::device::DeviceShared;
use crate::core::object::{vk_object, ObjectBase};
use crate::core::physical_device::GRAPHICS_FAMILY;
use crate::core::queue_worker::Worker;
use crate::core::sync::{Fence, OwnedPoint};
use crate::error::VkResult;

/// One `VkSubmitInfo` / `VkSubmitInfo2`, with handles already resolved.
#[derive(Default)]
pub struct Batch<'a> {
    pub waits: Vec<OwnedPoint>,
    pub command_buffers: Vec<&'a CommandBuffer>,
    pub signals: Vec<OwnedPoint>,
}

/// A batch ready for the kernel: IBs and syncobj points, owning everything it refers to.
pub struct Job {
    pub ibs: Vec<winsys::Ib>,
    pub waits: Vec<OwnedPoint>,
    pub signals: Vec<OwnedPoint>,
}

/// Where a queue's jobs go to the kernel (shared with its submission thread).
pub struct Ring {
    pub shared: Arc<DeviceShared>,
    pub ip: winsys::Ip,
    pub ring: u32,
    /// The last job submitted, for `vkQueueWaitIdle`.
    pub last: Mutex<Option<winsys::CsFence>>,
}

impl Ring {
    /// Makes the CS ioctl for one job.
    pub fn submit(&self, job: &Job) -> VkResult<()> {
        let waits: Vec<_> = job.waits.iter().map(OwnedPoint::borrow).collect();
        let signals: Vec<_> = job.signals.iter().map(OwnedPoint::borrow).collect();
        let mut sub = winsys::Submission::new(self.ip, &job.ibs, &[]);
        sub.ring = self.ring;
        sub.waits = &waits;
        sub.signals = &signals;
        let done = self.shared.ctx.submit(&sub).map_err(|e| self.shared.error(e))?;
        *self.last.lock() = Some(done);
        Ok(())
    }

    /// Whether every wait point already has a fence (was submitted or signalled).
    pub fn waits_available(&self, job: &Job, timeout: Option<Duration>) -> VkResult<bool> {
        if job.waits.is_empty() {
            return Ok(true);
        }
        let points: Vec<_> = job.waits.iter().map(OwnedPoint::borrow).collect();
        let mode = winsys::WaitMode { all: true, for_submit: true, available: true };
        match self.shared.winsys().wait_syncobjs(&points, mode, timeout) {
            Ok(_) => Ok(true),
            Err(winsys::Error::Timeout) => Ok(false),
            Err(e) => Err(self.shared.error(e)),
        }
    }
}

/// A `VkQueue`.
#[repr(C)]
pub struct Queue {
    base: ObjectBase,
    pub family: u32,
    pub index: u32,
    pub flags: vk::DeviceQueueCreateFlags,
    ring: Arc<Ring>,
    /// The submission thread, started by the first batch that must wait for a future point.
    /// The lock also keeps one queue's submissions in order.
    worker: Mutex<Option<Worker>>,
}
vk_object!(Queue, vk::Queue, vk::ObjectType::QUEUE);

impl Queue {
    pub fn new(
        shared: Arc<DeviceShared>,
        family: u32,
        index: u32,
        flags: vk::DeviceQueueCreateFlags,
    ) -> Self {
        let (ip, ring) = if family == GRAPHICS_FAMILY {
            (winsys::Ip::Gfx, 0)
        } else {
            (winsys::Ip::Compute, index)
        };
        Queue {
            base: ObjectBase::new(vk::ObjectType::QUEUE),
            family,
            index,
            flags,
            ring: Arc::new(Ring { shared, ip, ring, last: Mutex::new(None) }),
            worker: Mutex::new(None),
        }
    }

    fn job(&self, batch: &Batch<'_>, fence: Option<&Fence>) -> VkResult<Job> {
        let mut ibs = Vec::with_capacity(batch.command_buffers.len());
        for cb in &batch.command_buffers {
            ibs.extend(cb.submit_ib()?);
        }
        if ibs.is_empty() {
            let ib = &self.ring.shared.empty_ib;
            ibs.push(winsys::Ib { va: ib.va(), size_dw: 8, flags: 0 });
        }
        let mut signals = batch.signals.clone();
        if let Some(f) = fence {
            signals.push(OwnedPoint { syncobj: f.syncobj.clone(), point: 0 });
        }
        Ok(Job { ibs, waits: batch.waits.clone(), signals })
    }

    /// `vkQueueSubmit` / `vkQueueSubmit2`.
    pub fn submit(&self, batches: &[Batch<'_>], fence: Option<&Fence>) -> VkResult<()> {
        self.ring.shared.check_lost()?;
        let mut worker = self.worker.lock();
        let empty = [Batch::default()];
        // A fence with no batches still signals once earlier work is done.
        let batches = if batches.is_empty() && fence.is_some() { &empty[..] } else { batches };
        for (i, batch) in batches.iter().enumerate() {
            let last = i + 1 == batches.len();
            let job = self.job(batch, if last { fence } else { None })?;
            let busy = worker.as_ref().is_some_and(Worker::busy);
            if !busy && self.ring.waits_available(&job, Some(Duration::ZERO))? {
                self.ring.submit(&job)?;
            } else {
                worker.get_or_insert_with(|| Worker::start(self.ring.clone())).push(job);
            }
        }
        Ok(())
    }

    /// `vkQueueWaitIdle`.
    pub fn wait_idle(&self) -> VkResult<()> {
        let shared = &self.ring.shared;
        shared.check_lost()?;
        if let Some(w) = self.worker.lock().as_ref() {
            w.drain();
        }
        shared.check_lost()?;
        let last = *self.ring.last.lock();
        if let Some(job) = last {
            shared.ctx.wait(job, None).map_err(|e| shared.error(e))?;
        }
        shared.refresh_lost()
    }
}
