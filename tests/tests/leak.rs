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
        let instance = {
            let _loader = ferrum_tests::loader_lock();
            entry.create_instance(&info, None).expect("vkCreateInstance")
        };
        let pd = instance.enumerate_physical_devices().unwrap()[0];
        instance.get_physical_device_queue_family_properties(pd);
        let dev_info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
        let device = {
            let _loader = ferrum_tests::loader_lock();
            instance.create_device(pd, &dev_info, None).expect("vkCreateDevice")
        };
        let memory = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default().allocation_size(65536).memory_type_index(1),
                None,
            )
            .expect("vkAllocateMemory");
        device.free_memory(memory, None);
        {
            let _loader = ferrum_tests::loader_lock();
            device.destroy_device(None);
        }
        {
            let _loader = ferrum_tests::loader_lock();
            instance.destroy_instance(None);
        }
    }
}

/// RSS is per process and the allocator keeps per-thread arenas, so both checks run in one
/// test, on one thread, one after the other.
#[test]
fn rss_stays_bounded() {
    thousand_instance_and_device_cycles_keep_rss_bounded();
    command_pools_buffers_and_sync_objects_do_not_leak();
}

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

/// One round of everything a frame of a compute application creates and destroys.
fn object_cycle(gpu: &ferrum_tests::gpu::Gpu, buffer: vk::Buffer) {
    let d = &gpu.device;
    // SAFETY: valid create infos; every object is destroyed after the GPU finished with it.
    unsafe {
        let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(gpu.family);
        let pool = d.create_command_pool(&pool_info, None).unwrap();
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(4);
        let cbs = d.allocate_command_buffers(&alloc).unwrap();
        let qinfo =
            vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(2);
        let queries = d.create_query_pool(&qinfo, None).unwrap();
        let event = d.create_event(&vk::EventCreateInfo::default(), None).unwrap();
        let sem = d.create_semaphore(&vk::SemaphoreCreateInfo::default(), None).unwrap();
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        d.begin_command_buffer(cbs[0], &vk::CommandBufferBeginInfo::default()).unwrap();
        d.cmd_reset_query_pool(cbs[0], queries, 0, 2);
        d.cmd_fill_buffer(cbs[0], buffer, 0, 256, 1);
        d.cmd_write_timestamp(cbs[0], vk::PipelineStageFlags::BOTTOM_OF_PIPE, queries, 0);
        d.cmd_set_event(cbs[0], event, vk::PipelineStageFlags::TRANSFER);
        d.end_command_buffer(cbs[0]).unwrap();
        let submit_cbs = [cbs[0]];
        let sems = [sem];
        let submit =
            vk::SubmitInfo::default().command_buffers(&submit_cbs).signal_semaphores(&sems);
        d.queue_submit(gpu.queue, &[submit], vk::Fence::null()).unwrap();
        let stages = [vk::PipelineStageFlags::ALL_COMMANDS];
        let wait = vk::SubmitInfo::default().wait_semaphores(&sems).wait_dst_stage_mask(&stages);
        d.queue_submit(gpu.queue, &[wait], fence).unwrap();
        d.wait_for_fences(&[fence], true, u64::MAX).unwrap();
        d.free_command_buffers(pool, &cbs[..2]);
        d.destroy_command_pool(pool, None);
        d.destroy_query_pool(queries, None);
        d.destroy_event(event, None);
        d.destroy_semaphore(sem, None);
        d.destroy_fence(fence, None);
    }
}

fn command_pools_buffers_and_sync_objects_do_not_leak() {
    let h = ferrum_tests::Harness::plain();
    let gpu = ferrum_tests::gpu::Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let buf = gpu.host_buffer(4096);
    for _ in 0..50 {
        object_cycle(&gpu, buf.buffer);
    }
    let before = rss_bytes();
    for _ in 0..500 {
        object_cycle(&gpu, buf.buffer);
    }
    let growth = rss_bytes().saturating_sub(before);
    eprintln!("RSS growth over 500 object cycles: {} KiB", growth >> 10);
    // Measured: 0 KiB when everything is released; leaking only the command pool (its buffers
    // and their command chunks, of which the untouched pages cost nothing) grows ~800 KiB.
    assert!(growth < 256 << 10, "RSS grew by {} KiB over 500 cycles", growth >> 10);
    gpu.destroy_buffer(buf);
}
