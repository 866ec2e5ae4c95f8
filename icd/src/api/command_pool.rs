//! Command pool and command buffer lifecycle commands.

use ash::vk;

use super::{obj, reference};
use crate::cmd::{CommandBuffer, CommandPool};
use crate::core::device::Device;
use crate::core::host_memory::HostMemory;
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value};
use crate::error::VkError;

pub unsafe extern "system" fn create_command_pool(
    device: vk::Device,
    p_create_info: *const vk::CommandPoolCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pool: *mut vk::CommandPool,
) -> vk::Result {
    guard("vkCreateCommandPool", || {
        // SAFETY: a live device and a valid create info.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let pool = CommandPool::new(device.shared.clone(), info)?;
        // SAFETY: null or valid callbacks (valid usage).
        let host = unsafe { HostMemory::from_ptr(p_allocator, device.base().host()) };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { super::output(p_pool)? } = pool.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_command_pool(
    _device: vk::Device,
    pool: vk::CommandPool,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyCommandPool", (), || {
        // SAFETY: a null or live handle, not used afterwards; its buffers go with it.
        drop(unsafe { CommandPool::take_handle(pool) });
    })
}

pub unsafe extern "system" fn trim_command_pool(
    _device: vk::Device,
    pool: vk::CommandPool,
    _flags: vk::CommandPoolTrimFlags,
) {
    guard_value("vkTrimCommandPool", (), || {
        // SAFETY: a live handle (valid usage).
        if let Some(pool) = unsafe { CommandPool::from_handle(pool) } {
            pool.trim();
        }
    })
}

pub unsafe extern "system" fn reset_command_pool(
    _device: vk::Device,
    pool: vk::CommandPool,
    flags: vk::CommandPoolResetFlags,
) -> vk::Result {
    guard("vkResetCommandPool", || {
        // SAFETY: a live handle.
        let pool = unsafe { obj::<CommandPool>(pool)? };
        pool.reset(flags.contains(vk::CommandPoolResetFlags::RELEASE_RESOURCES));
        Ok(())
    })
}

pub unsafe extern "system" fn allocate_command_buffers(
    _device: vk::Device,
    p_info: *const vk::CommandBufferAllocateInfo<'_>,
    p_buffers: *mut vk::CommandBuffer,
) -> vk::Result {
    guard("vkAllocateCommandBuffers", || {
        // SAFETY: a valid allocate info naming a live pool.
        let info = unsafe { reference(p_info)? };
        // SAFETY: the application passes a live pool (valid usage).
        let pool = unsafe { obj::<CommandPool>(info.command_pool)? };
        if p_buffers.is_null() {
            return Err(VkError::InvalidUsage("null pCommandBuffers"));
        }
        let count = info.command_buffer_count as usize;
        match pool.allocate(info.command_pool, info.level, count) {
            Ok(handles) => {
                // SAFETY: the application passes room for `commandBufferCount` handles.
                unsafe { std::ptr::copy_nonoverlapping(handles.as_ptr(), p_buffers, count) };
                Ok(())
            }
            Err(e) => {
                // "If the creation of any of those command buffers fails, the implementation
                // must destroy all successfully created command buffer objects from this
                // command, set all entries of the pCommandBuffers array to NULL and return
                // the error."
                for i in 0..count {
                    // SAFETY: room for `commandBufferCount` handles.
                    unsafe { p_buffers.add(i).write(vk::CommandBuffer::null()) };
                }
                Err(e)
            }
        }
    })
}

pub unsafe extern "system" fn free_command_buffers(
    _device: vk::Device,
    pool: vk::CommandPool,
    count: u32,
    p_buffers: *const vk::CommandBuffer,
) {
    guard_value("vkFreeCommandBuffers", (), || {
        // SAFETY: a live pool.
        let Some(pool) = (unsafe { CommandPool::from_handle(pool) }) else { return };
        for &h in super::array(p_buffers, count) {
            pool.free(h);
        }
    })
}

pub unsafe extern "system" fn begin_command_buffer(
    cb: vk::CommandBuffer,
    p_info: *const vk::CommandBufferBeginInfo<'_>,
) -> vk::Result {
    guard("vkBeginCommandBuffer", || {
        // SAFETY: a live handle and a valid begin info.
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_info)? };
        // SAFETY: the chain of a valid begin info.
        unsafe { super::device_group::check_begin(info.p_next)? };
        // "If commandBuffer is a secondary command buffer ... pInheritanceInfo" describes the
        // render pass it continues (ignored for primaries and without RENDER_PASS_CONTINUE).
        let continues = cb.level == vk::CommandBufferLevel::SECONDARY
            && info.flags.contains(vk::CommandBufferUsageFlags::RENDER_PASS_CONTINUE);
        let scope = if continues {
            // SAFETY: a valid inheritance info for such a secondary (valid usage).
            let inherit = unsafe { reference(info.p_inheritance_info)? };
            Some(crate::gfx::rendering::inherited(inherit)?)
        } else {
            None
        };
        cb.begin(info.flags)?;
        if let Some(scope) = scope {
            cb.record_graphics(|_, _, g| {
                g.rendering = Some(scope);
                Ok(())
            });
        }
        Ok(())
    })
}

pub unsafe extern "system" fn end_command_buffer(cb: vk::CommandBuffer) -> vk::Result {
    guard("vkEndCommandBuffer", || {
        // SAFETY: a live handle.
        unsafe { obj::<CommandBuffer>(cb)? }.end()
    })
}

pub unsafe extern "system" fn reset_command_buffer(
    cb: vk::CommandBuffer,
    flags: vk::CommandBufferResetFlags,
) -> vk::Result {
    guard("vkResetCommandBuffer", || {
        // SAFETY: a live handle.
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        cb.reset(flags.contains(vk::CommandBufferResetFlags::RELEASE_RESOURCES));
        Ok(())
    })
}
