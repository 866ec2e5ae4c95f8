//! Depth/stencil resolves (VK_KHR_depth_stencil_resolve) through the loader, validation
//! layer on, by a render pass 2 subpass (VkSubpassDescriptionDepthStencilResolve) and by
//! dynamic rendering (resolveMode / resolveImageView of pDepthAttachment and
//! pStencilAttachment), against values computed by hand; 4x on Ferrum and lavapipe, 2x and
//! 8x on Ferrum (lavapipe offers 4x only, and only the SAMPLE_ZERO mode, which checks the
//! expectations' sample locations and the scene).
//!
//! The scene makes every sample of a pixel different: a triangle covering the whole target
//! writes a depth plane with positive x and y gradients, evaluated at each sample's standard
//! location, and two draws with sample masks 0b01 and 0b10 write stencil 50 into sample 0 and
//! 200 into sample 1 over a clear to 9. SAMPLE_ZERO, MIN and MAX then give three different
//! answers per aspect, and the depth and stencil modes differ per case (independentResolve).
//! In the render pass, one aspect may also be left unresolved (mode NONE): it keeps the
//! resolve attachment's own load-op clear (depth 1.0, stencil 9).
//!
//! Every case runs twice: with the combined DEPTH_STENCIL_ATTACHMENT_OPTIMAL layout, and with
//! VK_KHR_separate_depth_stencil_layouts (DEPTH_ATTACHMENT_OPTIMAL and
//! STENCIL_ATTACHMENT_OPTIMAL through VkAttachmentDescriptionStencilLayout,
//! VkAttachmentReferenceStencilLayout and the rendering attachments).

use ash_loaded::khr::{create_renderpass2, dynamic_rendering};
use ash_loaded::{vk, Device};
use ferrum_tests::gpu::{transfer_to_host, Gpu};
use ferrum_tests::scene::{module, rendering_gpu, RENDERING_EXTENSIONS};
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 13;
const H: u32 = 7;
const FORMAT: vk::Format = vk::Format::D32_SFLOAT_S8_UINT;
/// The depth of the vertices at (-1, -1), (3, -1) and (-1, 3).
const Z: [f32; 3] = [0.1, 0.9, 0.5];
const CLEAR_STENCIL: u32 = 9;
/// The stencil reference written into sample 0 and sample 1.
const STENCIL: [u32; 2] = [50, 200];
/// Depth is interpolated in f32 at the sample's location; neighbouring samples differ by
/// more than 1e-3 here.
const DEPTH_TOLERANCE: f32 = 2e-5;

const VS: &str = "#version 450
void main() {
    vec2 p[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    float z[3] = float[](0.1, 0.9, 0.5);
    gl_Position = vec4(p[gl_VertexIndex], z[gl_VertexIndex], 1.0);
}
";

/// Vulkan's standard sample locations in 1/16 pixel.
fn standard_locations(samples: u32) -> &'static [(u32, u32)] {
    match samples {
        2 => &[(12, 12), (4, 4)],
        4 => &[(6, 2), (14, 6), (2, 10), (10, 14)],
        _ => &[(9, 5), (7, 11), (13, 9), (5, 3), (3, 13), (1, 7), (11, 15), (15, 1)],
    }
}

fn combine(mode: vk::ResolveModeFlags, v: &[f32]) -> f32 {
    match mode {
        vk::ResolveModeFlags::SAMPLE_ZERO => v[0],
        vk::ResolveModeFlags::MIN => v.iter().copied().fold(f32::INFINITY, f32::min),
        vk::ResolveModeFlags::MAX => v.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        _ => unreachable!("mode {mode:?}"),
    }
}

/// The resolved depth and stencil of pixel (x, y).
fn expected(c: &Case, x: u32, y: u32) -> (f32, u32) {
    let locations = standard_locations(c.samples);
    let depth: Vec<f32> = locations
        .iter()
        .map(|&(sx, sy)| {
            let xw = x as f32 + sx as f32 / 16.0;
            let yw = y as f32 + sy as f32 / 16.0;
            Z[0] + (Z[1] - Z[0]) * xw / (2 * W) as f32 + (Z[2] - Z[0]) * yw / (2 * H) as f32
        })
        .collect();
    let stencil: Vec<f32> = (0..locations.len())
        .map(|s| STENCIL.get(s).copied().unwrap_or(CLEAR_STENCIL) as f32)
        .collect();
    // An aspect resolved with NONE keeps the resolve attachment's load-op clear (render
    // pass only; see `clear_value`).
    let d = if c.depth.is_empty() { 1.0 } else { combine(c.depth, &depth) };
    let s = if c.stencil.is_empty() { CLEAR_STENCIL } else { combine(c.stencil, &stencil) as u32 };
    (d, s)
}

#[derive(Clone, Copy, Debug)]
struct Case {
    samples: u32,
    depth: vk::ResolveModeFlags,
    stencil: vk::ResolveModeFlags,
    dynamic: bool,
    /// VK_KHR_separate_depth_stencil_layouts: depth and stencil in their own layouts (the
    /// stencil layout of render pass attachments and references chained, barriers per aspect).
    separate: bool,
}

/// A pipeline of `VS` alone at `samples` samples with `sample_mask`: writing depth (ALWAYS)
/// when `stencil_ref` is `None`, else replacing stencil with it.
///
/// # Safety
/// Live handles.
unsafe fn pipeline(
    d: &Device,
    pass: vk::RenderPass,
    (layout, vs): (vk::PipelineLayout, vk::ShaderModule),
    samples: u32,
    sample_mask: u32,
    stencil_ref: Option<u32>,
) -> vk::Pipeline {
    let stages = [vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::VERTEX)
        .module(vs)
        .name(c"main")];
    let vi = vk::PipelineVertexInputStateCreateInfo::default();
    let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewports =
        [vk::Viewport { width: W as f32, height: H as f32, max_depth: 1.0, ..Default::default() }];
    let scissors = [full()];
    let vp =
        vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);
    let rs = vk::PipelineRasterizationStateCreateInfo::default().line_width(1.0);
    let masks = [sample_mask];
    let ms = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::from_raw(samples))
        .sample_mask(&masks);
    let op = vk::StencilOpState {
        fail_op: vk::StencilOp::KEEP,
        pass_op: vk::StencilOp::REPLACE,
        depth_fail_op: vk::StencilOp::KEEP,
        compare_op: vk::CompareOp::ALWAYS,
        compare_mask: 0xff,
        write_mask: 0xff,
        reference: stencil_ref.unwrap_or(0),
    };
    let ds = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(stencil_ref.is_none())
        .depth_write_enable(stencil_ref.is_none())
        .depth_compare_op(vk::CompareOp::ALWAYS)
        .stencil_test_enable(stencil_ref.is_some())
        .front(op)
        .back(op);
    let cb = vk::PipelineColorBlendStateCreateInfo::default();
    let mut rendering = vk::PipelineRenderingCreateInfo::default()
        .depth_attachment_format(FORMAT)
        .stencil_attachment_format(FORMAT);
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vi)
        .input_assembly_state(&ia)
        .viewport_state(&vp)
        .rasterization_state(&rs)
        .multisample_state(&ms)
        .depth_stencil_state(&ds)
        .color_blend_state(&cb)
        .layout(layout)
        .render_pass(pass);
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

fn ds_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

fn clear_value() -> vk::ClearValue {
    let ds = vk::ClearDepthStencilValue { depth: 1.0, stencil: CLEAR_STENCIL };
    vk::ClearValue { depth_stencil: ds }
}

/// A render pass 2 with the multisampled attachment 0 resolved into attachment 1.
///
/// # Safety
/// A device with VK_KHR_create_renderpass2 and VK_KHR_depth_stencil_resolve.
unsafe fn render_pass(rp2: &create_renderpass2::Device, c: &Case) -> vk::RenderPass {
    let (depth_layout, stencil_layout) = layouts(c);
    let mut ms_stencil = vk::AttachmentDescriptionStencilLayout::default()
        .stencil_initial_layout(vk::ImageLayout::UNDEFINED)
        .stencil_final_layout(stencil_layout);
    let mut one_stencil = vk::AttachmentDescriptionStencilLayout::default()
        .stencil_initial_layout(vk::ImageLayout::UNDEFINED)
        .stencil_final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
    let attachment = |samples, final_layout| {
        vk::AttachmentDescription2::default()
            .format(FORMAT)
            .samples(vk::SampleCountFlags::from_raw(samples))
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .stencil_load_op(vk::AttachmentLoadOp::CLEAR)
            .stencil_store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(final_layout)
    };
    let mut attachments =
        [attachment(c.samples, depth_layout), attachment(1, vk::ImageLayout::TRANSFER_SRC_OPTIMAL)];
    let aspects = vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL;
    let mut ref_stencil =
        [vk::AttachmentReferenceStencilLayout::default().stencil_layout(stencil_layout); 2];
    let mut refs = [0, 1].map(|a| {
        vk::AttachmentReference2::default().attachment(a).layout(depth_layout).aspect_mask(aspects)
    });
    if c.separate {
        attachments[0] = attachments[0].push_next(&mut ms_stencil);
        attachments[1] = attachments[1].push_next(&mut one_stencil);
        let [r0, r1] = &mut ref_stencil;
        refs[0] = refs[0].push_next(r0);
        refs[1] = refs[1].push_next(r1);
    }
    let mut resolve = vk::SubpassDescriptionDepthStencilResolve::default()
        .depth_resolve_mode(c.depth)
        .stencil_resolve_mode(c.stencil)
        .depth_stencil_resolve_attachment(&refs[1]);
    let subpasses = [vk::SubpassDescription2::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .depth_stencil_attachment(&refs[0])
        .push_next(&mut resolve)];
    let info = vk::RenderPassCreateInfo2::default().attachments(&attachments).subpasses(&subpasses);
    // SAFETY: forwarded to the caller.
    unsafe { rp2.create_render_pass2(&info, None) }.expect("vkCreateRenderPass2")
}

/// The attachment layouts of depth and stencil: one combined layout, or one per aspect.
fn layouts(c: &Case) -> (vk::ImageLayout, vk::ImageLayout) {
    match c.separate {
        true => {
            (vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL, vk::ImageLayout::STENCIL_ATTACHMENT_OPTIMAL)
        }
        false => (
            vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        ),
    }
}

/// A D32S8 image of `samples` samples with both aspects viewed.
///
/// # Safety
/// A live device.
unsafe fn image(gpu: &Gpu, samples: u32, usage: vk::ImageUsageFlags) -> [u64; 3] {
    use ash_loaded::vk::Handle;
    let d = &gpu.device;
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(FORMAT)
        .extent(vk::Extent3D { width: W, height: H, depth: 1 })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::from_raw(samples))
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | usage);
    // SAFETY: forwarded to the caller.
    unsafe {
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let memory = gpu.bind_image_memory(image);
        let vinfo = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(FORMAT)
            .subresource_range(ds_range());
        let view = d.create_image_view(&vinfo, None).expect("vkCreateImageView");
        [image.as_raw(), memory.as_raw(), view.as_raw()]
    }
}

/// Moves `image` from `old` to `new` (every depth/stencil access before and after).
///
/// # Safety
/// A recording command buffer and a live image.
unsafe fn barrier(
    d: &Device,
    cb: vk::CommandBuffer,
    image: vk::Image,
    (old, new): (vk::ImageLayout, vk::ImageLayout),
) {
    let access = vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE
        | vk::AccessFlags::COLOR_ATTACHMENT_WRITE
        | vk::AccessFlags::TRANSFER_READ;
    let b = vk::ImageMemoryBarrier::default()
        .src_access_mask(access)
        .dst_access_mask(access)
        .old_layout(old)
        .new_layout(new)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(ds_range());
    let all = vk::PipelineStageFlags::ALL_COMMANDS;
    // SAFETY: forwarded to the caller.
    unsafe {
        d.cmd_pipeline_barrier(cb, all, all, vk::DependencyFlags::empty(), &[], &[], &[b]);
    }
}

/// Renders `c`; the resolved depth (f32) and stencil bytes.
fn render(h: &Harness, pd: vk::PhysicalDevice, c: &Case) -> (Vec<f32>, Vec<u8>) {
    use ash_loaded::vk::Handle;
    let gpu = if c.separate { separate_layouts_gpu(h, pd) } else { rendering_gpu(&h.instance, pd) };
    let d = &gpu.device;
    let texels = W * H;
    let out = gpu.host_buffer(u64::from(texels * 5));
    out.write(0, &vec![0xcd; (texels * 5) as usize]);
    // SAFETY: valid create infos and commands on live handles; everything is destroyed after
    // the GPU is idle.
    unsafe {
        let ms = image(&gpu, c.samples, vk::ImageUsageFlags::empty());
        let one = image(&gpu, 1, vk::ImageUsageFlags::TRANSFER_SRC);
        let (ms_view, one_view) = (vk::ImageView::from_raw(ms[2]), vk::ImageView::from_raw(one[2]));
        let one_image = vk::Image::from_raw(one[0]);
        let layout = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .expect("vkCreatePipelineLayout");
        let vs = module(d, VS, "vert");
        let rp2 = create_renderpass2::Device::new(&h.instance, d);
        let pass = if c.dynamic { vk::RenderPass::null() } else { render_pass(&rp2, c) };
        let all = (1u32 << c.samples) - 1;
        let pipes = [
            pipeline(d, pass, (layout, vs), c.samples, all, None),
            pipeline(d, pass, (layout, vs), c.samples, 0b01, Some(STENCIL[0])),
            pipeline(d, pass, (layout, vs), c.samples, 0b10, Some(STENCIL[1])),
        ];
        let fb = if c.dynamic {
            vk::Framebuffer::null()
        } else {
            let views = [ms_view, one_view];
            let info = vk::FramebufferCreateInfo::default()
                .render_pass(pass)
                .attachments(&views)
                .width(W)
                .height(H)
                .layers(1);
            d.create_framebuffer(&info, None).expect("vkCreateFramebuffer")
        };
        let dr = dynamic_rendering::Device::new(&h.instance, d);
        let (depth_layout, stencil_layout) = layouts(c);
        let src = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
        // Barriers move both aspects at once in the combined layout, which the spec makes
        // equivalent to DEPTH_ATTACHMENT_OPTIMAL for depth and STENCIL_ATTACHMENT_OPTIMAL for
        // stencil: the installed validation layer (1.3.239) reports one-aspect barriers as
        // VUID-VkImageMemoryBarrier-image-01207 although separateDepthStencilLayouts is on.
        let attach = vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        gpu.run(|d, cb| {
            let clears = [clear_value(); 2];
            if c.dynamic {
                barrier(d, cb, vk::Image::from_raw(ms[0]), (vk::ImageLayout::UNDEFINED, attach));
                barrier(d, cb, one_image, (vk::ImageLayout::UNDEFINED, attach));
                let a = |mode, layout| {
                    vk::RenderingAttachmentInfo::default()
                        .image_view(ms_view)
                        .image_layout(layout)
                        .resolve_mode(mode)
                        .resolve_image_view(one_view)
                        .resolve_image_layout(layout)
                        .load_op(vk::AttachmentLoadOp::CLEAR)
                        .store_op(vk::AttachmentStoreOp::DONT_CARE)
                        .clear_value(clear_value())
                };
                let (depth, stencil) = (a(c.depth, depth_layout), a(c.stencil, stencil_layout));
                let info = vk::RenderingInfo::default()
                    .render_area(full())
                    .layer_count(1)
                    .depth_attachment(&depth)
                    .stencil_attachment(&stencil);
                dr.cmd_begin_rendering(cb, &info);
            } else {
                let begin = vk::RenderPassBeginInfo::default()
                    .render_pass(pass)
                    .framebuffer(fb)
                    .render_area(full())
                    .clear_values(&clears);
                let inline = vk::SubpassBeginInfo::default().contents(vk::SubpassContents::INLINE);
                rp2.cmd_begin_render_pass2(cb, &begin, &inline);
            }
            for &p in &pipes {
                d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, p);
                d.cmd_draw(cb, 3, 1, 0, 0);
            }
            if c.dynamic {
                dr.cmd_end_rendering(cb);
                barrier(d, cb, one_image, (attach, src));
            } else {
                rp2.cmd_end_render_pass2(cb, &vk::SubpassEndInfo::default());
                barrier(d, cb, one_image, (src, src));
            }
            let region = |aspect, offset| vk::BufferImageCopy {
                buffer_offset: offset,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                },
                image_extent: vk::Extent3D { width: W, height: H, depth: 1 },
                ..Default::default()
            };
            let regions = [
                region(vk::ImageAspectFlags::DEPTH, 0),
                region(vk::ImageAspectFlags::STENCIL, u64::from(texels * 4)),
            ];
            d.cmd_copy_image_to_buffer(cb, one_image, src, out.buffer, &regions);
            transfer_to_host(d, cb);
        });
        pipes.iter().for_each(|&p| d.destroy_pipeline(p, None));
        d.destroy_shader_module(vs, None);
        d.destroy_pipeline_layout(layout, None);
        if !c.dynamic {
            d.destroy_framebuffer(fb, None);
            d.destroy_render_pass(pass, None);
        }
        for [image, memory, view] in [ms, one] {
            d.destroy_image_view(vk::ImageView::from_raw(view), None);
            d.destroy_image(vk::Image::from_raw(image), None);
            d.free_memory(vk::DeviceMemory::from_raw(memory), None);
        }
    }
    let bytes = out.bytes();
    let split = (texels * 4) as usize;
    let depth =
        bytes[..split].chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
    let stencil = bytes[split..split + texels as usize].to_vec();
    gpu.destroy_buffer(out);
    (depth, stencil)
}

/// A device of `pd` as `rendering_gpu` makes it, with VK_KHR_separate_depth_stencil_layouts
/// and its feature too.
fn separate_layouts_gpu(h: &Harness, pd: vk::PhysicalDevice) -> Gpu {
    let mut mv = vk::PhysicalDeviceMultiviewFeatures::default().multiview(true);
    let mut dr = vk::PhysicalDeviceDynamicRenderingFeatures::default().dynamic_rendering(true);
    let mut sep = vk::PhysicalDeviceSeparateDepthStencilLayoutsFeatures::default()
        .separate_depth_stencil_layouts(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut mv)
        .push_next(&mut dr)
        .push_next(&mut sep);
    let mut extensions = RENDERING_EXTENSIONS.to_vec();
    extensions.push(c"VK_KHR_separate_depth_stencil_layouts");
    Gpu::with_feature_chain(&h.instance, pd, 0, &extensions, &mut f2)
}

/// Every pixel's resolved depth and stencil against `expected`; the first mismatches.
fn compare(c: &Case, depth: &[f32], stencil: &[u8]) -> Result<(), String> {
    let mut bad = Vec::new();
    for y in 0..H {
        for x in 0..W {
            let i = (y * W + x) as usize;
            let (want_d, want_s) = expected(c, x, y);
            if (depth[i] - want_d).abs() > DEPTH_TOLERANCE {
                bad.push(format!("({x},{y}) depth {} want {want_d}", depth[i]));
            }
            if u32::from(stencil[i]) != want_s {
                bad.push(format!("({x},{y}) stencil {} want {want_s}", stencil[i]));
            }
        }
    }
    if bad.is_empty() {
        return Ok(());
    }
    Err(format!("{} mismatches: {}", bad.len(), bad[..bad.len().min(4)].join(", ")))
}

fn check(dynamic: bool) {
    use vk::ResolveModeFlags as M;
    let p2_name = ash_loaded::khr::get_physical_device_properties2::NAME;
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[p2_name]);
    let p2_ext =
        ash_loaded::khr::get_physical_device_properties2::Instance::new(&h.entry, &h.instance);
    let mut modes = vec![
        (M::SAMPLE_ZERO, M::SAMPLE_ZERO),
        (M::MIN, M::MAX),
        (M::MAX, M::MIN),
        (M::SAMPLE_ZERO, M::MAX),
    ];
    if !dynamic {
        // The render pass's resolve attachment is cleared by its load op at its first use.
        modes.extend([(M::MIN, M::NONE), (M::NONE, M::MAX)]);
    }
    let mut failures = Vec::new();
    for name in ["llvmpipe", "Ferrum"] {
        let pd = h.physical_device_named(name);
        let mut props = vk::PhysicalDeviceDepthStencilResolveProperties::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut props);
        // SAFETY: a live physical device and a valid output chain.
        unsafe { p2_ext.get_physical_device_properties2(pd, &mut p2) };
        let (depth_modes, stencil_modes) =
            (props.supported_depth_resolve_modes, props.supported_stencil_resolve_modes);
        let independent = props.independent_resolve == vk::TRUE;
        // Ferrum offers MIN and MAX for both aspects, independently; lavapipe only sample 0.
        if name == "Ferrum" {
            let ours = M::SAMPLE_ZERO | M::MIN | M::MAX;
            assert_eq!((depth_modes, stencil_modes, independent), (ours, ours, true));
        }
        let counts: &[u32] = if name == "Ferrum" { &[2, 4, 8] } else { &[4] };
        for &samples in counts {
            for &(depth, stencil) in &modes {
                if !depth_modes.contains(depth)
                    || !stencil_modes.contains(stencil)
                    || (!independent && depth != stencil)
                {
                    continue;
                }
                for separate in [false, true] {
                    let c = Case { samples, depth, stencil, dynamic, separate };
                    let (d, s) = render(&h, pd, &c);
                    if let Err(e) = compare(&c, &d, &s) {
                        failures.push(format!("{name} {c:?}: {e}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

#[test]
fn render_pass2_resolves_depth_and_stencil() {
    check(false);
}

#[test]
fn dynamic_rendering_resolves_depth_and_stencil() {
    check(true);
}
