//! Images a scene reads or renders into beyond its colour target: mip-mapped textures,
//! attachments of any sample and layer count, and the device the rendering extensions need.

use ash_loaded::{vk, Device};

use super::color_range;
use crate::gpu::Gpu;

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

/// The device extensions render pass 2, depth/stencil resolve and dynamic rendering need, in
/// dependency order (each one's requirements before it).
pub const RENDERING_EXTENSIONS: [&std::ffi::CStr; 5] = [
    c"VK_KHR_multiview",
    c"VK_KHR_maintenance2",
    c"VK_KHR_create_renderpass2",
    c"VK_KHR_depth_stencil_resolve",
    c"VK_KHR_dynamic_rendering",
];

/// A device of `pd` with [`RENDERING_EXTENSIONS`] and the multiview and dynamicRendering
/// features enabled.
pub fn rendering_gpu(instance: &ash_loaded::Instance, pd: vk::PhysicalDevice) -> Gpu {
    let mut mv = vk::PhysicalDeviceMultiviewFeatures::default().multiview(true);
    let mut dr = vk::PhysicalDeviceDynamicRenderingFeatures::default().dynamic_rendering(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut mv).push_next(&mut dr);
    Gpu::with_feature_chain(instance, pd, 0, &RENDERING_EXTENSIONS, &mut f2)
}

/// An attachment image of any sample count and layer count with a view of all its layers
/// (2D array when layered), for scenes beyond the single-layer `ColorTarget` (input
/// attachments, multiview, depth).
pub struct Attachment {
    pub image: vk::Image,
    pub memory: vk::DeviceMemory,
    pub view: vk::ImageView,
}

impl Attachment {
    /// A `w` x `h` image of `format` with `samples` samples and `layers` layers.
    pub fn new(
        gpu: &Gpu,
        format: vk::Format,
        (w, h): (u32, u32),
        samples: vk::SampleCountFlags,
        layers: u32,
        usage: vk::ImageUsageFlags,
    ) -> Attachment {
        let d = &gpu.device;
        let aspect = match format {
            vk::Format::D16_UNORM | vk::Format::D32_SFLOAT => vk::ImageAspectFlags::DEPTH,
            _ => vk::ImageAspectFlags::COLOR,
        };
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width: w, height: h, depth: 1 })
            .mip_levels(1)
            .array_layers(layers)
            .samples(samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage);
        let view_type =
            if layers > 1 { vk::ImageViewType::TYPE_2D_ARRAY } else { vk::ImageViewType::TYPE_2D };
        // SAFETY: valid create infos on a live device; destroyed in `destroy`.
        unsafe {
            let image = d.create_image(&info, None).expect("vkCreateImage");
            let memory = gpu.bind_image_memory(image);
            let range = vk::ImageSubresourceRange {
                aspect_mask: aspect,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: layers,
            };
            let vinfo = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(view_type)
                .format(format)
                .subresource_range(range);
            let view = d.create_image_view(&vinfo, None).expect("vkCreateImageView");
            Attachment { image, memory, view }
        }
    }

    pub fn destroy(self, d: &Device) {
        // SAFETY: the GPU is done with the attachment.
        unsafe {
            d.destroy_image_view(self.view, None);
            d.destroy_image(self.image, None);
            d.free_memory(self.memory, None);
        }
    }
}

/// Records a copy of `layers` colour layers of a `w` x `h` image in TRANSFER_SRC_OPTIMAL (its
/// writes made visible to transfers by the caller) into `out`, layer after layer, and the
/// barrier that makes the copy visible to the host.
///
/// # Safety
/// A recording command buffer and live objects.
pub unsafe fn copy_layers(
    d: &Device,
    cb: vk::CommandBuffer,
    image: vk::Image,
    (w, h, layers): (u32, u32, u32),
    out: vk::Buffer,
) {
    let region = vk::BufferImageCopy {
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: layers,
        },
        image_extent: vk::Extent3D { width: w, height: h, depth: 1 },
        ..Default::default()
    };
    // SAFETY: forwarded to the caller.
    unsafe {
        d.cmd_copy_image_to_buffer(cb, image, vk::ImageLayout::TRANSFER_SRC_OPTIMAL, out, &[region])
    };
    crate::gpu::transfer_to_host(d, cb);
}
