//! VK_KHR_imageless_framebuffer (with VK_KHR_image_format_list) through the loader,
//! validation layer on, on Ferrum and on lavapipe: a framebuffer created with only the
//! attachments' descriptions, its view given at vkCmdBeginRenderPass
//! (VkRenderPassAttachmentBeginInfo; image and description list the same view format), draws the image the same draws give through an ordinary
//! framebuffer, and the hand-computed one (pixel-aligned rectangles of constant colour).

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::{khr, vk};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::{entry_with_lavapipe, Harness};
use raster::{Rect, Target, H, W};

const DRAWS: [(Rect, [f32; 4]); 3] = [
    ([0, 0, 37, 1], [1.0, 1.0, 0.0, 1.0]),
    ([5, 3, 20, 22], [0.0, 1.0, 1.0, 1.0]),
    ([18, 10, 37, 23], [1.0, 0.0, 1.0, 0.0]),
];

const EXTENSIONS: [&std::ffi::CStr; 3] =
    [c"VK_KHR_maintenance2", c"VK_KHR_image_format_list", c"VK_KHR_imageless_framebuffer"];

fn device(h: &Harness, pd: vk::PhysicalDevice) -> Gpu {
    let mut imageless =
        vk::PhysicalDeviceImagelessFramebufferFeatures::default().imageless_framebuffer(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut imageless);
    Gpu::with_feature_chain(&h.instance, pd, 0, &EXTENSIONS, &mut f2)
}

/// The image after the draws, through an imageless framebuffer or the target's own.
fn render(h: &Harness, pd: vk::PhysicalDevice, imageless: bool) -> Vec<u8> {
    let gpu = device(h, pd);
    let d = &gpu.device;
    let t = Target::with_format_list(h, pd, &gpu);
    let out = gpu.host_buffer(u64::from(W * H * 4));
    let formats = [vk::Format::R8G8B8A8_UNORM];
    let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
    let described = [vk::FramebufferAttachmentImageInfo::default()
        .usage(usage)
        .width(W)
        .height(H)
        .layer_count(1)
        .view_formats(&formats)];
    let mut attachments =
        vk::FramebufferAttachmentsCreateInfo::default().attachment_image_infos(&described);
    let info = vk::FramebufferCreateInfo::default()
        .flags(vk::FramebufferCreateFlags::IMAGELESS)
        .render_pass(t.pass)
        .attachment_count(1)
        .width(W)
        .height(H)
        .layers(1)
        .push_next(&mut attachments);
    // SAFETY: valid create info and commands on live handles; everything is destroyed after
    // the GPU is idle.
    unsafe {
        let fb = d.create_framebuffer(&info, None).expect("vkCreateFramebuffer (imageless)");
        let views = [t.view];
        let mut given = vk::RenderPassAttachmentBeginInfo::default().attachments(&views);
        let clear = [vk::ClearValue { color: vk::ClearColorValue { float32: raster::CLEAR } }];
        gpu.run(|d, cb| {
            if imageless {
                let begin = vk::RenderPassBeginInfo::default()
                    .render_pass(t.pass)
                    .framebuffer(fb)
                    .render_area(raster::full())
                    .clear_values(&clear)
                    .push_next(&mut given);
                d.cmd_begin_render_pass(cb, &begin, vk::SubpassContents::INLINE);
                t.bind(d, cb);
            } else {
                t.begin(d, cb);
            }
            for (r, c) in &DRAWS {
                t.rect_colored(d, cb, *r, *c, 1);
            }
            d.cmd_end_render_pass(cb);
            t.read_back(d, cb, &out);
        });
        d.destroy_framebuffer(fb, None);
    }
    let bytes = out.bytes().to_vec();
    gpu.destroy_buffer(out);
    t.destroy(d);
    bytes
}

#[test]
fn imageless_framebuffers_draw_what_ordinary_ones_draw() {
    let h = Harness::with_entry(
        entry_with_lavapipe(),
        true,
        &[khr::get_physical_device_properties2::NAME],
    );
    let want = raster::painted(&DRAWS);
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        // Imageless first: the simulated GPU keeps its registers across devices of one
        // process, so an earlier ordinary pass could leave the target programmed.
        let imageless = render(&h, pd, true);
        let ordinary = render(&h, pd, false);
        assert!(raster::close(&imageless, &want), "{name}: imageless image differs");
        assert_eq!(imageless, ordinary, "{name}: imageless and ordinary framebuffers differ");
    }
    h.assert_clean();
}
