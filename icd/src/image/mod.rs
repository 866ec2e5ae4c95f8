//! Images: the `VkImage` object, its surface layout, views and samplers.
//!
//! An image is one or two surfaces (depth/stencil formats with a separate stencil plane get a
//! second one placed after the first at its alignment). Swizzled modes are the default;
//! `VK_IMAGE_TILING_LINEAR` gives SW_LINEAR. Creation checks the request against what the
//! hardware can do (`format::properties` with every path), not against what is advertised,
//! so other paths can be brought up before they are switched on.

pub mod layout;
pub mod sampler;
pub mod view;

use ash::vk;
use parking_lot::Mutex;

use self::layout::{Surface, SurfaceDesc, SwizzleMode};
use crate::core::buffer::Binding;
use crate::core::memory::DeviceMemory;
use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};
use crate::format::properties::{image_format_properties_for, ImageQuery};
use crate::format::{self, Caps, FormatInfo};

/// A `VkImage`.
#[repr(C)]
pub struct Image {
    base: ObjectBase,
    pub format: &'static FormatInfo,
    pub ty: vk::ImageType,
    pub extent: vk::Extent3D,
    pub levels: u32,
    pub layers: u32,
    /// Samples per pixel.
    pub samples: u32,
    pub tiling: vk::ImageTiling,
    pub usage: vk::ImageUsageFlags,
    pub flags: vk::ImageCreateFlags,
    /// The colour/depth plane.
    pub surface: Surface,
    /// The separate stencil plane of a combined depth/stencil format, and its byte offset.
    pub stencil: Option<(Surface, u64)>,
    binding: Mutex<Option<Binding>>,
}
vk_object!(Image, vk::Image, vk::ObjectType::IMAGE);

/// The swizzle mode for a new image: linear on request, `_Z` for depth/stencil (the DB takes
/// nothing else), `_R` for colour targets (thin, render-optimised) and multisampled colour
/// images, and `_S` otherwise.
pub fn choose_mode(info: &vk::ImageCreateInfo<'_>, f: &FormatInfo) -> SwizzleMode {
    if info.tiling == vk::ImageTiling::LINEAR {
        SwizzleMode::Linear
    } else if f.is_depth_stencil() {
        SwizzleMode::Z64KX
    } else if info.usage.contains(vk::ImageUsageFlags::COLOR_ATTACHMENT)
        || info.samples != vk::SampleCountFlags::TYPE_1
    {
        // `_S` has no multisampled layout; `_R` does.
        SwizzleMode::R64KX
    } else {
        SwizzleMode::S64KX
    }
}

/// Multisampled images: 2, 4 or 8 samples (navi21's MSAA layouts stop at 8) of a renderable
/// 2D optimal single-level non-cube image, as VUID-VkImageCreateInfo-samples-02257 requires and
/// the `_R`/`_Z` modes can lay out. No FMASK is allocated: the simulator's colour back end
/// stores every sample (no compression), so resolves and sampling read the samples directly.
fn check_samples(info: &vk::ImageCreateInfo<'_>, f: &FormatInfo) -> VkResult<()> {
    let n = info.samples.as_raw();
    if n == 1 {
        return Ok(());
    }
    if !matches!(n, 2 | 4 | 8) {
        return Err(VkError::FeatureNotPresent(format!("{n} samples per pixel")));
    }
    // VUID-VkImageCreateInfo-samples-02257.
    if info.image_type != vk::ImageType::TYPE_2D
        || info.tiling != vk::ImageTiling::OPTIMAL
        || info.mip_levels != 1
        || info.flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE)
    {
        return Err(VkError::InvalidUsage("multisampled image not 2D, optimal, one level"));
    }
    if !f.caps.contains(Caps::COLOR) && !f.caps.contains(Caps::DEPTH_STENCIL) {
        return Err(VkError::FormatNotSupported);
    }
    Ok(())
}

fn validate(info: &vk::ImageCreateInfo<'_>) -> VkResult<&'static FormatInfo> {
    let Some(f) = format::info(info.format) else {
        log::info!("vkCreateImage: {:?} is not a format Ferrum knows", info.format);
        return Err(VkError::FormatNotSupported);
    };
    let e = info.extent;
    // VUID-VkImageCreateInfo-extent-00944..00946, mipLevels-00947, arrayLayers-00948.
    if e.width == 0 || e.height == 0 || e.depth == 0 || info.mip_levels == 0 {
        return Err(VkError::InvalidUsage("image extent, levels or layers of 0"));
    }
    if info.array_layers == 0 {
        return Err(VkError::InvalidUsage("image with 0 array layers"));
    }
    check_samples(info, f)?;
    let query = ImageQuery {
        format: info.format,
        ty: info.image_type,
        tiling: info.tiling,
        usage: info.usage,
        flags: info.flags,
    };
    // What the hardware supports; what is advertised is a subset (see the module docs).
    let limits = image_format_properties_for(&query, Caps(u16::MAX)).inspect_err(|_| {
        log::info!(
            "vkCreateImage: no {:?} {:?} {:?} image of {:?} with usage {:?} and flags {:?}",
            info.image_type,
            info.tiling,
            info.format,
            info.extent,
            info.usage,
            info.flags
        )
    })?;
    let m = limits.max_extent;
    if e.width > m.width || e.height > m.height || e.depth > m.depth {
        return Err(VkError::InvalidUsage("image extent beyond imageFormatProperties"));
    }
    // VUID-VkImageCreateInfo-mipLevels-00958: at most floor(log2(max dimension)) + 1 levels.
    let max_dim = e.width.max(e.height).max(e.depth);
    if info.mip_levels > 32 - max_dim.leading_zeros() || info.mip_levels > limits.max_mip_levels {
        return Err(VkError::InvalidUsage("too many mip levels"));
    }
    if info.array_layers > limits.max_array_layers {
        return Err(VkError::InvalidUsage("too many array layers"));
    }
    // VUID-VkImageCreateInfo-flags-08865/08866: cube-compatible images are square with at least
    // six layers (any count: only cube *views* take layers in sixes).
    if info.flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE)
        && (e.width != e.height || info.array_layers < 6)
    {
        return Err(VkError::InvalidUsage("cube-compatible image not square or under 6 layers"));
    }
    Ok(f)
}

impl Image {
    /// `vkCreateImage`. Multisampled images are offered for the formats whose multisampled
    /// rendering, resolves, copies and clears are proven (`proven_msaa`, which image format
    /// properties report); a request for more samples of another format is refused.
    pub fn create(info: &vk::ImageCreateInfo<'_>) -> VkResult<Box<Self>> {
        if info.samples != vk::SampleCountFlags::TYPE_1
            && !crate::format::properties::proven_msaa(info.format)
        {
            log::warn!(
                "vkCreateImage: {:?} samples of {:?}: not offered for this format",
                info.samples,
                info.format
            );
            return Err(VkError::FeatureNotPresent(format!(
                "{} samples per pixel of {:?}",
                info.samples.as_raw(),
                info.format
            )));
        }
        Self::build(info)
    }

    /// An image of any layout the driver can compute, multisampled ones included.
    pub fn build(info: &vk::ImageCreateInfo<'_>) -> VkResult<Box<Self>> {
        let f = validate(info)?;
        let mode = choose_mode(info, f);
        let (bw, bh) = (u32::from(f.block.0), u32::from(f.block.1));
        let desc = SurfaceDesc {
            ty: info.image_type,
            bpe: u32::from(f.block_bytes),
            width: info.extent.width.div_ceil(bw),
            height: info.extent.height.div_ceil(bh),
            depth: info.extent.depth,
            layers: info.array_layers,
            levels: info.mip_levels,
            samples: info.samples.as_raw(),
            mode,
        };
        let surface = Surface::new(desc);
        let stencil = (f.stencil_bytes() != 0).then(|| {
            let s = Surface::new(SurfaceDesc { bpe: u32::from(f.stencil_bytes()), ..desc });
            let offset = surface.size.next_multiple_of(s.alignment);
            (s, offset)
        });
        Ok(Box::new(Image {
            base: ObjectBase::new(vk::ObjectType::IMAGE),
            format: f,
            ty: info.image_type,
            extent: info.extent,
            levels: info.mip_levels,
            layers: info.array_layers,
            samples: info.samples.as_raw(),
            tiling: info.tiling,
            usage: info.usage,
            flags: info.flags,
            surface,
            stencil,
            binding: Mutex::new(None),
        }))
    }

    /// Bytes the image needs.
    pub fn size(&self) -> u64 {
        match &self.stencil {
            Some((s, offset)) => offset + s.size,
            None => self.surface.size,
        }
    }

    pub fn alignment(&self) -> u64 {
        self.surface.alignment
    }

    pub fn memory_requirements(
        &self,
        layout: &crate::core::physical_device::memory::MemoryLayout,
    ) -> vk::MemoryRequirements {
        vk::MemoryRequirements {
            size: self.size().next_multiple_of(self.alignment()),
            alignment: self.alignment(),
            memory_type_bits: layout.all_types_mask(),
        }
    }

    pub fn binding(&self) -> Option<Binding> {
        *self.binding.lock()
    }

    /// The GPU address of the bound surface (an error if unbound).
    pub fn address(&self) -> VkResult<u64> {
        Ok(self.binding().ok_or(VkError::InvalidUsage("image has no memory bound"))?.gpu_address)
    }

    /// `vkBindImageMemory`.
    pub fn bind(
        &self,
        handle: vk::DeviceMemory,
        memory: &DeviceMemory,
        offset: u64,
    ) -> VkResult<()> {
        // VUID-vkBindImageMemory-memoryOffset-01048: a multiple of the required alignment.
        if offset % self.alignment() != 0 {
            return Err(VkError::InvalidUsage("misaligned image memory offset"));
        }
        // VUID-vkBindImageMemory-size-01049: the image fits after the offset.
        if offset.checked_add(self.size()).is_none_or(|end| end > memory.size()) {
            return Err(VkError::InvalidUsage("image does not fit in memory"));
        }
        let mut binding = self.binding.lock();
        // VUID-vkBindImageMemory-image-07460: "image must not already be backed by memory".
        if binding.is_some() {
            return Err(VkError::InvalidUsage("image already bound"));
        }
        *binding =
            Some(Binding { memory: handle, offset, gpu_address: memory.gpu_address() + offset });
        Ok(())
    }

    /// `vkGetImageSubresourceLayout` (linear images; the spec leaves optimal ones undefined).
    pub fn subresource_layout(
        &self,
        sub: &vk::ImageSubresource,
    ) -> VkResult<vk::SubresourceLayout> {
        if sub.mip_level >= self.levels || sub.array_layer >= self.layers {
            return Err(VkError::InvalidUsage("subresource outside the image"));
        }
        // VUID-vkGetImageSubresourceLayout-image-07790: linear images only.
        if self.tiling != vk::ImageTiling::LINEAR {
            return Err(VkError::InvalidUsage("vkGetImageSubresourceLayout of an optimal image"));
        }
        let s = &self.surface;
        let level = s.levels[sub.mip_level as usize];
        let row_pitch = u64::from(level.pitch) * u64::from(s.desc.bpe);
        let depth_pitch = s.linear_depth_pitch(sub.mip_level);
        let depth = if self.ty == vk::ImageType::TYPE_3D {
            u64::from(layout::mip_extent(self.extent.depth, sub.mip_level))
        } else {
            1
        };
        Ok(vk::SubresourceLayout {
            offset: s.layer_size * u64::from(sub.array_layer) + level.offset,
            size: depth_pitch * depth,
            row_pitch,
            array_pitch: s.layer_size,
            depth_pitch,
        })
    }
}

#[cfg(test)]
#[path = "image_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "layout_cross_tests.rs"]
mod layout_cross_tests;
