//! Query pool and event commands.

use std::ffi::c_void;

use ash::vk;

use super::{obj, output, reference};
use crate::core::device::Device;
use crate::core::object::VkObject;
use crate::core::query::{Event, QueryPool};
use crate::entry::{guard, guard_status, guard_value, guard_void};
use crate::error::VkError;

pub unsafe extern "system" fn create_query_pool(
    device: vk::Device,
    p_create_info: *const vk::QueryPoolCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pool: *mut vk::QueryPool,
) -> vk::Result {
    guard("vkCreateQueryPool", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: a live device and a valid create info.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let pool = QueryPool::new(device.shared.clone(), info)?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_pool)? } = pool.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_query_pool(
    _device: vk::Device,
    pool: vk::QueryPool,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyQueryPool", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { QueryPool::take_handle(pool) });
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn get_query_pool_results(
    _device: vk::Device,
    pool: vk::QueryPool,
    first: u32,
    count: u32,
    data_size: usize,
    p_data: *mut c_void,
    stride: vk::DeviceSize,
    flags: vk::QueryResultFlags,
) -> vk::Result {
    guard_status("vkGetQueryPoolResults", || {
        // SAFETY: a live handle.
        let pool = unsafe { obj::<QueryPool>(pool)? };
        if p_data.is_null() && data_size > 0 {
            return Err(VkError::InvalidUsage("null pData"));
        }
        let data: &mut [u8] = if data_size == 0 {
            &mut []
        } else {
            // SAFETY: the application passes `dataSize` writable bytes.
            unsafe { std::slice::from_raw_parts_mut(p_data.cast(), data_size) }
        };
        pool.results(first, count, data, stride, flags)
    })
}

/// `vkResetQueryPool` (VK_EXT_host_query_reset).
pub unsafe extern "system" fn reset_query_pool(
    _device: vk::Device,
    pool: vk::QueryPool,
    first: u32,
    count: u32,
) {
    guard_void("vkResetQueryPool", || {
        // SAFETY: a live handle.
        unsafe { obj::<QueryPool>(pool)? }.host_reset(first, count)
    })
}

pub unsafe extern "system" fn create_event(
    device: vk::Device,
    p_create_info: *const vk::EventCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_event: *mut vk::Event,
) -> vk::Result {
    guard("vkCreateEvent", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: a live device and a valid create info.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        unsafe { reference(p_create_info)? };
        let event = Event::new(device.shared.clone())?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_event)? } = event.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_event(
    _device: vk::Device,
    event: vk::Event,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyEvent", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { Event::take_handle(event) });
    })
}

pub unsafe extern "system" fn get_event_status(
    _device: vk::Device,
    event: vk::Event,
) -> vk::Result {
    guard_status("vkGetEventStatus", || {
        // SAFETY: a live handle.
        let set = unsafe { obj::<Event>(event)? }.is_set()?;
        Ok(if set { vk::Result::EVENT_SET } else { vk::Result::EVENT_RESET })
    })
}

pub unsafe extern "system" fn set_event(_device: vk::Device, event: vk::Event) -> vk::Result {
    guard("vkSetEvent", || {
        // SAFETY: a live handle.
        unsafe { obj::<Event>(event)? }.set(true);
        Ok(())
    })
}

pub unsafe extern "system" fn reset_event(_device: vk::Device, event: vk::Event) -> vk::Result {
    guard("vkResetEvent", || {
        // SAFETY: a live handle.
        unsafe { obj::<Event>(event)? }.set(false);
        Ok(())
    })
}
