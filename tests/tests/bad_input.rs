//! Invalid or unsupported requests get the right error, null destruction is a no-op, and
//! unknown names resolve to null — through the loader, as an application sees it.

use ash_loaded::vk::{self, Handle};
use ferrum_tests::{queue_info, Harness};

fn try_create_device(
    h: &Harness,
    info: &vk::DeviceCreateInfo<'_>,
) -> Result<ash_loaded::Device, vk::Result> {
    let pd = h.physical_device();
    // SAFETY: a live physical device; the create info is well-formed, just unsupported.
    unsafe {
        h.instance.get_physical_device_queue_family_properties(pd);
        h.instance.create_device(pd, info, None)
    }
}

// Requesting what the device does not offer is invalid usage the validation layer would
// report, so these run without layers.

#[test]
fn unsupported_device_extension_is_rejected() {
    let h = Harness::plain();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let exts = [c"VK_KHR_swapchain".as_ptr()];
    let info =
        vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_extension_names(&exts);
    assert_eq!(try_create_device(&h, &info).err(), Some(vk::Result::ERROR_EXTENSION_NOT_PRESENT));
}

#[test]
fn unsupported_core_feature_is_rejected() {
    let h = Harness::plain();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let features = vk::PhysicalDeviceFeatures::default().shader_float64(true);
    let info =
        vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_features(&features);
    assert_eq!(try_create_device(&h, &info).err(), Some(vk::Result::ERROR_FEATURE_NOT_PRESENT));
}

#[test]
fn unsupported_chained_feature_is_rejected() {
    let h = Harness::plain();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default().buffer_device_address(true);
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).push_next(&mut v12);
    assert_eq!(try_create_device(&h, &info).err(), Some(vk::Result::ERROR_FEATURE_NOT_PRESENT));

    // Every feature the driver reports as supported must be accepted back.
    let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut v11);
    let pd = h.physical_device();
    // SAFETY: live physical device, valid output chain. (Plain instance: core 1.1 name.)
    unsafe { h.instance.get_physical_device_features2(pd, &mut f2) };
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).push_next(&mut f2);
    let dev = try_create_device(&h, &info).expect("supported features are accepted");
    // SAFETY: a live device.
    unsafe { dev.destroy_device(None) };
}

#[test]
fn destroying_null_handles_is_a_no_op() {
    let h = Harness::validated();
    let pd = h.physical_device();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
    // SAFETY: valid create info; destroying/freeing VK_NULL_HANDLE is valid usage.
    unsafe {
        h.instance.get_physical_device_queue_family_properties(pd);
        let dev = h.instance.create_device(pd, &info, None).unwrap();
        dev.destroy_buffer(vk::Buffer::null(), None);
        dev.destroy_fence(vk::Fence::null(), None);
        dev.free_memory(vk::DeviceMemory::null(), None);
        dev.destroy_device(None);
    }
    h.assert_clean();
}

#[test]
fn unknown_entry_points_resolve_to_null() {
    let h = Harness::validated();
    let pd = h.physical_device();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
    // SAFETY: live handles and NUL-terminated names.
    unsafe {
        let gipa = h.entry.static_fn().get_instance_proc_addr;
        assert!(gipa(h.instance.handle(), c"vkFerrumDoesNotExist".as_ptr()).is_none());
        assert!(gipa(h.instance.handle(), c"vkCreateInstance".as_ptr()).is_some());
        h.instance.get_physical_device_queue_family_properties(pd);
        let dev = h.instance.create_device(pd, &info, None).unwrap();
        let gdpa = h.instance.fp_v1_0().get_device_proc_addr;
        assert!(gdpa(dev.handle(), c"vkFerrumDoesNotExist".as_ptr()).is_none());
        assert!(gdpa(dev.handle(), c"vkAllocateMemory".as_ptr()).is_some());
        assert!(!dev.handle().is_null());
        dev.destroy_device(None);
    }
    h.assert_clean();
}

/// A core command Ferrum does not implement yet is null, not a stub. (Layers return their own
/// wrappers for core names, so this looks at the driver without them.)
#[test]
fn missing_core_commands_resolve_to_null() {
    let h = Harness::plain();
    let pd = h.physical_device();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
    // SAFETY: live handles and NUL-terminated names.
    unsafe {
        h.instance.get_physical_device_queue_family_properties(pd);
        let dev = h.instance.create_device(pd, &info, None).unwrap();
        let gdpa = h.instance.fp_v1_0().get_device_proc_addr;
        assert!(gdpa(dev.handle(), c"vkCreateImage".as_ptr()).is_none());
        assert!(gdpa(dev.handle(), c"vkCreateBuffer".as_ptr()).is_some());
        dev.destroy_device(None);
    }
}
