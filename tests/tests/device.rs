//! Instance -> physical device -> device -> queue -> memory -> buffer, through the system
//! loader with the Khronos validation layer watching.

use ash_loaded::{khr, vk};
use ferrum_tests::{queue_info, Harness};

fn create_device(h: &Harness, pd: vk::PhysicalDevice) -> ash_loaded::Device {
    // Valid usage: queue family indices must be below a count the application has queried.
    // SAFETY: a live physical device.
    let families = unsafe { h.instance.get_physical_device_queue_family_properties(pd) };
    assert!(families.len() >= 2 && families[1].queue_count >= 2);
    let prio = [1.0];
    let prios = [1.0, 0.5];
    let queues = [queue_info(0, &prio), queue_info(1, &prios)];
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
    let _loader = ferrum_tests::loader_lock();
    // SAFETY: a valid create info on a live physical device.
    unsafe { h.instance.create_device(pd, &info, None) }.expect("vkCreateDevice")
}

#[test]
fn physical_device_is_ferrum_navi21() {
    let h = Harness::validated();
    let pd = h.physical_device();
    // SAFETY: live handles throughout.
    let (props, families, mem) = unsafe {
        (
            h.instance.get_physical_device_properties(pd),
            h.instance.get_physical_device_queue_family_properties(pd),
            h.instance.get_physical_device_memory_properties(pd),
        )
    };
    assert_eq!((props.vendor_id, props.device_id), (0x1002, 0x73BF));
    let name = props.device_name_as_c_str().unwrap().to_str().unwrap();
    assert!(name.contains("Ferrum") && name.contains("simulated"), "{name}");
    assert_eq!(props.api_version, vulkan_ferrum::version::device_api_version());
    assert_eq!(props.device_type, vk::PhysicalDeviceType::DISCRETE_GPU);

    assert_eq!(families.len(), 2);
    assert!(families[0].queue_flags.contains(vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE));
    assert!(families[1].queue_flags.contains(vk::QueueFlags::COMPUTE));
    assert!(!families[1].queue_flags.contains(vk::QueueFlags::GRAPHICS));

    // Discrete RDNA2: device-local VRAM, host-visible GTT, host-visible VRAM window, cached GTT.
    let types = &mem.memory_types[..mem.memory_type_count as usize];
    let has = |f: vk::MemoryPropertyFlags| types.iter().any(|t| t.property_flags == f);
    let hv = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    assert!(has(vk::MemoryPropertyFlags::DEVICE_LOCAL));
    assert!(has(hv));
    assert!(has(hv | vk::MemoryPropertyFlags::DEVICE_LOCAL));
    assert!(has(hv | vk::MemoryPropertyFlags::HOST_CACHED));
    h.assert_clean();
}

/// Writes a pattern through one mapping and reads it back through a second one.
fn round_trip(dev: &ash_loaded::Device, memory: vk::DeviceMemory, size: u64, seed: u32) {
    let words = (size / 4) as usize;
    // SAFETY: host-visible memory of `size` bytes, mapped whole, accessed within bounds.
    unsafe {
        let p = dev.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).unwrap()
            as *mut u32;
        for i in 0..words {
            p.add(i).write((i as u32).wrapping_mul(2_654_435_761) ^ seed);
        }
        let range = vk::MappedMemoryRange::default().memory(memory).offset(0).size(vk::WHOLE_SIZE);
        dev.flush_mapped_memory_ranges(&[range]).unwrap();
        dev.unmap_memory(memory);

        let p = dev.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).unwrap()
            as *const u32;
        dev.invalidate_mapped_memory_ranges(&[range]).unwrap();
        for i in 0..words {
            assert_eq!(p.add(i).read(), (i as u32).wrapping_mul(2_654_435_761) ^ seed, "word {i}");
        }
        dev.unmap_memory(memory);
    }
}

#[test]
fn every_memory_type_allocates_maps_and_binds() {
    let h = Harness::validated();
    let pd = h.physical_device();
    let dev = create_device(&h, pd);
    // SAFETY: live handles throughout; every object is destroyed before its parent.
    unsafe {
        let q0 = dev.get_device_queue(0, 0);
        let (q1a, q1b) = (dev.get_device_queue(1, 0), dev.get_device_queue(1, 1));
        assert!(q0 != vk::Queue::null() && q1a != vk::Queue::null() && q1a != q1b);
        dev.queue_wait_idle(q0).unwrap();

        let mem_props = h.instance.get_physical_device_memory_properties(pd);
        for index in 0..mem_props.memory_type_count {
            let size = 256 * 1024;
            let info =
                vk::MemoryAllocateInfo::default().allocation_size(size).memory_type_index(index);
            let memory = dev.allocate_memory(&info, None).expect("vkAllocateMemory");
            let flags = mem_props.memory_types[index as usize].property_flags;
            if flags.contains(vk::MemoryPropertyFlags::HOST_VISIBLE) {
                round_trip(&dev, memory, size, index);
            }

            let binfo = vk::BufferCreateInfo::default()
                .size(64 * 1024)
                .usage(vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST)
                .sharing_mode(vk::SharingMode::EXCLUSIVE);
            let buffer = dev.create_buffer(&binfo, None).expect("vkCreateBuffer");
            let req = dev.get_buffer_memory_requirements(buffer);
            assert!(req.size >= 64 * 1024 && req.alignment.is_power_of_two());
            assert!(req.memory_type_bits & (1 << index) != 0, "buffers may live in type {index}");
            // Bind in the second half of the allocation, at an aligned offset.
            let offset = (size / 2).next_multiple_of(req.alignment);
            dev.bind_buffer_memory(buffer, memory, offset).expect("vkBindBufferMemory");
            dev.destroy_buffer(buffer, None);
            dev.free_memory(memory, None);
        }
        dev.device_wait_idle().unwrap();
        {
            let _loader = ferrum_tests::loader_lock();
            dev.destroy_device(None);
        }
    }
    h.assert_clean();
}

#[test]
fn fences_are_host_side_until_submission_exists() {
    let h = Harness::validated();
    let dev = create_device(&h, h.physical_device());
    // SAFETY: live handles throughout.
    unsafe {
        let signaled = dev
            .create_fence(
                &vk::FenceCreateInfo::default().flags(vk::FenceCreateFlags::SIGNALED),
                None,
            )
            .unwrap();
        let unsignaled = dev.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        assert_eq!(dev.get_fence_status(signaled), Ok(true));
        assert_eq!(dev.get_fence_status(unsignaled), Ok(false));
        dev.wait_for_fences(&[signaled], true, 0).unwrap();
        assert_eq!(
            dev.wait_for_fences(&[signaled, unsignaled], true, 1_000_000),
            Err(vk::Result::TIMEOUT)
        );
        dev.wait_for_fences(&[signaled, unsignaled], false, 1_000_000).unwrap();
        dev.reset_fences(&[signaled]).unwrap();
        assert_eq!(dev.get_fence_status(signaled), Ok(false));
        dev.destroy_fence(signaled, None);
        dev.destroy_fence(unsignaled, None);
        {
            let _loader = ferrum_tests::loader_lock();
            dev.destroy_device(None);
        }
    }
    h.assert_clean();
}

#[test]
fn properties2_chain_reports_driver_id_and_subgroup_structs() {
    // The `...2` queries through the instance extension's names (the core ones are tested
    // in `vulkan_1_1_properties_are_those_required`).
    let h = Harness::new(true, &[khr::get_physical_device_properties2::NAME]);
    let p2_ext = khr::get_physical_device_properties2::Instance::new(&h.entry, &h.instance);
    let pd = h.physical_device();
    let mut driver = vk::PhysicalDeviceDriverProperties::default();
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
    let mut maint3 = vk::PhysicalDeviceMaintenance3Properties::default();
    {
        let mut p2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut driver)
            .push_next(&mut id)
            .push_next(&mut subgroup)
            .push_next(&mut maint3);
        // SAFETY: a live physical device and a valid output chain.
        unsafe { p2_ext.get_physical_device_properties2(pd, &mut p2) };
        assert_eq!(p2.properties.device_id, 0x73BF);
    }
    assert_eq!(driver.driver_name_as_c_str().unwrap(), c"Ferrum");
    assert_eq!(driver.driver_id, vulkan_ferrum::core::physical_device::properties::DRIVER_ID);
    assert_ne!(id.device_uuid, [0; 16]);
    assert_eq!(subgroup.subgroup_size, 32);
    assert!(maint3.max_memory_allocation_size >= 1 << 30);

    let mut v11f = vk::PhysicalDeviceVulkan11Features::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut v11f);
    // SAFETY: as above.
    unsafe { p2_ext.get_physical_device_features2(pd, &mut f2) };
    h.assert_clean();
}

/// `vkGetDeviceQueue2`, `vkGetBufferMemoryRequirements2` and `vkBindBufferMemory2` under
/// their core 1.1 names, no extension enabled, validation on.
#[test]
fn core_1_1_device_commands_work() {
    let h = Harness::validated();
    let dev = create_device(&h, h.physical_device());
    // SAFETY: live handles throughout.
    unsafe {
        let q = dev.get_device_queue2(
            &vk::DeviceQueueInfo2::default().queue_family_index(1).queue_index(1),
        );
        assert_eq!(q, dev.get_device_queue(1, 1));
        let buffer = dev
            .create_buffer(
                &vk::BufferCreateInfo::default()
                    .size(1000)
                    .usage(vk::BufferUsageFlags::UNIFORM_BUFFER),
                None,
            )
            .unwrap();
        let mut dedicated = vk::MemoryDedicatedRequirements::default();
        let mut req2 = vk::MemoryRequirements2::default().push_next(&mut dedicated);
        dev.get_buffer_memory_requirements2(
            &vk::BufferMemoryRequirementsInfo2::default().buffer(buffer),
            &mut req2,
        );
        let req = req2.memory_requirements;
        let req1 = dev.get_buffer_memory_requirements(buffer);
        assert_eq!(
            (req.size, req.alignment, req.memory_type_bits),
            (req1.size, req1.alignment, req1.memory_type_bits)
        );
        let info = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(req.memory_type_bits.trailing_zeros());
        let memory = dev.allocate_memory(&info, None).unwrap();
        dev.bind_buffer_memory2(&[vk::BindBufferMemoryInfo::default()
            .buffer(buffer)
            .memory(memory)])
            .unwrap();
        dev.destroy_buffer(buffer, None);
        dev.free_memory(memory, None);
        {
            let _loader = ferrum_tests::loader_lock();
            dev.destroy_device(None);
        }
    }
    h.assert_clean();
}

/// The Vulkan 1.1/1.2/1.3 aggregate structures come with device versions Ferrum does not report
/// yet (1.2 and 1.3), so chaining them is outside valid usage on this device and runs without
/// layers; the driver still fills them, consistently with the per-topic structures.
#[test]
fn vulkan1x_aggregate_structs_are_filled_consistently() {
    let h = Harness::plain();
    let pd = h.physical_device();
    let mut v11 = vk::PhysicalDeviceVulkan11Properties::default();
    let mut v12 = vk::PhysicalDeviceVulkan12Properties::default();
    let mut v13 = vk::PhysicalDeviceVulkan13Properties::default();
    let mut id = vk::PhysicalDeviceIDProperties::default();
    {
        let mut p2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut v11)
            .push_next(&mut v12)
            .push_next(&mut v13)
            .push_next(&mut id);
        // SAFETY: a live physical device and a valid output chain.
        unsafe { h.instance.get_physical_device_properties2(pd, &mut p2) };
    }
    assert_eq!(v11.device_uuid, id.device_uuid);
    assert_eq!(v11.subgroup_size, 32);
    assert_eq!(v12.driver_name_as_c_str().unwrap(), c"Ferrum");
    assert_eq!((v13.min_subgroup_size, v13.max_subgroup_size), (32, 32));
    assert!(v13.max_buffer_size >= v11.max_memory_allocation_size);

    let mut f11 = vk::PhysicalDeviceVulkan11Features { multiview: vk::TRUE, ..Default::default() };
    let mut f12 =
        vk::PhysicalDeviceVulkan12Features { timeline_semaphore: vk::TRUE, ..Default::default() };
    let mut f13 =
        vk::PhysicalDeviceVulkan13Features { synchronization2: vk::TRUE, ..Default::default() };
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut f11)
        .push_next(&mut f12)
        .push_next(&mut f13);
    // SAFETY: as above.
    unsafe { h.instance.get_physical_device_features2(pd, &mut f2) };
    // Multiview is a 1.1 feature the device has; the 1.2 and 1.3 structures report nothing
    // (their versions are not claimed).
    assert_eq!(
        (f11.multiview, f12.timeline_semaphore, f13.synchronization2),
        (vk::TRUE, vk::FALSE, vk::FALSE)
    );
}
