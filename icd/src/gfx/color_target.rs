//! Colour render targets: an image view's CB_COLORn_* register values, the PS export format
//! its format needs, and the bit pattern of a clear colour in that format.
//!
//! This is the smallest version the draw path needs until the register translation of the
//! gfx-state work (`gfx::target`) lands; it covers single-sample 2D colour views of the formats
//! in [`FORMATS`]. Values follow descriptors-gfx103.md §4.2 (Mesa's mapping) and the field
//! layouts of the generated register table.

use ash::vk;
use ferrum_regs::gfx103 as r;
use r::enums::{ColorFormat as CF, SurfaceNumber as N, SurfaceSwap as SW, SPI_SHADER_EX_FORMAT as EX};

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

const fn cb(format: vk::Format, color_format: u32, number: u32, swap: u32, export: u32) -> CbFormat {
    CbFormat { format, color_format, number, swap, export }
}

/// Formats the colour path handles (descriptors-gfx103.md §4.2).
pub const FORMATS: &[CbFormat] = &[
    cb(vk::Format::R8G8B8A8_UNORM, CF::COLOR_8_8_8_8, N::NUMBER_UNORM, SW::SWAP_STD, EX::SPI_SHADER_FP16_ABGR),
    cb(vk::Format::B8G8R8A8_UNORM, CF::COLOR_8_8_8_8, N::NUMBER_UNORM, SW::SWAP_ALT, EX::SPI_SHADER_FP16_ABGR),
    cb(vk::Format::R8G8B8A8_UINT, CF::COLOR_8_8_8_8, N::NUMBER_UINT, SW::SWAP_STD, EX::SPI_SHADER_UINT16_ABGR),
    cb(vk::Format::R16G16B16A16_SFLOAT, CF::COLOR_16_16_16_16, N::NUMBER_FLOAT, SW::SWAP_STD, EX::SPI_SHADER_FP16_ABGR),
    cb(vk::Format::R32_SFLOAT, CF::COLOR_32, N::NUMBER_FLOAT, SW::SWAP_STD, EX::SPI_SHADER_32_R),
    cb(vk::Format::R32_UINT, CF::COLOR_32, N::NUMBER_UINT, SW::SWAP_STD, EX::SPI_SHADER_32_R),
    cb(vk::Format::R32G32_SFLOAT, CF::COLOR_32_32, N::NUMBER_FLOAT, SW::SWAP_STD, EX::SPI_SHADER_32_GR),
    cb(vk::Format::R32G32B32A32_SFLOAT, CF::COLOR_32_32_32_32, N::NUMBER_FLOAT, SW::SWAP_STD, EX::SPI_SHADER_32_ABGR),
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
    let f = cb_format(s.format)
        .ok_or_else(|| VkError::FeatureNotPresent(format!("colour attachments of {:?}", s.format)))?;
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

fn unorm8(x: f32) -> u32 {
    // NaN converts to 0 (Vulkan: "NaN ... converted to 0").
    (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u32
}

/// f32 → IEEE binary16 bits, round to nearest even (Vulkan's clear conversion for 16-bit
/// float formats), overflow to infinity, NaN kept a NaN.
pub fn f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    // Normal results keep 10 mantissa bits; subnormal ones shift further.
    let shift = if e <= 0 { (14 - e) as u32 } else { 13 };
    if shift > 24 {
        return sign;
    }
    let full = if exp == 0 { man } else { man | 0x80_0000 };
    let (kept, rest) = (full >> shift, full & ((1 << shift) - 1));
    let half = 1 << (shift - 1);
    let rounded = kept + u32::from(rest > half || (rest == half && kept & 1 == 1));
    // A carry out of the mantissa moves into the exponent (up to infinity), as it should.
    let bits = if e <= 0 { rounded } else { ((e as u32) << 10) + rounded - 0x400 };
    sign | bits as u16
}

/// The texel bytes of a clear colour in `format`, as little-endian dwords.
pub fn clear_pattern(format: vk::Format, c: &vk::ClearColorValue) -> VkResult<Vec<u32>> {
    // SAFETY: every member of the union is plain data of the same size.
    let (f, u) = unsafe { (c.float32, c.uint32) };
    let pack8 = |v: [u32; 4]| v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24;
    Ok(match format {
        vk::Format::R8G8B8A8_UNORM => vec![pack8(f.map(unorm8))],
        vk::Format::B8G8R8A8_UNORM => vec![pack8([f[2], f[1], f[0], f[3]].map(unorm8))],
        // Out-of-range integers keep their low bits (the spec leaves them undefined).
        vk::Format::R8G8B8A8_UINT => vec![pack8(u.map(|x| x.min(255)))],
        vk::Format::R16G16B16A16_SFLOAT => {
            let h = f.map(|x| u32::from(f16_bits(x)));
            vec![h[0] | h[1] << 16, h[2] | h[3] << 16]
        }
        vk::Format::R32_SFLOAT => vec![f[0].to_bits()],
        vk::Format::R32_UINT => vec![u[0]],
        vk::Format::R32G32_SFLOAT => vec![f[0].to_bits(), f[1].to_bits()],
        vk::Format::R32G32B32A32_SFLOAT => f.map(f32::to_bits).to_vec(),
        _ => return Err(VkError::FeatureNotPresent(format!("clears of {format:?}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_conversion_matches_ieee() {
        for (x, bits) in [
            (0.0f32, 0u16),
            (-0.0, 0x8000),
            (1.0, 0x3c00),
            (-2.0, 0xc000),
            (65504.0, 0x7bff),
            (65520.0, 0x7c00),
            (f32::INFINITY, 0x7c00),
            (6.103_515_6e-5, 0x0400),
            (5.960_464_5e-8, 0x0001),
            (1.0 / 3.0, 0x3555),
            (0.1, 0x2e66),
        ] {
            assert_eq!(f16_bits(x), bits, "{x}");
        }
        assert_eq!(f16_bits(f32::NAN) & 0x7c00, 0x7c00);
        assert_ne!(f16_bits(f32::NAN) & 0x3ff, 0);
    }

    #[test]
    fn unorm8_rounds_and_clamps() {
        let c = vk::ClearColorValue { float32: [0.5, 1.5, -1.0, f32::NAN] };
        assert_eq!(clear_pattern(vk::Format::R8G8B8A8_UNORM, &c).unwrap(), vec![0x0000_ff80]);
        let c = vk::ClearColorValue { float32: [1.0, 0.0, 0.2, 1.0] };
        assert_eq!(clear_pattern(vk::Format::B8G8R8A8_UNORM, &c).unwrap(), vec![0xff00_33ff]);
    }

    #[test]
    fn register_offsets_follow_the_database_strides() {
        // pm4-gfx103.md A4: the per-MRT block stride is 0x3C; BASE_EXT/ATTRIB2/3 stride 4.
        assert_eq!(r::CB_COLOR1_BASE - r::CB_COLOR0_BASE, 0x3c);
        assert_eq!(r::CB_COLOR0_INFO, 0x28c70);
        assert_eq!(r::CB_COLOR0_ATTRIB3, 0x28ee0);
    }
}
