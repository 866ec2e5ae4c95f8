//! Global and instance-level commands.

use std::ffi::c_char;

use ash::vk;

use super::{obj, out, output, reference};
use crate::core::host_memory::HostMemory;
use crate::core::instance::{Instance, INSTANCE_EXTENSIONS};
use crate::core::object::VkObject;
use crate::entry::{guard, guard_status, guard_value};
use crate::error::VkError;
use crate::version::instance_api_version;

pub unsafe extern "system" fn enumerate_instance_version(p_api_version: *mut u32) -> vk::Result {
    guard("vkEnumerateInstanceVersion", || {
        // SAFETY: the application passes a writable pointer.
        *unsafe { output(p_api_version)? } = instance_api_version();
        Ok(())
    })
}

pub unsafe extern "system" fn enumerate_instance_extension_properties(
    p_layer_name: *const c_char,
    p_property_count: *mut u32,
    p_properties: *mut vk::ExtensionProperties,
) -> vk::Result {
    guard_status("vkEnumerateInstanceExtensionProperties", || {
        // Ferrum provides no layers.
        if !p_layer_name.is_null() {
            return Err(VkError::LayerNotPresent("driver layers".into()));
        }
        let props = out::extension_properties(INSTANCE_EXTENSIONS);
        // SAFETY: two-call idiom pointers from the application.
        unsafe { out::write_all(p_property_count, p_properties, &props) }
    })
}

pub unsafe extern "system" fn create_instance(
    p_create_info: *const vk::InstanceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_instance: *mut vk::Instance,
) -> vk::Result {
    guard("vkCreateInstance", || {
        crate::debug::init_logging();
        // SAFETY: the application passes a valid create info and a writable handle pointer.
        let info = unsafe { reference(p_create_info)? };
        // SAFETY: the application passes a writable output pointer.
        let out = unsafe { output(p_instance)? };
        // SAFETY: `info` is a valid create info (checked non-null above).
        // SAFETY: null or valid callbacks (valid usage).
        let host = unsafe { HostMemory::from_ptr(p_allocator, HostMemory::SYSTEM) };
        // SAFETY: `info` is a valid create info (checked non-null above).
        *out = (*unsafe { Instance::create(info)? }).into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_instance(
    instance: vk::Instance,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyInstance", (), || {
        // SAFETY: a null or live instance handle, not used by the application afterwards.
        drop(unsafe { Instance::take_handle(instance) });
    })
}

pub unsafe extern "system" fn enumerate_physical_devices(
    instance: vk::Instance,
    p_physical_device_count: *mut u32,
    p_physical_devices: *mut vk::PhysicalDevice,
) -> vk::Result {
    guard_status("vkEnumeratePhysicalDevices", || {
        // SAFETY: a live instance handle.
        let instance = unsafe { obj::<Instance>(instance)? };
        // SAFETY: two-call idiom pointers from the application.
        unsafe {
            out::write_all(
                p_physical_device_count,
                p_physical_devices,
                &instance.physical_device_handles(),
            )
        }
    })
}

pub unsafe extern "system" fn enumerate_physical_device_groups(
    instance: vk::Instance,
    p_group_count: *mut u32,
    p_groups: *mut vk::PhysicalDeviceGroupProperties<'_>,
) -> vk::Result {
    guard_status("vkEnumeratePhysicalDeviceGroups", || {
        // SAFETY: a live instance handle.
        let instance = unsafe { obj::<Instance>(instance)? };
        let handles = instance.physical_device_handles();
        // Each physical device is its own group: there is no multi-GPU linking.
        // SAFETY: two-call idiom pointers from the application.
        unsafe {
            out::write_with(p_group_count, p_groups, handles.len(), |g, i| {
                g.physical_device_count = 1;
                g.physical_devices = [vk::PhysicalDevice::null(); vk::MAX_DEVICE_GROUP_SIZE];
                g.physical_devices[0] = handles[i];
                g.subset_allocation = vk::FALSE;
            })
        }
    })
}

pub unsafe extern "system" fn get_instance_proc_addr(
    instance: vk::Instance,
    p_name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    guard_value("vkGetInstanceProcAddr", None, || {
        // SAFETY: the loader/application passes a valid C string.
        unsafe { crate::entry::instance_proc_addr(instance, p_name) }
    })
}
