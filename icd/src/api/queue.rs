//! Queue commands: submission and waiting for idle.

use ash::vk;

use super::obj;
use crate::cmd::CommandBuffer;
use crate::core::chain;
use crate::core::object::VkObject;
use crate::core::queue::{Batch, Queue};
use crate::core::sync::{Fence, Semaphore};
use crate::entry::guard;
use crate::error::VkResult;

/// Resolves a `VkSubmitInfo`.
///
/// # Safety
/// `info` must be a valid submit info naming live objects.
unsafe fn batch<'a>(info: &'a vk::SubmitInfo<'a>) -> VkResult<Batch<'a>> {
    // SAFETY: the chain is valid.
    unsafe { super::device_group::check_submit(info.p_next)? };
    // SAFETY: the chain is valid.
    let values = unsafe { chain::find_in::<vk::TimelineSemaphoreSubmitInfo<'_>>(info.p_next) };
    let wait_values = values
        .map(|v| super::array(v.p_wait_semaphore_values, v.wait_semaphore_value_count))
        .unwrap_or(&[]);
    let signal_values = values
        .map(|v| super::array(v.p_signal_semaphore_values, v.signal_semaphore_value_count))
        .unwrap_or(&[]);
    let mut b = Batch::default();
    for (i, &h) in
        super::array(info.p_wait_semaphores, info.wait_semaphore_count).iter().enumerate()
    {
        // SAFETY: a live semaphore (valid usage).
        let sem = unsafe { obj::<Semaphore>(h)? };
        b.waits.push(sem.owned_point(wait_values.get(i).copied().unwrap_or(0)));
    }
    for &h in super::array(info.p_command_buffers, info.command_buffer_count) {
        // SAFETY: a live command buffer (valid usage).
        b.command_buffers.push(unsafe { obj::<CommandBuffer>(h)? });
    }
    let signals = super::array(info.p_signal_semaphores, info.signal_semaphore_count);
    for (i, &h) in signals.iter().enumerate() {
        // SAFETY: a live semaphore (valid usage).
        let sem = unsafe { obj::<Semaphore>(h)? };
        b.signals.push(sem.owned_point(signal_values.get(i).copied().unwrap_or(0)));
    }
    Ok(b)
}

/// Resolves a `VkSubmitInfo2`.
///
/// # Safety
/// `info` must be a valid submit info naming live objects.
unsafe fn batch2<'a>(info: &'a vk::SubmitInfo2<'a>) -> VkResult<Batch<'a>> {
    let mut b = Batch::default();
    for w in super::array(info.p_wait_semaphore_infos, info.wait_semaphore_info_count) {
        // SAFETY: a live semaphore (valid usage).
        b.waits.push(unsafe { obj::<Semaphore>(w.semaphore)? }.owned_point(w.value));
    }
    for c in super::array(info.p_command_buffer_infos, info.command_buffer_info_count) {
        // SAFETY: a live command buffer (valid usage).
        b.command_buffers.push(unsafe { obj::<CommandBuffer>(c.command_buffer)? });
    }
    for s in super::array(info.p_signal_semaphore_infos, info.signal_semaphore_info_count) {
        // SAFETY: a live semaphore (valid usage).
        b.signals.push(unsafe { obj::<Semaphore>(s.semaphore)? }.owned_point(s.value));
    }
    Ok(b)
}

pub unsafe extern "system" fn queue_submit(
    queue: vk::Queue,
    count: u32,
    p_submits: *const vk::SubmitInfo<'_>,
    fence: vk::Fence,
) -> vk::Result {
    guard("vkQueueSubmit", || {
        // SAFETY: live handles and `count` valid submit infos (valid usage).
        let queue = unsafe { obj::<Queue>(queue)? };
        // SAFETY: a null or live fence.
        let fence = unsafe { Fence::from_handle(fence) };
        let infos = super::array(p_submits, count);
        // SAFETY: each info is valid.
        let batches: Vec<Batch<'_>> =
            infos.iter().map(|i| unsafe { batch(i) }).collect::<VkResult<_>>()?;
        queue.submit(&batches, fence)
    })
}

pub unsafe extern "system" fn queue_submit2(
    queue: vk::Queue,
    count: u32,
    p_submits: *const vk::SubmitInfo2<'_>,
    fence: vk::Fence,
) -> vk::Result {
    guard("vkQueueSubmit2", || {
        // SAFETY: live handles and `count` valid submit infos (valid usage).
        let queue = unsafe { obj::<Queue>(queue)? };
        // SAFETY: a null or live fence.
        let fence = unsafe { Fence::from_handle(fence) };
        let infos = super::array(p_submits, count);
        // SAFETY: each info is valid.
        let batches: Vec<Batch<'_>> =
            infos.iter().map(|i| unsafe { batch2(i) }).collect::<VkResult<_>>()?;
        queue.submit(&batches, fence)
    })
}

pub unsafe extern "system" fn queue_wait_idle(queue: vk::Queue) -> vk::Result {
    guard("vkQueueWaitIdle", || {
        // SAFETY: a live handle.
        unsafe { obj::<Queue>(queue)? }.wait_idle()
    })
}
