//! Driver benchmarks through the system loader on whatever driver `VK_DRIVER_FILES` names:
//! command-buffer recording rate (dispatches with descriptor binds), submission latency, and
//! compute throughput of a memory-bound and an ALU-bound shader. Prints one line per figure.
//!
//! Usage: `ferrum-bench` (scripts/bench sets up the loader environment).

use std::time::{Duration, Instant};

use ash_loaded::{vk, Device, Entry};
use ferrum_tests::gpu::{Gpu, HostBuffer};
use ferrum_tests::kernel::{binding, whole, Kernel, SetPool};
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

/// A pipeline with two storage buffers and a 4-byte push constant, and its bound set.
struct Job<'d> {
    kernel: Kernel<'d>,
    set: SetPool<'d>,
}

impl<'d> Job<'d> {
    fn new(d: &'d Device, source: &str, a: &HostBuffer, b: &HostBuffer) -> Job<'d> {
        let bindings = [0, 1].map(|n| binding(n, vk::DescriptorType::STORAGE_BUFFER, 1));
        let kernel = Kernel::new(d, &compute_spirv(source), &[&bindings], 4);
        let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
        for (n, x) in [a, b].into_iter().enumerate() {
            set.write_buffers(n as u32, vk::DescriptorType::STORAGE_BUFFER, &[whole(x.buffer)]);
        }
        Job { kernel, set }
    }

    /// Records bind + push + dispatch of `groups` workgroups over `n` elements.
    fn record(&self, d: &Device, cb: vk::CommandBuffer, n: u32, groups: u32) {
        self.kernel.bind(cb, &[self.set.set], &[]);
        self.kernel.push(cb, &n.to_le_bytes());
        // SAFETY: a recording command buffer and live objects.
        unsafe { d.cmd_dispatch(cb, groups, 1, 1) };
    }
}

fn recording_rate(gpu: &Gpu, k: &Job) {
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
fn time_dispatch(gpu: &Gpu, k: &Job, n: u32) -> f64 {
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
        let copy = Job::new(&gpu.device, COPY, &a, &b);
        let alu = Job::new(&gpu.device, ALU, &a, &b);
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
        drop((copy, alu));
        gpu.destroy_buffer(a);
        gpu.destroy_buffer(b);
    }
    // SAFETY: every child was destroyed.
    unsafe { instance.destroy_instance(None) };
}
