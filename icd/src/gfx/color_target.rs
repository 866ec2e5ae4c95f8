//! Colour render targets: an image view's CB_COLORn_* register values and the PS export
//! format its format needs.
//!
//! This is the smallest version the draw path needs until the register translation of the
//! gfx-state work (`gfx::target`) lands; it covers single-sample 2D colour views of the formats
//! in [`FORMATS`]. Values follow descriptors-gfx103.md §4.2 (Mesa's mapping) and the field
//! layouts of the generated register table.

use ash::vk;
use ferrum_regs::gfx103 as r;
use r::enums::{
    ColorFormat as CF, SurfaceNumber as N, SurfaceSwap as SW, SPI_SHADER_EX_FORMAT as EX,
};

use crate::error::{VkError, VkResult};
use crate::image::layout::{Surface, SwizzleMode};

/// How the CB stores one Vulkan format and how the PS exports to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CbFormat {
    pub format: vk::Format,
    pub color_format: u32,
    pub number: u32,
    pub swap: u32,
    pub export: u32,
}

const fn cb(
    format: vk::Format,
    color_format: u32,
    number: u32,
    swap: u32,
    export: u32,
) -> CbFormat {
    CbFormat { format, color_format, number, swap, export }
}

/// Formats the colour path handles (descriptors-gfx103.md §4.2).
pub const FORMATS: &[CbFormat] = &[
    cb(
        vk::Format::R8G8B8A8_UNORM,
        CF::COLOR_8_8_8_8,
        N::NUMBER_UNORM,
        SW::SWAP_STD,
        EX::SPI_SHADER_FP16_ABGR,
    ),
    cb(
        vk::Format::B8G8R8A8_UNORM,
        CF::COLOR_8_8_8_8,
        N::NUMBER_UNORM,
        SW::SWAP_ALT,
        EX::SPI_SHADER_FP16_ABGR,
    ),
    cb(
        vk::Format::R8G8B8A8_UINT,
        CF::COLOR_8_8_8_8,
        N::NUMBER_UINT,
        SW::SWAP_STD,
        EX::SPI_SHADER_UINT16_ABGR,
    ),
    cb(
        vk::Format::R16G16B16A16_SFLOAT,
        CF::COLOR_16_16_16_16,
        N::NUMBER_FLOAT,
        SW::SWAP_STD,
        EX::SPI_SHADER_FP16_ABGR,
    ),
    cb(vk::Format::R32_SFLOAT, CF::COLOR_32, N::NUMBER_FLOAT, SW::SWAP_STD, EX::SPI_SHADER_32_R),
    cb(vk::Format::R32_UINT, CF::COLOR_32, N::NUMBER_UINT, SW::SWAP_STD, EX::SPI_SHADER_32_R),
    cb(
        vk::Format::R32G32_SFLOAT,
        CF::COLOR_32_32,
        N::NUMBER_FLOAT,
        SW::SWAP_STD,
        EX::SPI_SHADER_32_GR,
    ),
    cb(
        vk::Format::R32G32B32A32_SFLOAT,
        CF::COLOR_32_32_32_32,
        N::NUMBER_FLOAT,
        SW::SWAP_STD,
        EX::SPI_SHADER_32_ABGR,
    ),
];

/// The CB description of `format`, if the colour path handles it.
pub fn cb_format(format: vk::Format) -> Option<&'static CbFormat> {
    FORMATS.iter().find(|f| f.format == format)
}

/// The PS export format for a colour attachment of `format` (`SPI_SHADER_ZERO` for none).
pub fn export_format(format: vk::Format) -> VkResult<u32> {
    if format == vk::Format::UNDEFINED {
        return Ok(EX::SPI_SHADER_ZERO);
    }
    cb_format(format)
        .map(|f| f.export)
        .ok_or_else(|| VkError::FeatureNotPresent(format!("colour attachments of {format:?}")))
}

/// What a colour view contributes to the CB registers.
#[derive(Debug, Clone)]
pub struct ColorSurface {
    pub va: u64,
    pub format: vk::Format,
    pub surface: Surface,
    pub extent: vk::Extent2D,
    pub level: u32,
    pub base_layer: u32,
    pub layers: u32,
}

/// Register writes (address, value) of colour target `slot` showing `s`.
pub fn color_registers(slot: u32, s: &ColorSurface) -> VkResult<Vec<(u32, u32)>> {
    let f = cb_format(s.format).ok_or_else(|| {
        VkError::FeatureNotPresent(format!("colour attachments of {:?}", s.format))
    })?;
    if s.surface.desc.mode == SwizzleMode::Linear || s.surface.desc.ty != vk::ImageType::TYPE_2D {
        return Err(VkError::FeatureNotPresent("linear or non-2D colour attachments".into()));
    }
    use r::CB_COLOR0_INFO as I;
    let normalized = matches!(f.number, N::NUMBER_UNORM | N::NUMBER_SNORM | N::NUMBER_SRGB);
    let integer = matches!(f.number, N::NUMBER_UINT | N::NUMBER_SINT);
    let info = I::FORMAT.val(f.color_format)
        | I::NUMBER_TYPE.val(f.number)
        | I::COMP_SWAP.val(f.swap)
        | I::BLEND_CLAMP.val(u32::from(normalized))
        | I::BLEND_BYPASS.val(u32::from(integer))
        | I::SIMPLE_FLOAT.val(1)
        | I::ROUND_MODE.val(u32::from(!normalized));
    use r::CB_COLOR0_VIEW as V;
    let view = V::SLICE_START.val(s.base_layer)
        | V::SLICE_MAX.val(s.base_layer + s.layers - 1)
        | V::MIP_LEVEL.val(s.level);
    let d = &s.surface.desc;
    use r::CB_COLOR0_ATTRIB2 as A2;
    let attrib2 = A2::MIP0_WIDTH.val(d.width - 1)
        | A2::MIP0_HEIGHT.val(d.height - 1)
        | A2::MAX_MIP.val(d.levels - 1);
    use r::CB_COLOR0_ATTRIB3 as A3;
    let attrib3 = A3::MIP0_DEPTH.val(d.layers - 1)
        | A3::COLOR_SW_MODE.val(d.mode as u32)
        | A3::RESOURCE_TYPE.val(1)
        | A3::RESOURCE_LEVEL.val(1);
    let block = slot * (r::CB_COLOR1_BASE - r::CB_COLOR0_BASE);
    Ok(vec![
        (r::CB_COLOR0_BASE + block, (s.va >> 8) as u32),
        (r::CB_COLOR0_VIEW + block, view),
        (r::CB_COLOR0_INFO + block, info),
        (r::CB_COLOR0_ATTRIB + block, 0),
        (r::CB_COLOR0_BASE_EXT + 4 * slot, (s.va >> 40) as u32),
        (r::CB_COLOR0_ATTRIB2 + 4 * slot, attrib2),
        (r::CB_COLOR0_ATTRIB3 + 4 * slot, attrib3),
    ])
}

/// Register writes that switch colour target `slot` off.
pub fn disabled_registers(slot: u32) -> Vec<(u32, u32)> {
    let block = slot * (r::CB_COLOR1_BASE - r::CB_COLOR0_BASE);
    vec![(r::CB_COLOR0_INFO + block, r::CB_COLOR0_INFO::FORMAT.val(CF::COLOR_INVALID))]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_offsets_follow_the_database_strides() {
        // pm4-gfx103.md A4: the per-MRT block stride is 0x3C; BASE_EXT/ATTRIB2/3 stride 4.
        assert_eq!(r::CB_COLOR1_BASE - r::CB_COLOR0_BASE, 0x3c);
        assert_eq!(r::CB_COLOR0_INFO, 0x28c70);
        assert_eq!(r::CB_COLOR0_ATTRIB3, 0x28ee0);
    }
}
