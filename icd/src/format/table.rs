//! The format table: one row per supported Vulkan format.
//!
//! Hardware values are the GFX10_FORMAT enum (`registers/gfx10-rsrc.json`). Its names list
//! channel sizes from the most significant bits down, so channel 0 (X) sits in the lowest
//! bits; the swizzle column maps API channels onto those (e.g. `R5G6B5_UNORM_PACK16` keeps R in
//! the top five bits, hardware channel Z of `5_6_5`). Capabilities are navi21's (what the
//! texture, colour, depth and buffer units accept), independent of what Ferrum has built.

use ash::vk::Format as F;

use super::{Caps, Class, FormatInfo, Numeric, Sel};

const XYZW: [Sel; 4] = [Sel::X, Sel::Y, Sel::Z, Sel::W];
const ZYXW: [Sel; 4] = [Sel::Z, Sel::Y, Sel::X, Sel::W];
const WZYX: [Sel; 4] = [Sel::W, Sel::Z, Sel::Y, Sel::X];
const YZWX: [Sel; 4] = [Sel::Y, Sel::Z, Sel::W, Sel::X];
const XYZ1: [Sel; 4] = [Sel::X, Sel::Y, Sel::Z, Sel::One];
const ZYX1: [Sel; 4] = [Sel::Z, Sel::Y, Sel::X, Sel::One];
const XY01: [Sel; 4] = [Sel::X, Sel::Y, Sel::Zero, Sel::One];
const X001: [Sel; 4] = [Sel::X, Sel::Zero, Sel::Zero, Sel::One];

const SAMPLE: Caps = Caps::SAMPLE;
const FILTER: Caps = Caps::SAMPLE.union(Caps::FILTER);
/// A renderable, blendable, filterable, storable normalized or float format.
const FULL: Caps = FILTER
    .union(Caps::STORAGE)
    .union(Caps::COLOR)
    .union(Caps::BLEND)
    .union(Caps::FETCH)
    .union(Caps::BUFFER_STORAGE);
/// Integer formats: not filtered, not blended.
const INT: Caps =
    SAMPLE.union(Caps::STORAGE).union(Caps::COLOR).union(Caps::FETCH).union(Caps::BUFFER_STORAGE);
const INT32: Caps = INT.union(Caps::ATOMIC).union(Caps::BUFFER_ATOMIC);
/// Renderable and sampled, but no typed storage (sRGB, packed small formats).
const RENDER: Caps = FILTER.union(Caps::COLOR).union(Caps::BLEND);
const SCALED: Caps = Caps::FETCH.union(Caps::VERTEX_ONLY);
const DEPTH: Caps = FILTER.union(Caps::DEPTH_STENCIL);
const STENCIL: Caps = SAMPLE.union(Caps::DEPTH_STENCIL);

use Numeric::{Float, Sint, Snorm, Srgb, Sscaled, Uint, Unorm, Uscaled};

/// A colour format: bytes, numeric type, GFX10 image and buffer format, swizzle, caps.
const fn c(
    format: F,
    bytes: u8,
    numeric: Numeric,
    img: u16,
    buf: u8,
    swizzle: [Sel; 4],
    caps: Caps,
) -> FormatInfo {
    FormatInfo {
        format,
        block_bytes: bytes,
        block: (1, 1),
        numeric,
        class: Class::Bits(bytes as u16 * 8),
        img_format: img,
        buf_format: buf,
        swizzle,
        caps,
    }
}

/// A depth/stencil format (the depth plane's bytes; D32S8 adds a one-byte stencil plane).
const fn ds(format: F, bytes: u8, img: u16, swizzle: [Sel; 4], caps: Caps) -> FormatInfo {
    FormatInfo {
        format,
        block_bytes: bytes,
        block: (1, 1),
        numeric: Numeric::DepthStencil,
        class: Class::DepthStencil(format),
        img_format: img,
        buf_format: 0,
        swizzle,
        caps,
    }
}

/// A BC format (4×4 blocks), sampled and filtered only.
const fn bc(
    format: F,
    bytes: u8,
    class: &'static str,
    numeric: Numeric,
    img: u16,
    sw: [Sel; 4],
) -> FormatInfo {
    FormatInfo {
        format,
        block_bytes: bytes,
        block: (4, 4),
        numeric,
        class: Class::Bc(class),
        img_format: img,
        buf_format: 0,
        swizzle: sw,
        caps: FILTER,
    }
}

pub static FORMATS: &[FormatInfo] = &[
    // 8 bits.
    c(F::R4G4_UNORM_PACK8, 1, Unorm, 137, 0, [Sel::Y, Sel::X, Sel::Zero, Sel::One], FILTER),
    c(F::R8_UNORM, 1, Unorm, 1, 1, X001, FULL),
    c(F::R8_SNORM, 1, Snorm, 2, 2, X001, FULL),
    c(F::R8_USCALED, 1, Uscaled, 0, 3, X001, SCALED),
    c(F::R8_SSCALED, 1, Sscaled, 0, 4, X001, SCALED),
    c(F::R8_UINT, 1, Uint, 5, 5, X001, INT),
    c(F::R8_SINT, 1, Sint, 6, 6, X001, INT),
    c(F::R8_SRGB, 1, Srgb, 128, 0, X001, RENDER),
    // 16 bits.
    c(F::R4G4B4A4_UNORM_PACK16, 2, Unorm, 136, 0, WZYX, RENDER),
    c(F::B4G4R4A4_UNORM_PACK16, 2, Unorm, 136, 0, YZWX, RENDER),
    c(F::R5G6B5_UNORM_PACK16, 2, Unorm, 133, 0, ZYX1, RENDER),
    c(F::B5G6R5_UNORM_PACK16, 2, Unorm, 133, 0, XYZ1, RENDER),
    c(F::R5G5B5A1_UNORM_PACK16, 2, Unorm, 135, 0, WZYX, RENDER),
    c(F::B5G5R5A1_UNORM_PACK16, 2, Unorm, 135, 0, YZWX, RENDER),
    c(F::A1R5G5B5_UNORM_PACK16, 2, Unorm, 134, 0, ZYXW, RENDER),
    c(F::R8G8_UNORM, 2, Unorm, 14, 14, XY01, FULL),
    c(F::R8G8_SNORM, 2, Snorm, 15, 15, XY01, FULL),
    c(F::R8G8_USCALED, 2, Uscaled, 0, 16, XY01, SCALED),
    c(F::R8G8_SSCALED, 2, Sscaled, 0, 17, XY01, SCALED),
    c(F::R8G8_UINT, 2, Uint, 18, 18, XY01, INT),
    c(F::R8G8_SINT, 2, Sint, 19, 19, XY01, INT),
    c(F::R8G8_SRGB, 2, Srgb, 129, 0, XY01, RENDER),
    c(F::R16_UNORM, 2, Unorm, 7, 7, X001, FULL),
    c(F::R16_SNORM, 2, Snorm, 8, 8, X001, FULL),
    c(F::R16_USCALED, 2, Uscaled, 0, 9, X001, SCALED),
    c(F::R16_SSCALED, 2, Sscaled, 0, 10, X001, SCALED),
    c(F::R16_UINT, 2, Uint, 11, 11, X001, INT),
    c(F::R16_SINT, 2, Sint, 12, 12, X001, INT),
    c(F::R16_SFLOAT, 2, Float, 13, 13, X001, FULL),
    // 32 bits.
    c(F::R8G8B8A8_UNORM, 4, Unorm, 56, 56, XYZW, FULL),
    c(F::R8G8B8A8_SNORM, 4, Snorm, 57, 57, XYZW, FULL),
    c(F::R8G8B8A8_USCALED, 4, Uscaled, 0, 58, XYZW, SCALED),
    c(F::R8G8B8A8_SSCALED, 4, Sscaled, 0, 59, XYZW, SCALED),
    c(F::R8G8B8A8_UINT, 4, Uint, 60, 60, XYZW, INT),
    c(F::R8G8B8A8_SINT, 4, Sint, 61, 61, XYZW, INT),
    c(F::R8G8B8A8_SRGB, 4, Srgb, 130, 0, XYZW, RENDER),
    c(F::B8G8R8A8_UNORM, 4, Unorm, 56, 56, ZYXW, RENDER.union(Caps::FETCH)),
    c(F::B8G8R8A8_SNORM, 4, Snorm, 57, 0, ZYXW, RENDER),
    c(F::B8G8R8A8_UINT, 4, Uint, 60, 0, ZYXW, SAMPLE.union(Caps::COLOR)),
    c(F::B8G8R8A8_SINT, 4, Sint, 61, 0, ZYXW, SAMPLE.union(Caps::COLOR)),
    c(F::B8G8R8A8_SRGB, 4, Srgb, 130, 0, ZYXW, RENDER),
    // A8B8G8R8 packs R in the low byte: the same memory as R8G8B8A8 on a little-endian GPU.
    c(F::A8B8G8R8_UNORM_PACK32, 4, Unorm, 56, 56, XYZW, FULL),
    c(F::A8B8G8R8_SNORM_PACK32, 4, Snorm, 57, 57, XYZW, FULL),
    c(F::A8B8G8R8_USCALED_PACK32, 4, Uscaled, 0, 58, XYZW, SCALED),
    c(F::A8B8G8R8_SSCALED_PACK32, 4, Sscaled, 0, 59, XYZW, SCALED),
    c(F::A8B8G8R8_UINT_PACK32, 4, Uint, 60, 60, XYZW, INT),
    c(F::A8B8G8R8_SINT_PACK32, 4, Sint, 61, 61, XYZW, INT),
    c(F::A8B8G8R8_SRGB_PACK32, 4, Srgb, 130, 0, XYZW, RENDER),
    c(F::A2R10G10B10_UNORM_PACK32, 4, Unorm, 50, 50, ZYXW, RENDER.union(Caps::FETCH)),
    c(F::A2R10G10B10_UINT_PACK32, 4, Uint, 54, 54, ZYXW, SAMPLE.union(Caps::COLOR)),
    c(F::A2B10G10R10_UNORM_PACK32, 4, Unorm, 50, 50, XYZW, FULL),
    c(F::A2B10G10R10_SNORM_PACK32, 4, Snorm, 51, 51, XYZW, FILTER.union(Caps::FETCH)),
    c(F::A2B10G10R10_USCALED_PACK32, 4, Uscaled, 0, 52, XYZW, SCALED),
    c(F::A2B10G10R10_SSCALED_PACK32, 4, Sscaled, 0, 53, XYZW, SCALED),
    c(F::A2B10G10R10_UINT_PACK32, 4, Uint, 54, 54, XYZW, INT),
    c(F::A2B10G10R10_SINT_PACK32, 4, Sint, 55, 55, XYZW, SAMPLE.union(Caps::FETCH)),
    c(F::R16G16_UNORM, 4, Unorm, 23, 23, XY01, FULL),
    c(F::R16G16_SNORM, 4, Snorm, 24, 24, XY01, FULL),
    c(F::R16G16_USCALED, 4, Uscaled, 0, 25, XY01, SCALED),
    c(F::R16G16_SSCALED, 4, Sscaled, 0, 26, XY01, SCALED),
    c(F::R16G16_UINT, 4, Uint, 27, 27, XY01, INT),
    c(F::R16G16_SINT, 4, Sint, 28, 28, XY01, INT),
    c(F::R16G16_SFLOAT, 4, Float, 29, 29, XY01, FULL),
    c(F::R32_UINT, 4, Uint, 20, 20, X001, INT32),
    c(F::R32_SINT, 4, Sint, 21, 21, X001, INT32),
    c(F::R32_SFLOAT, 4, Float, 22, 22, X001, FULL),
    // Stored by MIMG like the other 32-bit formats (RADV's storage-image data formats, taken
    // from AMD's GCN3 ISA guide, include 10_11_11).
    c(
        F::B10G11R11_UFLOAT_PACK32,
        4,
        Float,
        36,
        36,
        XYZ1,
        RENDER.union(Caps::FETCH).union(Caps::STORAGE),
    ),
    c(F::E5B9G9R9_UFLOAT_PACK32, 4, Float, 132, 0, XYZ1, FILTER),
    // 64 bits.
    c(F::R16G16B16A16_UNORM, 8, Unorm, 65, 65, XYZW, FULL),
    c(F::R16G16B16A16_SNORM, 8, Snorm, 66, 66, XYZW, FULL),
    c(F::R16G16B16A16_USCALED, 8, Uscaled, 0, 67, XYZW, SCALED),
    c(F::R16G16B16A16_SSCALED, 8, Sscaled, 0, 68, XYZW, SCALED),
    c(F::R16G16B16A16_UINT, 8, Uint, 69, 69, XYZW, INT),
    c(F::R16G16B16A16_SINT, 8, Sint, 70, 70, XYZW, INT),
    c(F::R16G16B16A16_SFLOAT, 8, Float, 71, 71, XYZW, FULL),
    c(F::R32G32_UINT, 8, Uint, 62, 62, XY01, INT),
    c(F::R32G32_SINT, 8, Sint, 63, 63, XY01, INT),
    c(F::R32G32_SFLOAT, 8, Float, 64, 64, XY01, FULL),
    // 96 bits: the buffer path only (no 96-bit image format on GFX10).
    c(F::R32G32B32_UINT, 12, Uint, 0, 72, XYZ1, Caps::FETCH),
    c(F::R32G32B32_SINT, 12, Sint, 0, 73, XYZ1, Caps::FETCH),
    c(F::R32G32B32_SFLOAT, 12, Float, 0, 74, XYZ1, Caps::FETCH),
    // 128 bits.
    c(F::R32G32B32A32_UINT, 16, Uint, 75, 75, XYZW, INT),
    c(F::R32G32B32A32_SINT, 16, Sint, 76, 76, XYZW, INT),
    c(F::R32G32B32A32_SFLOAT, 16, Float, 77, 77, XYZW, FULL),
    // Depth and stencil (sampled through the colour format of their data).
    ds(F::D16_UNORM, 2, 7, X001, DEPTH),
    ds(F::D32_SFLOAT, 4, 22, X001, DEPTH),
    ds(F::S8_UINT, 1, 5, X001, STENCIL),
    ds(F::D32_SFLOAT_S8_UINT, 4, 22, X001, DEPTH),
    // Block-compressed.
    bc(F::BC1_RGB_UNORM_BLOCK, 8, "BC1_RGB", Unorm, 169, XYZ1),
    bc(F::BC1_RGB_SRGB_BLOCK, 8, "BC1_RGB", Srgb, 170, XYZ1),
    bc(F::BC1_RGBA_UNORM_BLOCK, 8, "BC1_RGBA", Unorm, 169, XYZW),
    bc(F::BC1_RGBA_SRGB_BLOCK, 8, "BC1_RGBA", Srgb, 170, XYZW),
    bc(F::BC2_UNORM_BLOCK, 16, "BC2", Unorm, 171, XYZW),
    bc(F::BC2_SRGB_BLOCK, 16, "BC2", Srgb, 172, XYZW),
    bc(F::BC3_UNORM_BLOCK, 16, "BC3", Unorm, 173, XYZW),
    bc(F::BC3_SRGB_BLOCK, 16, "BC3", Srgb, 174, XYZW),
    bc(F::BC4_UNORM_BLOCK, 8, "BC4", Unorm, 175, X001),
    bc(F::BC4_SNORM_BLOCK, 8, "BC4", Snorm, 176, X001),
    bc(F::BC5_UNORM_BLOCK, 16, "BC5", Unorm, 177, XY01),
    bc(F::BC5_SNORM_BLOCK, 16, "BC5", Snorm, 178, XY01),
    bc(F::BC6H_UFLOAT_BLOCK, 16, "BC6H", Float, 179, XYZ1),
    bc(F::BC6H_SFLOAT_BLOCK, 16, "BC6H", Float, 180, XYZ1),
    bc(F::BC7_UNORM_BLOCK, 16, "BC7", Unorm, 181, XYZW),
    bc(F::BC7_SRGB_BLOCK, 16, "BC7", Srgb, 182, XYZW),
];
