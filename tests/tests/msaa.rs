//! Multisampling through the loader, differential against lavapipe (validation layer on).
//!
//! - `msaa_transfers_match_lavapipe`: multisampled images (2, 4 and 8 samples, two layers) of
//!   every colour format of `proven_msaa` (`PROVEN_COLOR`) are cleared (`vkCmdClearColorImage`, per layer), copied
//!   into another multisampled image at an offset (`vkCmdCopyImage`, every sample), and
//!   resolved (`vkCmdResolveImage`, a sub-rectangle at an offset, and the whole image) into
//!   single-sampled images read back with `vkCmdCopyImageToBuffer`. Every sample of a pixel
//!   holds the same value, so the resolve is exact and the comparison is byte-exact (against
//!   lavapipe's 4x result for every sample count: lavapipe offers only 4).
//! - `msaa_scenes_match_lavapipe`: triangles drawn into 2x, 4x and 8x targets, resolved by a
//!   render pass resolve attachment or by `vkCmdResolveImage`, with and without a sample
//!   mask. 4x scenes are compared with lavapipe; flat-coloured scenes of every count with the
//!   coverage this test computes at Vulkan's standard sample locations (see the comparisons).

use ash_loaded::{vk, Device};
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, Gpu};
use ferrum_tests::pipeline::viewport;
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 19;
const H: u32 = 11;
const LAYERS: u32 = 2;

fn bpe(f: vk::Format) -> u32 {
    u32::from(vulkan_ferrum::format::info(f).unwrap().block_bytes)
}

fn memory_type(h: &Harness, pd: vk::PhysicalDevice, bits: u32) -> u32 {
    // SAFETY: a live physical device.
    let m = unsafe { h.instance.get_physical_device_memory_properties(pd) };
    (0..m.memory_type_count).find(|&i| bits & (1 << i) != 0).expect("memory type")
}

/// A 2D optimal image bound to fresh memory.
fn image(
    gpu: &Gpu,
    h: &Harness,
    pd: vk::PhysicalDevice,
    f: vk::Format,
    samples: vk::SampleCountFlags,
    layers: u32,
    usage: vk::ImageUsageFlags,
) -> vk::Image {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(f)
        .extent(vk::Extent3D { width: W, height: H, depth: 1 })
        .mip_levels(1)
        .array_layers(layers)
        .samples(samples)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage);
    let d = &gpu.device;
    // SAFETY: a live device; the image is bound to fresh memory once.
    unsafe {
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let req = d.get_image_memory_requirements(image);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(memory_type(h, pd, req.memory_type_bits));
        let memory = d.allocate_memory(&alloc, None).unwrap();
        d.bind_image_memory(image, memory, 0).unwrap();
        image
    }
}

fn range(layers: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: layers,
    }
}

fn layers(base: u32, count: u32) -> vk::ImageSubresourceLayers {
    vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: base,
        layer_count: count,
    }
}

/// A layout transition of all layers (with a transfer → transfer dependency).
fn barrier(
    d: &Device,
    cb: vk::CommandBuffer,
    image: vk::Image,
    old: vk::ImageLayout,
    new: vk::ImageLayout,
    n: u32,
) {
    let b = vk::ImageMemoryBarrier::default()
        .old_layout(old)
        .new_layout(new)
        .src_access_mask(vk::AccessFlags::TRANSFER_WRITE | vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_access_mask(vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(range(n));
    // SAFETY: a command buffer in the recording state; a live image.
    unsafe {
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[b],
        );
    }
}

/// Clear colours per layer, chosen exact in every proven format (multiples of 1/4 and 1/255
/// that round-trip: 0, 1 and 0.5 in float formats; UNORM values whose conversion is exact).
fn clear_value(f: vk::Format, layer: u32) -> vk::ClearColorValue {
    use vulkan_ferrum::format::Numeric;
    let numeric = vulkan_ferrum::format::info(f).unwrap().numeric;
    // Values every format of its kind holds exactly (0 and 1 in any UNORM/sRGB width, -1
    // too in SNORM), so both drivers store the same bits.
    // Integers every integer format holds (2-bit alpha included; signed ones take -1).
    match (numeric, layer) {
        (Numeric::Uint, 0) => return vk::ClearColorValue { uint32: [1, 3, 0, 2] },
        (Numeric::Uint, _) => return vk::ClearColorValue { uint32: [3, 0, 2, 1] },
        (Numeric::Sint, 0) => return vk::ClearColorValue { int32: [-1, 1, 0, -2] },
        (Numeric::Sint, _) => return vk::ClearColorValue { int32: [1, -1, -2, 0] },
        _ => {}
    }
    let exact = match (numeric, layer) {
        (Numeric::Unorm | Numeric::Srgb, 0) => Some([0.0, 1.0, 1.0, 0.0]),
        (Numeric::Unorm | Numeric::Srgb, _) => Some([1.0, 0.0, 1.0, 1.0]),
        (Numeric::Snorm, 0) => Some([-1.0, 1.0, 0.0, -1.0]),
        (Numeric::Snorm, _) => Some([1.0, 0.0, -1.0, 1.0]),
        _ => None,
    };
    let rgba8 = matches!(f, vk::Format::R8G8B8A8_UNORM | vk::Format::B8G8R8A8_UNORM);
    let v = match (f, layer) {
        _ if exact.is_some() && !rgba8 => exact.unwrap_or_default(),
        (vk::Format::R8G8B8A8_UNORM | vk::Format::B8G8R8A8_UNORM, 0) => {
            [51.0 / 255.0, 1.0, 0.0, 204.0 / 255.0]
        }
        (vk::Format::R8G8B8A8_UNORM | vk::Format::B8G8R8A8_UNORM, _) => {
            [0.0, 102.0 / 255.0, 1.0, 1.0]
        }
        // Unsigned small floats: no negative values (5- and 6-bit mantissas hold these).
        (vk::Format::B10G11R11_UFLOAT_PACK32, 0) => [0.25, 2.5, 0.75, 1.0],
        (vk::Format::B10G11R11_UFLOAT_PACK32, _) => [8.0, 0.5, 0.125, 0.0],
        (_, 0) => [0.25, -2.5, 0.75, 1.0],
        _ => [8.0, 0.5, -0.125, 0.0],
    };
    vk::ClearColorValue { float32: v }
}

/// Clear, copy with offsets, resolve twice; returns both resolved images' bytes.
fn transfer_round(
    h: &Harness,
    pd: vk::PhysicalDevice,
    gpu: &Gpu,
    f: vk::Format,
    samples: vk::SampleCountFlags,
) -> Vec<u8> {
    use vk::ImageUsageFlags as U;
    let ms_usage = U::TRANSFER_SRC | U::TRANSFER_DST | U::COLOR_ATTACHMENT;
    let a = image(gpu, h, pd, f, samples, LAYERS, ms_usage);
    let b = image(gpu, h, pd, f, samples, LAYERS, ms_usage);
    let one = vk::SampleCountFlags::TYPE_1;
    let r1 = image(gpu, h, pd, f, one, LAYERS, U::TRANSFER_SRC | U::TRANSFER_DST);
    let r2 = image(gpu, h, pd, f, one, LAYERS, U::TRANSFER_SRC | U::TRANSFER_DST);
    let size = u64::from(W * H * LAYERS * bpe(f));
    let down = gpu.host_buffer(2 * size);
    down.write(0, &vec![0xcd; 2 * size as usize]);
    let (undef, dst, src) = (
        vk::ImageLayout::UNDEFINED,
        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
        vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
    );
    gpu.run(|d, cb| {
        for i in [a, b, r1, r2] {
            barrier(d, cb, i, undef, dst, LAYERS);
        }
        // SAFETY: a command buffer in the recording state; live images and buffers.
        unsafe {
            for l in 0..LAYERS {
                let mut r = range(1);
                r.base_array_layer = l;
                d.cmd_clear_color_image(cb, a, dst, &clear_value(f, l), &[r]);
                // b starts as the other layer's colour, so the copy's borders show.
                d.cmd_clear_color_image(cb, b, dst, &clear_value(f, 1 - l), &[r]);
            }
            let zero = vk::ClearColorValue { float32: [0.0; 4] };
            d.cmd_clear_color_image(cb, r1, dst, &zero, &[range(LAYERS)]);
            d.cmd_clear_color_image(cb, r2, dst, &zero, &[range(LAYERS)]);
            transfer_to_transfer(d, cb);
            barrier(d, cb, a, dst, src, LAYERS);
            // Layer 0 of a (from (2, 1)) to layer 1 of b at (5, 3), 9x6.
            let copy = vk::ImageCopy {
                src_subresource: layers(0, 1),
                src_offset: vk::Offset3D { x: 2, y: 1, z: 0 },
                dst_subresource: layers(1, 1),
                dst_offset: vk::Offset3D { x: 5, y: 3, z: 0 },
                extent: vk::Extent3D { width: 9, height: 6, depth: 1 },
            };
            d.cmd_copy_image(cb, a, src, b, dst, &[copy]);
            barrier(d, cb, b, dst, src, LAYERS);
            // A sub-rectangle of b's layer 1 into r1's layer 0 at an offset, and all of b into r2.
            let part = vk::ImageResolve {
                src_subresource: layers(1, 1),
                src_offset: vk::Offset3D { x: 3, y: 2, z: 0 },
                dst_subresource: layers(0, 1),
                dst_offset: vk::Offset3D { x: 1, y: 4, z: 0 },
                extent: vk::Extent3D { width: 13, height: 7, depth: 1 },
            };
            d.cmd_resolve_image(cb, b, src, r1, dst, &[part]);
            let all = vk::ImageResolve {
                src_subresource: layers(0, LAYERS),
                dst_subresource: layers(0, LAYERS),
                extent: vk::Extent3D { width: W, height: H, depth: 1 },
                ..Default::default()
            };
            d.cmd_resolve_image(cb, b, src, r2, dst, &[all]);
            barrier(d, cb, r1, dst, src, LAYERS);
            barrier(d, cb, r2, dst, src, LAYERS);
            for (i, img) in [r1, r2].into_iter().enumerate() {
                let region = vk::BufferImageCopy {
                    buffer_offset: i as u64 * size,
                    image_subresource: layers(0, LAYERS),
                    image_extent: vk::Extent3D { width: W, height: H, depth: 1 },
                    ..Default::default()
                };
                d.cmd_copy_image_to_buffer(cb, img, src, down.buffer, &[region]);
            }
            transfer_to_host(d, cb);
        }
    });
    down.bytes().to_vec()
}

/// The colour formats of `proven_msaa`.
fn formats() -> impl Iterator<Item = vk::Format> {
    vulkan_ferrum::format::properties::PROVEN_COLOR.iter().copied()
}

const COUNTS: [vk::SampleCountFlags; 3] =
    [vk::SampleCountFlags::TYPE_2, vk::SampleCountFlags::TYPE_4, vk::SampleCountFlags::TYPE_8];

#[test]
fn msaa_transfers_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let lvp = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let mut failures = Vec::new();
    for f in formats() {
        // lavapipe offers 4 samples only; every sample of a pixel holds the same value here,
        // so the resolved bytes do not depend on the sample count.
        let want = transfer_round(&h, lvp_pd, &lvp, f, vk::SampleCountFlags::TYPE_4);
        for samples in COUNTS {
            let got = transfer_round(&h, ours_pd, &ours, f, samples);
            if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
                let px = i as u32 / bpe(f);
                failures.push(format!(
                    "{f:?} {samples:?}: byte {i} (pixel {}, {} of image {} layer {}): ferrum {:#x}, lavapipe {:#x}",
                    px % W,
                    px / W % H,
                    px / (W * H * LAYERS),
                    px / (W * H) % LAYERS,
                    got[i],
                    want[i]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// Positions, depths and colours from gl_VertexIndex (fract of golden-ratio steps, as
/// graphics.rs): thin and steep triangles, so many pixels are partly covered, with depths
/// that make them intersect; a flat colour per triangle for the depth scenes.
const VS: &str = "#version 450
layout(location = 0) out vec3 color;
layout(location = 1) flat out vec4 tri;
void main() {
    float i = float(gl_VertexIndex % 9);
    vec2 p = fract(vec2(i * 0.618, i * 0.382 + 0.1)) * 1.8 - 0.9;
    gl_Position = vec4(p, fract(i * 0.377 + 0.05) * 0.9, 1.0);
    color = fract(vec3(i * 0.31, i * 0.57 + 0.2, i * 0.13 + 0.5));
    int t = gl_VertexIndex / 3 % 3;
    tri = vec4(t == 0 ? 1.0 : 0.0, t == 1 ? 1.0 : 0.0, t == 2 ? 1.0 : 0.0, 1.0);
}
";

/// The flat colours of `VS`'s triangles.
const TRI_COLOURS: [[f32; 4]; 3] =
    [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]];

const FS_TRI: &str = "#version 450
layout(location = 0) in vec3 color;
layout(location = 1) flat in vec4 tri;
layout(location = 0) out vec4 o;
void main() { o = tri; }
";

const FS_FLAT: &str = "#version 450
layout(location = 0) in vec3 color;
layout(location = 1) flat in vec4 tri;
layout(location = 0) out vec4 o;
void main() { o = vec4(1.0, 0.6, 0.2, 0.8); }
";

const FS_SMOOTH: &str = "#version 450
layout(location = 0) in vec3 color;
layout(location = 1) flat in vec4 tri;
layout(location = 0) out vec4 o;
void main() { o = vec4(color, 1.0); }
";

/// How a scene's multisampled target becomes the single-sampled image that is read back.
#[derive(Clone, Copy, PartialEq)]
enum Resolve {
    /// A resolve attachment of the render pass's subpass.
    Attachment,
    /// vkCmdResolveImage after the render pass.
    Command,
    /// vkCmdResolveImage2KHR (VK_KHR_copy_commands2) after the render pass.
    Command2,
}

#[derive(Clone, Copy)]
struct Scene {
    name: &'static str,
    samples: vk::SampleCountFlags,
    smooth: bool,
    /// pSampleMask[0] (None: all samples).
    mask: Option<u32>,
    resolve: Resolve,
    format: vk::Format,
    /// Vertices drawn (triangle list).
    vertices: u32,
    /// A multisampled depth attachment of this format (depth test LESS, writes on, cleared
    /// to 1.0); the triangles then take their flat `TRI_COLOURS`.
    depth: Option<vk::Format>,
}

const BASE: Scene = Scene {
    name: "4x, flat, resolve attachment",
    samples: vk::SampleCountFlags::TYPE_4,
    smooth: false,
    mask: None,
    resolve: Resolve::Attachment,
    format: vk::Format::R8G8B8A8_UNORM,
    vertices: 9,
    depth: None,
};

const SCENES: &[Scene] = &[
    BASE,
    Scene { name: "4x, smooth, resolve attachment", smooth: true, ..BASE },
    Scene { name: "4x, flat, vkCmdResolveImage2KHR", resolve: Resolve::Command2, ..BASE },
    Scene {
        name: "2x, flat, vkCmdResolveImage2KHR",
        samples: vk::SampleCountFlags::TYPE_2,
        resolve: Resolve::Command2,
        ..BASE
    },
    Scene { name: "8x, flat, resolve attachment", samples: vk::SampleCountFlags::TYPE_8, ..BASE },
    Scene { name: "4x, sample mask 0b0101", mask: Some(0b0101), ..BASE },
    Scene {
        name: "8x, sample mask 0xb4, vkCmdResolveImage",
        samples: vk::SampleCountFlags::TYPE_8,
        mask: Some(0xb4),
        resolve: Resolve::Command,
        ..BASE
    },
    Scene {
        name: "4x RGBA16F, smooth",
        format: vk::Format::R16G16B16A16_SFLOAT,
        smooth: true,
        ..BASE
    },
    Scene {
        name: "4x sRGB, smooth, vkCmdResolveImage (linear mean, encoded)",
        format: vk::Format::R8G8B8A8_SRGB,
        smooth: true,
        resolve: Resolve::Command,
        ..BASE
    },
    Scene {
        name: "4x sRGB, flat, resolve attachment (edge pixels: linear mean, encoded)",
        format: vk::Format::R8G8B8A8_SRGB,
        ..BASE
    },
    Scene {
        name: "8x sRGB, flat, sample mask 0x0f, vkCmdResolveImage",
        format: vk::Format::R8G8B8A8_SRGB,
        samples: vk::SampleCountFlags::TYPE_8,
        mask: Some(0x0f),
        resolve: Resolve::Command,
        ..BASE
    },
    Scene { name: "4x, D32 depth test", depth: Some(vk::Format::D32_SFLOAT), ..BASE },
    Scene { name: "4x, D16 depth test", depth: Some(vk::Format::D16_UNORM), ..BASE },
    Scene {
        name: "8x, D32S8 depth test (stencil plane cleared)",
        samples: vk::SampleCountFlags::TYPE_8,
        depth: Some(vk::Format::D32_SFLOAT_S8_UINT),
        ..BASE
    },
    Scene {
        name: "8x, D32 depth test, vkCmdResolveImage",
        samples: vk::SampleCountFlags::TYPE_8,
        depth: Some(vk::Format::D32_SFLOAT),
        resolve: Resolve::Command,
        ..BASE
    },
    Scene {
        name: "2x, D16 depth test, sample mask 0b10",
        samples: vk::SampleCountFlags::TYPE_2,
        depth: Some(vk::Format::D16_UNORM),
        mask: Some(0b10),
        ..BASE
    },
    Scene {
        name: "8x RGBA32F, vkCmdResolveImage",
        format: vk::Format::R32G32B32A32_SFLOAT,
        samples: vk::SampleCountFlags::TYPE_8,
        resolve: Resolve::Command,
        ..BASE
    },
];

unsafe fn scene_pass(d: &Device, s: &Scene) -> vk::RenderPass {
    let att = |samples, load, final_layout| {
        vk::AttachmentDescription::default()
            .format(s.format)
            .samples(samples)
            .load_op(load)
            .store_op(vk::AttachmentStoreOp::STORE)
            .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
            .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(final_layout)
    };
    let src = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
    let ds_layout = vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    let n = if s.resolve == Resolve::Attachment { 2 } else { 1 };
    let mut atts = vec![att(s.samples, vk::AttachmentLoadOp::CLEAR, src)];
    if n == 2 {
        atts.push(att(vk::SampleCountFlags::TYPE_1, vk::AttachmentLoadOp::DONT_CARE, src));
    }
    if let Some(f) = s.depth {
        atts.push(
            att(s.samples, vk::AttachmentLoadOp::CLEAR, ds_layout)
                .format(f)
                .store_op(vk::AttachmentStoreOp::DONT_CARE),
        );
    }
    let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    let refs = [vk::AttachmentReference { attachment: 0, layout }];
    let resolves = [vk::AttachmentReference { attachment: 1, layout }];
    let depth_ref = vk::AttachmentReference { attachment: n as u32, layout: ds_layout };
    let mut sub = vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&refs);
    if s.resolve == Resolve::Attachment {
        sub = sub.resolve_attachments(&resolves);
    }
    if s.depth.is_some() {
        sub = sub.depth_stencil_attachment(&depth_ref);
    }
    let deps = [vk::SubpassDependency::default()
        .src_subpass(0)
        .dst_subpass(vk::SUBPASS_EXTERNAL)
        .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
        .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
    let subs = [sub];
    let info =
        vk::RenderPassCreateInfo::default().attachments(&atts).subpasses(&subs).dependencies(&deps);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

fn scene_pipeline(setup: &mut DrawSetup<'_>, s: &Scene) -> vk::Pipeline {
    let mut desc = setup.desc();
    desc.viewport = Some(viewport(W, H));
    desc.samples = s.samples;
    desc.sample_mask = s.mask;
    if s.depth.is_some() {
        desc.depth_stencil = Some(
            vk::PipelineDepthStencilStateCreateInfo::default()
                .depth_test_enable(true)
                .depth_write_enable(true)
                .depth_compare_op(vk::CompareOp::LESS)
                .max_depth_bounds(1.0),
        );
    }
    setup.pipeline(&desc)
}

fn view(d: &Device, image: vk::Image, f: vk::Format) -> vk::ImageView {
    let mut r = range(1);
    match f {
        vk::Format::D16_UNORM | vk::Format::D32_SFLOAT => {
            r.aspect_mask = vk::ImageAspectFlags::DEPTH;
        }
        vk::Format::D32_SFLOAT_S8_UINT => {
            r.aspect_mask = vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL;
        }
        _ => {}
    }
    let info = vk::ImageViewCreateInfo::default()
        .image(image)
        .view_type(vk::ImageViewType::TYPE_2D)
        .format(f)
        .subresource_range(r);
    // SAFETY: a live device and image.
    unsafe { d.create_image_view(&info, None) }.unwrap()
}

/// Renders `s` and returns the resolved image's bytes.
fn render(h: &Harness, pd: vk::PhysicalDevice, gpu: &Gpu, s: &Scene) -> Vec<u8> {
    use vk::ImageUsageFlags as U;
    let d = &gpu.device;
    let ms = image(gpu, h, pd, s.format, s.samples, 1, U::COLOR_ATTACHMENT | U::TRANSFER_SRC);
    let one = vk::SampleCountFlags::TYPE_1;
    let resolved = image(
        gpu,
        h,
        pd,
        s.format,
        one,
        1,
        U::COLOR_ATTACHMENT | U::TRANSFER_SRC | U::TRANSFER_DST,
    );
    let size = u64::from(W * H * bpe(s.format));
    let down = gpu.host_buffer(size);
    down.write(0, &vec![0xcd; size as usize]);
    // SAFETY: valid create infos and commands on live handles; destroyed after the GPU is idle.
    unsafe {
        let pass = scene_pass(d, s);
        let mut views = vec![view(d, ms, s.format)];
        if s.resolve == Resolve::Attachment {
            views.push(view(d, resolved, s.format));
        }
        if let Some(f) = s.depth {
            let usage = U::DEPTH_STENCIL_ATTACHMENT;
            views.push(view(d, image(gpu, h, pd, f, s.samples, 1, usage), f));
        }
        let fs = match (s.depth, s.smooth) {
            (Some(_), _) => FS_TRI,
            (None, true) => FS_SMOOTH,
            (None, false) => FS_FLAT,
        };
        let mut setup = DrawSetup::new(d, &SetupDesc::new(pass, &views, (W, H), [VS, fs]));
        let pipe = scene_pipeline(&mut setup, s);
        let mut clear = vec![clear_color([0.1, 0.2, 0.3, 1.0]); 2];
        clear.truncate(views.len() - usize::from(s.depth.is_some()));
        if s.depth.is_some() {
            let depth = vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 };
            clear.push(vk::ClearValue { depth_stencil: depth });
        }
        let (dst, src) =
            (vk::ImageLayout::TRANSFER_DST_OPTIMAL, vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
        gpu.run(|d, cb| {
            setup.begin(cb, &clear);
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
            d.cmd_draw(cb, s.vertices, 1, 0, 0);
            d.cmd_end_render_pass(cb);
            if s.resolve != Resolve::Attachment {
                barrier(d, cb, resolved, vk::ImageLayout::UNDEFINED, dst, 1);
                let extent = vk::Extent3D { width: W, height: H, depth: 1 };
                if s.resolve == Resolve::Command {
                    let all = vk::ImageResolve {
                        src_subresource: layers(0, 1),
                        dst_subresource: layers(0, 1),
                        extent,
                        ..Default::default()
                    };
                    d.cmd_resolve_image(cb, ms, src, resolved, dst, &[all]);
                } else {
                    let all = [vk::ImageResolve2::default()
                        .src_subresource(layers(0, 1))
                        .dst_subresource(layers(0, 1))
                        .extent(extent)];
                    let info = vk::ResolveImageInfo2::default()
                        .src_image(ms)
                        .src_image_layout(src)
                        .dst_image(resolved)
                        .dst_image_layout(dst)
                        .regions(&all);
                    let copy2 = ash_loaded::khr::copy_commands2::Device::new(&h.instance, d);
                    copy2.cmd_resolve_image2(cb, &info);
                }
                barrier(d, cb, resolved, dst, src, 1);
            }
            let region = vk::BufferImageCopy {
                image_subresource: layers(0, 1),
                image_extent: vk::Extent3D { width: W, height: H, depth: 1 },
                ..Default::default()
            };
            d.cmd_copy_image_to_buffer(cb, resolved, src, down.buffer, &[region]);
            transfer_to_host(d, cb);
        });
        drop(setup);
        for v in views {
            d.destroy_image_view(v, None);
        }
    }
    down.bytes().to_vec()
}

/// Channels of an image's bytes as floats, and one LSB of the format.
fn channels(f: vk::Format, bytes: &[u8]) -> (Vec<f32>, f32) {
    match f {
        // sRGB as its encoded bytes: a resolve that averaged encoded values instead of linear
        // ones is off by far more than one step where colours mix (edge pixels).
        vk::Format::R8G8B8A8_UNORM | vk::Format::R8G8B8A8_SRGB => {
            (bytes.iter().map(|&b| f32::from(b) / 255.0).collect(), 1.0 / 255.0)
        }
        vk::Format::R16G16B16A16_SFLOAT => (
            bytes.chunks(2).map(|c| half(u16::from_le_bytes([c[0], c[1]]))).collect(),
            1.0 / 1024.0,
        ),
        _ => {
            (bytes.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(), 1e-6)
        }
    }
}

fn half(h: u16) -> f32 {
    let (e, m) = (i32::from(h >> 10 & 0x1f), f32::from(h & 0x3ff));
    let v =
        if e == 0 { m / 1024.0 * 2f32.powi(-14) } else { (1.0 + m / 1024.0) * 2f32.powi(e - 15) };
    if h & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// Pixels per scene whose coverage may differ by one sample: those with a sample point within
/// the sub-pixel precision (1/256 pixel) of an edge, where Vulkan lets coverage go either way.
const EDGE_SLACK: usize = 6;

/// The comparison. Vulkan's standard sample locations (both drivers report
/// standardSampleLocations) make coverage exact up to sub-pixel precision at edges, so a
/// pixel's resolved value must match within the conversion of the average (one LSB) plus the
/// interpolation precision of a smooth colour (one more LSB); at most `EDGE_SLACK` pixels may
/// be off by one sample's share (the largest channel difference / samples) on top.
fn compare(s: &Scene, ours: &[u8], lvp: &[u8]) -> Result<(), String> {
    let (a, lsb) = channels(s.format, ours);
    let (b, _) = channels(s.format, lvp);
    let tol = if s.smooth { 2.0 * lsb } else { lsb } + 1e-6;
    let share = 1.0 / s.samples.as_raw() as f32 + tol;
    let mut edge = Vec::new();
    for p in 0..(W * H) as usize {
        let d = (0..4).map(|c| (a[4 * p + c] - b[4 * p + c]).abs()).fold(0.0, f32::max);
        if d > tol {
            let at = (p as u32 % W, p as u32 / W);
            let (x, y) = (&a[4 * p..4 * p + 4], &b[4 * p..4 * p + 4]);
            if d > share {
                return Err(format!("pixel {at:?}: ferrum {x:?}, lavapipe {y:?}"));
            }
            edge.push(format!("{at:?}: ferrum {x:?}, lavapipe {y:?}"));
        }
    }
    if edge.len() > EDGE_SLACK {
        return Err(format!("{} edge pixels differ: {}", edge.len(), edge.join("; ")));
    }
    Ok(())
}

/// Vulkan's standard sample locations (the spec's table), in 1/16 pixel from the top-left
/// corner, for 2, 4 and 8 samples.
fn standard_locations(samples: u32) -> &'static [(i32, i32)] {
    match samples {
        2 => &[(12, 12), (4, 4)],
        4 => &[(6, 2), (14, 6), (2, 10), (10, 14)],
        _ => &[(9, 5), (7, 11), (13, 9), (5, 3), (3, 13), (1, 7), (11, 15), (15, 1)],
    }
}

/// The window-space vertices (x, y, depth) of `VS` for vertex indices 0..n, x and y snapped
/// to 1/256 pixel.
fn window_vertices(n: u32) -> Vec<[f64; 3]> {
    (0..n)
        .map(|v| {
            let i = (v % 9) as f32;
            let fr = |x: f32| x - x.floor();
            let p = [fr(i * 0.618) * 1.8 - 0.9, fr(i * 0.382 + 0.1) * 1.8 - 0.9];
            let snap = |x: f32| (f64::from(x) * 256.0).round() / 256.0;
            let z = f64::from(fr(i * 0.377 + 0.05) * 0.9);
            [snap((p[0] + 1.0) * W as f32 / 2.0), snap((p[1] + 1.0) * H as f32 / 2.0), z]
        })
        .collect()
}

/// Whether sample point (x, y) is inside triangle `t`: `Some(inside)`, or `None` when it lies
/// within the sub-pixel precision (1/256 pixel) of an edge, where coverage may go either way;
/// and the triangle's depth there.
fn inside(t: &[[f64; 3]], x: f64, y: f64) -> (Option<bool>, f64) {
    let area =
        (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1]);
    if area == 0.0 {
        return (Some(false), 1.0);
    }
    let mut ambiguous = false;
    let mut w = [0.0; 3];
    for k in 0..3 {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let e = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        // Barycentric weight of the vertex opposite this edge.
        w[(k + 2) % 3] = e / area;
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        if e.abs() <= len / 256.0 {
            ambiguous = true;
        } else if e * area.signum() < 0.0 {
            return (Some(false), 1.0);
        }
    }
    let z = w[0] * t[0][2] + w[1] * t[1][2] + w[2] * t[2][2];
    (if ambiguous { None } else { Some(true) }, z)
}

const CLEAR: [f32; 4] = [0.1, 0.2, 0.3, 1.0];
const FLAT: [f32; 4] = [1.0, 0.6, 0.2, 0.8];
/// Depth differences below this may go either way (interpolation and D16 precision).
const DEPTH_SLACK: f64 = 2e-4;

/// The colours one sample may end with: the spec's coverage at the standard location, the
/// sample mask, and (depth scenes) the nearest covering triangle with LESS against 1.0.
fn sample_colours(s: &Scene, tris: &[[[f64; 3]; 3]], bit: usize, x: f64, y: f64) -> Vec<[f32; 4]> {
    if s.mask.unwrap_or(u32::MAX) >> bit & 1 == 0 {
        return vec![CLEAR];
    }
    let hits: Vec<_> = tris.iter().map(|t| inside(t, x, y)).collect();
    let colour = |i: usize| if s.depth.is_some() { TRI_COLOURS[i % 3] } else { FLAT };
    let definite: Vec<usize> = (0..tris.len()).filter(|&i| hits[i].0 == Some(true)).collect();
    let possible: Vec<usize> = (0..tris.len()).filter(|&i| hits[i].0 != Some(false)).collect();
    let mut out: Vec<[f32; 4]> = Vec::new();
    let nearest = definite.iter().map(|&i| hits[i].1).fold(f64::INFINITY, f64::min);
    if definite.is_empty() {
        out.push(CLEAR);
    }
    for &i in &possible {
        // Without depth every triangle writes; with depth only the nearest survives.
        if s.depth.is_none() || hits[i].1 <= nearest + DEPTH_SLACK {
            out.push(colour(i));
        }
    }
    out
}

/// The spec's sRGB transfer function (linear to encoded, before quantization).
fn srgb_encode(l: f32) -> f32 {
    if l <= 0.003_130_8 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// Compares a flat-coloured scene with the spec's expectation: each channel of a pixel is the
/// mean of its samples' colours, so it lies between the means of the per-sample least and
/// greatest possible values (exactly one value where nothing is ambiguous), within one LSB of
/// the format (the conversion of the mean).
fn compare_with_coverage(s: &Scene, ours: &[u8]) -> Result<(), String> {
    let (a, lsb) = channels(s.format, ours);
    let n = s.samples.as_raw();
    let v = window_vertices(s.vertices);
    let tris: Vec<[[f64; 3]; 3]> = v.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let mut ambiguous = 0;
    for py in 0..H {
        for px in 0..W {
            let (mut lo, mut hi) = ([0f32; 4], [0f32; 4]);
            let mut exact = true;
            for (bit, &(sx, sy)) in standard_locations(n).iter().enumerate() {
                let (x, y) =
                    (f64::from(px) + f64::from(sx) / 16.0, f64::from(py) + f64::from(sy) / 16.0);
                let set = sample_colours(s, &tris, bit, x, y);
                exact &= set.windows(2).all(|w| w[0] == w[1]);
                for c in 0..4 {
                    lo[c] += set.iter().map(|v| v[c]).fold(f32::INFINITY, f32::min) / n as f32;
                    hi[c] += set.iter().map(|v| v[c]).fold(f32::NEG_INFINITY, f32::max) / n as f32;
                }
            }
            ambiguous += usize::from(!exact);
            if s.format == vk::Format::R8G8B8A8_SRGB {
                // The mean is taken of linear values, then encoded (the spec's resolve of
                // sRGB); the encoding is monotonic, so the bounds stay bounds.
                for c in 0..3 {
                    (lo[c], hi[c]) = (srgb_encode(lo[c]), srgb_encode(hi[c]));
                }
            }
            let p = (py * W + px) as usize;
            let got = &a[4 * p..4 * p + 4];
            let tol = lsb + 1e-6;
            if (0..4).any(|c| got[c] < lo[c] - tol || got[c] > hi[c] + tol) {
                return Err(format!("pixel ({px}, {py}): {got:?}, expected {lo:?}..={hi:?}"));
            }
        }
    }
    // The oracle must decide most pixels, or it checks nothing.
    assert!(ambiguous < (W * H / 5) as usize, "{ambiguous} undecided pixels");
    Ok(())
}

#[test]
fn msaa_scenes_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let copy2 = [c"VK_KHR_copy_commands2"];
    let lvp = Gpu::new(&h.instance, lvp_pd, 0, 1, &copy2);
    let ours = Gpu::new(&h.instance, ours_pd, 0, 1, &copy2);
    let only = std::env::var("FERRUM_MSAA_SCENE").ok();
    let mut failures = Vec::new();
    for s in SCENES.iter().filter(|s| only.as_deref().is_none_or(|o| s.name.contains(o))) {
        let got = render(&h, ours_pd, &ours, s);
        // lavapipe offers 4 samples only; the flat scenes are also checked against the
        // coverage computed here at the standard locations.
        if s.samples == vk::SampleCountFlags::TYPE_4 {
            let want = render(&h, lvp_pd, &lvp, s);
            if let Err(e) = compare(s, &got, &want) {
                failures.push(format!("{} (vs lavapipe): {e}", s.name));
            }
        }
        if !s.smooth {
            if let Err(e) = compare_with_coverage(s, &got) {
                failures.push(format!("{} (vs coverage): {e}", s.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
