//! Sampler descriptors (S#, 128 bits), from descriptors-gfx103.md §3.

use ash::vk;

use crate::error::{VkError, VkResult};

fn clamp_mode(m: vk::SamplerAddressMode) -> VkResult<u32> {
    Ok(match m {
        vk::SamplerAddressMode::REPEAT => 0,
        vk::SamplerAddressMode::MIRRORED_REPEAT => 1,
        vk::SamplerAddressMode::CLAMP_TO_EDGE => 2,
        vk::SamplerAddressMode::CLAMP_TO_BORDER => 6,
        // VK_KHR_sampler_mirror_clamp_to_edge: mirrored once about 0, then clamped to the
        // edge texels (MIRROR_ONCE_LAST_TEXEL).
        vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE => 3,
        other => return Err(VkError::FeatureNotPresent(format!("address mode {other:?}"))),
    })
}

/// SQ_TEX_XY_FILTER: POINT 0, BILINEAR 1.
fn xy_filter(f: vk::Filter) -> VkResult<u32> {
    match f {
        vk::Filter::NEAREST => Ok(0),
        vk::Filter::LINEAR => Ok(1),
        other => Err(VkError::FeatureNotPresent(format!("filter {other:?}"))),
    }
}

/// Unsigned 4.8 fixed point, clamped to 0..15.
fn lod_u4_8(x: f32) -> u32 {
    (x.clamp(0.0, 15.0) * 256.0) as u32
}

/// Signed 6.8 fixed point (14 bits), clamped to the representable -32..32.
fn lod_s6_8(x: f32) -> u32 {
    ((x.clamp(-32.0, 8191.0 / 256.0) * 256.0) as i32 as u32) & 0x3fff
}

/// The four S# words of a sampler.
pub fn sampler(info: &vk::SamplerCreateInfo<'_>) -> VkResult<[u32; 4]> {
    // VUID-VkSamplerCreateInfo-anisotropyEnable-01070: needs samplerAnisotropy (not offered).
    if info.anisotropy_enable != 0 {
        return Err(VkError::FeatureNotPresent("anisotropic filtering".into()));
    }
    let compare = if info.compare_enable != 0 { info.compare_op.as_raw() as u32 & 7 } else { 0 };
    let w0 = clamp_mode(info.address_mode_u)?
        | (clamp_mode(info.address_mode_v)? << 3)
        | (clamp_mode(info.address_mode_w)? << 6)
        | (compare << 12)
        | (u32::from(info.unnormalized_coordinates != 0) << 15)
        // VK_EXT_non_seamless_cube_map: DISABLE_CUBE_WRAP, each face wrapped by itself
        // with the sampler's address modes.
        | (u32::from(info.flags.contains(vk::SamplerCreateFlags::NON_SEAMLESS_CUBE_MAP_EXT))
            << 28);
    let w1 = lod_u4_8(info.min_lod) | (lod_u4_8(info.max_lod) << 12);
    let mip = match info.mipmap_mode {
        vk::SamplerMipmapMode::NEAREST => 1,
        vk::SamplerMipmapMode::LINEAR => 2,
        other => return Err(VkError::FeatureNotPresent(format!("mipmap mode {other:?}"))),
    };
    let w2 = lod_s6_8(info.mip_lod_bias)
        | (xy_filter(info.mag_filter)? << 20)
        | (xy_filter(info.min_filter)? << 22)
        | (mip << 26);
    let border = match info.border_color {
        vk::BorderColor::FLOAT_TRANSPARENT_BLACK | vk::BorderColor::INT_TRANSPARENT_BLACK => 0,
        vk::BorderColor::FLOAT_OPAQUE_BLACK | vk::BorderColor::INT_OPAQUE_BLACK => 1,
        vk::BorderColor::FLOAT_OPAQUE_WHITE | vk::BorderColor::INT_OPAQUE_WHITE => 2,
        other => return Err(VkError::FeatureNotPresent(format!("border colour {other:?}"))),
    };
    Ok([w0, w1, w2, border << 30])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of descriptors-gfx103.md §3: clamp-to-edge, bilinear, linear mips,
    /// LOD 0..15.
    #[test]
    fn reference_example() {
        let info = vk::SamplerCreateInfo::default()
            .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
            .mag_filter(vk::Filter::LINEAR)
            .min_filter(vk::Filter::LINEAR)
            .mipmap_mode(vk::SamplerMipmapMode::LINEAR)
            .min_lod(0.0)
            .max_lod(15.0);
        assert_eq!(sampler(&info).unwrap(), [0x92, 0x00F0_0000, 0x0850_0000, 0]);
    }

    #[test]
    fn lod_fields_compare_and_border() {
        let info = vk::SamplerCreateInfo::default()
            .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_BORDER)
            .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
            .mip_lod_bias(-1.5)
            .min_lod(0.25)
            .max_lod(1000.0)
            .compare_enable(true)
            .compare_op(vk::CompareOp::GREATER_OR_EQUAL)
            .border_color(vk::BorderColor::INT_OPAQUE_WHITE)
            .unnormalized_coordinates(true);
        let w = sampler(&info).unwrap();
        assert_eq!(w[0] & 7, 6);
        assert_eq!(w[0] >> 12 & 7, 6);
        assert_eq!(w[0] >> 15 & 1, 1);
        assert_eq!((w[1] & 0xfff, w[1] >> 12 & 0xfff), (64, 15 * 256));
        assert_eq!(w[2] & 0x3fff, (-384i32 as u32) & 0x3fff);
        assert_eq!(w[2] >> 26 & 3, 1);
        assert_eq!(w[3] >> 30, 2);
        // Bias clamps to the field's range; NaN LODs become 0.
        let far = sampler(&info.mip_lod_bias(100.0).min_lod(f32::NAN)).unwrap();
        assert_eq!(far[2] & 0x3fff, 8191);
        assert_eq!(far[1] & 0xfff, 0);
        assert!(sampler(&info.anisotropy_enable(true)).is_err());
        let mirror_once = info.address_mode_v(vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE);
        assert_eq!(sampler(&mirror_once).unwrap()[0] >> 3 & 7, 3);
        assert_eq!(sampler(&info).unwrap()[0] >> 28 & 1, 0);
        let flat = info.flags(vk::SamplerCreateFlags::NON_SEAMLESS_CUBE_MAP_EXT);
        assert_eq!(sampler(&flat).unwrap()[0] >> 28 & 1, 1);
    }
}
