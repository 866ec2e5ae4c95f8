//! Driver benchmarks through the system loader on whatever driver `VK_DRIVER_FILES` names:
//! command-buffer recording rate (dispatches with descriptor binds), submission latency, and
//! compute throughput of a memory-bound and an ALU-bound shader. Prints one line per figure.
//!
//! `ferrum-bench compute` runs only the compute kernels of issue #14's comparison (FMA loop,
//! 64 MiB copy, reduction, shared-memory matmul) and prints one `kernel NAME VALUE UNIT` line
//! each, so that scripts/bench can put the same programs on Ferrum and on lavapipe side by side.
//!
//! `ferrum-bench graphics` measures the textured scene of the demo (`ferrum_tests::cube`: a
//! textured, lit, depth-tested cube at 256 x 256): draws recorded per second (each draw binds
//! the pipeline, the descriptor set and the vertex buffer, then draws 36 vertices) and frames
//! per second (uniform update, record, submit, wait, with the frame copied back to the host),
//! one `graphics NAME VALUE UNIT` line each.
//!
//! Usage: `ferrum-bench [compute [KERNEL...]|graphics]` (scripts/bench sets up the loader
//! environment); naming kernels after `compute` runs only those (fma, copy64MiB, reduce, matmul).

use std::time::{Duration, Instant};

use ash_loaded::{vk, Device};
use ferrum_tests::app::App;
use ferrum_tests::cube::Cube;
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

/// The copy with 256-thread groups, so that 64 MiB stays within 65535 groups.
const COPY_WIDE: &str = "#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Src { uvec4 s[]; };
layout(set = 0, binding = 1) buffer Dst { uvec4 d[]; };
layout(push_constant) uniform P { uint n; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < n) d[i] = s[i]; }
";

const FMA: &str = "#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Src { vec4 s[]; };
layout(set = 0, binding = 1) buffer Dst { vec4 d[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = float(i) * 1e-6;
    vec4 a = vec4(x, x + 0.25, x + 0.5, x + 0.75);
    for (uint k = 0u; k < 256u; k++) { a = fma(a, vec4(0.9999), vec4(1e-4)); }
    if (i < n) d[i] = a;
}
";

const REDUCE: &str = "#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Src { uint s[]; };
layout(set = 0, binding = 1) buffer Dst { uint total; };
layout(push_constant) uniform P { uint n; };
shared uint part[256];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    part[l] = i < n ? s[i] : 0u;
    barrier();
    for (uint w = 128u; w > 0u; w >>= 1u) {
        if (l < w) part[l] += part[l + w];
        barrier();
    }
    if (l == 0u) atomicAdd(total, part[0]);
}
";

/// C = A * B for n x n floats; A and B live in `ab` (B after A), tiles of 16 x 16 in LDS.
const MATMUL: &str = "#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) buffer AB { float ab[]; };
layout(set = 0, binding = 1) buffer C { float c[]; };
layout(push_constant) uniform P { uint n; };
shared float ta[16][16];
shared float tb[16][16];
void main() {
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    uint ly = gl_LocalInvocationID.y, lx = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint t = 0u; t < n; t += 16u) {
        ta[ly][lx] = ab[row * n + t + lx];
        tb[ly][lx] = ab[n * n + (t + ly) * n + col];
        barrier();
        for (uint k = 0u; k < 16u; k++) acc += ta[ly][k] * tb[k][lx];
        barrier();
    }
    c[row * n + col] = acc;
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
        self.record_2d(d, cb, n, [groups, 1]);
    }

    fn record_2d(&self, d: &Device, cb: vk::CommandBuffer, n: u32, groups: [u32; 2]) {
        self.kernel.bind(cb, &[self.set.set], &[]);
        self.kernel.push(cb, &n.to_le_bytes());
        // SAFETY: a recording command buffer and live objects.
        unsafe { d.cmd_dispatch(cb, groups[0], groups[1], 1) };
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

/// Seconds of the best of three submissions of one recorded dispatch.
fn best_of_three(gpu: &Gpu, record: impl Fn(&Device, vk::CommandBuffer)) -> f64 {
    (0..3)
        .map(|_| {
            let cb = gpu.record(&record);
            let start = Instant::now();
            gpu.submit_wait(&[cb]);
            start.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

/// The kernels issue #14 compares with lavapipe; one `kernel NAME VALUE UNIT` line each.
/// `want(name)` selects which run (a profile of one kernel).
fn compute_kernels(gpu: &Gpu, want: impl Fn(&str) -> bool) {
    let d = &gpu.device;
    // FMA loop: 65536 invocations x 256 iterations x 4 lanes.
    const N: u32 = 1 << 16;
    if want("fma") {
        let (a, b) = (gpu.host_buffer(16 * u64::from(N)), gpu.host_buffer(16 * u64::from(N)));
        let fma = Job::new(d, FMA, &a, &b);
        let t = best_of_three(gpu, |d, cb| fma.record(d, cb, N, N / 64));
        println!("kernel fma {:.1} MFMA/s", f64::from(N) * 256.0 * 4.0 / t / 1e6);
        drop(fma);
        gpu.destroy_buffer(a);
        gpu.destroy_buffer(b);
    }

    // 64 MiB copied (64 MiB read, 64 MiB written).
    const M: u32 = 4 << 20;
    let (a, b) = (gpu.host_buffer(16 * u64::from(M)), gpu.host_buffer(16 * u64::from(M)));
    if want("copy64MiB") {
        let copy = Job::new(d, COPY_WIDE, &a, &b);
        let t = best_of_three(gpu, |d, cb| copy.record(d, cb, M, M / 256));
        println!("kernel copy64MiB {:.1} MB/s", 16.0 * f64::from(M) / t / 1e6);
        drop(copy);
    }
    gpu.destroy_buffer(b);

    // Reduction of 8M uints (32 MiB) through LDS with barriers: 32768 groups of 256.
    if want("reduce") {
        let r = 8 * M / 4;
        let total = gpu.host_buffer(4);
        let reduce = Job::new(d, REDUCE, &a, &total);
        let t = best_of_three(gpu, |d, cb| reduce.record(d, cb, r, r / 256));
        println!("kernel reduce {:.1} Melem/s", f64::from(r) / t / 1e6);
        drop(reduce);
        gpu.destroy_buffer(total);
    }
    gpu.destroy_buffer(a);
    if !want("matmul") {
        return;
    }

    // 256 x 256 matmul with 16 x 16 LDS tiles.
    const S: u32 = 256;
    let ab = gpu.host_buffer(2 * 4 * u64::from(S * S));
    let c = gpu.host_buffer(4 * u64::from(S * S));
    let mm = Job::new(d, MATMUL, &ab, &c);
    let t = best_of_three(gpu, |d, cb| mm.record_2d(d, cb, S, [S / 16, S / 16]));
    println!("kernel matmul {:.1} MFMA/s", f64::from(S).powi(3) / t / 1e6);
    drop(mm);
    gpu.destroy_buffer(ab);
    gpu.destroy_buffer(c);
}

/// The textured scene's draw-recording rate and frame rate; `graphics NAME VALUE UNIT` lines.
fn graphics(instance: &ash_loaded::Instance, pd: vk::PhysicalDevice) {
    let gpu = Gpu::new(instance, pd, 0, 1, &[]);
    let cube = Cube::new(instance, pd, &gpu, 256, 256);
    let d = &gpu.device;
    let cb = gpu.command_buffers(vk::CommandBufferLevel::PRIMARY, 1)[0];
    const DRAWS: u32 = 20_000;
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        // SAFETY: a resettable command buffer that is not pending (it is never submitted).
        unsafe {
            d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
            cube.record_pass(d, cb, DRAWS);
            d.end_command_buffer(cb).unwrap();
        }
        best = best.min(start.elapsed());
    }
    println!("graphics draws_recorded {:.0} draws/s", f64::from(DRAWS) / best.as_secs_f64());
    // One warm-up frame (pipeline and texture first use), then frames for at least a second.
    cube.frame(0.0);
    let (start, mut frames) = (Instant::now(), 0u32);
    while frames < 3 || start.elapsed() < Duration::from_secs(1) {
        cube.frame(0.1 * frames as f32);
        frames += 1;
    }
    let fps = f64::from(frames) / start.elapsed().as_secs_f64();
    println!("graphics frames {fps:.2} frames/s");
    drop(cube);
}

fn main() {
    let mode = std::env::args().nth(1);
    let compute_only = mode.as_deref() == Some("compute");
    let app = App::new(c"ferrum-bench", vk::API_VERSION_1_0).expect("a Vulkan instance");
    let (instance, pd) = (&app.instance, app.pd);
    if mode.as_deref() == Some("graphics") {
        graphics(instance, pd);
    } else if compute_only {
        let gpu = Gpu::new(instance, pd, 1, 1, &[]);
        let only: Vec<String> = std::env::args().skip(2).collect();
        compute_kernels(&gpu, |name| only.is_empty() || only.iter().any(|o| o == name));
    } else {
        let gpu = Gpu::new(instance, pd, 1, 1, &[]);
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
}
