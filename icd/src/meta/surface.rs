//! Raw views of image planes for meta kernels: a T# over one level of a colour, depth or
//! stencil plane with an unsigned-integer format of the plane's element size, so kernels move
//! bits and never convert. Only the element size matters to the address equations, so the
//! view addresses exactly the texels the image's own format (or the DB) does.

use ash::vk;
use ferrum_compiler::ir::{ImageDim, ImageShape};

use crate::descriptor::tsharp::{ImageDescriptor, ImgType};
use crate::error::{VkError, VkResult};
use crate::format::{self, Sel};
use crate::image::layout::Surface;
use crate::image::Image;

/// How a kernel addresses an image: 1D and 2D arrays by (x[, y], layer), 3D by (x, y, z).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dim {
    D1,
    D2,
    D3,
}

impl Dim {
    pub fn of(image: &Image) -> Dim {
        match image.ty {
            vk::ImageType::TYPE_1D => Dim::D1,
            vk::ImageType::TYPE_3D => Dim::D3,
            _ => Dim::D2,
        }
    }

    pub fn shape(self) -> ImageShape {
        let (dim, arrayed) = match self {
            Dim::D1 => (ImageDim::D1, true),
            Dim::D2 => (ImageDim::D2, true),
            Dim::D3 => (ImageDim::D3, false),
        };
        ImageShape { dim, arrayed, ms: false }
    }

    fn img_type(self) -> ImgType {
        match self {
            Dim::D1 => ImgType::D1Array,
            Dim::D2 => ImgType::D2Array,
            Dim::D3 => ImgType::D3,
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

/// The plane of `image` that holds `aspect`, and its address.
pub fn plane(image: &Image, aspect: vk::ImageAspectFlags) -> VkResult<(&Surface, u64)> {
    let va = image.address()?;
    Ok(match &image.stencil {
        Some((s, offset)) if aspect == vk::ImageAspectFlags::STENCIL => (s, va + offset),
        _ => (&image.surface, va),
    })
}

/// A raw T# over `level` of the plane of `image` holding `aspect`, every layer reachable.
pub fn level_descriptor(
    image: &Image,
    aspect: vk::ImageAspectFlags,
    level: u32,
) -> VkResult<ImageDescriptor> {
    let (surface, va) = plane(image, aspect)?;
    let d = &surface.desc;
    let (format, swizzle) = raw_format(d.bpe)?;
    let dim = Dim::of(image);
    Ok(ImageDescriptor {
        va,
        format,
        width: d.width,
        height: d.height,
        depth: d.depth,
        swizzle,
        base_level: level,
        last_level: level,
        levels: d.levels,
        sw_mode: d.mode as u8,
        ty: dim.img_type(),
        base_array: 0,
        last_array: if dim == Dim::D3 { 0 } else { d.layers - 1 },
    })
}
