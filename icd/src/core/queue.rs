//! `VkQueue` and submission: one amdgpu CS ioctl per batch.
//!
//! Queue family 0 (graphics + compute) maps to the kernel's GFX ring, the queues of family 1
//! to its compute rings. Work of one queue runs in submission order on its ring, so a fence
//! only needs to be attached to the last batch of a `vkQueueSubmit`.

use std::sync::Arc;

use ash::vk;
use ferrum_winsys as winsys;
use parking_lot::Mutex;

use crate::cmd::CommandBuffer;
use crate::core::device::DeviceShared;
use crate::core::object::{vk_object, ObjectBase};
use crate::core::physical_device::GRAPHICS_FAMILY;
use crate::core::sync::Fence;
use crate::error::VkResult;

/// One `VkSubmitInfo` / `VkSubmitInfo2`, with handles already resolved.
#[derive(Default)]
pub struct Batch<'a> {
    pub waits: Vec<winsys::SyncPoint<'a>>,
    pub command_buffers: Vec<&'a CommandBuffer>,
    pub signals: Vec<winsys::SyncPoint<'a>>,
}

/// A `VkQueue`.
#[repr(C)]
pub struct Queue {
    base: ObjectBase,
    pub family: u32,
    pub index: u32,
    pub flags: vk::DeviceQueueCreateFlags,
    shared: Arc<DeviceShared>,
    ip: winsys::Ip,
    ring: u32,
    /// The last job submitted, for `vkQueueWaitIdle`; the lock also keeps submissions of one
    /// queue in order when several threads submit to it (externally synchronised anyway).
    last: Mutex<Option<winsys::CsFence>>,
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
            shared,
            ip,
            ring,
            last: Mutex::new(None),
        }
    }

    /// `vkQueueSubmit` / `vkQueueSubmit2`.
    pub fn submit(&self, batches: &[Batch<'_>], fence: Option<&Fence>) -> VkResult<()> {
        self.shared.check_lost()?;
        let mut last = self.last.lock();
        let empty = [Batch::default()];
        // A fence with no batches still signals once earlier work is done.
        let batches = if batches.is_empty() && fence.is_some() { &empty[..] } else { batches };
        for (i, batch) in batches.iter().enumerate() {
            let mut ibs = Vec::with_capacity(batch.command_buffers.len());
            for cb in &batch.command_buffers {
                ibs.extend(cb.submit_ib()?);
            }
            if ibs.is_empty() {
                let ib = &self.shared.empty_ib;
                ibs.push(winsys::Ib { va: ib.va(), size_dw: 8, flags: 0 });
            }
            let mut signals = batch.signals.clone();
            if let (Some(f), true) = (fence, i + 1 == batches.len()) {
                signals.push(winsys::SyncPoint { syncobj: &f.syncobj, point: 0 });
            }
            let mut sub = winsys::Submission::new(self.ip, &ibs, &[]);
            sub.ring = self.ring;
            sub.waits = &batch.waits;
            sub.signals = &signals;
            let done = self.shared.ctx.submit(&sub).map_err(|e| self.shared.error(e))?;
            *last = Some(done);
        }
        Ok(())
    }

    /// `vkQueueWaitIdle`.
    pub fn wait_idle(&self) -> VkResult<()> {
        self.shared.check_lost()?;
        let last = *self.last.lock();
        if let Some(job) = last {
            self.shared.ctx.wait(job, None).map_err(|e| self.shared.error(e))?;
        }
        self.shared.refresh_lost()
    }
}
