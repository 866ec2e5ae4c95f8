//! VK_KHR_multiview through the loader, validation layer on: a render pass whose subpass has
//! a view mask of 2 and 4 views renders into a layered colour target; every draw, the
//! load-op clear and vkCmdClearAttachments apply once per view, into the layer of the view's
//! index. The vertex shader moves and stretches the rectangle by gl_ViewIndex and the fragment
//! shader colours by gl_ViewIndex, so a view rendered into the wrong layer, or a wrong view
//! index in either stage, changes the image. Each layer must equal the hand-computed image,
//! on Ferrum and on lavapipe (pixel-aligned rectangles of exactly representable colours).

use ash_loaded::{vk, Device};
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::viewport;
use ferrum_tests::scene::copy_layers;
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 37;
const H: u32 = 23;
const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// Load-op clear colour (exact in UNORM8).
const CLEAR: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
/// The vkCmdClearAttachments rectangle (x0, y0, x1, y1) and colour.
const CLEAR_RECT: [i32; 4] = [30, 18, 35, 22];
const CLEAR_COLOR: [f32; 4] = [1.0, 1.0, 0.0, 1.0];

/// A rectangle from (2 + 5v, 3) to (12 + 5v, 10 + 3v) in view v, coloured (v/4, 1, 0, 1).
const VS: &str = "#version 450
#extension GL_EXT_multiview : require
void main() {
    int i = gl_VertexIndex % 6;
    bool right = i == 1 || i == 2 || i == 4;
    bool bottom = i == 2 || i == 4 || i == 5;
    float v = float(gl_ViewIndex);
    vec2 p = vec2(right ? 12.0 + 5.0 * v : 2.0 + 5.0 * v, bottom ? 10.0 + 3.0 * v : 3.0);
    gl_Position = vec4(p / vec2(37.0, 23.0) * 2.0 - 1.0, 0.0, 1.0);
}
";

const FS: &str = "#version 450
#extension GL_EXT_multiview : require
layout(location = 0) out vec4 o;
void main() { o = vec4(float(gl_ViewIndex) / 4.0, 1.0, 0.0, 1.0); }
";

fn unorm(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v * 255.0).round() as u8)
}

/// The expected texels of layer `v`.
fn expected(v: i32) -> Vec<u8> {
    let mut img = Vec::new();
    let inside = |r: [i32; 4], x: i32, y: i32| x >= r[0] && x < r[2] && y >= r[1] && y < r[3];
    for y in 0..H as i32 {
        for x in 0..W as i32 {
            let rect = [2 + 5 * v, 3, 12 + 5 * v, 10 + 3 * v];
            let c = if inside(CLEAR_RECT, x, y) {
                CLEAR_COLOR
            } else if inside(rect, x, y) {
                [v as f32 / 4.0, 1.0, 0.0, 1.0]
            } else {
                CLEAR
            };
            img.extend(unorm(c));
        }
    }
    img
}

unsafe fn render_pass(d: &Device, view_mask: u32) -> vk::RenderPass {
    let att = [vk::AttachmentDescription::default()
        .format(FORMAT)
        .samples(vk::SampleCountFlags::TYPE_1)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
        .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)];
    let refs = [vk::AttachmentReference {
        attachment: 0,
        layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
    }];
    let sub = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&refs)];
    let deps = [vk::SubpassDependency::default()
        .src_subpass(0)
        .dst_subpass(vk::SUBPASS_EXTERNAL)
        .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
        .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
    let masks = [view_mask];
    let mut multiview = vk::RenderPassMultiviewCreateInfo::default().view_masks(&masks);
    let info = vk::RenderPassCreateInfo::default()
        .attachments(&att)
        .subpasses(&sub)
        .dependencies(&deps)
        .push_next(&mut multiview);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass (multiview)")
}

fn pipeline(setup: &mut DrawSetup<'_>) -> vk::Pipeline {
    let mut desc = setup.desc();
    desc.viewport = Some(viewport(W, H));
    setup.pipeline(&desc)
}

/// Renders the scene with `views` views into a `views`-layer image; the layers' texels.
fn render(h: &Harness, pd: vk::PhysicalDevice, views: u32) -> Vec<u8> {
    let mut mv = vk::PhysicalDeviceMultiviewFeatures::default().multiview(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut mv);
    let gpu = Gpu::with_feature_chain(&h.instance, pd, 0, &[c"VK_KHR_multiview"], &mut f2);
    let d = &gpu.device;
    let bytes = u64::from(W * H * 4 * views);
    let out = gpu.host_buffer(bytes);
    // SAFETY: valid create infos and commands on live handles; everything is destroyed after
    // the GPU is idle.
    unsafe {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(FORMAT)
            .extent(vk::Extent3D { width: W, height: H, depth: 1 })
            .mip_levels(1)
            .array_layers(views)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC);
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let memory = gpu.bind_image_memory(image);
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: views,
        };
        let vinfo = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D_ARRAY)
            .format(FORMAT)
            .subresource_range(range);
        let view = d.create_image_view(&vinfo, None).expect("vkCreateImageView");
        let pass = render_pass(d, (1 << views) - 1);
        let attachments = [view];
        let desc = SetupDesc::new(pass, &attachments, (W, H), [VS, FS]);
        let mut setup = DrawSetup::new(d, &desc);
        let pipe = pipeline(&mut setup);
        gpu.run(|d, cb| {
            setup.begin(cb, &[clear_color(CLEAR)]);
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
            d.cmd_draw(cb, 6, 1, 0, 0);
            // With multiview, baseArrayLayer 0 and layerCount 1 clear every view's layer.
            let ca = [vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: 0,
                clear_value: clear_color(CLEAR_COLOR),
            }];
            let r = CLEAR_RECT;
            let rect = [vk::ClearRect {
                rect: vk::Rect2D {
                    offset: vk::Offset2D { x: r[0], y: r[1] },
                    extent: vk::Extent2D {
                        width: (r[2] - r[0]) as u32,
                        height: (r[3] - r[1]) as u32,
                    },
                },
                base_array_layer: 0,
                layer_count: 1,
            }];
            d.cmd_clear_attachments(cb, &ca, &rect);
            d.cmd_end_render_pass(cb);
            copy_layers(d, cb, image, (W, H, views), out.buffer);
        });
        drop(setup);
        d.destroy_image_view(view, None);
        d.destroy_image(image, None);
        d.free_memory(memory, None);
    }
    let texels = out.bytes().to_vec();
    gpu.destroy_buffer(out);
    texels
}

fn check(views: u32) {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let layer = (W * H * 4) as usize;
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        let got = render(&h, pd, views);
        for v in 0..views as usize {
            let want = expected(v as i32);
            let bad = got[v * layer..(v + 1) * layer]
                .chunks(4)
                .zip(want.chunks(4))
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(bad, 0, "{name}: {views} views, layer {v}: {bad} texels differ");
        }
    }
    h.assert_clean();
}

#[test]
fn two_views_render_into_two_layers() {
    check(2);
}

#[test]
fn four_views_render_into_four_layers() {
    check(4);
}
