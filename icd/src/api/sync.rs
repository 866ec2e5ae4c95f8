//! Fence and semaphore commands.

use ash::vk;

use super::{obj, output, reference};
use crate::core::chain;
use crate::core::device::Device;
use crate::core::object::VkObject;
use crate::core::sync::{wait_points, Fence, Semaphore};
use crate::entry::{guard, guard_status, guard_value};
use crate::error::VkResult;

/// The objects of a handle array.
///
/// # Safety
/// `handles` must hold `count` live handles of type `T`.
pub(crate) unsafe fn objects<'a, T: VkObject>(
    count: u32,
    handles: *const T::Handle,
) -> VkResult<Vec<&'a T>> {
    let handles = super::array(handles, count);
    // SAFETY: forwarded to the caller.
    handles.iter().map(|&h| unsafe { obj::<T>(h) }).collect()
}

pub unsafe extern "system" fn create_fence(
    device: vk::Device,
    p_create_info: *const vk::FenceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_fence: *mut vk::Fence,
) -> vk::Result {
    guard("vkCreateFence", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: a live device, a valid create info and a writable handle pointer.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let signaled = info.flags.contains(vk::FenceCreateFlags::SIGNALED);
        let fence = Fence::new(device.shared.clone(), signaled)?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_fence)? } = fence.into_handle_in(host)?;
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
        unsafe { objects::<Fence>(count, p_fences)? }.iter().try_for_each(|f| f.reset())
    })
}

pub unsafe extern "system" fn get_fence_status(device: vk::Device, fence: vk::Fence) -> vk::Result {
    guard_status("vkGetFenceStatus", || {
        // SAFETY: live handles.
        unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a live Fence handle (valid usage).
        let fence = unsafe { obj::<Fence>(fence)? };
        Ok(if fence.is_signaled()? { vk::Result::SUCCESS } else { vk::Result::NOT_READY })
    })
}

fn wait_result(done: bool) -> vk::Result {
    if done {
        vk::Result::SUCCESS
    } else {
        vk::Result::TIMEOUT
    }
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
        let fences = unsafe { objects::<Fence>(count, p_fences)? };
        let points: Vec<_> = fences
            .iter()
            .map(|f| ferrum_winsys::SyncPoint { syncobj: &f.syncobj, point: 0 })
            .collect();
        wait_points(&device.shared, &points, wait_all != vk::FALSE, timeout).map(wait_result)
    })
}

pub unsafe extern "system" fn create_semaphore(
    device: vk::Device,
    p_create_info: *const vk::SemaphoreCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_semaphore: *mut vk::Semaphore,
) -> vk::Result {
    guard("vkCreateSemaphore", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: a live device, a valid create info and a writable handle pointer.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        // SAFETY: the create info's chain is valid.
        let ty = unsafe { chain::find_in::<vk::SemaphoreTypeCreateInfo<'_>>(info.p_next) };
        let (timeline, initial) = match ty {
            Some(t) if t.semaphore_type == vk::SemaphoreType::TIMELINE => (true, t.initial_value),
            _ => (false, 0),
        };
        let sem = Semaphore::new(device.shared.clone(), timeline, initial)?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_semaphore)? } = sem.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_semaphore(
    _device: vk::Device,
    semaphore: vk::Semaphore,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroySemaphore", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { Semaphore::take_handle(semaphore) });
    })
}

pub unsafe extern "system" fn get_semaphore_counter_value(
    _device: vk::Device,
    semaphore: vk::Semaphore,
    p_value: *mut u64,
) -> vk::Result {
    guard("vkGetSemaphoreCounterValue", || {
        // SAFETY: a live semaphore and a writable output pointer.
        let sem = unsafe { obj::<Semaphore>(semaphore)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_value)? } = sem.counter_value()?;
        Ok(())
    })
}

pub unsafe extern "system" fn signal_semaphore(
    _device: vk::Device,
    p_signal_info: *const vk::SemaphoreSignalInfo<'_>,
) -> vk::Result {
    guard("vkSignalSemaphore", || {
        // SAFETY: a valid info structure naming a live semaphore.
        let info = unsafe { reference(p_signal_info)? };
        // SAFETY: the application passes a live semaphore (valid usage).
        unsafe { obj::<Semaphore>(info.semaphore)? }.signal(info.value)
    })
}

pub unsafe extern "system" fn wait_semaphores(
    device: vk::Device,
    p_wait_info: *const vk::SemaphoreWaitInfo<'_>,
    timeout: u64,
) -> vk::Result {
    guard_status("vkWaitSemaphores", || {
        // SAFETY: a live device and a valid wait info.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_wait_info)? };
        // SAFETY: `semaphore_count` live semaphores.
        let sems = unsafe { objects::<Semaphore>(info.semaphore_count, info.p_semaphores)? };
        let values = super::array(info.p_values, info.semaphore_count);
        let points: Vec<_> = sems.iter().zip(values).map(|(s, &v)| s.point(v)).collect();
        let any = info.flags.contains(vk::SemaphoreWaitFlags::ANY);
        wait_points(&device.shared, &points, !any, timeout).map(wait_result)
    })
}
