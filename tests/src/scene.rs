//! The lavapipe-differential scene harness shared by tests/tests/graphics.rs and
//! tests/tests/graphics_scenes.rs: a W x H colour target that is both a colour attachment and
//! a sampled image, a compute reader that texelFetches it into a storage buffer as packed
//! RGBA8 (so every format is compared the same way), and the comparison with its edge rule.
//!
//! Comparison: every channel within `Tolerance::channel` (in 1/255 steps); pixels whose
//! coverage differs must lie where an edge passes within sub-pixel precision of the pixel
//! centre, which Vulkan lets go either way: at most `Tolerance::slack` such pixels per scene,
//! each next to a pixel of the other value.

use ash_loaded::{vk, Device};

use crate::gpu::{Gpu, HostBuffer};
use crate::kernel::{binding, whole, Kernel, SetPool};
use crate::shaders::{compute_spirv, glsl_spirv};

pub const W: u32 = 37;
pub const H: u32 = 23;
/// Pixels per scene allowed to differ where an edge passes within sub-pixel precision of
/// their centre.
pub const EDGE_SLACK: usize = 6;

const READER: &str = "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) buffer Out { uint o[]; };
void main() {
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (g.x < 37 && g.y < 23) {
        vec4 c = texelFetch(sampler2D(tex, smp), g, 0);
        o[g.y * 37 + g.x] = packUnorm4x8(c);
    }
}
";

/// A W x H single-sample colour target usable as attachment and sampled image.
pub struct ColorTarget {
    pub image: vk::Image,
    pub memory: vk::DeviceMemory,
    pub view: vk::ImageView,
    pub format: vk::Format,
}

impl ColorTarget {
    pub fn new(gpu: &Gpu, format: vk::Format) -> ColorTarget {
        let d = &gpu.device;
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width: W, height: H, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::SAMPLED);
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
            ColorTarget { image, memory, view, format }
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

/// The compute reader of one target view (in SHADER_READ_ONLY_OPTIMAL when it runs).
pub struct Reader<'d> {
    gpu: &'d Gpu,
    kernel: Kernel<'d>,
    set: Option<SetPool<'d>>,
    sampler: vk::Sampler,
    out: Option<HostBuffer>,
}

impl<'d> Reader<'d> {
    pub fn new(gpu: &'d Gpu, view: vk::ImageView) -> Reader<'d> {
        let d = &gpu.device;
        let bindings = [
            binding(0, vk::DescriptorType::SAMPLED_IMAGE, 1),
            binding(1, vk::DescriptorType::SAMPLER, 1),
            binding(2, vk::DescriptorType::STORAGE_BUFFER, 1),
        ];
        let kernel = Kernel::new(d, &compute_spirv(READER), &[&bindings], 0);
        let out = gpu.host_buffer(u64::from(W * H) * 4);
        out.write(0, &vec![0xcd; (W * H * 4) as usize]);
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
        Reader { gpu, kernel, set: Some(set), sampler, out: Some(out) }
    }

    /// Records the read (after the target's last write is made visible to compute reads)
    /// and the barrier that makes the result visible to the host.
    pub fn record(&self, d: &Device, cb: vk::CommandBuffer) {
        self.kernel.bind(cb, &[self.set.as_ref().unwrap().set], &[]);
        // SAFETY: a recording command buffer.
        unsafe { d.cmd_dispatch(cb, W.div_ceil(8), H.div_ceil(8), 1) };
        crate::kernel::compute_to_host(d, cb);
    }

    /// The texels as packed RGBA8, row by row (after the submission finished).
    pub fn texels(&self) -> Vec<u32> {
        self.out.as_ref().unwrap().u32s()
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        drop(self.set.take());
        // SAFETY: the GPU is done with the sampler.
        unsafe { self.gpu.device.destroy_sampler(self.sampler, None) };
        if let Some(out) = self.out.take() {
            self.gpu.destroy_buffer(out);
        }
    }
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

/// How far a scene may differ from lavapipe.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// Per channel, in 1/255 steps.
    pub channel: i32,
    /// Pixels that may differ where they touch a pixel of the other image's value.
    pub slack: usize,
}

/// Colour within 1/255 (float → UNORM rounding of ties may go either way; interpolation
/// precision), coverage up to `EDGE_SLACK` edge pixels.
pub const DEFAULT_TOLERANCE: Tolerance = Tolerance { channel: 1, slack: EDGE_SLACK };

/// Whether two RGBA8 texels agree within `tol` per channel.
pub fn close(a: u32, b: u32, tol: i32) -> bool {
    (0..4).all(|c| ((a >> (8 * c) & 0xff) as i32 - (b >> (8 * c) & 0xff) as i32).abs() <= tol)
}

/// Compares `ours` with `lvp`: every pixel within `t.channel`, or else one of at most
/// `t.slack` pixels that each have a 4-neighbour matching the other image's value (an edge
/// whose coverage went the other way).
pub fn compare(name: &str, ours: &[u32], lvp: &[u32], t: Tolerance) -> Result<(), String> {
    let tol = t.channel;
    let bad: Vec<usize> = (0..ours.len()).filter(|&i| !close(ours[i], lvp[i], tol)).collect();
    let inner: Vec<usize> = bad
        .iter()
        .copied()
        .filter(|&i| {
            let (x, y) = ((i as u32 % W) as i32, (i as u32 / W) as i32);
            let near = |dx: i32, dy: i32| {
                let (nx, ny) = (x + dx, y + dy);
                nx >= 0 && ny >= 0 && nx < W as i32 && ny < H as i32 && {
                    let j = (ny as u32 * W + nx as u32) as usize;
                    close(ours[i], lvp[j], tol) || close(lvp[i], ours[j], tol)
                }
            };
            !(near(1, 0) || near(-1, 0) || near(0, 1) || near(0, -1))
        })
        .collect();
    if bad.len() > t.slack || !inner.is_empty() {
        let show: Vec<String> = bad
            .iter()
            .take(8)
            .map(|&i| {
                format!(
                    "({}, {}): ferrum {:08x} lavapipe {:08x}",
                    i as u32 % W,
                    i as u32 / W,
                    ours[i],
                    lvp[i]
                )
            })
            .collect();
        return Err(format!(
            "{}: {} pixels differ ({} not at edges)\n{}",
            name,
            bad.len(),
            inner.len(),
            show.join("\n")
        ));
    }
    Ok(())
}

/// A sampled RGBA8 2D texture of `size` x `size` texels with the given mip levels (level k is
/// `size >> k` square), uploaded by one buffer-to-image copy per level and left in
/// SHADER_READ_ONLY_OPTIMAL.
pub struct Texture {
    pub image: vk::Image,
    pub memory: vk::DeviceMemory,
    pub view: vk::ImageView,
}

impl Texture {
    pub fn new(gpu: &Gpu, size: u32, levels: &[Vec<u8>]) -> Texture {
        let d = &gpu.device;
        let n = levels.len() as u32;
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D { width: size, height: size, depth: 1 })
            .mip_levels(n)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST);
        let data: Vec<u8> = levels.concat();
        let staging = gpu.host_buffer(data.len() as u64);
        staging.write(0, &data);
        let mut offset = 0u64;
        let regions: Vec<vk::BufferImageCopy> = (0..n)
            .map(|level| {
                let s = (size >> level).max(1);
                let r = vk::BufferImageCopy {
                    buffer_offset: offset,
                    image_subresource: vk::ImageSubresourceLayers {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        mip_level: level,
                        base_array_layer: 0,
                        layer_count: 1,
                    },
                    image_extent: vk::Extent3D { width: s, height: s, depth: 1 },
                    ..Default::default()
                };
                offset += levels[level as usize].len() as u64;
                r
            })
            .collect();
        // SAFETY: valid create infos and commands on live objects; the copy regions lie
        // inside the staging buffer and the image.
        unsafe {
            let image = d.create_image(&info, None).expect("vkCreateImage");
            let memory = gpu.bind_image_memory(image);
            let vinfo = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(info.format)
                .subresource_range(color_range(n));
            let view = d.create_image_view(&vinfo, None).expect("vkCreateImageView");
            let to_dst = vk::ImageMemoryBarrier::default()
                .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(color_range(n));
            let to_read = to_dst
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ)
                .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
                .new_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
            gpu.run(|d, cb| {
                let none = vk::DependencyFlags::empty();
                let (top, transfer) =
                    (vk::PipelineStageFlags::TOP_OF_PIPE, vk::PipelineStageFlags::TRANSFER);
                d.cmd_pipeline_barrier(cb, top, transfer, none, &[], &[], &[to_dst]);
                let dst = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
                d.cmd_copy_buffer_to_image(cb, staging.buffer, image, dst, &regions);
                let fs = vk::PipelineStageFlags::FRAGMENT_SHADER;
                d.cmd_pipeline_barrier(cb, transfer, fs, none, &[], &[], &[to_read]);
            });
            gpu.destroy_buffer(staging);
            Texture { image, memory, view }
        }
    }

    pub fn destroy(self, d: &Device) {
        // SAFETY: the GPU is done with the texture.
        unsafe {
            d.destroy_image_view(self.view, None);
            d.destroy_image(self.image, None);
            d.free_memory(self.memory, None);
        }
    }
}
