//! Creating and destroying an instance and a device many times must not grow the process.

use ash_loaded::vk;
use ferrum_tests::{entry, queue_info, rss_bytes};

fn cycle(entry: &ash_loaded::Entry) {
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_0);
    let info = vk::InstanceCreateInfo::default().application_info(&app);
    let prio = [1.0];
    let queues = [queue_info(0, &prio), queue_info(1, &prio)];
    // SAFETY: valid create infos; every object is destroyed before its parent.
    unsafe {
        let instance = entry.create_instance(&info, None).expect("vkCreateInstance");
        let pd = instance.enumerate_physical_devices().unwrap()[0];
        instance.get_physical_device_queue_family_properties(pd);
        let dev_info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
        let device = instance.create_device(pd, &dev_info, None).expect("vkCreateDevice");
        let memory = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default().allocation_size(65536).memory_type_index(1),
                None,
            )
            .expect("vkAllocateMemory");
        device.free_memory(memory, None);
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
}

#[test]
fn thousand_instance_and_device_cycles_keep_rss_bounded() {
    let entry = entry();
    // Warm up: the loader, allocator arenas and lazily initialised statics settle first.
    for _ in 0..50 {
        cycle(&entry);
    }
    let before = rss_bytes();
    for _ in 0..1000 {
        cycle(&entry);
    }
    let growth = rss_bytes().saturating_sub(before);
    eprintln!("RSS growth over 1000 cycles: {} KiB", growth >> 10);
    // Measured: 0 KiB when everything is released; leaking only the VkDevice (driver and loader
    // state) grows ~2.8 MiB. 1 MiB catches any leak of ~1 KiB per cycle and leaves room for
    // allocator noise.
    assert!(growth < 1 << 20, "RSS grew by {} KiB over 1000 cycles", growth >> 10);
}
