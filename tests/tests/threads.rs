//! Several threads record and submit concurrently, each on its own compute queue with its own
//! command pool, for a bounded number of iterations; every result is checked.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, Gpu};
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
                    let binding = [vk::DescriptorSetLayoutBinding::default()
                        .binding(0)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)];
                    let set_layout = d
                        .create_descriptor_set_layout(
                            &vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding),
                            None,
                        )
                        .unwrap();
                    let layouts = [set_layout];
                    let range = [vk::PushConstantRange {
                        stage_flags: vk::ShaderStageFlags::COMPUTE,
                        offset: 0,
                        size: 4,
                    }];
                    let layout = d
                        .create_pipeline_layout(
                            &vk::PipelineLayoutCreateInfo::default()
                                .set_layouts(&layouts)
                                .push_constant_ranges(&range),
                            None,
                        )
                        .unwrap();
                    let module = d
                        .create_shader_module(
                            &vk::ShaderModuleCreateInfo::default().code(code),
                            None,
                        )
                        .unwrap();
                    let stage = vk::PipelineShaderStageCreateInfo::default()
                        .stage(vk::ShaderStageFlags::COMPUTE)
                        .module(module)
                        .name(c"main");
                    let pipeline = d
                        .create_compute_pipelines(
                            vk::PipelineCache::null(),
                            &[vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout)],
                            None,
                        )
                        .map_err(|(_, e)| e)
                        .unwrap()[0];
                    let sizes = [vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::STORAGE_BUFFER,
                        descriptor_count: 1,
                    }];
                    let dpool = d
                        .create_descriptor_pool(
                            &vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes),
                            None,
                        )
                        .unwrap();
                    let set = d
                        .allocate_descriptor_sets(
                            &vk::DescriptorSetAllocateInfo::default()
                                .descriptor_pool(dpool)
                                .set_layouts(&layouts),
                        )
                        .unwrap()[0];
                    let info = [vk::DescriptorBufferInfo {
                        buffer: buf.buffer,
                        offset: 0,
                        range: vk::WHOLE_SIZE,
                    }];
                    let write = vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(0)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(&info);
                    d.update_descriptor_sets(&[write], &[]);
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
                        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
                        d.cmd_bind_descriptor_sets(
                            cb,
                            vk::PipelineBindPoint::COMPUTE,
                            layout,
                            0,
                            &[set],
                            &[],
                        );
                        d.cmd_push_constants(
                            cb,
                            layout,
                            vk::ShaderStageFlags::COMPUTE,
                            0,
                            &add.to_le_bytes(),
                        );
                        d.cmd_dispatch(cb, 8, 1, 1);
                        let barrier = vk::MemoryBarrier::default()
                            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                            .dst_access_mask(vk::AccessFlags::HOST_READ);
                        d.cmd_pipeline_barrier(
                            cb,
                            vk::PipelineStageFlags::COMPUTE_SHADER,
                            vk::PipelineStageFlags::HOST,
                            vk::DependencyFlags::empty(),
                            &[barrier],
                            &[],
                            &[],
                        );
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
                    d.destroy_descriptor_pool(dpool, None);
                    d.destroy_pipeline(pipeline, None);
                    d.destroy_shader_module(module, None);
                    d.destroy_pipeline_layout(layout, None);
                    d.destroy_descriptor_set_layout(set_layout, None);
                }
            });
        }
    });
    for b in buffers {
        gpu.destroy_buffer(b);
    }
    h.assert_clean();
}
