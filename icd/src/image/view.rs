//! `VkImageView` and `VkBufferView`: the descriptor words they stand for, computed at creation.
//!
//! Views need their resource bound (VUID-VkImageViewCreateInfo-image-01020,
//! VUID-VkBufferViewCreateInfo-buffer-00935), so the T#/typed V# is final when the view is made
//! and descriptor writes copy it.

use ash::vk;

use super::Image;
use crate::core::buffer::Buffer;
use crate::core::object::{vk_object, ObjectBase, VkObject};
use crate::descriptor::tsharp::{ImageDescriptor, ImgType};
use crate::descriptor::vsharp;
use crate::error::{VkError, VkResult};
use crate::format::{self, FormatInfo, Sel};
use crate::gfx::target::TargetView;

/// A `VkImageView`.
#[repr(C)]
pub struct ImageView {
    base: ObjectBase,
    pub format: &'static FormatInfo,
    pub view_type: vk::ImageViewType,
    pub range: vk::ImageSubresourceRange,
    pub descriptor: ImageDescriptor,
    /// The image's address, layout and extent, for views used as render targets.
    pub va: u64,
    pub surface: super::layout::Surface,
    pub extent: vk::Extent3D,
    /// The viewed image (Vulkan keeps it alive while the view is used).
    image: vk::Image,
    /// What the view is as a colour or depth/stencil attachment (address, swizzle mode,
    /// extent, samples, level and layers), for the CB/DB registers.
    pub target: TargetView,
}
vk_object!(ImageView, vk::ImageView, vk::ObjectType::IMAGE_VIEW);

/// The view's component mapping applied over the format's channel selects.
pub fn compose(fmt: [Sel; 4], m: vk::ComponentMapping) -> [Sel; 4] {
    let pick = |s: vk::ComponentSwizzle, identity: usize| match s {
        vk::ComponentSwizzle::ZERO => Sel::Zero,
        vk::ComponentSwizzle::ONE => Sel::One,
        vk::ComponentSwizzle::R => fmt[0],
        vk::ComponentSwizzle::G => fmt[1],
        vk::ComponentSwizzle::B => fmt[2],
        vk::ComponentSwizzle::A => fmt[3],
        _ => fmt[identity],
    };
    [pick(m.r, 0), pick(m.g, 1), pick(m.b, 2), pick(m.a, 3)]
}

/// Resolves `VK_REMAINING_*` and checks the range lies inside the image.
fn resolve_range(
    image: &Image,
    r: &vk::ImageSubresourceRange,
) -> VkResult<vk::ImageSubresourceRange> {
    let levels = if r.level_count == vk::REMAINING_MIP_LEVELS {
        image.levels.saturating_sub(r.base_mip_level)
    } else {
        r.level_count
    };
    let layers = if r.layer_count == vk::REMAINING_ARRAY_LAYERS {
        image.layers.saturating_sub(r.base_array_layer)
    } else {
        r.layer_count
    };
    // VUID-VkImageViewCreateInfo-subresourceRange-01478/01718/06724: inside the image.
    let past = |base: u32, n: u32, total: u32| base.checked_add(n).is_none_or(|end| end > total);
    if levels == 0
        || layers == 0
        || past(r.base_mip_level, levels, image.levels)
        || past(r.base_array_layer, layers, image.layers)
    {
        return Err(VkError::InvalidUsage("image view range outside the image"));
    }
    Ok(vk::ImageSubresourceRange { level_count: levels, layer_count: layers, ..*r })
}

/// The T# type for a view, checking it against the image type.
fn img_type(image: &Image, view: vk::ImageViewType, layers: u32) -> VkResult<ImgType> {
    use vk::{ImageType as I, ImageViewType as V};
    let cube_ok = image.flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE);
    Ok(match (image.ty, view) {
        (I::TYPE_1D, V::TYPE_1D) if layers == 1 => ImgType::D1,
        (I::TYPE_1D, V::TYPE_1D_ARRAY) => ImgType::D1Array,
        (I::TYPE_2D, V::TYPE_2D) if layers == 1 => ImgType::D2,
        (I::TYPE_2D, V::TYPE_2D_ARRAY) => ImgType::D2Array,
        (I::TYPE_2D, V::CUBE) if cube_ok && layers == 6 => ImgType::Cube,
        (I::TYPE_2D, V::CUBE_ARRAY) if cube_ok && layers % 6 == 0 => ImgType::Cube,
        (I::TYPE_3D, V::TYPE_3D) if layers == 1 => ImgType::D3,
        _ => return Err(VkError::InvalidUsage("image view type does not fit the image")),
    })
}

/// The view's format, resolved range and T# for `image` placed at `va` (the image's bound
/// address; a separate function so the layout cross-check can build descriptors unbound).
pub(crate) fn describe(
    image: &Image,
    va: u64,
    info: &vk::ImageViewCreateInfo<'_>,
) -> VkResult<(&'static FormatInfo, vk::ImageSubresourceRange, ImageDescriptor)> {
    let view_format = format::info(info.format).ok_or(VkError::FormatNotSupported)?;
    // VUID-VkImageViewCreateInfo-image-01762/01761: the image's format, or with
    // MUTABLE_FORMAT one of its compatibility class.
    let mutable = image.flags.contains(vk::ImageCreateFlags::MUTABLE_FORMAT);
    if view_format.format != image.format.format
        && !(mutable && format::view_compatible(image.format, view_format))
    {
        return Err(VkError::InvalidUsage("image view format incompatible with the image"));
    }
    let range = resolve_range(image, &info.subresource_range)?;
    let ty = img_type(image, info.view_type, range.layer_count)?;
    let aspects = image.format.aspects();
    // VUID-VkImageViewCreateInfo-subresourceRange-09594: aspects of the format only.
    if range.aspect_mask.is_empty() || !aspects.contains(range.aspect_mask) {
        return Err(VkError::InvalidUsage("image view aspect not in the format"));
    }
    // A stencil-only view of a combined format reads the separate stencil plane as S8.
    let (surface, va, hw_format, sel) = match &image.stencil {
        Some((s, offset)) if range.aspect_mask == vk::ImageAspectFlags::STENCIL => {
            let s8 = format::info(vk::Format::S8_UINT).expect("S8 in the table");
            (s, va + offset, s8.img_format, s8.swizzle)
        }
        _ => (&image.surface, va, view_format.img_format, view_format.swizzle),
    };
    if hw_format == 0 {
        return Err(VkError::FormatNotSupported);
    }
    let (base, count) = (range.base_array_layer, range.layer_count);
    // A 1D or 2D T# has no slice: the hardware reads layer 0 whatever BASE_ARRAY says. A view
    // of a later layer is therefore described as a one-layer array (as RADV does); a shader
    // without a layer coordinate reads slice BASE_ARRAY of it.
    let ty = match ty {
        ImgType::D1 if base != 0 => ImgType::D1Array,
        ImgType::D2 if base != 0 => ImgType::D2Array,
        other => other,
    };
    let last_array = match ty {
        ImgType::Cube => (base + count) / 6 - 1,
        ImgType::D3 => 0,
        _ => base + count - 1,
    };
    let single = ImageDescriptor {
        va,
        format: hw_format,
        width: image.extent.width,
        height: image.extent.height,
        depth: image.extent.depth,
        swizzle: compose(sel, info.components),
        format_swizzle: sel,
        base_level: range.base_mip_level,
        last_level: range.base_mip_level + range.level_count - 1,
        levels: image.levels,
        sw_mode: surface.desc.mode as u8,
        ty,
        base_array: if ty == ImgType::D3 { 0 } else { base },
        last_array,
    };
    let descriptor = if image.samples > 1 {
        // A multisampled image has one level; its views are 2D or 2D-array MSAA T#s.
        single.multisampled(image.samples).ok_or(VkError::InvalidUsage(
            "multisampled image viewed as other than 2D or 2D array",
        ))?
    } else {
        single
    };
    Ok((view_format, range, descriptor))
}

/// The view's usage (VK_KHR_maintenance2): `VkImageViewUsageCreateInfo` narrows the image's
/// usage (VUID-VkImageViewUsageCreateInfo-usage: a subset of it); the view of an
/// EXTENDED_USAGE image must have a format whose features back that usage
/// (VUID-VkImageViewCreateInfo-usage-02274..02277), since the image's own format need not.
fn check_usage(
    image: &Image,
    format: &FormatInfo,
    info: &vk::ImageViewCreateInfo<'_>,
) -> VkResult<()> {
    // SAFETY: a valid pNext chain (valid usage).
    let narrowed =
        unsafe { crate::core::chain::find_in::<vk::ImageViewUsageCreateInfo<'_>>(info.p_next) };
    let usage = narrowed.map_or(image.usage, |u| u.usage);
    if usage.is_empty() || !image.usage.contains(usage) {
        return Err(VkError::InvalidUsage("image view usage not a subset of the image's"));
    }
    let extended = image.flags.contains(vk::ImageCreateFlags::EXTENDED_USAGE);
    // Transfers address the image, not the view.
    let view_usage =
        usage & !(vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
    if extended
        && !crate::format::properties::view_usage_supported(format.format, image.tiling, view_usage)
    {
        log::info!("vkCreateImageView: {:?} does not support usage {usage:?}", format.format);
        return Err(VkError::InvalidUsage("image view usage its format does not support"));
    }
    Ok(())
}

impl ImageView {
    pub fn create(info: &vk::ImageViewCreateInfo<'_>) -> VkResult<Box<Self>> {
        // SAFETY: the application passes a live image (valid usage).
        let image = unsafe { Image::from_handle(info.image) }
            .ok_or(VkError::InvalidUsage("image view of a null image"))?;
        let va = image.address()?;
        let (view_format, range, descriptor) = describe(image, va, info)?;
        check_usage(image, view_format, info)?;
        Ok(Box::new(ImageView {
            base: ObjectBase::new(vk::ObjectType::IMAGE_VIEW),
            format: view_format,
            view_type: info.view_type,
            range,
            descriptor,
            va,
            surface: image.surface.clone(),
            extent: image.extent,
            image: info.image,
            target: TargetView::of(image, va, view_format, &range),
        }))
    }

    /// The T# words.
    pub fn words(&self) -> [u32; 8] {
        self.descriptor.words()
    }

    /// The T# words as an input attachment: a 2D view becomes a one-layer 2D array of the same
    /// layer (BASE_ARRAY..LAST_ARRAY unchanged), since shaders read input attachments at
    /// (x, y, view index) with a 2D-array instruction, which a 2D T# does not accept.
    pub fn input_attachment_words(&self) -> VkResult<[u32; 8]> {
        let ty = self
            .descriptor
            .ty
            .arrayed()
            .ok_or(VkError::InvalidUsage("input attachment view is not 2D or 2D array"))?;
        Ok(ImageDescriptor { ty, ..self.descriptor }.words())
    }

    /// The viewed image.
    pub fn image(&self) -> VkResult<&Image> {
        // SAFETY: the image outlives every use of its views (valid usage).
        unsafe { Image::from_handle(self.image) }
            .ok_or(VkError::InvalidUsage("image view of a destroyed image"))
    }
}

/// A `VkBufferView`.
#[repr(C)]
pub struct BufferView {
    base: ObjectBase,
    pub format: &'static FormatInfo,
    pub words: [u32; 4],
}
vk_object!(BufferView, vk::BufferView, vk::ObjectType::BUFFER_VIEW);

/// `minTexelBufferOffsetAlignment`.
pub const TEXEL_BUFFER_OFFSET_ALIGNMENT: u64 = 4;

impl BufferView {
    pub fn create(info: &vk::BufferViewCreateInfo<'_>) -> VkResult<Box<Self>> {
        // SAFETY: the application passes a live buffer (valid usage).
        let buffer = unsafe { Buffer::from_handle(info.buffer) }
            .ok_or(VkError::InvalidUsage("buffer view of a null buffer"))?;
        let f = format::info(info.format).ok_or(VkError::FormatNotSupported)?;
        if f.buf_format == 0 || f.caps.contains(format::Caps::VERTEX_ONLY) {
            return Err(VkError::FormatNotSupported);
        }
        let binding =
            buffer.binding().ok_or(VkError::InvalidUsage("buffer view of an unbound buffer"))?;
        // VUID-VkBufferViewCreateInfo-offset-00925/00926: inside the buffer, aligned.
        if info.offset >= buffer.size || info.offset % TEXEL_BUFFER_OFFSET_ALIGNMENT != 0 {
            return Err(VkError::InvalidUsage("buffer view offset"));
        }
        let bpe = u64::from(f.block_bytes);
        let range = if info.range == vk::WHOLE_SIZE {
            // "the range from offset to the end of the buffer ... rounded down to a multiple
            // of the texel block size".
            (buffer.size - info.offset) / bpe * bpe
        } else {
            info.range
        };
        // VUID-VkBufferViewCreateInfo-range-00928/00929/00930.
        let past_end = info.offset.checked_add(range).is_none_or(|end| end > buffer.size);
        if range == 0 || range % bpe != 0 || past_end {
            return Err(VkError::InvalidUsage("buffer view range"));
        }
        let elements = u32::try_from(range / bpe)
            .map_err(|_| VkError::InvalidUsage("buffer view beyond maxTexelBufferElements"))?;
        let va = binding.gpu_address + info.offset;
        let words = vsharp::typed(va, elements, bpe as u32, f.buf_format, f.swizzle);
        Ok(Box::new(BufferView {
            base: ObjectBase::new(vk::ObjectType::BUFFER_VIEW),
            format: f,
            words,
        }))
    }
}
