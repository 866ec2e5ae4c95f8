//! Fence commands.

use ash::vk;

use super::{obj, output, reference};
use crate::core::device::Device;
use crate::core::object::VkObject;
use crate::core::sync::Fence;
use crate::entry::{guard, guard_status, guard_value};
use crate::error::VkResult;

/// The fences of a `pFences` array.
///
/// # Safety
/// `fences` must hold `count` live fence handles.
unsafe fn fences<'a>(count: u32, fences: *const vk::Fence) -> VkResult<Vec<&'a Fence>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: forwarded to the caller.
    let handles = unsafe { std::slice::from_raw_parts(fences, count as usize) };
    // SAFETY: the application passes a live Fence handle (valid usage).
    handles.iter().map(|&h| unsafe { obj::<Fence>(h) }).collect()
}

pub unsafe extern "system" fn create_fence(
    device: vk::Device,
    p_create_info: *const vk::FenceCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_fence: *mut vk::Fence,
) -> vk::Result {
    guard("vkCreateFence", || {
        // SAFETY: a live device, a valid create info and a writable handle pointer.
        unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let signaled = info.flags.contains(vk::FenceCreateFlags::SIGNALED);
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_fence)? } = Box::new(Fence::new(signaled)).into_handle();
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_fence(
    _device: vk::Device,
    fence: vk::Fence,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyFence", (), || {
        // SAFETY: a null or live fence handle, not used afterwards.
        drop(unsafe { Fence::take_handle(fence) });
    })
}

pub unsafe extern "system" fn reset_fences(
    device: vk::Device,
    count: u32,
    p_fences: *const vk::Fence,
) -> vk::Result {
    guard("vkResetFences", || {
        // SAFETY: a live device and `count` live fences.
        unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes `count` live fences.
        unsafe { fences(count, p_fences)? }.iter().for_each(|f| f.reset());
        Ok(())
    })
}

pub unsafe extern "system" fn get_fence_status(device: vk::Device, fence: vk::Fence) -> vk::Result {
    guard_status("vkGetFenceStatus", || {
        // SAFETY: live handles.
        unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a live Fence handle (valid usage).
        let fence = unsafe { obj::<Fence>(fence)? };
        Ok(if fence.is_signaled() { vk::Result::SUCCESS } else { vk::Result::NOT_READY })
    })
}

pub unsafe extern "system" fn wait_for_fences(
    device: vk::Device,
    count: u32,
    p_fences: *const vk::Fence,
    wait_all: vk::Bool32,
    timeout: u64,
) -> vk::Result {
    guard_status("vkWaitForFences", || {
        // SAFETY: a live device and `count` live fences.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes `count` live fences.
        let fences = unsafe { fences(count, p_fences)? };
        let done = || {
            if wait_all != vk::FALSE {
                fences.iter().all(|f| f.is_signaled())
            } else {
                fences.iter().any(|f| f.is_signaled())
            }
        };
        Ok(if device.fence_event.wait(timeout, done) {
            vk::Result::SUCCESS
        } else {
            vk::Result::TIMEOUT
        })
    })
}
