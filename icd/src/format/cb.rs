//! Colour-buffer and pixel-export encodings of the renderable formats: the CB's FORMAT,
//! NUMBER_TYPE and COMP_SWAP (CB_COLORn_INFO) and the pixel shader's export format
//! (SPI_SHADER_COL_FORMAT, SPI_SHADER_EX_FORMAT per target).
//!
//! Facts: the register database's ColorFormat/SurfaceNumber/SurfaceSwap/SPI_SHADER_EX_FORMAT
//! enums. ColorFormat names list channel widths from the most significant bits down (as the
//! table's GFX10 image formats do), so a format's CB format is its packed layout. The swap is
//! which memory channel holds which API component, read from the table's channel selects:
//! XYZW is standard, ZYXW alternate (BGRA), WZYX standard-reversed, YZWX alternate-reversed.
//! Export formats follow RADV's choice (`ac_choose_spi_color_formats`): 16-bit half floats for
//! every format of at most 11 bits per channel (integers as 16-bit integers), UNORM16/SNORM16
//! exports for 16-bit normalized formats unless blending (the CB cannot blend those, so 32-bit
//! floats are exported), 32-bit exports of only the channels a 32-bit format has.

use ash::vk;
use ferrum_regs::gfx103::enums::ColorFormat as C;
use ferrum_regs::gfx103::enums::SurfaceNumber as N;
use ferrum_regs::gfx103::enums::SurfaceSwap as Swap;
use ferrum_regs::gfx103::enums::SPI_SHADER_EX_FORMAT as Ex;

use super::{Caps, FormatInfo, Numeric, Sel};

/// How the CB stores a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CbFormat {
    /// ColorFormat (CB_COLORn_INFO.FORMAT).
    pub format: u32,
    /// SurfaceNumber (NUMBER_TYPE).
    pub number: u32,
    /// SurfaceSwap (COMP_SWAP).
    pub swap: u32,
}

/// The packed layout of a renderable format as a ColorFormat.
fn color_format(f: vk::Format) -> Option<u32> {
    use vk::Format as F;
    Some(match f {
        F::R8_UNORM | F::R8_SNORM | F::R8_UINT | F::R8_SINT | F::R8_SRGB => C::COLOR_8,
        F::R8G8_UNORM | F::R8G8_SNORM | F::R8G8_UINT | F::R8G8_SINT | F::R8G8_SRGB => C::COLOR_8_8,
        F::R16_UNORM | F::R16_SNORM | F::R16_UINT | F::R16_SINT | F::R16_SFLOAT => C::COLOR_16,
        F::R4G4B4A4_UNORM_PACK16 | F::B4G4R4A4_UNORM_PACK16 => C::COLOR_4_4_4_4,
        F::R5G6B5_UNORM_PACK16 | F::B5G6R5_UNORM_PACK16 => C::COLOR_5_6_5,
        F::R5G5B5A1_UNORM_PACK16 | F::B5G5R5A1_UNORM_PACK16 => C::COLOR_5_5_5_1,
        F::A1R5G5B5_UNORM_PACK16 => C::COLOR_1_5_5_5,
        F::R8G8B8A8_UNORM
        | F::R8G8B8A8_SNORM
        | F::R8G8B8A8_UINT
        | F::R8G8B8A8_SINT
        | F::R8G8B8A8_SRGB
        | F::B8G8R8A8_UNORM
        | F::B8G8R8A8_SNORM
        | F::B8G8R8A8_UINT
        | F::B8G8R8A8_SINT
        | F::B8G8R8A8_SRGB
        | F::A8B8G8R8_UNORM_PACK32
        | F::A8B8G8R8_SNORM_PACK32
        | F::A8B8G8R8_UINT_PACK32
        | F::A8B8G8R8_SINT_PACK32
        | F::A8B8G8R8_SRGB_PACK32 => C::COLOR_8_8_8_8,
        F::A2R10G10B10_UNORM_PACK32
        | F::A2R10G10B10_UINT_PACK32
        | F::A2B10G10R10_UNORM_PACK32
        | F::A2B10G10R10_SNORM_PACK32
        | F::A2B10G10R10_UINT_PACK32
        | F::A2B10G10R10_SINT_PACK32 => C::COLOR_2_10_10_10,
        F::R16G16_UNORM | F::R16G16_SNORM | F::R16G16_UINT | F::R16G16_SINT | F::R16G16_SFLOAT => {
            C::COLOR_16_16
        }
        F::R32_UINT | F::R32_SINT | F::R32_SFLOAT => C::COLOR_32,
        F::B10G11R11_UFLOAT_PACK32 => C::COLOR_10_11_11,
        F::R16G16B16A16_UNORM
        | F::R16G16B16A16_SNORM
        | F::R16G16B16A16_UINT
        | F::R16G16B16A16_SINT
        | F::R16G16B16A16_SFLOAT => C::COLOR_16_16_16_16,
        F::R32G32_UINT | F::R32G32_SINT | F::R32G32_SFLOAT => C::COLOR_32_32,
        F::R32G32B32A32_UINT | F::R32G32B32A32_SINT | F::R32G32B32A32_SFLOAT => {
            C::COLOR_32_32_32_32
        }
        _ => return None,
    })
}

fn number(n: Numeric) -> Option<u32> {
    Some(match n {
        Numeric::Unorm => N::NUMBER_UNORM,
        Numeric::Snorm => N::NUMBER_SNORM,
        Numeric::Uint => N::NUMBER_UINT,
        Numeric::Sint => N::NUMBER_SINT,
        Numeric::Srgb => N::NUMBER_SRGB,
        Numeric::Float => N::NUMBER_FLOAT,
        _ => return None,
    })
}

/// The swap for the table's channel selects (the constant channels of 1-3 channel formats
/// do not matter).
fn swap(sel: [Sel; 4]) -> Option<u32> {
    use Sel::*;
    Some(match sel {
        [X, Zero | Y, Zero, One] | [X, Y, Z, One] | [X, Y, Z, W] => Swap::SWAP_STD,
        [Z, Y, X, W] => Swap::SWAP_ALT,
        [Z, Y, X, One] | [W, Z, Y, X] => Swap::SWAP_STD_REV,
        [Y, Z, W, X] => Swap::SWAP_ALT_REV,
        _ => return None,
    })
}

/// The CB encoding of a format, `None` unless the hardware renders to it.
pub fn cb_format(f: &FormatInfo) -> Option<CbFormat> {
    if !f.caps.contains(Caps::COLOR) {
        return None;
    }
    Some(CbFormat {
        format: color_format(f.format)?,
        number: number(f.numeric)?,
        swap: swap(f.swizzle)?,
    })
}

/// `ex` widened to carry alpha: a blend factor (SRC_ALPHA ...) or alpha to coverage reads
/// the shader's alpha even for a target without an alpha channel, so the one- and
/// two-channel 32-bit exports gain it (RADV's "alpha" and "blend_alpha" formats); the
/// others carry it already. ZERO (no target) becomes 32_AR.
pub fn with_alpha(ex: u32) -> u32 {
    match ex {
        Ex::SPI_SHADER_ZERO | Ex::SPI_SHADER_32_R => Ex::SPI_SHADER_32_AR,
        Ex::SPI_SHADER_32_GR => Ex::SPI_SHADER_32_ABGR,
        f => f,
    }
}

/// The pixel shader's export format (SPI_SHADER_EX_FORMAT) for a colour target of format `f`
/// with blending on or off (blending exports alpha, see [`with_alpha`]); SPI_SHADER_ZERO
/// when `f` is not renderable.
pub fn export_format(f: &FormatInfo, blend: bool) -> u32 {
    let Some(cb) = cb_format(f) else { return Ex::SPI_SHADER_ZERO };
    let ex = export_without_alpha(cb, blend);
    if blend {
        with_alpha(ex)
    } else {
        ex
    }
}

/// The export of `cb`'s channels alone.
fn export_without_alpha(cb: CbFormat, blend: bool) -> u32 {
    let int16 = |fp: u32| match cb.number {
        N::NUMBER_UINT => Ex::SPI_SHADER_UINT16_ABGR,
        N::NUMBER_SINT => Ex::SPI_SHADER_SINT16_ABGR,
        _ => fp,
    };
    match cb.format {
        C::COLOR_16 | C::COLOR_16_16 | C::COLOR_16_16_16_16 => {
            let wide = match cb.format {
                C::COLOR_16 => Ex::SPI_SHADER_32_R,
                C::COLOR_16_16 => Ex::SPI_SHADER_32_GR,
                _ => Ex::SPI_SHADER_32_ABGR,
            };
            match cb.number {
                N::NUMBER_UNORM if blend => wide,
                N::NUMBER_SNORM if blend => wide,
                N::NUMBER_UNORM => Ex::SPI_SHADER_UNORM16_ABGR,
                N::NUMBER_SNORM => Ex::SPI_SHADER_SNORM16_ABGR,
                _ => int16(Ex::SPI_SHADER_FP16_ABGR),
            }
        }
        C::COLOR_32 => Ex::SPI_SHADER_32_R,
        C::COLOR_32_32 => Ex::SPI_SHADER_32_GR,
        C::COLOR_32_32_32_32 => Ex::SPI_SHADER_32_ABGR,
        _ => int16(Ex::SPI_SHADER_FP16_ABGR),
    }
}

#[cfg(test)]
#[path = "cb_tests.rs"]
mod tests;
