//! Render pass 2 (VK_KHR_create_renderpass2) and dynamic rendering (VK_KHR_dynamic_rendering)
//! through the loader, validation layer on, on Ferrum and on lavapipe, each against the image
//! computed by hand (pixel-aligned rectangles of colours exact in UNORM8):
//!
//! - dynamic rendering: a load-op clear and two instanced rectangles; the same split into a
//!   scope suspended in one command buffer and resumed in the next (the resumed scope's clear
//!   must not apply again); a view mask of two views (each view's rectangle in its layer);
//!   the draws in a secondary command buffer inheriting the scope
//!   (VkCommandBufferInheritanceRenderingInfo), and a secondary inheriting a two-view scope
//!   that draws, clears a rectangle with vkCmdClearAttachments and draws again (the
//!   secondary knows no attachment view: the clear and the per-view targets are left to the
//!   executing primary, in order);
//! - render pass 2: two subpasses, each rendering into its own layer with a subpass
//!   dependency between them (the second attachment's clear happens in its first subpass), and
//!   a subpass with a view mask.
//!
//! The vertex shader places instance i's rectangle by gl_InstanceIndex and gl_ViewIndex and
//! the fragment shader colours it by both, so a draw landing in the wrong layer, a dropped or
//! repeated clear, or a lost draw changes the image.
//!
//! Depth/stencil resolves are in `graphics_resolve_ds.rs`.

use ash_loaded::khr::{create_renderpass2, dynamic_rendering};
use ash_loaded::{vk, Device};
use ferrum_tests::gpu::{transfer_to_host, Gpu};
use ferrum_tests::scene::{module, rendering_gpu};
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 37;
const H: u32 = 23;
const LAYERS: u32 = 2;
const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
const CLEAR: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

/// Instance i, view v: from (2 + 14i + 5v, 3) to (12 + 14i + 5v, 10 + 3v), coloured
/// (v/4, 1, i/2, 1).
const VS: &str = "#version 450
#extension GL_EXT_multiview : require
layout(location = 0) flat out float inst;
void main() {
    int i = gl_VertexIndex % 6;
    bool right = i == 1 || i == 2 || i == 4;
    bool bottom = i == 2 || i == 4 || i == 5;
    float v = float(gl_ViewIndex);
    float x0 = 2.0 + 14.0 * float(gl_InstanceIndex) + 5.0 * v;
    vec2 p = vec2(right ? x0 + 10.0 : x0, bottom ? 10.0 + 3.0 * v : 3.0);
    gl_Position = vec4(p / vec2(37.0, 23.0) * 2.0 - 1.0, 0.0, 1.0);
    inst = float(gl_InstanceIndex);
}
";

const FS: &str = "#version 450
#extension GL_EXT_multiview : require
layout(location = 0) flat in float inst;
layout(location = 0) out vec4 o;
void main() { o = vec4(float(gl_ViewIndex) / 4.0, 1.0, inst / 2.0, 1.0); }
";

/// The rectangle (x0, y0, x1, y1) and colour vkCmdClearAttachments clears between the draws
/// of instance 0 and instance 1 in `Case::SecondaryMultiviewClear`: over the right part of
/// instance 0's rectangle and the left part of instance 1's, in both views.
const MID_CLEAR: ([i32; 4], [f32; 4]) = ([4, 5, 20, 8], [1.0, 0.0, 0.0, 1.0]);

/// The expected texels of a layer showing view `v` with the rectangles of `instances`.
fn expected(v: i32, instances: &[i32]) -> Vec<u8> {
    expected_with(v, instances, None)
}

/// As [`expected`], with `clear` applied after the first instance's rectangle.
fn expected_with(v: i32, instances: &[i32], clear: Option<([i32; 4], [f32; 4])>) -> Vec<u8> {
    let unorm = |c: [f32; 4]| c.map(|x| (x * 255.0).round() as u8);
    let mut img = Vec::new();
    for y in 0..H as i32 {
        for x in 0..W as i32 {
            let mut c = CLEAR;
            for (k, &i) in instances.iter().enumerate() {
                let x0 = 2 + 14 * i + 5 * v;
                if x >= x0 && x < x0 + 10 && y >= 3 && y < 10 + 3 * v {
                    c = [v as f32 / 4.0, 1.0, i as f32 / 2.0, 1.0];
                }
                if let Some((r, colour)) = clear.filter(|_| k == 0) {
                    if x >= r[0] && x < r[2] && y >= r[1] && y < r[3] {
                        c = colour;
                    }
                }
            }
            img.extend(unorm(c));
        }
    }
    img
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Case {
    /// One vkCmdBeginRendering scope, two instances.
    Dynamic,
    /// Instance 0 in a suspended scope, instance 1 in its resumption in the next command
    /// buffer of the same submission.
    Resumed,
    /// View mask 0b11 over both layers.
    DynamicMultiview,
    /// The draws in a secondary command buffer.
    Secondary,
    /// View mask 0b11; a secondary draws instance 0, clears `MID_CLEAR`, draws instance 1.
    SecondaryMultiviewClear,
    /// Render pass 2: subpass 0 draws instance 0 into layer 0, subpass 1 instance 1 into
    /// layer 1.
    Subpasses,
    /// Render pass 2 with a view mask 0b11.
    PassMultiview,
}

impl Case {
    /// The expected images of both layers (`None`: not written).
    fn expected(self) -> [Option<Vec<u8>>; 2] {
        match self {
            Case::Dynamic | Case::Resumed | Case::Secondary => [Some(expected(0, &[0, 1])), None],
            Case::DynamicMultiview | Case::PassMultiview => {
                [Some(expected(0, &[0])), Some(expected(1, &[0]))]
            }
            Case::Subpasses => [Some(expected(0, &[0])), Some(expected(0, &[1]))],
            Case::SecondaryMultiviewClear => {
                [0, 1].map(|v| Some(expected_with(v, &[0, 1], Some(MID_CLEAR))))
            }
        }
    }

    fn view_mask(self) -> u32 {
        match self {
            Case::DynamicMultiview | Case::PassMultiview | Case::SecondaryMultiviewClear => 0b11,
            _ => 0,
        }
    }
}

/// A graphics pipeline of `VS`/`FS` for `pass` subpass `subpass`, or for dynamic rendering
/// with `view_mask` when `pass` is null.
///
/// # Safety
/// Live handles.
unsafe fn pipeline(
    d: &Device,
    (pass, subpass): (vk::RenderPass, u32),
    view_mask: u32,
    layout: vk::PipelineLayout,
    modules: [vk::ShaderModule; 2],
) -> vk::Pipeline {
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(modules[0])
            .name(c"main"),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(modules[1])
            .name(c"main"),
    ];
    let vi = vk::PipelineVertexInputStateCreateInfo::default();
    let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewports =
        [vk::Viewport { width: W as f32, height: H as f32, max_depth: 1.0, ..Default::default() }];
    let scissors = [full()];
    let vp =
        vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);
    let rs = vk::PipelineRasterizationStateCreateInfo::default().line_width(1.0);
    let ms = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let blend = [vk::PipelineColorBlendAttachmentState::default()
        .color_write_mask(vk::ColorComponentFlags::RGBA)];
    let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend);
    let formats = [FORMAT];
    let mut rendering = vk::PipelineRenderingCreateInfo::default()
        .view_mask(view_mask)
        .color_attachment_formats(&formats);
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vi)
        .input_assembly_state(&ia)
        .viewport_state(&vp)
        .rasterization_state(&rs)
        .multisample_state(&ms)
        .color_blend_state(&cb)
        .layout(layout)
        .render_pass(pass)
        .subpass(subpass);
    if pass == vk::RenderPass::null() {
        info = info.push_next(&mut rendering);
    }
    // SAFETY: forwarded to the caller.
    unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) }
        .map_err(|(_, e)| e)
        .expect("vkCreateGraphicsPipelines")[0]
}

fn full() -> vk::Rect2D {
    vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: W, height: H } }
}

fn clear_value() -> vk::ClearValue {
    vk::ClearValue { color: vk::ClearColorValue { float32: CLEAR } }
}

/// A view of `layers` layers from `base` of the target.
///
/// # Safety
/// A live image.
unsafe fn view(d: &Device, image: vk::Image, base: u32, layers: u32) -> vk::ImageView {
    let range = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: base,
        layer_count: layers,
    };
    let info = vk::ImageViewCreateInfo::default()
        .image(image)
        .view_type(vk::ImageViewType::TYPE_2D_ARRAY)
        .format(FORMAT)
        .subresource_range(range);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_image_view(&info, None) }.expect("vkCreateImageView")
}

/// The render pass 2 of `case`: `Subpasses` has two attachments (one layer each), one
/// subpass each and a colour-write dependency between them; `PassMultiview` one two-layer
/// attachment and a subpass with view mask 0b11.
///
/// # Safety
/// A live device with VK_KHR_create_renderpass2.
unsafe fn render_pass(rp2: &create_renderpass2::Device, case: Case) -> vk::RenderPass {
    let attachment = vk::AttachmentDescription2::default()
        .format(FORMAT)
        .samples(vk::SampleCountFlags::TYPE_1)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
        .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
        .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
    let refs = [0, 1].map(|a| {
        [vk::AttachmentReference2::default()
            .attachment(a)
            .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .aspect_mask(vk::ImageAspectFlags::COLOR)]
    });
    let subpass = |r| {
        vk::SubpassDescription2::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(r)
    };
    let color = vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT;
    let write = vk::AccessFlags::COLOR_ATTACHMENT_WRITE;
    let deps = [vk::SubpassDependency2::default()
        .src_subpass(0)
        .dst_subpass(1)
        .src_stage_mask(color)
        .dst_stage_mask(color)
        .src_access_mask(write)
        .dst_access_mask(write)];
    let (attachments, subpasses, deps): (Vec<_>, Vec<_>, &[_]) = match case {
        Case::Subpasses => (vec![attachment; 2], vec![subpass(&refs[0]), subpass(&refs[1])], &deps),
        _ => (vec![attachment], vec![subpass(&refs[0]).view_mask(case.view_mask())], &[]),
    };
    let masks = [case.view_mask()];
    let info = vk::RenderPassCreateInfo2::default()
        .attachments(&attachments)
        .subpasses(&subpasses)
        .dependencies(deps)
        .correlated_view_masks(if case.view_mask() != 0 { &masks } else { &[] });
    // SAFETY: forwarded to the caller.
    unsafe { rp2.create_render_pass2(&info, None) }.expect("vkCreateRenderPass2")
}

/// The colour attachment of a dynamic rendering scope over `view`.
fn attachment(view: vk::ImageView) -> vk::RenderingAttachmentInfo<'static> {
    vk::RenderingAttachmentInfo::default()
        .image_view(view)
        .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        .clear_value(clear_value())
}

/// Copies both layers of `image` (in TRANSFER_SRC_OPTIMAL after `from` writes) to `out`.
///
/// # Safety
/// A recording command buffer and live handles.
unsafe fn read_back(
    d: &Device,
    cb: vk::CommandBuffer,
    image: vk::Image,
    out: vk::Buffer,
    from: vk::ImageLayout,
) {
    let range = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: LAYERS,
    };
    let src = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
    let barrier = vk::ImageMemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
        .old_layout(from)
        .new_layout(src)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(range);
    let region = vk::BufferImageCopy {
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: LAYERS,
        },
        image_extent: vk::Extent3D { width: W, height: H, depth: 1 },
        ..Default::default()
    };
    // SAFETY: forwarded to the caller.
    unsafe {
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier],
        );
        d.cmd_copy_image_to_buffer(cb, image, src, out, &[region]);
        transfer_to_host(d, cb);
    }
}

/// Moves both layers of `image` from UNDEFINED to COLOR_ATTACHMENT_OPTIMAL.
///
/// # Safety
/// A recording command buffer and a live image.
unsafe fn to_attachment(d: &Device, cb: vk::CommandBuffer, image: vk::Image) {
    let barrier = vk::ImageMemoryBarrier::default()
        .dst_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .old_layout(vk::ImageLayout::UNDEFINED)
        .new_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: LAYERS,
        });
    // SAFETY: forwarded to the caller.
    unsafe {
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier],
        );
    }
}

/// Records and runs `case` with dynamic rendering into the two-layer `image` (viewed by
/// `view`), reading it back into `out`.
///
/// # Safety
/// Live handles of `gpu`.
unsafe fn run_dynamic(
    h: &Harness,
    gpu: &Gpu,
    case: Case,
    (image, view, out): (vk::Image, vk::ImageView, vk::Buffer),
    pipe: vk::Pipeline,
) {
    let d = &gpu.device;
    let dr = dynamic_rendering::Device::new(&h.instance, d);
    let colors = [attachment(view)];
    let info = |flags| {
        vk::RenderingInfo::default()
            .flags(flags)
            .render_area(full())
            .layer_count(1)
            .view_mask(case.view_mask())
            .color_attachments(&colors)
    };
    let graphics = vk::PipelineBindPoint::GRAPHICS;
    let attach = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    // SAFETY: forwarded to the caller.
    unsafe {
        match case {
            Case::Resumed => {
                let first = gpu.record(|d, cb| {
                    to_attachment(d, cb, image);
                    dr.cmd_begin_rendering(cb, &info(vk::RenderingFlags::SUSPENDING));
                    d.cmd_bind_pipeline(cb, graphics, pipe);
                    d.cmd_draw(cb, 6, 1, 0, 0);
                    dr.cmd_end_rendering(cb);
                });
                let second = gpu.record(|d, cb| {
                    // The resumed scope's load op (CLEAR) must not apply again.
                    dr.cmd_begin_rendering(cb, &info(vk::RenderingFlags::RESUMING));
                    d.cmd_bind_pipeline(cb, graphics, pipe);
                    d.cmd_draw(cb, 6, 1, 0, 1);
                    dr.cmd_end_rendering(cb);
                    read_back(d, cb, image, out, attach);
                });
                gpu.submit_wait(&[first, second]);
                d.free_command_buffers(gpu.pool, &[first, second]);
            }
            Case::Secondary | Case::SecondaryMultiviewClear => {
                let secondary = gpu.command_buffers(vk::CommandBufferLevel::SECONDARY, 1)[0];
                let formats = [FORMAT];
                let mut inherit_rendering = vk::CommandBufferInheritanceRenderingInfo::default()
                    .color_attachment_formats(&formats)
                    .view_mask(case.view_mask())
                    .rasterization_samples(vk::SampleCountFlags::TYPE_1);
                let inherit =
                    vk::CommandBufferInheritanceInfo::default().push_next(&mut inherit_rendering);
                let begin = vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::RENDER_PASS_CONTINUE)
                    .inheritance_info(&inherit);
                d.begin_command_buffer(secondary, &begin).expect("vkBeginCommandBuffer");
                d.cmd_bind_pipeline(secondary, graphics, pipe);
                if case == Case::Secondary {
                    d.cmd_draw(secondary, 6, 2, 0, 0);
                } else {
                    let ([x0, y0, x1, y1], colour) = MID_CLEAR;
                    let clear = vk::ClearAttachment {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        color_attachment: 0,
                        clear_value: vk::ClearValue {
                            color: vk::ClearColorValue { float32: colour },
                        },
                    };
                    // With a view mask the rectangle's layers are 0..1: every view is cleared.
                    let rect = vk::ClearRect {
                        rect: vk::Rect2D {
                            offset: vk::Offset2D { x: x0, y: y0 },
                            extent: vk::Extent2D {
                                width: (x1 - x0) as u32,
                                height: (y1 - y0) as u32,
                            },
                        },
                        base_array_layer: 0,
                        layer_count: 1,
                    };
                    d.cmd_draw(secondary, 6, 1, 0, 0);
                    d.cmd_clear_attachments(secondary, &[clear], &[rect]);
                    d.cmd_draw(secondary, 6, 1, 0, 1);
                }
                d.end_command_buffer(secondary).expect("vkEndCommandBuffer");
                gpu.run(|d, cb| {
                    to_attachment(d, cb, image);
                    let flags = vk::RenderingFlags::CONTENTS_SECONDARY_COMMAND_BUFFERS;
                    dr.cmd_begin_rendering(cb, &info(flags));
                    d.cmd_execute_commands(cb, &[secondary]);
                    dr.cmd_end_rendering(cb);
                    read_back(d, cb, image, out, attach);
                });
                d.free_command_buffers(gpu.pool, &[secondary]);
            }
            _ => gpu.run(|d, cb| {
                to_attachment(d, cb, image);
                dr.cmd_begin_rendering(cb, &info(vk::RenderingFlags::empty()));
                d.cmd_bind_pipeline(cb, graphics, pipe);
                d.cmd_draw(cb, 6, if case == Case::Dynamic { 2 } else { 1 }, 0, 0);
                dr.cmd_end_rendering(cb);
                read_back(d, cb, image, out, attach);
            }),
        }
    }
}

/// Records and runs `case` with render pass 2 into `image` (attachments `views`), reading
/// it back into `out`.
///
/// # Safety
/// Live handles of `gpu`.
unsafe fn run_pass(
    h: &Harness,
    gpu: &Gpu,
    (image, views, out): (vk::Image, &[vk::ImageView], vk::Buffer),
    pass: vk::RenderPass,
    pipes: &[vk::Pipeline],
) {
    let d = &gpu.device;
    let rp2 = create_renderpass2::Device::new(&h.instance, d);
    // SAFETY: forwarded to the caller.
    unsafe {
        let fb_info = vk::FramebufferCreateInfo::default()
            .render_pass(pass)
            .attachments(views)
            .width(W)
            .height(H)
            .layers(1);
        let fb = d.create_framebuffer(&fb_info, None).expect("vkCreateFramebuffer");
        let clears = vec![clear_value(); views.len()];
        let begin = vk::RenderPassBeginInfo::default()
            .render_pass(pass)
            .framebuffer(fb)
            .render_area(full())
            .clear_values(&clears);
        let inline = vk::SubpassBeginInfo::default().contents(vk::SubpassContents::INLINE);
        let end = vk::SubpassEndInfo::default();
        gpu.run(|d, cb| {
            rp2.cmd_begin_render_pass2(cb, &begin, &inline);
            for (i, &pipe) in pipes.iter().enumerate() {
                if i > 0 {
                    rp2.cmd_next_subpass2(cb, &inline, &end);
                }
                d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
                d.cmd_draw(cb, 6, 1, 0, i as u32);
            }
            rp2.cmd_end_render_pass2(cb, &end);
            // The render pass left every attachment in TRANSFER_SRC_OPTIMAL.
            read_back(d, cb, image, out, vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
        });
        d.destroy_framebuffer(fb, None);
    }
}

/// Renders `case`; both layers' texels.
fn render(h: &Harness, pd: vk::PhysicalDevice, case: Case) -> Vec<u8> {
    let gpu = rendering_gpu(&h.instance, pd);
    let d = &gpu.device;
    let out = gpu.host_buffer(u64::from(W * H * 4 * LAYERS));
    // SAFETY: valid create infos and commands on live handles; everything is destroyed after
    // the GPU is idle.
    unsafe {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(FORMAT)
            .extent(vk::Extent3D { width: W, height: H, depth: 1 })
            .mip_levels(1)
            .array_layers(LAYERS)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC);
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let memory = gpu.bind_image_memory(image);
        let layout = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .expect("vkCreatePipelineLayout");
        let modules = [module(d, VS, "vert"), module(d, FS, "frag")];
        let (views, pass, pipes) = match case {
            Case::Subpasses | Case::PassMultiview => {
                let rp2 = create_renderpass2::Device::new(&h.instance, d);
                let pass = render_pass(&rp2, case);
                let views = if case == Case::Subpasses {
                    vec![view(d, image, 0, 1), view(d, image, 1, 1)]
                } else {
                    vec![view(d, image, 0, LAYERS)]
                };
                let pipes: Vec<_> = (0..views.len() as u32)
                    .map(|s| pipeline(d, (pass, s), 0, layout, modules))
                    .collect();
                run_pass(h, &gpu, (image, &views, out.buffer), pass, &pipes);
                (views, pass, pipes)
            }
            _ => {
                let v = view(d, image, 0, LAYERS);
                let null = vk::RenderPass::null();
                let pipe = pipeline(d, (null, 0), case.view_mask(), layout, modules);
                run_dynamic(h, &gpu, case, (image, v, out.buffer), pipe);
                (vec![v], null, vec![pipe])
            }
        };
        pipes.iter().for_each(|&p| d.destroy_pipeline(p, None));
        modules.iter().for_each(|&m| d.destroy_shader_module(m, None));
        d.destroy_pipeline_layout(layout, None);
        if pass != vk::RenderPass::null() {
            d.destroy_render_pass(pass, None);
        }
        views.iter().for_each(|&v| d.destroy_image_view(v, None));
        d.destroy_image(image, None);
        d.free_memory(memory, None);
    }
    let texels = out.bytes().to_vec();
    gpu.destroy_buffer(out);
    texels
}

fn check(case: Case) {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let layer = (W * H * 4) as usize;
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        let got = render(&h, pd, case);
        for (v, want) in case.expected().iter().enumerate() {
            let Some(want) = want else { continue };
            let bad = got[v * layer..(v + 1) * layer]
                .chunks(4)
                .zip(want.chunks(4))
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(bad, 0, "{name}: {case:?}, layer {v}: {bad} texels differ");
        }
    }
    h.assert_clean();
}

#[test]
fn dynamic_rendering_clears_and_draws() {
    check(Case::Dynamic);
}

#[test]
fn dynamic_rendering_resumes_across_command_buffers() {
    check(Case::Resumed);
}

#[test]
fn dynamic_rendering_with_a_view_mask() {
    check(Case::DynamicMultiview);
}

#[test]
fn dynamic_rendering_in_a_secondary() {
    check(Case::Secondary);
}

#[test]
fn dynamic_rendering_multiview_secondary_clears_between_draws() {
    check(Case::SecondaryMultiviewClear);
}

#[test]
fn render_pass2_subpasses_with_a_dependency() {
    check(Case::Subpasses);
}

#[test]
fn render_pass2_with_a_view_mask() {
    check(Case::PassMultiview);
}
