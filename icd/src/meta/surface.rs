//! Raw views of image planes for meta kernels: a T# over one level of a colour, depth or
//! stencil plane with an unsigned-integer format of the plane's element size, so kernels move
//! bits and never convert. Only the element size matters to the address equations, so the
//! view addresses exactly the texels the image's own format (or the DB) does.

use ash::vk;
use ferrum_compiler::ir::{ImageDim, ImageShape};

use crate::descriptor::tsharp::{ImageDescriptor, ImgType};
use crate::error::{VkError, VkResult};
use crate::format::{self, Sel};
use crate::image::layout::{mip_extent, Surface};
use crate::image::Image;

/// How a kernel addresses an image: 1D and 2D arrays by (x[, y], layer), 3D by (x, y, z),
/// multisampled 2D arrays by (x, y, layer) and a sample index (which kernels take from a
/// push constant: one dispatch per sample keeps every kernel's thread grid the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dim {
    D1,
    D2,
    D3,
    D2Ms,
}

impl Dim {
    pub fn of(image: &Image) -> Dim {
        match image.ty {
            vk::ImageType::TYPE_1D => Dim::D1,
            vk::ImageType::TYPE_3D => Dim::D3,
            _ if image.samples > 1 => Dim::D2Ms,
            _ => Dim::D2,
        }
    }

    pub fn shape(self) -> ImageShape {
        let (dim, arrayed) = match self {
            Dim::D1 => (ImageDim::D1, true),
            Dim::D2 | Dim::D2Ms => (ImageDim::D2, true),
            Dim::D3 => (ImageDim::D3, false),
        };
        ImageShape { dim, arrayed, ms: self == Dim::D2Ms }
    }

    fn img_type(self) -> ImgType {
        match self {
            Dim::D1 => ImgType::D1Array,
            Dim::D2 => ImgType::D2Array,
            Dim::D3 => ImgType::D3,
            Dim::D2Ms => ImgType::D2MsaaArray,
        }
    }
}

/// GFX10_FORMAT of the unsigned-integer format with `bpe`-byte elements.
fn raw_format(bpe: u32) -> VkResult<(u16, [Sel; 4])> {
    let f = match bpe {
        1 => vk::Format::R8_UINT,
        2 => vk::Format::R16_UINT,
        4 => vk::Format::R32_UINT,
        8 => vk::Format::R32G32_UINT,
        16 => vk::Format::R32G32B32A32_UINT,
        _ => return Err(VkError::FormatNotSupported),
    };
    let info = format::info(f).expect("raw formats are in the table");
    Ok((info.img_format, info.swizzle))
}

/// The plane of `image` (bound at `va`) that holds `aspect`, and its address.
fn plane_at(image: &Image, va: u64, aspect: vk::ImageAspectFlags) -> (&Surface, u64) {
    match &image.stencil {
        Some((s, offset)) if aspect == vk::ImageAspectFlags::STENCIL => (s, va + offset),
        _ => (&image.surface, va),
    }
}

/// The plane of `image` that holds `aspect`, and its address.
pub fn plane(image: &Image, aspect: vk::ImageAspectFlags) -> VkResult<(&Surface, u64)> {
    Ok(plane_at(image, image.address()?, aspect))
}

/// A raw T# over `level` of the plane of `image` holding `aspect`, every layer reachable.
pub fn level_descriptor(
    image: &Image,
    aspect: vk::ImageAspectFlags,
    level: u32,
) -> VkResult<ImageDescriptor> {
    level_descriptor_at(image, image.address()?, aspect, level)
}

/// [`level_descriptor`] for `image` bound at `va`.
pub fn level_descriptor_at(
    image: &Image,
    va: u64,
    aspect: vk::ImageAspectFlags,
    level: u32,
) -> VkResult<ImageDescriptor> {
    let (surface, va) = plane_at(image, va, aspect);
    let d = &surface.desc;
    let (format, swizzle) = raw_format(d.bpe)?;
    let dim = Dim::of(image);
    let (width, height) = raw_level_extent(image, surface, level);
    let raw = ImageDescriptor {
        va,
        format,
        width,
        height,
        depth: d.depth,
        swizzle,
        format_swizzle: swizzle,
        base_level: level,
        last_level: level,
        levels: d.levels,
        sw_mode: d.mode as u8,
        ty: dim.img_type(),
        base_array: 0,
        last_array: if dim == Dim::D3 { 0 } else { d.layers - 1 },
    };
    if dim == Dim::D2Ms {
        // Every sample reachable: the MSAA T# names the sample count, not a level range.
        return raw.multisampled(image.samples).ok_or(VkError::FormatNotSupported);
    }
    Ok(raw)
}

/// Mip-0 size in elements for a raw view of `level` of a block-compressed image.
///
/// The texture unit sizes level `l` of a T# as `max(1, width >> l)` in the T#'s own elements,
/// while the API level holds `ceil(max(1, texels >> l) / blockdim)` blocks, which can be one
/// more: a 64×192 BC4 image is 16×48 blocks, its level 5 (2×6 texels) is 1×2 blocks, but
/// 48 >> 5 = 1. The layout allocates `ceil(blocks / 2^l)` (addrlib's ShiftCeil on elements,
/// never less than the API count), so the data fits; only the view's bounds cut it off.
/// addrlib's ComputeNonBlockCompressedView answers this by widening the view's mip-0 size
/// to `request << l`; we do the same when the widened surface places `level` exactly where
/// the real one does (same offset, pitch, height, tail slot and layer size), which keeps
/// every layer reachable from one descriptor. Otherwise the real size stays (and the last
/// block row or column of that level is out of the view's reach; logged).
fn raw_level_extent(image: &Image, surface: &Surface, level: u32) -> (u32, u32) {
    let d = &surface.desc;
    let (bw, bh) = (u32::from(image.format.block.0), u32::from(image.format.block.1));
    if (bw, bh) == (1, 1) || level == 0 {
        return (d.width, d.height);
    }
    let need = |texels: u32, b: u32, elems: u32| {
        let request = mip_extent(texels, level).div_ceil(b);
        if mip_extent(elems, level) >= request {
            elems
        } else {
            request << level
        }
    };
    let width = need(image.extent.width, bw, d.width);
    let height = need(image.extent.height, bh, d.height);
    if (width, height) == (d.width, d.height) {
        return (width, height);
    }
    let wide = Surface::new(crate::image::layout::SurfaceDesc { width, height, ..*d });
    let l = level as usize;
    if wide.levels[l] == surface.levels[l] && wide.layer_size == surface.layer_size {
        (width, height)
    } else {
        log::warn!(
            "raw view of level {level} of a {}x{} block-compressed image cannot be widened \
             without moving the level; its last block row/column is out of reach",
            image.extent.width,
            image.extent.height
        );
        (d.width, d.height)
    }
}

#[cfg(test)]
#[path = "surface_tests.rs"]
mod tests;
