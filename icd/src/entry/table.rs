//! The table of every command Ferrum implements.
//!
//! Each row names the ash `PFN_` type of the command, so a function whose signature drifts
//! from the Vulkan headers fails to compile instead of corrupting the caller's stack.

use std::ffi::CStr;

use ash::vk;

use crate::api::{buffer, device, instance, memory, physical_device as pd, sync};

/// How a command is dispatched, which decides which `GetProcAddr` may return it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Callable without an instance (`vkCreateInstance`, enumeration, the loader interface).
    Global,
    Instance,
    PhysicalDevice,
    Device,
}

type VoidFn = unsafe extern "system" fn();

/// One command.
pub struct Entry {
    pub name: &'static CStr,
    pub level: Level,
    pub func: VoidFn,
}

/// `vk_icdNegotiateLoaderICDInterfaceVersion` (no ash type: it is not a Vulkan command).
pub type PfnNegotiate = unsafe extern "system" fn(*mut u32) -> vk::Result;
/// `vk_icdGetPhysicalDeviceProcAddr`.
pub type PfnGetPhysicalDeviceProcAddr =
    unsafe extern "system" fn(vk::Instance, *const std::ffi::c_char) -> vk::PFN_vkVoidFunction;

macro_rules! entries {
    ($($level:ident $name:literal : $pfn:ty => $f:path;)*) => {
        pub static ENTRIES: &[Entry] = &[$(
            Entry {
                name: $name,
                level: Level::$level,
                func: {
                    const F: $pfn = $f;
                    // SAFETY: the loader casts the pointer back to the command's own type,
                    // which `$pfn` checked at compile time above.
                    unsafe { std::mem::transmute::<$pfn, VoidFn>(F) }
                },
            },
        )*];
    };
}

entries! {
    Global c"vkGetInstanceProcAddr": vk::PFN_vkGetInstanceProcAddr => instance::get_instance_proc_addr;
    Global c"vkCreateInstance": vk::PFN_vkCreateInstance => instance::create_instance;
    Global c"vkEnumerateInstanceVersion": vk::PFN_vkEnumerateInstanceVersion => instance::enumerate_instance_version;
    Global c"vkEnumerateInstanceExtensionProperties": vk::PFN_vkEnumerateInstanceExtensionProperties => instance::enumerate_instance_extension_properties;
    Global c"vk_icdNegotiateLoaderICDInterfaceVersion": PfnNegotiate => crate::vk_icdNegotiateLoaderICDInterfaceVersion;
    Global c"vk_icdGetPhysicalDeviceProcAddr": PfnGetPhysicalDeviceProcAddr => crate::vk_icdGetPhysicalDeviceProcAddr;

    Instance c"vkDestroyInstance": vk::PFN_vkDestroyInstance => instance::destroy_instance;
    Instance c"vkEnumeratePhysicalDevices": vk::PFN_vkEnumeratePhysicalDevices => instance::enumerate_physical_devices;
    Instance c"vkEnumeratePhysicalDeviceGroups": vk::PFN_vkEnumeratePhysicalDeviceGroups => instance::enumerate_physical_device_groups;

    PhysicalDevice c"vkGetPhysicalDeviceFeatures": vk::PFN_vkGetPhysicalDeviceFeatures => pd::get_physical_device_features;
    PhysicalDevice c"vkGetPhysicalDeviceFeatures2": vk::PFN_vkGetPhysicalDeviceFeatures2 => pd::get_physical_device_features2;
    PhysicalDevice c"vkGetPhysicalDeviceFeatures2KHR": vk::PFN_vkGetPhysicalDeviceFeatures2 => pd::get_physical_device_features2;
    PhysicalDevice c"vkGetPhysicalDeviceProperties": vk::PFN_vkGetPhysicalDeviceProperties => pd::get_physical_device_properties;
    PhysicalDevice c"vkGetPhysicalDeviceProperties2": vk::PFN_vkGetPhysicalDeviceProperties2 => pd::get_physical_device_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceProperties2KHR": vk::PFN_vkGetPhysicalDeviceProperties2 => pd::get_physical_device_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceQueueFamilyProperties": vk::PFN_vkGetPhysicalDeviceQueueFamilyProperties => pd::get_physical_device_queue_family_properties;
    PhysicalDevice c"vkGetPhysicalDeviceQueueFamilyProperties2": vk::PFN_vkGetPhysicalDeviceQueueFamilyProperties2 => pd::get_physical_device_queue_family_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceQueueFamilyProperties2KHR": vk::PFN_vkGetPhysicalDeviceQueueFamilyProperties2 => pd::get_physical_device_queue_family_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceMemoryProperties": vk::PFN_vkGetPhysicalDeviceMemoryProperties => pd::get_physical_device_memory_properties;
    PhysicalDevice c"vkGetPhysicalDeviceMemoryProperties2": vk::PFN_vkGetPhysicalDeviceMemoryProperties2 => pd::get_physical_device_memory_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceMemoryProperties2KHR": vk::PFN_vkGetPhysicalDeviceMemoryProperties2 => pd::get_physical_device_memory_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceFormatProperties": vk::PFN_vkGetPhysicalDeviceFormatProperties => pd::get_physical_device_format_properties;
    PhysicalDevice c"vkGetPhysicalDeviceFormatProperties2": vk::PFN_vkGetPhysicalDeviceFormatProperties2 => pd::get_physical_device_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceFormatProperties2KHR": vk::PFN_vkGetPhysicalDeviceFormatProperties2 => pd::get_physical_device_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceImageFormatProperties": vk::PFN_vkGetPhysicalDeviceImageFormatProperties => pd::get_physical_device_image_format_properties;
    PhysicalDevice c"vkGetPhysicalDeviceImageFormatProperties2": vk::PFN_vkGetPhysicalDeviceImageFormatProperties2 => pd::get_physical_device_image_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceImageFormatProperties2KHR": vk::PFN_vkGetPhysicalDeviceImageFormatProperties2 => pd::get_physical_device_image_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceSparseImageFormatProperties": vk::PFN_vkGetPhysicalDeviceSparseImageFormatProperties => pd::get_physical_device_sparse_image_format_properties;
    PhysicalDevice c"vkGetPhysicalDeviceSparseImageFormatProperties2": vk::PFN_vkGetPhysicalDeviceSparseImageFormatProperties2 => pd::get_physical_device_sparse_image_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceSparseImageFormatProperties2KHR": vk::PFN_vkGetPhysicalDeviceSparseImageFormatProperties2 => pd::get_physical_device_sparse_image_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceExternalBufferProperties": vk::PFN_vkGetPhysicalDeviceExternalBufferProperties => pd::get_physical_device_external_buffer_properties;
    PhysicalDevice c"vkGetPhysicalDeviceExternalFenceProperties": vk::PFN_vkGetPhysicalDeviceExternalFenceProperties => pd::get_physical_device_external_fence_properties;
    PhysicalDevice c"vkGetPhysicalDeviceExternalSemaphoreProperties": vk::PFN_vkGetPhysicalDeviceExternalSemaphoreProperties => pd::get_physical_device_external_semaphore_properties;
    PhysicalDevice c"vkEnumerateDeviceExtensionProperties": vk::PFN_vkEnumerateDeviceExtensionProperties => pd::enumerate_device_extension_properties;
    PhysicalDevice c"vkCreateDevice": vk::PFN_vkCreateDevice => pd::create_device;

    Device c"vkGetDeviceProcAddr": vk::PFN_vkGetDeviceProcAddr => device::get_device_proc_addr;
    Device c"vkDestroyDevice": vk::PFN_vkDestroyDevice => device::destroy_device;
    Device c"vkGetDeviceQueue": vk::PFN_vkGetDeviceQueue => device::get_device_queue;
    Device c"vkGetDeviceQueue2": vk::PFN_vkGetDeviceQueue2 => device::get_device_queue2;
    Device c"vkDeviceWaitIdle": vk::PFN_vkDeviceWaitIdle => device::device_wait_idle;
    Device c"vkQueueWaitIdle": vk::PFN_vkQueueWaitIdle => device::queue_wait_idle;
    Device c"vkAllocateMemory": vk::PFN_vkAllocateMemory => memory::allocate_memory;
    Device c"vkFreeMemory": vk::PFN_vkFreeMemory => memory::free_memory;
    Device c"vkMapMemory": vk::PFN_vkMapMemory => memory::map_memory;
    Device c"vkUnmapMemory": vk::PFN_vkUnmapMemory => memory::unmap_memory;
    Device c"vkFlushMappedMemoryRanges": vk::PFN_vkFlushMappedMemoryRanges => memory::flush_mapped_memory_ranges;
    Device c"vkInvalidateMappedMemoryRanges": vk::PFN_vkInvalidateMappedMemoryRanges => memory::invalidate_mapped_memory_ranges;
    Device c"vkBindBufferMemory": vk::PFN_vkBindBufferMemory => buffer::bind_buffer_memory;
    Device c"vkBindBufferMemory2": vk::PFN_vkBindBufferMemory2 => buffer::bind_buffer_memory2;
    Device c"vkCreateBuffer": vk::PFN_vkCreateBuffer => buffer::create_buffer;
    Device c"vkDestroyBuffer": vk::PFN_vkDestroyBuffer => buffer::destroy_buffer;
    Device c"vkGetBufferMemoryRequirements": vk::PFN_vkGetBufferMemoryRequirements => buffer::get_buffer_memory_requirements;
    Device c"vkGetBufferMemoryRequirements2": vk::PFN_vkGetBufferMemoryRequirements2 => buffer::get_buffer_memory_requirements2;
    Device c"vkCreateFence": vk::PFN_vkCreateFence => sync::create_fence;
    Device c"vkDestroyFence": vk::PFN_vkDestroyFence => sync::destroy_fence;
    Device c"vkResetFences": vk::PFN_vkResetFences => sync::reset_fences;
    Device c"vkGetFenceStatus": vk::PFN_vkGetFenceStatus => sync::get_fence_status;
    Device c"vkWaitForFences": vk::PFN_vkWaitForFences => sync::wait_for_fences;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, a) in ENTRIES.iter().enumerate() {
            assert!(ENTRIES[i + 1..].iter().all(|b| b.name != a.name), "{:?} listed twice", a.name);
        }
    }
}
