//! Device-level commands on the device and its queues.

use std::ffi::c_char;

use ash::vk;

use super::{obj, output, reference};
use crate::core::device::Device;
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value, guard_void};

pub unsafe extern "system" fn get_device_proc_addr(
    device: vk::Device,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    guard_value("vkGetDeviceProcAddr", None, || {
        // SAFETY: the loader/application passes a valid C string.
        unsafe { crate::entry::device_proc_addr(device, p_name) }
    })
}

pub unsafe extern "system" fn destroy_device(
    device: vk::Device,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyDevice", (), || {
        // SAFETY: a null or live device handle, not used by the application afterwards.
        drop(unsafe { Device::take_handle(device) });
    })
}

pub unsafe extern "system" fn get_device_queue(
    device: vk::Device,
    family: u32,
    index: u32,
    p_queue: *mut vk::Queue,
) {
    guard_void("vkGetDeviceQueue", || {
        // SAFETY: a live handle and a writable output pointer.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_queue)? } =
            device.queue(family, index, vk::DeviceQueueCreateFlags::empty());
        Ok(())
    })
}

pub unsafe extern "system" fn get_device_queue2(
    device: vk::Device,
    p_queue_info: *const vk::DeviceQueueInfo2<'_>,
    p_queue: *mut vk::Queue,
) {
    guard_void("vkGetDeviceQueue2", || {
        // SAFETY: a live handle, a valid info structure and a writable output pointer.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_queue_info)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_queue)? } =
            device.queue(info.queue_family_index, info.queue_index, info.flags);
        Ok(())
    })
}

pub unsafe extern "system" fn device_wait_idle(device: vk::Device) -> vk::Result {
    guard("vkDeviceWaitIdle", || {
        // SAFETY: a live handle.
        unsafe { obj::<Device>(device)? }.wait_idle()
    })
}
