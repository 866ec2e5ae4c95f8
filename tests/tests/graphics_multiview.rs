//! VK_KHR_multiview through the loader, validation layer on: a render pass whose subpass has
//! a view mask of 2 and 4 views renders into a layered colour target; every draw, the
//! load-op clear and vkCmdClearAttachments apply once per view, into the layer of the view's
//! index. The vertex shader moves and stretches the rectangle by gl_ViewIndex and the fragment
//! shader colours by gl_ViewIndex, so a view rendered into the wrong layer, or a wrong view
//! index in either stage, changes the image. Each layer must equal the hand-computed image,
//! on Ferrum and on lavapipe (pixel-aligned rectangles of exactly representable colours).
//! The image is filled with red before the pass, so a layer the load op missed shows it; a
//! pass whose subpasses render view 0 and then view 1 must clear each layer in the subpass
//! that first renders its view (the CTS's `draw.renderpass.multi_draw.*.multiview` shape).

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
/// What the image holds before the render pass.
const BEFORE: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
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

/// A pass with one subpass per entry of `masks` (its view mask), each rendering the one
/// colour attachment, which the load op clears.
unsafe fn render_pass(d: &Device, masks: &[u32]) -> vk::RenderPass {
    let att = [vk::AttachmentDescription::default()
        .format(FORMAT)
        .samples(vk::SampleCountFlags::TYPE_1)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        .initial_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
        .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)];
    let refs = [vk::AttachmentReference {
        attachment: 0,
        layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
    }];
    let sub = vec![
        vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&refs);
        masks.len()
    ];
    type S = vk::PipelineStageFlags;
    type A = vk::AccessFlags;
    let color = (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE);
    let dep = |src: u32, dst: u32, (ss, sa): (S, A), (ds, da): (S, A)| {
        let dep = vk::SubpassDependency::default().src_subpass(src).dst_subpass(dst);
        dep.src_stage_mask(ss).src_access_mask(sa).dst_stage_mask(ds).dst_access_mask(da)
    };
    let last = masks.len() as u32 - 1;
    let mut deps = vec![
        dep(vk::SUBPASS_EXTERNAL, 0, (S::TRANSFER, A::TRANSFER_WRITE), color),
        dep(last, vk::SUBPASS_EXTERNAL, color, (S::TRANSFER, A::TRANSFER_READ)),
    ];
    deps.extend((1..=last).map(|i| dep(i - 1, i, color, color)));
    let mut multiview = vk::RenderPassMultiviewCreateInfo::default().view_masks(masks);
    let info = vk::RenderPassCreateInfo::default()
        .attachments(&att)
        .subpasses(&sub)
        .dependencies(&deps)
        .push_next(&mut multiview);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass (multiview)")
}

fn pipeline(setup: &mut DrawSetup<'_>, subpass: u32) -> vk::Pipeline {
    let mut desc = setup.desc();
    desc.viewport = Some(viewport(W, H));
    desc.subpass = subpass;
    setup.pipeline(&desc)
}

/// Fills the whole of `image` (`views` layers, TRANSFER_DST_OPTIMAL after) with `BEFORE`.
unsafe fn fill(
    d: &Device,
    cb: vk::CommandBuffer,
    image: vk::Image,
    range: vk::ImageSubresourceRange,
) {
    let barrier = vk::ImageMemoryBarrier::default()
        .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
        .old_layout(vk::ImageLayout::UNDEFINED)
        .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(range);
    let (top, transfer) = (vk::PipelineStageFlags::TOP_OF_PIPE, vk::PipelineStageFlags::TRANSFER);
    let flags = vk::DependencyFlags::empty();
    // SAFETY: forwarded to the caller.
    unsafe {
        d.cmd_pipeline_barrier(cb, top, transfer, flags, &[], &[], &[barrier]);
        let c = vk::ClearColorValue { float32: BEFORE };
        d.cmd_clear_color_image(cb, image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, &c, &[range]);
    }
}

/// Renders the scene into a `views`-layer image filled with `BEFORE`, in a pass with one
/// subpass per entry of `masks` (each draws and clears its rectangle); the layers' texels.
fn render(h: &Harness, pd: vk::PhysicalDevice, views: u32, masks: &[u32]) -> Vec<u8> {
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
            .usage(
                vk::ImageUsageFlags::COLOR_ATTACHMENT
                    | vk::ImageUsageFlags::TRANSFER_SRC
                    | vk::ImageUsageFlags::TRANSFER_DST,
            );
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
        let pass = render_pass(d, masks);
        let attachments = [view];
        let desc = SetupDesc::new(pass, &attachments, (W, H), [VS, FS]);
        let mut setup = DrawSetup::new(d, &desc);
        let pipes: Vec<_> = (0..masks.len() as u32).map(|i| pipeline(&mut setup, i)).collect();
        gpu.run(|d, cb| {
            fill(d, cb, image, range);
            setup.begin(cb, &[clear_color(CLEAR)]);
            for (i, &pipe) in pipes.iter().enumerate() {
                if i > 0 {
                    d.cmd_next_subpass(cb, vk::SubpassContents::INLINE);
                }
                draw_and_clear(d, cb, pipe);
            }
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

/// Draws the rectangle with `pipe` and clears `CLEAR_RECT` in every view of the subpass.
unsafe fn draw_and_clear(d: &Device, cb: vk::CommandBuffer, pipe: vk::Pipeline) {
    // SAFETY: forwarded to the caller.
    unsafe {
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
                extent: vk::Extent2D { width: (r[2] - r[0]) as u32, height: (r[3] - r[1]) as u32 },
            },
            base_array_layer: 0,
            layer_count: 1,
        }];
        d.cmd_clear_attachments(cb, &ca, &rect);
    }
}

/// Renders with one subpass per entry of `masks` into `views` layers and compares every
/// layer with `expected` on lavapipe and on Ferrum.
fn check(views: u32, masks: &[u32]) {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let layer = (W * H * 4) as usize;
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        let got = render(&h, pd, views, masks);
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
    check(2, &[0b11]);
}

#[test]
fn four_views_render_into_four_layers() {
    check(4, &[0b1111]);
}

#[test]
fn each_subpass_clears_the_layers_of_the_views_it_renders_first() {
    // Views 0 and 1 in turn, then a subpass that renders both again (its load does not
    // apply: both views were loaded), as the CTS's multi-draw multiview cases do.
    check(2, &[0b01, 0b10, 0b11]);
}
