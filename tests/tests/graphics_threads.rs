//! Graphics command buffers recorded by several threads at once (validation layer on): each
//! thread builds its own render target, render pass, framebuffer and graphics pipeline
//! (pipeline compilation runs concurrently too), records its own command buffers from its own
//! pool, several rounds of rectangles of its own colours, and hands them back; the graphics
//! queue (navi21 has one) runs them all in one submission. Every target must hold exactly the
//! rectangles its thread drew (pixel-aligned rectangles of constant colour: exact, see
//! `support/raster.rs`).

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::Harness;
use raster::{Rect, Target, H, W};

const THREADS: usize = 4;
const ROUNDS: usize = 3;

/// Thread `t`'s draws in round `r`: rectangles and colours that differ per thread and round,
/// so a command buffer replayed into another thread's target would show.
fn draws(t: usize, r: usize) -> Vec<(Rect, [f32; 4])> {
    let (ti, ri) = (t as i32, r as i32);
    let shade = |k: usize| ((t * 37 + r * 11 + k * 5) % 16) as f32 / 15.0;
    vec![
        ([ti, ri, 20 + ti * 4, 10 + ri], [shade(0), 0.0, 1.0, 1.0]),
        ([10 + ri * 3, 8 + ti, W as i32 - ti, H as i32 - ri], [1.0, shade(1), 0.0, 1.0]),
        ([2 * ti + ri, 12, 2 * ti + ri + 3, 20], [0.0, 1.0, shade(2), 1.0]),
    ]
}

/// Records thread `t`'s rounds into command buffers from a pool of its own; the caller frees
/// the pool after the GPU is done.
fn record(gpu: &Gpu, t: usize, target: &Target, out: &ferrum_tests::gpu::HostBuffer) -> Recorded {
    let d = &gpu.device;
    // SAFETY: the pool, command buffers and target belong to this thread until returned.
    unsafe {
        let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(gpu.family);
        let pool = d.create_command_pool(&pool_info, None).expect("vkCreateCommandPool");
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(ROUNDS as u32);
        let cbs = d.allocate_command_buffers(&alloc).expect("vkAllocateCommandBuffers");
        for (r, &cb) in cbs.iter().enumerate() {
            d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
            target.begin(d, cb);
            for (rect, colour) in draws(t, r) {
                target.rect_colored(d, cb, rect, colour, 1);
            }
            d.cmd_end_render_pass(cb);
            // Only the last round's image is read; every round clears and redraws it.
            if r + 1 == ROUNDS {
                target.read_back(d, cb, out);
            }
            d.end_command_buffer(cb).unwrap();
        }
        Recorded { pool, cbs }
    }
}

struct Recorded {
    pool: vk::CommandPool,
    cbs: Vec<vk::CommandBuffer>,
}

#[test]
fn threads_build_pipelines_and_record_draws_concurrently() {
    let h = Harness::validated();
    let pd = h.physical_device();
    let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
    let outs: Vec<_> = (0..THREADS).map(|_| gpu.host_buffer(u64::from(W * H * 4))).collect();
    let (targets, recorded): (Vec<Target>, Vec<Recorded>) = std::thread::scope(|s| {
        let handles: Vec<_> = outs
            .iter()
            .enumerate()
            .map(|(t, out)| {
                let (h, gpu) = (&h, &gpu);
                s.spawn(move || {
                    let target = Target::new(h, pd, gpu);
                    let rec = record(gpu, t, &target, out);
                    (target, rec)
                })
            })
            .collect();
        handles.into_iter().map(|j| j.join().expect("recording thread")).unzip()
    });
    let d = &gpu.device;
    // One submission of every thread's rounds, in thread order; the rounds of one target are
    // ordered by the render pass's load-op clear after the previous round's writes (the
    // submission order and the implicit external dependency).
    let cbs: Vec<vk::CommandBuffer> = recorded.iter().flat_map(|r| r.cbs.clone()).collect();
    // SAFETY: executable command buffers of this device; everything is destroyed after the wait.
    unsafe {
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        let submit = vk::SubmitInfo::default().command_buffers(&cbs);
        d.queue_submit(gpu.queue, &[submit], fence).expect("vkQueueSubmit");
        d.wait_for_fences(&[fence], true, u64::MAX).expect("vkWaitForFences");
        d.destroy_fence(fence, None);
        for r in &recorded {
            d.destroy_command_pool(r.pool, None);
        }
    }
    for (t, out) in outs.iter().enumerate() {
        let want = raster::painted(&draws(t, ROUNDS - 1));
        assert!(raster::close(out.bytes(), &want), "thread {t}: the target differs");
    }
    for t in targets {
        t.destroy(d);
    }
    for out in outs {
        gpu.destroy_buffer(out);
    }
    h.assert_clean();
}
