//! Several threads record and submit concurrently, each on its own compute queue with its own
//! command pool, for a bounded number of iterations; every result is checked.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, Gpu};
use ferrum_tests::kernel::{binding, compute_to_host, whole, Kernel, SetPool};
use ferrum_tests::Harness;

const THREADS: u32 = 4;
const ITERATIONS: u32 = 25;

#[test]
fn threads_record_and_submit_to_separate_queues() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, THREADS, &[]);
    let buffers: Vec<_> = (0..THREADS).map(|_| gpu.host_buffer(8192)).collect();
    std::thread::scope(|s| {
        for (t, buf) in buffers.iter().enumerate() {
            let (d, family) = (gpu.device.clone(), gpu.family);
            s.spawn(move || {
                let t = t as u32;
                // SAFETY: each thread owns its queue, pool, command buffer and buffer.
                unsafe {
                    let queue = d.get_device_queue(family, t);
                    let pool_info = vk::CommandPoolCreateInfo::default()
                        .queue_family_index(family)
                        .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
                    let pool = d.create_command_pool(&pool_info, None).unwrap();
                    let alloc = vk::CommandBufferAllocateInfo::default()
                        .command_pool(pool)
                        .level(vk::CommandBufferLevel::PRIMARY)
                        .command_buffer_count(1);
                    let cb = d.allocate_command_buffers(&alloc).unwrap()[0];
                    let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
                    for i in 0..ITERATIONS {
                        let value = t * 1000 + i;
                        d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
                        d.cmd_fill_buffer(cb, buf.buffer, 0, 4096, value);
                        d.cmd_update_buffer(cb, buf.buffer, 0, &(!value).to_le_bytes());
                        transfer_to_transfer(&d, cb);
                        let r = vk::BufferCopy { src_offset: 0, dst_offset: 4096, size: 4096 };
                        d.cmd_copy_buffer(cb, buf.buffer, buf.buffer, &[r]);
                        transfer_to_host(&d, cb);
                        d.end_command_buffer(cb).unwrap();
                        let cbs = [cb];
                        let submit = vk::SubmitInfo::default().command_buffers(&cbs);
                        d.queue_submit(queue, &[submit], fence).unwrap();
                        d.wait_for_fences(&[fence], true, u64::MAX).unwrap();
                        d.reset_fences(&[fence]).unwrap();
                        let w = buf.u32s();
                        assert_eq!((w[0], w[1024]), (!value, !value), "thread {t} iteration {i}");
                        assert!(w[1..1024].iter().chain(&w[1025..]).all(|&x| x == value));
                    }
                    d.destroy_fence(fence, None);
                    d.destroy_command_pool(pool, None);
                }
            });
        }
    });
    for b in buffers {
        gpu.destroy_buffer(b);
    }
    h.assert_clean();
}

const ADD_SHADER: &str = "#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } b;
layout(push_constant) uniform P { uint add; } pc;
void main() { b.v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + pc.add; }
";

/// Each thread compiles its own pipeline (concurrently), then records and submits dispatches
/// with binds and push constants on its own queue; every result is checked.
#[test]
fn threads_compile_record_and_dispatch_concurrently() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, THREADS, &[]);
    let code = ferrum_tests::shaders::compute_spirv(ADD_SHADER);
    let buffers: Vec<_> = (0..THREADS).map(|_| gpu.host_buffer(4 * 256)).collect();
    std::thread::scope(|s| {
        for (t, buf) in buffers.iter().enumerate() {
            let (d, family, code) = (gpu.device.clone(), gpu.family, &code);
            s.spawn(move || {
                let t = t as u32;
                // SAFETY: each thread owns its queue, pool, pipeline objects and buffer.
                unsafe {
                    let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1)];
                    let kernel = Kernel::new(&d, code, &[&bindings], 4);
                    let set = SetPool::new(&d, kernel.set_layouts[0], &bindings);
                    set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(buf.buffer)]);
                    let queue = d.get_device_queue(family, t);
                    let pool = d
                        .create_command_pool(
                            &vk::CommandPoolCreateInfo::default()
                                .queue_family_index(family)
                                .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
                            None,
                        )
                        .unwrap();
                    let cb = d
                        .allocate_command_buffers(
                            &vk::CommandBufferAllocateInfo::default()
                                .command_pool(pool)
                                .level(vk::CommandBufferLevel::PRIMARY)
                                .command_buffer_count(1),
                        )
                        .unwrap()[0];
                    let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
                    for i in 0..10u32 {
                        let add = t * 100 + i;
                        d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
                        kernel.bind(cb, &[set.set], &[]);
                        kernel.push(cb, &add.to_le_bytes());
                        d.cmd_dispatch(cb, 8, 1, 1);
                        compute_to_host(&d, cb);
                        d.end_command_buffer(cb).unwrap();
                        let cbs = [cb];
                        d.queue_submit(
                            queue,
                            &[vk::SubmitInfo::default().command_buffers(&cbs)],
                            fence,
                        )
                        .unwrap();
                        d.wait_for_fences(&[fence], true, u64::MAX).unwrap();
                        d.reset_fences(&[fence]).unwrap();
                        let w = buf.u32s();
                        assert!(
                            w.iter().enumerate().all(|(j, &x)| x == j as u32 * 3 + add),
                            "thread {t} iteration {i}"
                        );
                    }
                    d.destroy_fence(fence, None);
                    d.destroy_command_pool(pool, None);
                    drop((set, kernel));
                }
            });
        }
    });
    for b in buffers {
        gpu.destroy_buffer(b);
    }
    h.assert_clean();
}
