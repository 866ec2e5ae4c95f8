//! Device memory commands.

use std::ffi::c_void;

use ash::vk;

use super::{obj, output, reference};
use crate::core::device::Device;
use crate::core::host_memory::HostMemory;
use crate::core::memory::DeviceMemory;
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value, guard_void};
use crate::error::VkResult;

pub unsafe extern "system" fn allocate_memory(
    device: vk::Device,
    p_allocate_info: *const vk::MemoryAllocateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_memory: *mut vk::DeviceMemory,
) -> vk::Result {
    guard("vkAllocateMemory", || {
        // SAFETY: the application passes a live Device handle (valid usage).
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_allocate_info)? };
        // SAFETY: the chain of a valid allocate info.
        unsafe { super::device_group::check_allocate_flags(info.p_next)? };
        // SAFETY: the application passes a writable output pointer.
        let out = unsafe { output(p_memory)? };
        // SAFETY: null or valid callbacks (valid usage).
        let host = unsafe { HostMemory::from_ptr(p_allocator, device.base().host()) };
        *out = (*DeviceMemory::allocate(&device.adapter, info)?).into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn free_memory(
    _device: vk::Device,
    memory: vk::DeviceMemory,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkFreeMemory", (), || {
        // SAFETY: a null or live handle the application no longer uses.
        drop(unsafe { DeviceMemory::take_handle(memory) });
    })
}

pub unsafe extern "system" fn map_memory(
    _device: vk::Device,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
    size: vk::DeviceSize,
    _flags: vk::MemoryMapFlags,
    pp_data: *mut *mut c_void,
) -> vk::Result {
    guard("vkMapMemory", || {
        // SAFETY: the application passes a live DeviceMemory handle (valid usage).
        let memory = unsafe { obj::<DeviceMemory>(memory)? };
        // SAFETY: the application passes a writable output pointer.
        let out = unsafe { output(pp_data)? };
        *out = memory.map(offset, size)?;
        Ok(())
    })
}

pub unsafe extern "system" fn unmap_memory(_device: vk::Device, memory: vk::DeviceMemory) {
    guard_void("vkUnmapMemory", || {
        // SAFETY: the application passes a live DeviceMemory handle (valid usage).
        unsafe { obj::<DeviceMemory>(memory)? }.unmap();
        Ok(())
    })
}

/// Checks every range of a flush/invalidate call.
///
/// # Safety
/// `ranges` must hold `count` valid `VkMappedMemoryRange`s.
unsafe fn check_ranges(count: u32, ranges: *const vk::MappedMemoryRange<'_>) -> VkResult<()> {
    if count == 0 {
        return Ok(());
    }
    // SAFETY: forwarded to the caller.
    let ranges = unsafe { std::slice::from_raw_parts(ranges, count as usize) };
    for r in ranges {
        // SAFETY: each range names a live memory object.
        unsafe { obj::<DeviceMemory>(r.memory)? }.check_mapped_range(r.offset, r.size)?;
    }
    Ok(())
}

pub unsafe extern "system" fn flush_mapped_memory_ranges(
    _device: vk::Device,
    count: u32,
    p_ranges: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    // SAFETY: the application passes `count` valid ranges.
    guard("vkFlushMappedMemoryRanges", || unsafe { check_ranges(count, p_ranges) })
}

pub unsafe extern "system" fn invalidate_mapped_memory_ranges(
    _device: vk::Device,
    count: u32,
    p_ranges: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    // SAFETY: the application passes `count` valid ranges.
    guard("vkInvalidateMappedMemoryRanges", || unsafe { check_ranges(count, p_ranges) })
}

pub unsafe extern "system" fn get_device_memory_commitment(
    _device: vk::Device,
    memory: vk::DeviceMemory,
    p_committed: *mut vk::DeviceSize,
) {
    guard_void("vkGetDeviceMemoryCommitment", || {
        // SAFETY: the application passes a live DeviceMemory handle (valid usage).
        let memory = unsafe { obj::<DeviceMemory>(memory)? };
        // Valid only for lazily allocated memory, which no Ferrum memory type is; every
        // allocation is backed in full at creation, so report its whole size.
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_committed)? } = memory.size();
        Ok(())
    })
}
