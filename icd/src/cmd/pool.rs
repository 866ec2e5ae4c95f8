//! `VkCommandPool`: owns its command buffers, so destroying or resetting the pool reaches
//! every buffer allocated from it.

use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;

use super::buffer::CommandBuffer;
use crate::core::device::DeviceShared;
use crate::core::object::{vk_object, ObjectBase, VkObject};
use crate::error::{VkError, VkResult};

/// A `VkCommandPool`.
#[repr(C)]
pub struct CommandPool {
    base: ObjectBase,
    shared: Arc<DeviceShared>,
    pub family: u32,
    pub flags: vk::CommandPoolCreateFlags,
    /// Handles of the live command buffers allocated from this pool.
    buffers: Mutex<Vec<vk::CommandBuffer>>,
}
vk_object!(CommandPool, vk::CommandPool, vk::ObjectType::COMMAND_POOL);

impl CommandPool {
    pub fn new(shared: Arc<DeviceShared>, info: &vk::CommandPoolCreateInfo<'_>) -> VkResult<Self> {
        // VUID-vkCreateCommandPool-queueFamilyIndex-01937: "pCreateInfo->queueFamilyIndex must
        // be the index of a queue family available in the logical device device".
        if info.queue_family_index as usize >= shared.adapter.queue_families().len() {
            return Err(VkError::InvalidUsage("queueFamilyIndex out of range"));
        }
        if info.flags.contains(vk::CommandPoolCreateFlags::PROTECTED) {
            return Err(VkError::FeatureNotPresent("protected command pools".into()));
        }
        Ok(CommandPool {
            base: ObjectBase::new(vk::ObjectType::COMMAND_POOL),
            shared,
            family: info.queue_family_index,
            flags: info.flags,
            buffers: Mutex::new(Vec::new()),
        })
    }

    /// The ring this pool's queue family submits to.
    fn ip(&self) -> ferrum_winsys::Ip {
        if self.family == crate::core::physical_device::GRAPHICS_FAMILY {
            ferrum_winsys::Ip::Gfx
        } else {
            ferrum_winsys::Ip::Compute
        }
    }

    /// `vkAllocateCommandBuffers`: all `count` buffers, in the pool's host memory (pooled
    /// objects use their pool's allocator), or none.
    pub fn allocate(
        &self,
        handle: vk::CommandPool,
        level: vk::CommandBufferLevel,
        count: usize,
    ) -> VkResult<Vec<vk::CommandBuffer>> {
        let mut new = Vec::with_capacity(count);
        for _ in 0..count {
            let cb = CommandBuffer::new(self.shared.clone(), handle, level, self.ip());
            match cb.into_handle_in(self.base.host()) {
                Ok(h) => new.push(h),
                Err(e) => {
                    for h in new {
                        // SAFETY: created just above and never handed out.
                        drop(unsafe { CommandBuffer::take_handle(h) });
                    }
                    return Err(e);
                }
            }
        }
        self.buffers.lock().extend_from_slice(&new);
        Ok(new)
    }

    /// `vkFreeCommandBuffers` of one buffer; handles not from this pool are ignored.
    pub fn free(&self, handle: vk::CommandBuffer) {
        let mut buffers = self.buffers.lock();
        if let Some(i) = buffers.iter().position(|&h| h == handle) {
            buffers.swap_remove(i);
            // SAFETY: the handle was created by `allocate` and is removed from the list, so it
            // is destroyed exactly once; the application no longer uses it (valid usage).
            drop(unsafe { CommandBuffer::take_handle(handle) });
        }
    }

    /// `vkResetCommandPool`.
    pub fn reset(&self, release: bool) {
        for &h in self.buffers.lock().iter() {
            // SAFETY: every listed handle is a live command buffer of this pool.
            if let Some(cb) = unsafe { CommandBuffer::from_handle(h) } {
                cb.reset(release);
            }
        }
    }

    /// `vkTrimCommandPool` (VK_KHR_maintenance1).
    pub fn trim(&self) {
        for &h in self.buffers.lock().iter() {
            // SAFETY: every listed handle is a live command buffer of this pool.
            if let Some(cb) = unsafe { CommandBuffer::from_handle(h) } {
                cb.trim();
            }
        }
    }

    pub fn len(&self) -> usize {
        self.buffers.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Drop for CommandPool {
    fn drop(&mut self) {
        for h in self.buffers.get_mut().drain(..) {
            // SAFETY: the pool owns its live command buffers; each is destroyed once here.
            drop(unsafe { CommandBuffer::take_handle(h) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::pm4::NOP_HEADER_ONLY;
    use crate::core::physical_device::Adapter;

    /// vkTrimCommandPool gives back chunks a reset buffer keeps, and only the unused ones of a
    /// recorded buffer.
    #[test]
    fn trim_releases_unused_chunks() {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        let shared = Arc::new(DeviceShared::new(adapter).unwrap());
        let pool = CommandPool::new(shared, &vk::CommandPoolCreateInfo::default()).unwrap();
        let h =
            pool.allocate(vk::CommandPool::null(), vk::CommandBufferLevel::PRIMARY, 1).unwrap()[0];
        // SAFETY: allocated just above and owned by the pool.
        let cb = unsafe { CommandBuffer::from_handle(h) }.unwrap();
        let record = |dwords: usize| {
            cb.begin(vk::CommandBufferUsageFlags::empty()).unwrap();
            cb.record(|s| (0..dwords).try_for_each(|_| s.emit(&[NOP_HEADER_ONLY])));
            cb.end().unwrap();
        };
        record(20_000);
        let grown = cb.chunk_count();
        assert!(grown > 1, "{grown} chunks");
        pool.trim();
        assert_eq!(cb.chunk_count(), grown, "a recorded buffer keeps the chunks it uses");
        cb.reset(false);
        assert_eq!(cb.chunk_count(), grown, "reset without release keeps the chunks");
        pool.trim();
        assert_eq!(cb.chunk_count(), 0);
        record(10);
        assert_eq!(cb.chunk_count(), 1);
        // Re-recorded into the first chunk of a grown buffer: the later chunks go.
        record(20_000);
        cb.reset(false);
        record(10);
        assert_eq!(cb.chunk_count(), grown);
        pool.trim();
        assert_eq!(cb.chunk_count(), 1);
    }
}
