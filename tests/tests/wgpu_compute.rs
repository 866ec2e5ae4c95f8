//! A real client: wgpu (the Rust graphics library) finds Ferrum through the Vulkan loader and
//! runs compute work on it — a saxpy, a workgroup reduction in shared memory with barriers,
//! and a branchy loop kernel — checked against the same computation on the host.
//!
//! wgpu hides Vulkan 1.0 adapters without VK_KHR_maintenance1, so this also keeps that
//! extension (and whatever else wgpu comes to require) honest.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use wgpu::util::DeviceExt;

/// Runs a future that wgpu resolves without an external executor (native backends complete
/// requests synchronously or when the device is polled).
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}

struct Ferrum {
    device: wgpu::Device,
    queue: wgpu::Queue,
}

fn ferrum() -> Ferrum {
    ferrum_tests::use_ferrum_only();
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::VULKAN;
    desc.flags = wgpu::InstanceFlags::empty();
    let instance = wgpu::Instance::new(desc);
    let adapters = block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
    let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
    let adapter = adapters
        .into_iter()
        .find(|a| a.get_info().name.contains("Ferrum"))
        .unwrap_or_else(|| panic!("wgpu does not offer Ferrum; adapters: {names:?}"));
    let (device, queue) = block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("ferrum"),
        required_limits: wgpu::Limits::downlevel_defaults(),
        ..Default::default()
    }))
    .expect("request_device");
    Ferrum { device, queue }
}

impl Ferrum {
    fn storage(&self, data: &[u32]) -> wgpu::Buffer {
        let bytes: Vec<u8> = data.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        })
    }

    /// Runs `entry` of `wgsl` over `groups` workgroups with `buffers` at bindings 0.., then
    /// reads back the last buffer.
    fn run(&self, wgsl: &str, groups: u32, buffers: &[&wgpu::Buffer]) -> Vec<u32> {
        let d = &self.device;
        let module = d.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        });
        let pipeline = d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let entries: Vec<_> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        let group = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        let out = buffers[buffers.len() - 1];
        let readback = d.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: out.size(),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut enc = d.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(groups, 1, 1);
        }
        enc.copy_buffer_to_buffer(out, 0, &readback, 0, out.size());
        self.queue.submit([enc.finish()]);
        readback.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("map_async"));
        d.poll(wgpu::PollType::wait_indefinitely()).expect("poll");
        let words = readback
            .slice(..)
            .get_mapped_range()
            .expect("mapped range")
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        readback.unmap();
        words
    }
}

/// A deterministic sequence of test inputs.
fn inputs(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n).map(|_| rng.u32(..)).collect()
}

#[test]
fn saxpy() {
    let g = ferrum();
    let n = 1000;
    let xs: Vec<f32> = inputs(n, 7).iter().map(|&v| (v % 2000) as f32 / 8.0 - 100.0).collect();
    let ys: Vec<f32> = inputs(n, 9).iter().map(|&v| (v % 1000) as f32 / 4.0).collect();
    let x = g.storage(&xs.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    let y = g.storage(&ys.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    let wgsl = "
        @group(0) @binding(0) var<storage, read> x: array<f32>;
        @group(0) @binding(1) var<storage, read_write> y: array<f32>;
        @compute @workgroup_size(64)
        fn main(@builtin(global_invocation_id) id: vec3<u32>) {
            if (id.x < arrayLength(&y)) { y[id.x] = 2.5 * x[id.x] + y[id.x]; }
        }";
    let got = g.run(wgsl, (n as u32).div_ceil(64), &[&x, &y]);
    for i in 0..n {
        // a*x+y with exactly representable inputs: one rounding (or a fused one) either way.
        let want = 2.5f32.mul_add(xs[i], ys[i]);
        let alt = 2.5 * xs[i] + ys[i];
        let have = f32::from_bits(got[i]);
        assert!(have == want || have == alt, "y[{i}] = {have}, want {want}");
    }
}

#[test]
fn workgroup_reduction() {
    let g = ferrum();
    let data = inputs(64 * 16, 3).iter().map(|v| v % 100_000).collect::<Vec<_>>();
    let input = g.storage(&data);
    let sums = g.storage(&[0; 16]);
    let wgsl = "
        @group(0) @binding(0) var<storage, read> data: array<u32>;
        @group(0) @binding(1) var<storage, read_write> sums: array<u32>;
        var<workgroup> part: array<u32, 64>;
        @compute @workgroup_size(64)
        fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3<u32>) {
            part[l] = data[w.x * 64u + l];
            workgroupBarrier();
            for (var s = 32u; s > 0u; s = s / 2u) {
                if (l < s) { part[l] = part[l] + part[l + s]; }
                workgroupBarrier();
            }
            if (l == 0u) { sums[w.x] = part[0]; }
        }";
    let got = g.run(wgsl, 16, &[&input, &sums]);
    let want: Vec<u32> = data.chunks(64).map(|c| c.iter().sum()).collect();
    assert_eq!(got, want);
}

/// Collatz step counts: a data-dependent loop with a branch inside, divergent across lanes.
#[test]
fn branchy_loop() {
    let g = ferrum();
    let starts: Vec<u32> = (1..=512).collect();
    let input = g.storage(&starts);
    let out = g.storage(&[0; 512]);
    let wgsl = "
        @group(0) @binding(0) var<storage, read> start: array<u32>;
        @group(0) @binding(1) var<storage, read_write> steps: array<u32>;
        @compute @workgroup_size(32)
        fn main(@builtin(global_invocation_id) id: vec3<u32>) {
            var n = start[id.x];
            var count = 0u;
            loop {
                if (n == 1u) { break; }
                if ((n & 1u) == 0u) { n = n / 2u; } else { n = 3u * n + 1u; }
                count = count + 1u;
            }
            steps[id.x] = count;
        }";
    let got = g.run(wgsl, 16, &[&input, &out]);
    let want: Vec<u32> = starts
        .iter()
        .map(|&s| {
            let (mut n, mut c) = (s, 0);
            while n != 1 {
                n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
                c += 1;
            }
            c
        })
        .collect();
    assert_eq!(got, want);
}
