//! Secondary command buffers inside a render pass (RENDER_PASS_CONTINUE with inheritance
//! info, with and without the framebuffer; one vkCmdExecuteCommands of two secondaries)
//! through the loader, validation layer on: the
//! image must equal the one the same draws recorded inline give, on Ferrum and on lavapipe,
//! and the two drivers must agree exactly (pixel-aligned rectangles of constant colour).
//! A precise occlusion query begun in the primary counts the secondaries' samples
//! (inheritedQueries).

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

#[test]
fn secondaries_draw_what_inline_draws_draw() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let want = raster::painted(&DRAWS);
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        // Secondaries first: the simulated GPU keeps its registers across devices of one
        // process, so an earlier inline draw could leave the targets programmed.
        let nested = render(&h, pd, true);
        let inline = render(&h, pd, false);
        // The clear colour's 0.3 × 255 = 76.5 may round either way: compare the drawn
        // rectangles exactly and the clear within 1.
        assert!(raster::close(&inline, &want), "{name}: inline draws differ from the expected");
        assert_eq!(inline, nested, "{name}: secondaries differ from inline");
    }
    h.assert_clean();
}

/// Samples the draws pass (no depth test: overlaps count twice).
fn drawn_samples() -> u64 {
    DRAWS.iter().map(|(r, _)| ((r[2] - r[0]) * (r[3] - r[1])) as u64).sum()
}

/// A precise occlusion query around vkCmdExecuteCommands of a secondary that inherits it.
fn inherited_query(h: &Harness, pd: vk::PhysicalDevice) -> u64 {
    let core =
        vk::PhysicalDeviceFeatures::default().occlusion_query_precise(true).inherited_queries(true);
    let gpu = Gpu::with_features(&h.instance, pd, 0, &core);
    let d = &gpu.device;
    let t = Target::new(h, pd, &gpu);
    let secondary = gpu.command_buffers(vk::CommandBufferLevel::SECONDARY, 1)[0];
    // SAFETY: valid commands on live handles; everything is destroyed after the GPU is idle.
    unsafe {
        let info =
            vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::OCCLUSION).query_count(1);
        let pool = d.create_query_pool(&info, None).expect("vkCreateQueryPool");
        let inherit = vk::CommandBufferInheritanceInfo::default()
            .render_pass(t.pass)
            .subpass(0)
            .occlusion_query_enable(true)
            .query_flags(vk::QueryControlFlags::PRECISE);
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::RENDER_PASS_CONTINUE)
            .inheritance_info(&inherit);
        d.begin_command_buffer(secondary, &begin).expect("vkBeginCommandBuffer (secondary)");
        t.bind(d, secondary);
        for (r, c) in &DRAWS {
            t.rect_colored(d, secondary, *r, *c, 1);
        }
        d.end_command_buffer(secondary).expect("vkEndCommandBuffer (secondary)");
        gpu.run(|d, cb| {
            d.cmd_reset_query_pool(cb, pool, 0, 1);
            d.cmd_begin_query(cb, pool, 0, vk::QueryControlFlags::PRECISE);
            t.begin_with(d, cb, vk::SubpassContents::SECONDARY_COMMAND_BUFFERS);
            d.cmd_execute_commands(cb, &[secondary]);
            d.cmd_end_render_pass(cb);
            d.cmd_end_query(cb, pool, 0);
        });
        let mut results = [0u64; 1];
        let flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT;
        d.get_query_pool_results(pool, 0, &mut results, flags).expect("vkGetQueryPoolResults");
        d.free_command_buffers(gpu.pool, &[secondary]);
        d.destroy_query_pool(pool, None);
        t.destroy(d);
        results[0]
    }
}

#[test]
fn secondaries_count_in_inherited_queries() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        // SAFETY: a live physical device.
        let f = unsafe { h.instance.get_physical_device_features(pd) };
        if f.inherited_queries == vk::FALSE {
            // lavapipe does not support inheritedQueries: the count is checked by hand only.
            assert_ne!(name, "Ferrum", "Ferrum must advertise inheritedQueries");
            continue;
        }
        let got = inherited_query(&h, pd);
        assert_eq!(got, drawn_samples(), "{name}: samples passed in the secondary");
    }
    h.assert_clean();
}
