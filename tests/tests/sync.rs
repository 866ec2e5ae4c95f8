//! Fences, binary and timeline semaphores, events and timestamp queries through the loader
//! with validation on. Ordering is made observable by holding a queue on an event that only
//! the host sets, so a missing wait shows up as wrong bytes, not as a lucky race.

use std::time::Duration;

use ash_loaded::{khr, vk, Device};
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, Gpu};
use ferrum_tests::Harness;

const EXTS: &[&std::ffi::CStr] = &[c"VK_KHR_timeline_semaphore", c"VK_KHR_synchronization2"];

fn event(d: &Device) -> vk::Event {
    // SAFETY: a valid create info.
    unsafe { d.create_event(&vk::EventCreateInfo::default(), None) }.unwrap()
}

/// Makes the queue wait until the host sets `ev`.
fn wait_for_host(d: &Device, cb: vk::CommandBuffer, ev: vk::Event) {
    // SAFETY: a recording command buffer and a live event.
    unsafe {
        d.cmd_wait_events(
            cb,
            &[ev],
            vk::PipelineStageFlags::HOST,
            vk::PipelineStageFlags::TRANSFER,
            &[vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::HOST_WRITE)
                .dst_access_mask(vk::AccessFlags::TRANSFER_READ)],
            &[],
            &[],
        )
    };
}

#[test]
fn fences_signal_reset_and_time_out() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 0, 1, &[]);
    let d = &gpu.device;
    // SAFETY: live handles throughout; every object is destroyed at the end.
    unsafe {
        let signaled = d
            .create_fence(
                &vk::FenceCreateInfo::default().flags(vk::FenceCreateFlags::SIGNALED),
                None,
            )
            .unwrap();
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        assert_eq!(d.get_fence_status(signaled), Ok(true));
        assert_eq!(d.get_fence_status(fence), Ok(false));
        assert_eq!(d.wait_for_fences(&[fence], true, 1_000_000), Err(vk::Result::TIMEOUT));
        // Any of {signaled, unsignaled} is done; all is not.
        d.wait_for_fences(&[fence, signaled], false, 0).unwrap();
        assert_eq!(d.wait_for_fences(&[fence, signaled], true, 0), Err(vk::Result::TIMEOUT));
        d.reset_fences(&[signaled]).unwrap();
        assert_eq!(d.get_fence_status(signaled), Ok(false));
        // An empty submission signals its fence.
        d.queue_submit(gpu.queue, &[], fence).unwrap();
        d.wait_for_fences(&[fence], true, u64::MAX).unwrap();
        d.queue_wait_idle(gpu.queue).unwrap();
        d.device_wait_idle().unwrap();
        d.destroy_fence(fence, None);
        d.destroy_fence(signaled, None);
    }
    h.assert_clean();
}

#[test]
fn binary_semaphore_orders_two_queues() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 2, &[]);
    let d = &gpu.device;
    let buf = gpu.host_buffer(4096);
    let gate = event(d);
    // Queue 0: wait for the host, then fill; queue 1: after the semaphore, copy the fill.
    let producer = gpu.record(|d, cb| {
        wait_for_host(d, cb, gate);
        // SAFETY: recording; live buffer.
        unsafe { d.cmd_fill_buffer(cb, buf.buffer, 0, 2048, 0x1234_5678) };
    });
    let consumer = gpu.record(|d, cb| {
        // SAFETY: recording; live buffer.
        unsafe {
            let r = vk::BufferCopy { src_offset: 0, dst_offset: 2048, size: 2048 };
            d.cmd_copy_buffer(cb, buf.buffer, buf.buffer, &[r]);
        }
        transfer_to_host(d, cb);
    });
    // SAFETY: live handles; the queue family has two queues.
    unsafe {
        let sem = d.create_semaphore(&vk::SemaphoreCreateInfo::default(), None).unwrap();
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        let q1 = d.get_device_queue(1, 1);
        let sems = [sem];
        let (p, c) = ([producer], [consumer]);
        let signal = vk::SubmitInfo::default().command_buffers(&p).signal_semaphores(&sems);
        d.queue_submit(gpu.queue, &[signal], vk::Fence::null()).unwrap();
        let stages = [vk::PipelineStageFlags::TRANSFER];
        let wait = vk::SubmitInfo::default()
            .wait_semaphores(&sems)
            .wait_dst_stage_mask(&stages)
            .command_buffers(&c);
        d.queue_submit(q1, &[wait], fence).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(d.get_fence_status(fence), Ok(false), "consumer ran before its semaphore");
        d.set_event(gate).unwrap();
        d.wait_for_fences(&[fence], true, u64::MAX).unwrap();
        d.queue_wait_idle(gpu.queue).unwrap();
        let w = buf.u32s();
        assert!(w[512..1024].iter().all(|&x| x == 0x1234_5678));
        d.destroy_semaphore(sem, None);
        d.destroy_fence(fence, None);
        d.destroy_event(gate, None);
    }
    gpu.destroy_buffer(buf);
    h.assert_clean();
}

#[test]
fn timeline_semaphores_wait_signal_and_count() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, EXTS);
    let d = &gpu.device;
    let tl = {
        let _loader = ferrum_tests::loader_lock();
        khr::timeline_semaphore::Device::new(&h.instance, d)
    };
    let s2 = {
        let _loader = ferrum_tests::loader_lock();
        khr::synchronization2::Device::new(&h.instance, d)
    };
    let buf = gpu.host_buffer(4096);
    let cb = gpu.record(|d, cb| {
        // SAFETY: recording; live buffer.
        unsafe { d.cmd_update_buffer(cb, buf.buffer, 0, &42u32.to_le_bytes()) };
        transfer_to_host(d, cb);
    });
    // SAFETY: live handles; the semaphore is destroyed after the queue is idle.
    unsafe {
        let mut ty = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(3);
        let sem = d
            .create_semaphore(&vk::SemaphoreCreateInfo::default().push_next(&mut ty), None)
            .unwrap();
        assert_eq!(tl.get_semaphore_counter_value(sem), Ok(3));
        // Wait-before-signal: the GPU waits for 5 (signalled by the host later) and signals 8.
        let wait = [vk::SemaphoreSubmitInfo::default()
            .semaphore(sem)
            .value(5)
            .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)];
        let signal = [vk::SemaphoreSubmitInfo::default()
            .semaphore(sem)
            .value(8)
            .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)];
        let cbs = [vk::CommandBufferSubmitInfo::default().command_buffer(cb)];
        let submit = vk::SubmitInfo2::default()
            .wait_semaphore_infos(&wait)
            .command_buffer_infos(&cbs)
            .signal_semaphore_infos(&signal);
        s2.queue_submit2(gpu.queue, &[submit], vk::Fence::null()).unwrap();
        let sems = [sem];
        let eight = [8];
        let info = vk::SemaphoreWaitInfo::default().semaphores(&sems).values(&eight);
        assert_eq!(tl.wait_semaphores(&info, 10_000_000), Err(vk::Result::TIMEOUT));
        assert_eq!(buf.u32s()[0], 0, "ran before its wait value was reached");
        tl.signal_semaphore(&vk::SemaphoreSignalInfo::default().semaphore(sem).value(5)).unwrap();
        tl.wait_semaphores(&info, u64::MAX).unwrap();
        assert_eq!(tl.get_semaphore_counter_value(sem), Ok(8));
        assert_eq!(buf.u32s()[0], 42);
        d.queue_wait_idle(gpu.queue).unwrap();
        d.destroy_semaphore(sem, None);
    }
    gpu.destroy_buffer(buf);
    h.assert_clean();
}

#[test]
fn events_between_host_and_gpu() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 0, 1, EXTS);
    let d = &gpu.device;
    let s2 = {
        let _loader = ferrum_tests::loader_lock();
        khr::synchronization2::Device::new(&h.instance, d)
    };
    let (a, b) = (event(d), event(d));
    // SAFETY: live events.
    unsafe {
        assert_eq!(d.get_event_status(a), Ok(false));
        d.set_event(a).unwrap();
        assert_eq!(d.get_event_status(a), Ok(true));
        d.reset_event(a).unwrap();
        assert_eq!(d.get_event_status(a), Ok(false));
    }
    gpu.run(|d, cb| {
        let barrier = [vk::MemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
            .dst_stage_mask(vk::PipelineStageFlags2::TRANSFER)];
        let dep = vk::DependencyInfo::default().memory_barriers(&barrier);
        // SAFETY: recording; live events.
        unsafe {
            d.cmd_set_event(cb, a, vk::PipelineStageFlags::TRANSFER);
            s2.cmd_set_event2(cb, b, &dep);
            s2.cmd_wait_events2(cb, &[b], &[dep]);
            s2.cmd_pipeline_barrier2(cb, &dep);
            s2.cmd_reset_event2(cb, b, vk::PipelineStageFlags2::TRANSFER);
        }
    });
    // SAFETY: live events, the GPU is idle.
    unsafe {
        assert_eq!(d.get_event_status(a), Ok(true));
        assert_eq!(d.get_event_status(b), Ok(false));
        d.destroy_event(a, None);
        d.destroy_event(b, None);
    }
    h.assert_clean();
}

#[test]
fn timestamps_are_ordered_available_and_copied() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let d = &gpu.device;
    let out = gpu.host_buffer(256);
    // SAFETY: live handles; the pool is destroyed after the GPU is idle.
    unsafe {
        let info =
            vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(4);
        let pool = d.create_query_pool(&info, None).unwrap();
        gpu.run(|d, cb| {
            d.cmd_reset_query_pool(cb, pool, 0, 4);
            d.cmd_write_timestamp(cb, vk::PipelineStageFlags::TOP_OF_PIPE, pool, 0);
            d.cmd_fill_buffer(cb, out.buffer, 128, 128, 7);
            d.cmd_write_timestamp(cb, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 1);
            transfer_to_transfer(d, cb);
            let flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY;
            d.cmd_copy_query_pool_results(cb, pool, 0, 3, out.buffer, 0, 16, flags);
            transfer_to_host(d, cb);
        });
        let mut res = [[0u64; 2]; 3];
        let flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY;
        let r = d.get_query_pool_results(pool, 0, &mut res, flags);
        assert_eq!(r, Err(vk::Result::NOT_READY), "query 2 was never written");
        assert_eq!((res[0][1], res[1][1], res[2][1]), (1, 1, 0));
        assert!(res[0][0] > 0 && res[1][0] >= res[0][0], "{res:?}");
        let mut waited = [0u64; 2];
        d.get_query_pool_results(
            pool,
            0,
            &mut waited,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
        )
        .unwrap();
        assert_eq!(waited, [res[0][0], res[1][0]]);
        // The GPU copy agrees with the host read.
        let copied: Vec<u64> = (0..6).map(|i| out.u64_at(8 * i)).collect();
        assert_eq!(copied, [res[0][0], 1, res[1][0], 1, 0, 0]);
        d.destroy_query_pool(pool, None);
    }
    gpu.destroy_buffer(out);
    h.assert_clean();
}
