//! `VkFormatProperties3` (VK_KHR_format_feature_flags2): the 64-bit feature flags, derived from
//! the 32-bit ones so the two queries can never disagree.
//!
//! The only bits beyond the legacy set that Ferrum reports are the ones the legacy query implies
//! through device features: storage images and texel buffers read and written without a format
//! (MIMG and typed buffer instructions take the format from the descriptor, and the device
//! advertises shaderStorageImageRead/WriteWithoutFormat), and depth comparison on every
//! sampled depth format (Vulkan 1.0 gives sampled depth formats depth-compare sampling).

use ash::vk;

use super::properties::format_properties;

type F2 = vk::FormatFeatureFlags2;

/// The `VkFormatProperties3` answer for `format`.
pub fn format_properties3(format: vk::Format) -> vk::FormatProperties3<'static> {
    let legacy = format_properties(format);
    let depth =
        super::info(format).is_some_and(|f| f.aspects().contains(vk::ImageAspectFlags::DEPTH));
    let image = |flags: vk::FormatFeatureFlags| {
        let mut f = F2::from_raw(u64::from(flags.as_raw()));
        if f.contains(F2::STORAGE_IMAGE) {
            f |= F2::STORAGE_READ_WITHOUT_FORMAT | F2::STORAGE_WRITE_WITHOUT_FORMAT;
        }
        if depth && f.contains(F2::SAMPLED_IMAGE) {
            f |= F2::SAMPLED_IMAGE_DEPTH_COMPARISON;
        }
        f
    };
    let mut buffer = F2::from_raw(u64::from(legacy.buffer_features.as_raw()));
    if buffer.contains(F2::STORAGE_TEXEL_BUFFER) {
        buffer |= F2::STORAGE_READ_WITHOUT_FORMAT | F2::STORAGE_WRITE_WITHOUT_FORMAT;
    }
    vk::FormatProperties3::default()
        .linear_tiling_features(image(legacy.linear_tiling_features))
        .optimal_tiling_features(image(legacy.optimal_tiling_features))
        .buffer_features(buffer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legacy_bits_are_the_legacy_flags() {
        for f in super::super::FORMATS {
            let legacy = format_properties(f.format);
            let p = format_properties3(f.format);
            // Bit 31 is new in flags2 (STORAGE_READ_WITHOUT_FORMAT); the legacy flags stop below.
            let low = |x: F2| vk::FormatFeatureFlags::from_raw((x.as_raw() & 0x7fff_ffff) as u32);
            assert_eq!(low(p.optimal_tiling_features), legacy.optimal_tiling_features);
            assert_eq!(low(p.linear_tiling_features), legacy.linear_tiling_features);
            assert_eq!(low(p.buffer_features), legacy.buffer_features);
        }
    }

    #[test]
    fn storage_and_depth_imply_the_new_bits() {
        let rgba8 = format_properties3(vk::Format::R8G8B8A8_UNORM);
        assert!(rgba8.optimal_tiling_features.contains(F2::STORAGE_READ_WITHOUT_FORMAT));
        assert!(rgba8.buffer_features.contains(F2::STORAGE_WRITE_WITHOUT_FORMAT));
        assert!(!rgba8.optimal_tiling_features.contains(F2::SAMPLED_IMAGE_DEPTH_COMPARISON));
        let d32 = format_properties3(vk::Format::D32_SFLOAT);
        assert!(d32.optimal_tiling_features.contains(F2::SAMPLED_IMAGE_DEPTH_COMPARISON));
        assert!(!d32.optimal_tiling_features.contains(F2::STORAGE_READ_WITHOUT_FORMAT));
        // Formats Ferrum does not know report nothing.
        let none = format_properties3(vk::Format::B8G8R8_SRGB);
        assert!(none.optimal_tiling_features.is_empty() && none.buffer_features.is_empty());
        // 64-bit formats are vertex input only.
        let r64 = format_properties3(vk::Format::R64G64B64A64_SFLOAT);
        assert!(r64.optimal_tiling_features.is_empty() && r64.linear_tiling_features.is_empty());
        assert_eq!(r64.buffer_features, F2::VERTEX_BUFFER);
    }
}
