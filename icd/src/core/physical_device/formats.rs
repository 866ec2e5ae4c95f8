//! Format support.
//!
//! `HW_BUFFER_FORMATS` lists the formats the GFX10.3 buffer path can fetch (typed buffer loads
//! and vertex fetch, via the buffer descriptor's FORMAT field) and which of them typed stores
//! and atomics accept. What is *advertised* is that capability masked by
//! [`IMPLEMENTED_BUFFER_FEATURES`]: vertex input and texel-buffer views do not exist yet, so
//! the mask is empty and no format claims a buffer feature. Image formats are not supported at
//! all yet (no images).

use ash::vk;

type F = vk::FormatFeatureFlags;

/// Buffer features the driver implements end to end. Grows as vertex input and buffer views
/// land; nothing may be added here before it works.
pub const IMPLEMENTED_BUFFER_FEATURES: vk::FormatFeatureFlags = vk::FormatFeatureFlags::empty();

const VTX: u32 = F::VERTEX_BUFFER.as_raw();
const UTB: u32 = F::UNIFORM_TEXEL_BUFFER.as_raw();
const STB: u32 = F::STORAGE_TEXEL_BUFFER.as_raw();
const ATOM: u32 = F::STORAGE_TEXEL_BUFFER_ATOMIC.as_raw();
const FETCH: u32 = VTX | UTB;
const ALL: u32 = VTX | UTB | STB;

/// What navi21's buffer unit can do per format.
const HW_BUFFER_FORMATS: &[(vk::Format, u32)] = &[
    (vk::Format::R8_UNORM, ALL),
    (vk::Format::R8_SNORM, ALL),
    (vk::Format::R8_UINT, ALL),
    (vk::Format::R8_SINT, ALL),
    (vk::Format::R8G8_UNORM, ALL),
    (vk::Format::R8G8_SNORM, ALL),
    (vk::Format::R8G8_UINT, ALL),
    (vk::Format::R8G8_SINT, ALL),
    (vk::Format::R8G8B8A8_UNORM, ALL),
    (vk::Format::R8G8B8A8_SNORM, ALL),
    (vk::Format::R8G8B8A8_UINT, ALL),
    (vk::Format::R8G8B8A8_SINT, ALL),
    (vk::Format::B8G8R8A8_UNORM, FETCH),
    (vk::Format::A2B10G10R10_UNORM_PACK32, ALL),
    (vk::Format::A2B10G10R10_UINT_PACK32, ALL),
    (vk::Format::B10G11R11_UFLOAT_PACK32, FETCH),
    (vk::Format::R16_UNORM, ALL),
    (vk::Format::R16_SNORM, ALL),
    (vk::Format::R16_UINT, ALL),
    (vk::Format::R16_SINT, ALL),
    (vk::Format::R16_SFLOAT, ALL),
    (vk::Format::R16G16_UNORM, ALL),
    (vk::Format::R16G16_SNORM, ALL),
    (vk::Format::R16G16_UINT, ALL),
    (vk::Format::R16G16_SINT, ALL),
    (vk::Format::R16G16_SFLOAT, ALL),
    (vk::Format::R16G16B16A16_UNORM, ALL),
    (vk::Format::R16G16B16A16_SNORM, ALL),
    (vk::Format::R16G16B16A16_UINT, ALL),
    (vk::Format::R16G16B16A16_SINT, ALL),
    (vk::Format::R16G16B16A16_SFLOAT, ALL),
    (vk::Format::R32_UINT, ALL | ATOM),
    (vk::Format::R32_SINT, ALL | ATOM),
    (vk::Format::R32_SFLOAT, ALL),
    (vk::Format::R32G32_UINT, ALL),
    (vk::Format::R32G32_SINT, ALL),
    (vk::Format::R32G32_SFLOAT, ALL),
    (vk::Format::R32G32B32_UINT, FETCH),
    (vk::Format::R32G32B32_SINT, FETCH),
    (vk::Format::R32G32B32_SFLOAT, FETCH),
    (vk::Format::R32G32B32A32_UINT, ALL),
    (vk::Format::R32G32B32A32_SINT, ALL),
    (vk::Format::R32G32B32A32_SFLOAT, ALL),
];

/// The buffer features the hardware has for `format` (advertised or not).
pub fn hardware_buffer_features(format: vk::Format) -> vk::FormatFeatureFlags {
    HW_BUFFER_FORMATS
        .iter()
        .find(|(f, _)| *f == format)
        .map_or(F::empty(), |&(_, bits)| F::from_raw(bits))
}

/// `vkGetPhysicalDeviceFormatProperties` for `format`.
pub fn format_properties(format: vk::Format) -> vk::FormatProperties {
    vk::FormatProperties {
        linear_tiling_features: F::empty(),
        optimal_tiling_features: F::empty(),
        buffer_features: hardware_buffer_features(format) & IMPLEMENTED_BUFFER_FEATURES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advertised_is_within_hardware() {
        for &(f, _) in HW_BUFFER_FORMATS {
            let p = format_properties(f);
            assert!(hardware_buffer_features(f).contains(p.buffer_features));
        }
        // Depth formats cannot be fetched through the buffer path.
        assert!(hardware_buffer_features(vk::Format::D32_SFLOAT).is_empty());
        // Atomics exist only on 32-bit integer formats.
        assert!(
            hardware_buffer_features(vk::Format::R32_UINT).contains(F::STORAGE_TEXEL_BUFFER_ATOMIC)
        );
        assert!(!hardware_buffer_features(vk::Format::R32_SFLOAT)
            .contains(F::STORAGE_TEXEL_BUFFER_ATOMIC));
    }
}
