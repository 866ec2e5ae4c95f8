//! Secondary command buffers inside a render pass (RENDER_PASS_CONTINUE with inheritance
//! info, with and without the framebuffer; one vkCmdExecuteCommands of two secondaries)
//! through the loader, validation layer on: the
//! image must equal the one the same draws recorded inline give, on Ferrum and on lavapipe,
//! and the two drivers must agree exactly (pixel-aligned rectangles of constant colour).

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::{vk, Device};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::{entry_with_lavapipe, Harness};
use raster::{Rect, Target, H, W};

const DRAWS: [(Rect, [f32; 4]); 3] = [
    ([2, 1, 30, 12], [1.0, 0.0, 0.0, 1.0]),
    ([10, 6, 37, 23], [0.0, 1.0, 0.0, 1.0]),
    ([0, 15, 9, 20], [0.0, 0.0, 1.0, 1.0]),
];

/// Begins `cb` as a secondary continuing the target's render pass (subpass 0), naming the
/// framebuffer or not.
unsafe fn begin_secondary(d: &Device, cb: vk::CommandBuffer, t: &Target, with_fb: bool) {
    let inherit = vk::CommandBufferInheritanceInfo::default()
        .render_pass(t.pass)
        .subpass(0)
        .framebuffer(if with_fb { t.framebuffer } else { vk::Framebuffer::null() });
    let begin = vk::CommandBufferBeginInfo::default()
        .flags(vk::CommandBufferUsageFlags::RENDER_PASS_CONTINUE)
        .inheritance_info(&inherit);
    // SAFETY: forwarded to the caller.
    unsafe { d.begin_command_buffer(cb, &begin) }.expect("vkBeginCommandBuffer (secondary)");
}

/// The image after the draws, recorded inline (`secondary` false) or in secondaries: the
/// first draw in one that names the framebuffer, the other two in one that does not.
fn render(h: &Harness, pd: vk::PhysicalDevice, secondary: bool) -> Vec<u8> {
    let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
    let d = &gpu.device;
    let t = Target::new(h, pd, &gpu);
    let out = gpu.host_buffer(u64::from(W * H * 4));
    let secondaries = gpu.command_buffers(vk::CommandBufferLevel::SECONDARY, 2);
    // SAFETY: valid commands on live handles; everything is destroyed after the GPU is idle.
    unsafe {
        if secondary {
            for (i, &cb) in secondaries.iter().enumerate() {
                begin_secondary(d, cb, &t, i == 0);
                t.bind(d, cb);
                let range = if i == 0 { 0..1 } else { 1..3 };
                for (r, c) in &DRAWS[range] {
                    t.rect_colored(d, cb, *r, *c, 1);
                }
                d.end_command_buffer(cb).expect("vkEndCommandBuffer (secondary)");
            }
        }
        gpu.run(|d, cb| {
            if secondary {
                t.begin_with(d, cb, vk::SubpassContents::SECONDARY_COMMAND_BUFFERS);
                d.cmd_execute_commands(cb, &secondaries);
            } else {
                t.begin(d, cb);
                for (r, c) in &DRAWS {
                    t.rect_colored(d, cb, *r, *c, 1);
                }
            }
            d.cmd_end_render_pass(cb);
            t.read_back(d, cb, &out);
        });
        d.free_command_buffers(gpu.pool, &secondaries);
    }
    let bytes = out.bytes().to_vec();
    gpu.destroy_buffer(out);
    t.destroy(d);
    bytes
}

/// The expected image: the clear colour, then each rectangle over it (UNORM8 of 0/1 colours).
fn expected() -> Vec<u8> {
    let unorm = |v: f32| (v * 255.0).round() as u8;
    let mut img = Vec::with_capacity((W * H * 4) as usize);
    for y in 0..H as i32 {
        for x in 0..W as i32 {
            let mut c = raster::CLEAR;
            for (r, col) in &DRAWS {
                if x >= r[0] && x < r[2] && y >= r[1] && y < r[3] {
                    c = *col;
                }
            }
            img.extend(c.map(unorm));
        }
    }
    img
}

fn differences(a: &[u8], b: &[u8]) -> usize {
    a.chunks(4).zip(b.chunks(4)).filter(|(x, y)| x != y).count()
}

#[test]
fn secondaries_draw_what_inline_draws_draw() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let want = expected();
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        // Secondaries first: the simulated GPU keeps its registers across devices of one
        // process, so an earlier inline draw could leave the targets programmed.
        let nested = render(&h, pd, true);
        let inline = render(&h, pd, false);
        // The clear colour's 0.3 × 255 = 76.5 may round either way: compare the drawn
        // rectangles exactly and the clear within 1.
        let close = |a: &[u8], b: &[u8]| {
            a.chunks(4)
                .zip(b.chunks(4))
                .all(|(x, y)| x.iter().zip(y).all(|(p, q)| p.abs_diff(*q) <= 1))
        };
        assert!(close(&inline, &want), "{name}: inline draws differ from the expected image");
        assert_eq!(differences(&inline, &nested), 0, "{name}: secondaries differ from inline");
    }
    h.assert_clean();
}
