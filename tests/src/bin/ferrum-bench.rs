//! Driver benchmarks through the system loader on whatever driver `VK_DRIVER_FILES` names:
//! command-buffer recording rate (dispatches with descriptor binds), submission latency, and
//! compute throughput of a memory-bound and an ALU-bound shader. Prints one line per figure.
//!
//! Usage: `ferrum-bench` (scripts/bench sets up the loader environment).

use std::time::{Duration, Instant};

use ash_loaded::{vk, Device, Entry};
use ferrum_tests::gpu::{Gpu, HostBuffer};
use ferrum_tests::shaders::compute_spirv;

const COPY: &str = "#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Src { uvec4 s[]; };
layout(set = 0, binding = 1) buffer Dst { uvec4 d[]; };
layout(push_constant) uniform P { uint n; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < n) d[i] = s[i]; }
";

const ALU: &str = "#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Src { uvec4 s[]; };
layout(set = 0, binding = 1) buffer Dst { uvec4 d[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = i, b = i * 3u + 1u;
    for (uint k = 0u; k < 256u; k++) { a = a * 1664525u + b; b = b ^ (a >> 7u); }
    if (i < n) d[i] = uvec4(a, b, a ^ b, a + b);
}
";

/// A pipeline with two storage buffers and a 4-byte push constant.
struct Kernel {
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
}

impl Kernel {
    fn new(d: &Device, source: &str, a: &HostBuffer, b: &HostBuffer) -> Kernel {
        let code = compute_spirv(source);
        let binding = |n| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(n)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        };
        // SAFETY: valid create infos on a live device; destroyed in `destroy`.
        unsafe {
            let bindings = [binding(0), binding(1)];
            let set_layout = d
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                    None,
                )
                .unwrap();
            let ranges = [vk::PushConstantRange {
                stage_flags: vk::ShaderStageFlags::COMPUTE,
                offset: 0,
                size: 4,
            }];
            let layouts = [set_layout];
            let layout = d
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default()
                        .set_layouts(&layouts)
                        .push_constant_ranges(&ranges),
                    None,
                )
                .unwrap();
            let module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)
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
            d.destroy_shader_module(module, None);
            let sizes = [vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: 2,
            }];
            let pool = d
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes),
                    None,
                )
                .unwrap();
            let set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(pool)
                        .set_layouts(&layouts),
                )
                .unwrap()[0];
            let infos = [a, b].map(|x| {
                [vk::DescriptorBufferInfo { buffer: x.buffer, offset: 0, range: vk::WHOLE_SIZE }]
            });
            let writes: Vec<_> = infos
                .iter()
                .enumerate()
                .map(|(i, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(i as u32)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(info)
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);
            Kernel { set_layout, layout, pipeline, pool, set }
        }
    }

    /// Records bind + push + dispatch of `groups` workgroups over `n` elements.
    fn record(&self, d: &Device, cb: vk::CommandBuffer, n: u32, groups: u32) {
        // SAFETY: a recording command buffer and live objects.
        unsafe {
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            d.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::COMPUTE,
                self.layout,
                0,
                &[self.set],
                &[],
            );
            d.cmd_push_constants(
                cb,
                self.layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                &n.to_le_bytes(),
            );
            d.cmd_dispatch(cb, groups, 1, 1);
        }
    }

    fn destroy(self, d: &Device) {
        // SAFETY: the device is idle.
        unsafe {
            d.destroy_descriptor_pool(self.pool, None);
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
        }
    }
}

fn recording_rate(gpu: &Gpu, k: &Kernel) {
    let d = &gpu.device;
    let cb = gpu.command_buffers(vk::CommandBufferLevel::PRIMARY, 1)[0];
    const DISPATCHES: u32 = 20_000;
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        // SAFETY: a resettable command buffer that is not pending.
        unsafe {
            d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
            for _ in 0..DISPATCHES {
                k.record(d, cb, 64, 1);
            }
            d.end_command_buffer(cb).unwrap();
        }
        best = best.min(start.elapsed());
    }
    println!(
        "recording: {:.0} dispatches/s (bind pipeline + bind set + push constants + dispatch)",
        f64::from(DISPATCHES) / best.as_secs_f64()
    );
}

fn submission_latency(gpu: &Gpu) {
    let d = &gpu.device;
    let cb = gpu.command_buffers(vk::CommandBufferLevel::PRIMARY, 1)[0];
    // SAFETY: live handles; the fence is waited for before each reuse.
    unsafe {
        d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
        d.end_command_buffer(cb).unwrap();
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        let mut times = Vec::new();
        for _ in 0..200 {
            let cbs = [cb];
            let start = Instant::now();
            d.queue_submit(gpu.queue, &[vk::SubmitInfo::default().command_buffers(&cbs)], fence)
                .unwrap();
            d.wait_for_fences(&[fence], true, u64::MAX).unwrap();
            times.push(start.elapsed());
            d.reset_fences(&[fence]).unwrap();
        }
        times.sort();
        println!(
            "submission: median {:.1} us, p90 {:.1} us (empty command buffer, submit to fence signalled)",
            times[times.len() / 2].as_secs_f64() * 1e6,
            times[times.len() * 9 / 10].as_secs_f64() * 1e6
        );
        d.destroy_fence(fence, None);
    }
}

/// Runs `k` over `n` 16-byte elements and returns the seconds of the best of three.
fn time_dispatch(gpu: &Gpu, k: &Kernel, n: u32) -> f64 {
    (0..3)
        .map(|_| {
            let cb = gpu.record(|d, cb| k.record(d, cb, n, n.div_ceil(64)));
            let start = Instant::now();
            gpu.submit_wait(&[cb]);
            start.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    // SAFETY: loading the system loader, as every Vulkan application does.
    let entry = unsafe { Entry::load() }.expect("libvulkan.so.1");
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_0);
    // SAFETY: valid create infos; destroyed at the end.
    let instance = unsafe {
        entry.create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None)
    }
    .expect("vkCreateInstance");
    // SAFETY: a live instance.
    let pd = unsafe { instance.enumerate_physical_devices() }.unwrap()[0];
    {
        let gpu = Gpu::new(&instance, pd, 1, 1, &[]);
        const N: u32 = 1 << 16;
        let (a, b) = (gpu.host_buffer(16 * u64::from(N)), gpu.host_buffer(16 * u64::from(N)));
        let copy = Kernel::new(&gpu.device, COPY, &a, &b);
        let alu = Kernel::new(&gpu.device, ALU, &a, &b);
        recording_rate(&gpu, &copy);
        submission_latency(&gpu);
        let t = time_dispatch(&gpu, &copy, N);
        println!(
            "memory-bound: {:.1} MB/s copied ({N} x 16 B in {:.1} ms)",
            2.0 * 16.0 * f64::from(N) / t / 1e6,
            t * 1e3
        );
        let t = time_dispatch(&gpu, &alu, N);
        println!(
            "ALU-bound: {:.1} M loop iterations/s ({N} invocations x 256 in {:.1} ms)",
            f64::from(N) * 256.0 / t / 1e6,
            t * 1e3
        );
        copy.destroy(&gpu.device);
        alu.destroy(&gpu.device);
        gpu.destroy_buffer(a);
        gpu.destroy_buffer(b);
    }
    // SAFETY: every child was destroyed.
    unsafe { instance.destroy_instance(None) };
}
