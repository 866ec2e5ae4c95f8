//! The lavapipe-differential scene harness shared by tests/tests/graphics.rs and
//! tests/tests/graphics_scenes.rs: a W x H colour target that is both a colour attachment and
//! a sampled image, a compute reader that texelFetches it into a storage buffer as packed
//! RGBA8 (so every format is compared the same way), and the comparison with its edge rule.
//!
//! Formats proven as colour targets and for transfers but not for sampling (BGRA8) are read
//! back by a copy instead (`read_by_copy`); their bytes are compared, so the target's memory
//! order is checked too.
//!
//! Comparison: every channel within `Tolerance::channel` (in 1/255 steps); pixels whose
//! coverage differs must lie where an edge passes within sub-pixel precision of the pixel
//! centre, which Vulkan lets go either way: at most `Tolerance::slack` such pixels per scene,
//! each next to a pixel of the other value.

use ash_loaded::{vk, Device};

use crate::gpu::{Gpu, HostBuffer};
use crate::kernel::{binding, whole, Kernel, SetPool};
use crate::shaders::{compute_spirv, glsl_spirv};

mod compare;
mod resources;

pub use compare::{close, compare, compare_sized, Tolerance, DEFAULT_TOLERANCE};
pub use resources::{copy_layers, rendering_gpu, Attachment, Texture, RENDERING_EXTENSIONS};

pub const W: u32 = 37;
pub const H: u32 = 23;
/// Pixels per scene allowed to differ where an edge passes within sub-pixel precision of
/// their centre.
pub const EDGE_SLACK: usize = 6;

/// The reader kernel of a `w` x `h` target: texelFetch each texel, pack it as UNORM8.
fn reader_source(w: u32, h: u32) -> String {
    format!(
        "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) buffer Out {{ uint o[]; }};
void main() {{
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (g.x < {w} && g.y < {h}) {{
        vec4 c = texelFetch(sampler2D(tex, smp), g, 0);
        o[g.y * {w} + g.x] = packUnorm4x8(c);
    }}
}}
"
    )
}

/// Whether a target of `format` is read back by a copy rather than by sampling it.
pub fn read_by_copy(format: vk::Format) -> bool {
    matches!(format, vk::Format::B8G8R8A8_UNORM | vk::Format::B10G11R11_UFLOAT_PACK32)
}

/// An unsigned small float (5-bit exponent, `m` mantissa bits; Vulkan "Unsigned 11-Bit/10-Bit
/// Floating-Point Numbers") as f32; the exponent's maximum is infinity or NaN.
fn small_float(bits: u32, m: u32) -> f32 {
    let (e, f) = (bits >> m & 31, (bits & ((1 << m) - 1)) as f32 / (1 << m) as f32);
    match e {
        0 => f * 2f32.powi(-14),
        31 => f32::INFINITY,
        _ => (1.0 + f) * 2f32.powi(e as i32 - 15),
    }
}

/// A B10G11R11_UFLOAT texel packed as the sampling reader does (UNORM8, R in the low byte,
/// alpha 1).
fn b10g11r11_to_unorm8(t: u32) -> u32 {
    let c = [small_float(t & 0x7ff, 6), small_float(t >> 11 & 0x7ff, 6), small_float(t >> 22, 5)];
    let u = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u32;
    u(c[0]) | u(c[1]) << 8 | u(c[2]) << 16 | 255 << 24
}

/// A W x H single-sample colour target usable as attachment and sampled image (or copy
/// source, for `read_by_copy` formats).
pub struct ColorTarget {
    pub image: vk::Image,
    pub memory: vk::DeviceMemory,
    pub view: vk::ImageView,
    pub format: vk::Format,
    pub width: u32,
    pub height: u32,
}

impl ColorTarget {
    pub fn new(gpu: &Gpu, format: vk::Format) -> ColorTarget {
        ColorTarget::sized(gpu, format, W, H)
    }

    /// A `width` x `height` target.
    pub fn sized(gpu: &Gpu, format: vk::Format, width: u32, height: u32) -> ColorTarget {
        ColorTarget::with_samples(gpu, format, width, height, vk::SampleCountFlags::TYPE_1)
    }

    /// A W x H multisampled target, only an attachment (resolved by [`resolve_render_pass`]).
    pub fn multisampled(gpu: &Gpu, format: vk::Format, samples: vk::SampleCountFlags) -> Self {
        ColorTarget::with_samples(gpu, format, W, H, samples)
    }

    fn with_samples(
        gpu: &Gpu,
        format: vk::Format,
        width: u32,
        height: u32,
        samples: vk::SampleCountFlags,
    ) -> ColorTarget {
        let d = &gpu.device;
        let read = if samples != vk::SampleCountFlags::TYPE_1 {
            vk::ImageUsageFlags::empty()
        } else if read_by_copy(format) {
            vk::ImageUsageFlags::TRANSFER_SRC
        } else {
            vk::ImageUsageFlags::SAMPLED
        };
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width, height, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | read);
        // SAFETY: valid create infos on a live device; destroyed in `destroy`.
        unsafe {
            let image = d.create_image(&info, None).expect("vkCreateImage");
            let memory = gpu.bind_image_memory(image);
            let vinfo = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(format)
                .subresource_range(color_range(1));
            let view = d.create_image_view(&vinfo, None).expect("vkCreateImageView");
            ColorTarget { image, memory, view, format, width, height }
        }
    }

    pub fn destroy(self, d: &Device) {
        // SAFETY: the GPU is done with the target.
        unsafe {
            d.destroy_image_view(self.view, None);
            d.destroy_image(self.image, None);
            d.free_memory(self.memory, None);
        }
    }
}

/// The colour aspect's first `levels` mip levels of layer 0.
pub fn color_range(levels: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: levels,
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// How a `Reader` gets the texels.
enum ReadMode<'d> {
    /// A compute kernel texelFetches the view (in SHADER_READ_ONLY_OPTIMAL when it runs).
    Sample { kernel: Kernel<'d>, set: Option<SetPool<'d>>, sampler: vk::Sampler },
    /// The image (in TRANSFER_SRC_OPTIMAL when it runs) is copied: BGRA8 bytes, or packed
    /// B10G11R11 floats.
    Copy { image: vk::Image, format: vk::Format },
}

/// The reader of one colour target.
pub struct Reader<'d> {
    gpu: &'d Gpu,
    mode: ReadMode<'d>,
    out: Option<HostBuffer>,
    width: u32,
    height: u32,
}

impl<'d> Reader<'d> {
    /// The reader `target`'s format calls for (`read_by_copy`).
    pub fn of(gpu: &'d Gpu, target: &ColorTarget) -> Reader<'d> {
        let (width, height) = (target.width, target.height);
        if read_by_copy(target.format) {
            let out = gpu.host_buffer(u64::from(width * height) * 4);
            out.write(0, &vec![0xcd; (width * height * 4) as usize]);
            let mode = ReadMode::Copy { image: target.image, format: target.format };
            Reader { gpu, mode, out: Some(out), width, height }
        } else {
            Reader::sampling(gpu, target.view, width, height)
        }
    }

    /// A sampling reader of a W x H `view`.
    pub fn new(gpu: &'d Gpu, view: vk::ImageView) -> Reader<'d> {
        Reader::sampling(gpu, view, W, H)
    }

    /// A sampling reader of a `width` x `height` `view`.
    fn sampling(gpu: &'d Gpu, view: vk::ImageView, width: u32, height: u32) -> Reader<'d> {
        let d = &gpu.device;
        let bindings = [
            binding(0, vk::DescriptorType::SAMPLED_IMAGE, 1),
            binding(1, vk::DescriptorType::SAMPLER, 1),
            binding(2, vk::DescriptorType::STORAGE_BUFFER, 1),
        ];
        let kernel = Kernel::new(d, &compute_spirv(&reader_source(width, height)), &[&bindings], 0);
        let out = gpu.host_buffer(u64::from(width * height) * 4);
        out.write(0, &vec![0xcd; (width * height * 4) as usize]);
        let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
        // SAFETY: valid create info and descriptor writes on live objects.
        let sampler = unsafe {
            let sampler = d
                .create_sampler(&vk::SamplerCreateInfo::default().max_lod(0.0), None)
                .expect("vkCreateSampler");
            let img_info = [vk::DescriptorImageInfo {
                image_view: view,
                image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                ..Default::default()
            }];
            let smp_info = [vk::DescriptorImageInfo { sampler, ..Default::default() }];
            let writes = [
                vk::WriteDescriptorSet::default()
                    .dst_set(set.set)
                    .dst_binding(0)
                    .descriptor_type(vk::DescriptorType::SAMPLED_IMAGE)
                    .image_info(&img_info),
                vk::WriteDescriptorSet::default()
                    .dst_set(set.set)
                    .dst_binding(1)
                    .descriptor_type(vk::DescriptorType::SAMPLER)
                    .image_info(&smp_info),
            ];
            d.update_descriptor_sets(&writes, &[]);
            sampler
        };
        set.write_buffers(2, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
        let mode = ReadMode::Sample { kernel, set: Some(set), sampler };
        Reader { gpu, mode, out: Some(out), width, height }
    }

    /// Records the read (after the target's last write is made visible to compute reads, or
    /// left in TRANSFER_SRC_OPTIMAL for a copy) and the barrier that makes the result visible
    /// to the host.
    pub fn record(&self, d: &Device, cb: vk::CommandBuffer) {
        match &self.mode {
            ReadMode::Sample { kernel, set, .. } => {
                kernel.bind(cb, &[set.as_ref().unwrap().set], &[]);
                // SAFETY: a recording command buffer.
                unsafe { d.cmd_dispatch(cb, self.width.div_ceil(8), self.height.div_ceil(8), 1) };
                crate::kernel::compute_to_host(d, cb);
            }
            // SAFETY: a recording command buffer and live objects.
            ReadMode::Copy { image, .. } => unsafe {
                let extent = vk::Extent3D { width: self.width, height: self.height, depth: 1 };
                copy_to(d, cb, *image, extent, self.out.as_ref().unwrap().buffer)
            },
        }
    }

    /// The texels as packed RGBA8, row by row (after the submission finished).
    pub fn texels(&self) -> Vec<u32> {
        let mut texels = self.out.as_ref().unwrap().u32s();
        match self.mode {
            ReadMode::Copy { format: vk::Format::B10G11R11_UFLOAT_PACK32, .. } => {
                texels.iter_mut().for_each(|t| *t = b10g11r11_to_unorm8(*t));
            }
            ReadMode::Copy { .. } => {
                // BGRA bytes to the sampling reader's packing (R in the low byte).
                for t in &mut texels {
                    *t = (*t & 0xff00_ff00) | (*t >> 16 & 0xff) | (*t & 0xff) << 16;
                }
            }
            ReadMode::Sample { .. } => {}
        }
        texels
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        if let ReadMode::Sample { set, sampler, .. } = &mut self.mode {
            drop(set.take());
            // SAFETY: the GPU is done with the sampler.
            unsafe { self.gpu.device.destroy_sampler(*sampler, None) };
        }
        if let Some(out) = self.out.take() {
            self.gpu.destroy_buffer(out);
        }
    }
}

/// Records the copy of a target (left by its render pass in TRANSFER_SRC_OPTIMAL) to
/// `out`, tightly packed, for the host to read.
///
/// # Safety
/// `cb` is recording; `image` and `out` are live.
unsafe fn copy_to(
    d: &Device,
    cb: vk::CommandBuffer,
    image: vk::Image,
    image_extent: vk::Extent3D,
    out: vk::Buffer,
) {
    let to_transfer = vk::ImageMemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
        .old_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
        .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(color_range(1));
    let region = vk::BufferImageCopy {
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        },
        image_extent,
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
            &[to_transfer],
        );
        d.cmd_copy_image_to_buffer(
            cb,
            image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            out,
            &[region],
        );
    }
    crate::gpu::transfer_to_host(d, cb);
}

/// A render pass over one colour attachment of `format`, cleared or loaded as `load` says,
/// that leaves the target where its `Reader` wants it (SHADER_READ_ONLY_OPTIMAL, or
/// TRANSFER_SRC_OPTIMAL for `read_by_copy` formats).
///
/// # Safety
/// `d` is a live device.
pub unsafe fn render_pass(
    d: &Device,
    format: vk::Format,
    load: vk::AttachmentLoadOp,
) -> vk::RenderPass {
    let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    // Where the target rests between passes: ready for the reader, or for the copy.
    let rest = if read_by_copy(format) {
        vk::ImageLayout::TRANSFER_SRC_OPTIMAL
    } else {
        vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
    };
    let att = [vk::AttachmentDescription::default()
        .format(format)
        .samples(vk::SampleCountFlags::TYPE_1)
        .load_op(load)
        .store_op(vk::AttachmentStoreOp::STORE)
        .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
        .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
        .initial_layout(if load == vk::AttachmentLoadOp::LOAD {
            rest
        } else {
            vk::ImageLayout::UNDEFINED
        })
        .final_layout(rest)];
    let refs = [vk::AttachmentReference { attachment: 0, layout }];
    let sub = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&refs)];
    let deps = dependencies();
    let info =
        vk::RenderPassCreateInfo::default().attachments(&att).subpasses(&sub).dependencies(&deps);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

/// A one-subpass render pass drawing into a cleared `samples` attachment 0 (not stored) and
/// resolving it into the single-sample attachment 1, left ready for the [`Reader`].
///
/// # Safety
/// `d` is a live device.
pub unsafe fn resolve_render_pass(
    d: &Device,
    format: vk::Format,
    samples: vk::SampleCountFlags,
) -> vk::RenderPass {
    let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    let rest = if read_by_copy(format) {
        vk::ImageLayout::TRANSFER_SRC_OPTIMAL
    } else {
        vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
    };
    let base = vk::AttachmentDescription::default()
        .format(format)
        .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
        .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
        .initial_layout(vk::ImageLayout::UNDEFINED);
    let att = [
        base.samples(samples)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::DONT_CARE)
            .final_layout(layout),
        base.samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::DONT_CARE)
            .store_op(vk::AttachmentStoreOp::STORE)
            .final_layout(rest),
    ];
    let refs = [vk::AttachmentReference { attachment: 0, layout }];
    let resolves = [vk::AttachmentReference { attachment: 1, layout }];
    let sub = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&refs)
        .resolve_attachments(&resolves)];
    let deps = dependencies();
    let info =
        vk::RenderPassCreateInfo::default().attachments(&att).subpasses(&sub).dependencies(&deps);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

/// The scene passes' external dependencies: colour writes before and after, and the
/// reader's compute shader after.
fn dependencies() -> [vk::SubpassDependency; 2] {
    [
        vk::SubpassDependency::default()
            .src_subpass(vk::SUBPASS_EXTERNAL)
            .dst_subpass(0)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .dst_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_access_mask(
                vk::AccessFlags::COLOR_ATTACHMENT_WRITE | vk::AccessFlags::COLOR_ATTACHMENT_READ,
            ),
        vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .dst_stage_mask(
                vk::PipelineStageFlags::COMPUTE_SHADER
                    | vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            )
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_access_mask(
                vk::AccessFlags::SHADER_READ | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
            ),
    ]
}

/// A one-subpass render pass over one colour attachment of `color` (cleared, stored, left in
/// `color_final` with its writes made visible to the transfers or shaders that layout serves)
/// and, when given, a depth/stencil attachment (cleared, not stored).
///
/// # Safety
/// `d` is a live device.
pub unsafe fn cleared_pass(
    d: &Device,
    color: vk::Format,
    depth: Option<vk::Format>,
    color_final: vk::ImageLayout,
) -> vk::RenderPass {
    let cleared = |format| {
        vk::AttachmentDescription::default()
            .format(format)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .stencil_load_op(vk::AttachmentLoadOp::CLEAR)
            .initial_layout(vk::ImageLayout::UNDEFINED)
    };
    let mut atts =
        vec![cleared(color).store_op(vk::AttachmentStoreOp::STORE).final_layout(color_final)];
    atts.extend(depth.map(|f| {
        cleared(f)
            .store_op(vk::AttachmentStoreOp::DONT_CARE)
            .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
            .final_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
    }));
    let color_ref = [vk::AttachmentReference {
        attachment: 0,
        layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
    }];
    let depth_ref = vk::AttachmentReference {
        attachment: 1,
        layout: vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
    };
    let mut sub = vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&color_ref);
    if depth.is_some() {
        sub = sub.depth_stencil_attachment(&depth_ref);
    }
    let (dst_stage, dst_access) = if color_final == vk::ImageLayout::TRANSFER_SRC_OPTIMAL {
        (vk::PipelineStageFlags::TRANSFER, vk::AccessFlags::TRANSFER_READ)
    } else {
        let shaders =
            vk::PipelineStageFlags::FRAGMENT_SHADER | vk::PipelineStageFlags::COMPUTE_SHADER;
        (shaders, vk::AccessFlags::SHADER_READ)
    };
    let deps = [vk::SubpassDependency::default()
        .src_subpass(0)
        .dst_subpass(vk::SUBPASS_EXTERNAL)
        .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
        .dst_stage_mask(dst_stage)
        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_access_mask(dst_access)];
    let subs = [sub];
    let info =
        vk::RenderPassCreateInfo::default().attachments(&atts).subpasses(&subs).dependencies(&deps);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

/// A shader module from GLSL of `stage` ("vert", "frag").
pub fn module(d: &Device, src: &str, stage: &str) -> vk::ShaderModule {
    let code = glsl_spirv(src, stage);
    // SAFETY: valid SPIR-V from glslang on a live device.
    unsafe { d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None) }
        .expect("vkCreateShaderModule")
}

/// The whole target.
pub fn full_rect() -> vk::Rect2D {
    vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: W, height: H } }
}

/// The viewport covering the whole target, depth 0..1.
pub fn full_viewport() -> vk::Viewport {
    vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: W as f32,
        height: H as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    }
}
