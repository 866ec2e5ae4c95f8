//! `VK_KHR_buffer_device_address`: a buffer's address is its memory's GPU virtual address
//! plus the bind offset, which shaders reach with `global_*` instructions.
//!
//! Capture/replay is not offered (`bufferDeviceAddressCaptureReplay` is false): Ferrum cannot
//! yet place an allocation at a requested address. The opaque capture queries still answer
//! with the real addresses, which is what an application inspecting them would see.

use ash::vk;

use super::{obj, reference};
use crate::cmd::copy::buffer_address;
use crate::core::buffer::Buffer;
use crate::core::memory::DeviceMemory;
use crate::entry::guard_value;

pub unsafe extern "system" fn get_buffer_device_address(
    _device: vk::Device,
    p_info: *const vk::BufferDeviceAddressInfo<'_>,
) -> vk::DeviceAddress {
    // 0 is the spec's "no address"; only invalid usage can produce it.
    guard_value("vkGetBufferDeviceAddress", 0, || {
        // SAFETY: a valid info naming a live buffer (valid usage).
        let Ok(info) = (unsafe { reference(p_info) }) else { return 0 };
        // SAFETY: as above.
        let buffer = unsafe { obj::<Buffer>(info.buffer) };
        let address = buffer.and_then(|b| buffer_address(b, 0));
        address.unwrap_or_else(|e| {
            log::error!("vkGetBufferDeviceAddress: {e}");
            0
        })
    })
}

pub unsafe extern "system" fn get_buffer_opaque_capture_address(
    device: vk::Device,
    p_info: *const vk::BufferDeviceAddressInfo<'_>,
) -> u64 {
    // SAFETY: forwarded (valid usage).
    unsafe { get_buffer_device_address(device, p_info) }
}

pub unsafe extern "system" fn get_device_memory_opaque_capture_address(
    _device: vk::Device,
    p_info: *const vk::DeviceMemoryOpaqueCaptureAddressInfo<'_>,
) -> u64 {
    guard_value("vkGetDeviceMemoryOpaqueCaptureAddress", 0, || {
        // SAFETY: a valid info naming live memory (valid usage).
        let Ok(info) = (unsafe { reference(p_info) }) else { return 0 };
        // SAFETY: as above.
        unsafe { obj::<DeviceMemory>(info.memory) }.map_or(0, |m| m.gpu_address())
    })
}
