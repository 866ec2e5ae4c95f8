use super::*;
use crate::format::{Numeric, FORMATS};

fn empty(p: vk::FormatProperties) -> bool {
    p.linear_tiling_features.is_empty()
        && p.optimal_tiling_features.is_empty()
        && p.buffer_features.is_empty()
}

const ALL: Caps = Caps(u16::MAX);

const S: u32 = F::SAMPLED_IMAGE.as_raw() | F::BLIT_SRC.as_raw();
const FL: u32 = F::SAMPLED_IMAGE_FILTER_LINEAR.as_raw();
const ST: u32 = F::STORAGE_IMAGE.as_raw();
const SA: u32 = F::STORAGE_IMAGE_ATOMIC.as_raw();
const C: u32 = F::COLOR_ATTACHMENT.as_raw() | F::BLIT_DST.as_raw();
const B: u32 = F::COLOR_ATTACHMENT_BLEND.as_raw();
const DS: u32 = F::DEPTH_STENCIL_ATTACHMENT.as_raw();
const U: u32 = F::UNIFORM_TEXEL_BUFFER.as_raw();
const T: u32 = F::STORAGE_TEXEL_BUFFER.as_raw();
const TA: u32 = F::STORAGE_TEXEL_BUFFER_ATOMIC.as_raw();
const V: u32 = F::VERTEX_BUFFER.as_raw();

/// The spec's "Required Format Support" tables (Vulkan 1.0 core rows): (format, optimal
/// tiling features, buffer features) every implementation must report.
const MANDATORY: &[(vk::Format, u32, u32)] = &[
    (vk::Format::B4G4R4A4_UNORM_PACK16, S | FL, 0),
    (vk::Format::R5G6B5_UNORM_PACK16, S | FL | C | B, 0),
    (vk::Format::A1R5G5B5_UNORM_PACK16, S | FL | C | B, 0),
    (vk::Format::R8_UNORM, S | FL | C | B, U | V),
    (vk::Format::R8_SNORM, S | FL, U | V),
    (vk::Format::R8_UINT, S | C, U | V),
    (vk::Format::R8_SINT, S | C, U | V),
    (vk::Format::R8G8_UNORM, S | FL | C | B, U | V),
    (vk::Format::R8G8_SNORM, S | FL, U | V),
    (vk::Format::R8G8_UINT, S | C, U | V),
    (vk::Format::R8G8_SINT, S | C, U | V),
    (vk::Format::R8G8B8A8_UNORM, S | FL | ST | C | B, U | T | V),
    (vk::Format::R8G8B8A8_SNORM, S | FL | ST, U | T | V),
    (vk::Format::R8G8B8A8_UINT, S | ST | C, U | T | V),
    (vk::Format::R8G8B8A8_SINT, S | ST | C, U | T | V),
    (vk::Format::R8G8B8A8_SRGB, S | FL | C | B, 0),
    (vk::Format::B8G8R8A8_UNORM, S | FL | C | B, U | V),
    (vk::Format::B8G8R8A8_SRGB, S | FL | C | B, 0),
    (vk::Format::A8B8G8R8_UNORM_PACK32, S | FL | C | B, U | V),
    (vk::Format::A8B8G8R8_SNORM_PACK32, S | FL, U | V),
    (vk::Format::A8B8G8R8_UINT_PACK32, S | C, U | V),
    (vk::Format::A8B8G8R8_SINT_PACK32, S | C, U | V),
    (vk::Format::A8B8G8R8_SRGB_PACK32, S | FL | C | B, 0),
    (vk::Format::A2B10G10R10_UNORM_PACK32, S | FL | C | B, U | V),
    (vk::Format::A2B10G10R10_UINT_PACK32, S | C, U | V),
    (vk::Format::R16_UINT, S | C, U | V),
    (vk::Format::R16_SINT, S | C, U | V),
    (vk::Format::R16_SFLOAT, S | FL | C | B, U | V),
    (vk::Format::R16G16_UINT, S | C, U | V),
    (vk::Format::R16G16_SINT, S | C, U | V),
    (vk::Format::R16G16_SFLOAT, S | FL | C | B, U | V),
    (vk::Format::R16G16B16A16_UINT, S | ST | C, U | T | V),
    (vk::Format::R16G16B16A16_SINT, S | ST | C, U | T | V),
    (vk::Format::R16G16B16A16_SFLOAT, S | FL | ST | C | B, U | T | V),
    (vk::Format::R32_UINT, S | ST | SA | C, U | T | TA | V),
    (vk::Format::R32_SINT, S | ST | SA | C, U | T | TA | V),
    (vk::Format::R32_SFLOAT, S | ST | C, U | T | V),
    (vk::Format::R32G32_UINT, S | ST | C, U | T | V),
    (vk::Format::R32G32_SINT, S | ST | C, U | T | V),
    (vk::Format::R32G32_SFLOAT, S | ST | C, U | T | V),
    (vk::Format::R32G32B32_UINT, 0, V),
    (vk::Format::R32G32B32_SINT, 0, V),
    (vk::Format::R32G32B32_SFLOAT, 0, V),
    (vk::Format::R32G32B32A32_UINT, S | ST | C, U | T | V),
    (vk::Format::R32G32B32A32_SINT, S | ST | C, U | T | V),
    (vk::Format::R32G32B32A32_SFLOAT, S | ST | C, U | T | V),
    (vk::Format::B10G11R11_UFLOAT_PACK32, S | FL, U | V),
    (vk::Format::E5B9G9R9_UFLOAT_PACK32, S | FL, 0),
    (vk::Format::D16_UNORM, S | DS, 0),
    (vk::Format::D32_SFLOAT, S, 0),
    // "at least one of X8_D24_UNORM_PACK32 and D32_SFLOAT", and of the two 24/32-bit
    // depth/stencil formats, support DEPTH_STENCIL_ATTACHMENT: navi21 has the 32-bit ones.
    (vk::Format::D32_SFLOAT, DS, 0),
    (vk::Format::D32_SFLOAT_S8_UINT, DS, 0),
];

#[test]
fn the_hardware_covers_every_mandatory_format() {
    for &(format, optimal, buffer) in MANDATORY {
        let p = format_properties_for(format, ALL);
        assert!(
            p.optimal_tiling_features.contains(F::from_raw(optimal)),
            "{format:?}: optimal {:?} lacks {:?}",
            p.optimal_tiling_features,
            F::from_raw(optimal) & !p.optimal_tiling_features
        );
        assert!(
            p.buffer_features.contains(F::from_raw(buffer)),
            "{format:?}: buffer {:?} lacks {:?}",
            p.buffer_features,
            F::from_raw(buffer) & !p.buffer_features
        );
    }
}

#[test]
fn nothing_unproven_is_advertised() {
    for f in FORMATS {
        let p = format_properties_for(f.format, proven(f.format));
        let all = format_properties_for(f.format, ALL);
        assert!(all.optimal_tiling_features.contains(p.optimal_tiling_features));
        assert!(all.buffer_features.contains(p.buffer_features));
    }
    // A format no test covers advertises nothing; a tested one exactly its proven usages.
    assert!(empty(format_properties_for(
        vk::Format::R4G4_UNORM_PACK8,
        proven(vk::Format::R4G4_UNORM_PACK8)
    )));
    let transfer = F::TRANSFER_SRC | F::TRANSFER_DST;
    let blit = F::BLIT_SRC | F::BLIT_DST;
    let p = format_properties_for(vk::Format::R32_UINT, proven(vk::Format::R32_UINT));
    let want = F::SAMPLED_IMAGE
        | F::STORAGE_IMAGE
        | F::STORAGE_IMAGE_ATOMIC
        | F::COLOR_ATTACHMENT
        | transfer
        | blit;
    assert_eq!(p.optimal_tiling_features, want);
    let texel = F::UNIFORM_TEXEL_BUFFER | F::STORAGE_TEXEL_BUFFER;
    let atomic = F::STORAGE_TEXEL_BUFFER_ATOMIC;
    assert_eq!(p.buffer_features, texel | atomic | F::VERTEX_BUFFER);
    let p = format_properties_for(vk::Format::R8G8B8A8_UNORM, proven(vk::Format::R8G8B8A8_UNORM));
    let want = F::SAMPLED_IMAGE
        | F::SAMPLED_IMAGE_FILTER_LINEAR
        | F::STORAGE_IMAGE
        | F::COLOR_ATTACHMENT
        | F::COLOR_ATTACHMENT_BLEND
        | transfer
        | blit;
    assert_eq!(p.optimal_tiling_features, want);
    assert_eq!(p.buffer_features, texel | F::VERTEX_BUFFER);
    // Packed 16-bit targets are blit destinations through R16_UINT (the kernel packs);
    // B5G6R5, which lavapipe does not blit (no proof as a source), is neither.
    let p = format_properties_for(
        vk::Format::R5G6B5_UNORM_PACK16,
        proven(vk::Format::R5G6B5_UNORM_PACK16),
    );
    assert!(p.optimal_tiling_features.contains(F::COLOR_ATTACHMENT | F::COLOR_ATTACHMENT_BLEND));
    assert!(p.optimal_tiling_features.contains(F::BLIT_SRC | F::BLIT_DST));
    let b = vk::Format::B5G6R5_UNORM_PACK16;
    let p = format_properties_for(b, proven(b));
    assert!(p.optimal_tiling_features.contains(F::COLOR_ATTACHMENT));
    assert!(!p.optimal_tiling_features.intersects(F::BLIT_SRC | F::BLIT_DST));
    // BGRA is stored through RGBA with R and B swapped: a blit destination.
    let p = format_properties_for(vk::Format::B8G8R8A8_UNORM, proven(vk::Format::B8G8R8A8_UNORM));
    assert!(p.optimal_tiling_features.contains(F::BLIT_DST | F::COLOR_ATTACHMENT_BLEND));
    // Integer formats are sampled, never filtered nor blended (R16G16_SINT is a storage
    // format of shaderStorageImageExtendedFormats).
    let p = format_properties_for(vk::Format::R16G16_SINT, proven(vk::Format::R16G16_SINT));
    let want = transfer | F::SAMPLED_IMAGE | F::STORAGE_IMAGE | F::COLOR_ATTACHMENT | blit;
    assert_eq!(p.optimal_tiling_features, want);
    // A format no colour, storage or vertex test covers: sampled, transferred, a blit source.
    let p = format_properties_for(
        vk::Format::E5B9G9R9_UFLOAT_PACK32,
        proven(vk::Format::E5B9G9R9_UFLOAT_PACK32),
    );
    let sampled = F::SAMPLED_IMAGE | F::SAMPLED_IMAGE_FILTER_LINEAR | F::BLIT_SRC;
    assert_eq!(p.optimal_tiling_features, transfer | sampled);
    // Depth formats: sampled (also with compare) but not filtered, blitted (nearest, into
    // the same format) and the depth/stencil attachment (graphics_depth.rs); no buffer
    // features. D32S8 is no blit source or destination (the kernel moves one plane).
    let p = format_properties_for(vk::Format::D16_UNORM, proven(vk::Format::D16_UNORM));
    let depth = transfer | F::SAMPLED_IMAGE | F::DEPTH_STENCIL_ATTACHMENT | blit;
    assert_eq!(p.optimal_tiling_features, depth);
    assert!(p.buffer_features.is_empty());
    let d32s8 = vk::Format::D32_SFLOAT_S8_UINT;
    let p = format_properties_for(d32s8, proven(d32s8));
    assert!(!p.optimal_tiling_features.intersects(blit));
    let p = format_properties_for(d32s8, ALL);
    assert!(!p.optimal_tiling_features.contains(F::BLIT_DST));
    // A vertex format without an image: vertex input only.
    let p =
        format_properties_for(vk::Format::R32G32B32_SFLOAT, proven(vk::Format::R32G32B32_SFLOAT));
    assert_eq!(p.buffer_features, F::VERTEX_BUFFER);
    // Block-compressed formats: what textureCompressionBC requires (sampled, filtered, blit
    // source) and copies; never a blit destination, storage or attachment.
    for &bc in PROVEN_BC {
        let p = format_properties_for(bc, proven(bc));
        let sampled = F::SAMPLED_IMAGE | F::SAMPLED_IMAGE_FILTER_LINEAR | F::BLIT_SRC;
        assert_eq!(p.optimal_tiling_features, transfer | sampled, "{bc:?}");
        assert!(p.linear_tiling_features.is_empty() && p.buffer_features.is_empty());
    }
}

#[test]
fn capabilities_follow_the_numeric_type() {
    for f in FORMATS {
        let p = format_properties_for(f.format, ALL);
        let integer = matches!(f.numeric, Numeric::Uint | Numeric::Sint);
        if integer {
            assert!(!p.optimal_tiling_features.contains(F::SAMPLED_IMAGE_FILTER_LINEAR));
            assert!(!p.optimal_tiling_features.contains(F::COLOR_ATTACHMENT_BLEND));
        }
        if f.is_depth_stencil() || f.is_compressed() {
            assert!(p.linear_tiling_features.is_empty(), "{:?}", f.format);
            assert!(p.buffer_features.is_empty(), "{:?}", f.format);
        }
        // No linear depth: the DB cannot address linear surfaces.
        assert!(!p.linear_tiling_features.contains(F::DEPTH_STENCIL_ATTACHMENT));
        // Atomics only on 32-bit integers.
        if p.optimal_tiling_features.contains(F::STORAGE_IMAGE_ATOMIC) {
            assert!(matches!(f.format, vk::Format::R32_UINT | vk::Format::R32_SINT));
        }
    }
    assert!(empty(format_properties_for(vk::Format::UNDEFINED, ALL)));
    assert!(empty(format_properties_for(vk::Format::R64_UINT, ALL)), "no 64-bit channels");
}

fn query(format: vk::Format, ty: vk::ImageType, tiling: vk::ImageTiling) -> ImageQuery {
    ImageQuery {
        format,
        ty,
        tiling,
        usage: vk::ImageUsageFlags::SAMPLED,
        flags: vk::ImageCreateFlags::empty(),
    }
}

#[test]
fn image_format_properties_limits() {
    use vk::{ImageTiling as Ti, ImageType as Ty};
    let p =
        image_format_properties_for(&query(vk::Format::R8_UNORM, Ty::TYPE_2D, Ti::OPTIMAL), ALL)
            .unwrap();
    assert_eq!(p.max_extent, vk::Extent3D { width: 16384, height: 16384, depth: 1 });
    assert_eq!(p.max_mip_levels, 15, "log2(16384) + 1");
    assert_eq!(p.max_array_layers, 2048);
    // A colour-attachment format (R8_UNORM is one) offers every MSAA count.
    assert_eq!(p.sample_counts, MSAA_SAMPLE_COUNTS);
    let p =
        image_format_properties_for(&query(vk::Format::R8_UNORM, Ty::TYPE_3D, Ti::OPTIMAL), ALL)
            .unwrap();
    assert_eq!((p.max_extent.depth, p.max_mip_levels, p.max_array_layers), (2048, 12, 1));
    let p = image_format_properties_for(&query(vk::Format::R8_UNORM, Ty::TYPE_2D, Ti::LINEAR), ALL)
        .unwrap();
    assert_eq!((p.max_mip_levels, p.max_array_layers), (1, 1));
}

/// ALIAS (dEQP-VK.memory.binding.aliasing.*) changes nothing: layouts depend on the create
/// info alone, so the limits are those of the same image without it.
#[test]
fn alias_images_have_the_plain_limits() {
    use vk::{ImageTiling as Ti, ImageType as Ty, ImageUsageFlags as U};
    for (format, tiling) in
        [(vk::Format::R8G8B8A8_UINT, Ti::LINEAR), (vk::Format::R8G8B8A8_UNORM, Ti::OPTIMAL)]
    {
        let plain = ImageQuery {
            usage: U::TRANSFER_SRC | U::TRANSFER_DST,
            ..query(format, Ty::TYPE_2D, tiling)
        };
        let alias = ImageQuery { flags: vk::ImageCreateFlags::ALIAS, ..plain };
        let limits = |q| format!("{:?}", image_format_properties_for(&q, ALL).unwrap());
        assert_eq!(limits(alias), limits(plain));
    }
}

#[test]
fn image_format_properties_refusals() {
    use vk::{ImageTiling as Ti, ImageType as Ty, ImageUsageFlags as U};
    let refused = |q: ImageQuery| {
        assert_eq!(
            image_format_properties_for(&q, ALL).err(),
            Some(VkError::FormatNotSupported),
            "{q:?}"
        )
    };
    refused(query(vk::Format::D16_UNORM, Ty::TYPE_2D, Ti::LINEAR));
    refused(query(vk::Format::D16_UNORM, Ty::TYPE_3D, Ti::OPTIMAL));
    refused(query(vk::Format::BC1_RGB_UNORM_BLOCK, Ty::TYPE_1D, Ti::OPTIMAL));
    refused(query(vk::Format::R32G32B32_SFLOAT, Ty::TYPE_2D, Ti::OPTIMAL));
    refused(query(vk::Format::R8_USCALED, Ty::TYPE_2D, Ti::OPTIMAL));
    refused(query(vk::Format::R64_SFLOAT, Ty::TYPE_2D, Ti::OPTIMAL));
    refused(ImageQuery {
        usage: U::STORAGE,
        ..query(vk::Format::R8G8B8A8_SRGB, Ty::TYPE_2D, Ti::OPTIMAL)
    });
    refused(ImageQuery {
        usage: U::COLOR_ATTACHMENT,
        ..query(vk::Format::E5B9G9R9_UFLOAT_PACK32, Ty::TYPE_2D, Ti::OPTIMAL)
    });
    refused(ImageQuery {
        usage: U::DEPTH_STENCIL_ATTACHMENT,
        ..query(vk::Format::R8_UNORM, Ty::TYPE_2D, Ti::OPTIMAL)
    });
    refused(ImageQuery {
        flags: vk::ImageCreateFlags::SPARSE_BINDING,
        ..query(vk::Format::R8_UNORM, Ty::TYPE_2D, Ti::OPTIMAL)
    });
    refused(ImageQuery {
        flags: vk::ImageCreateFlags::CUBE_COMPATIBLE,
        ..query(vk::Format::R8_UNORM, Ty::TYPE_3D, Ti::OPTIMAL)
    });
    // Nothing for usages a format's tests do not prove: sRGB formats are not proven as
    // storage images (nor does the hardware have them).
    let q = ImageQuery {
        usage: U::STORAGE,
        ..query(vk::Format::B8G8R8A8_SRGB, Ty::TYPE_2D, Ti::OPTIMAL)
    };
    assert_eq!(
        image_format_properties_for(&q, proven(q.format)).err(),
        Some(VkError::FormatNotSupported)
    );
    let q = ImageQuery {
        usage: U::DEPTH_STENCIL_ATTACHMENT,
        ..query(vk::Format::R8G8B8A8_UNORM, Ty::TYPE_2D, Ti::OPTIMAL)
    };
    assert_eq!(
        image_format_properties_for(&q, proven(q.format)).err(),
        Some(VkError::FormatNotSupported)
    );
}

#[test]
fn table_rows_are_consistent() {
    for (i, f) in FORMATS.iter().enumerate() {
        assert!(FORMATS[i + 1..].iter().all(|g| g.format != f.format), "{:?} twice", f.format);
        assert!(f.img_format != 0 || f.buf_format != 0, "{:?} has no encoding", f.format);
        // GFX10 image formats: 1..=77 (buffer-capable) or 128..=182 (image only).
        assert!(f.img_format <= 77 || (128..=182).contains(&f.img_format));
        assert!(f.buf_format <= 77);
        if f.buf_format != 0 && f.img_format != 0 {
            assert_eq!(u16::from(f.buf_format), f.img_format, "{:?}", f.format);
        }
    }
}

#[test]
fn extended_usage_takes_the_usage_of_the_compatibility_class() {
    type C = vk::ImageCreateFlags;
    // BGRA8 is no storage format, RGBA8 of its class is (VK_KHR_maintenance2).
    let mut q = query(vk::Format::B8G8R8A8_UNORM, vk::ImageType::TYPE_2D, vk::ImageTiling::OPTIMAL);
    q.usage = vk::ImageUsageFlags::STORAGE;
    assert!(image_format_properties(&q).is_err());
    q.flags = C::MUTABLE_FORMAT;
    assert!(image_format_properties(&q).is_err());
    q.flags = C::MUTABLE_FORMAT | C::EXTENDED_USAGE;
    assert!(image_format_properties(&q).is_ok());
    assert!(view_usage_supported(vk::Format::R8G8B8A8_UNORM, q.tiling, q.usage));
    assert!(!view_usage_supported(vk::Format::B8G8R8A8_UNORM, q.tiling, q.usage));
    // No uncompressed views of compressed blocks.
    q.flags |= C::BLOCK_TEXEL_VIEW_COMPATIBLE;
    assert!(image_format_properties(&q).is_err());
}

/// The spec's "Supported Sample Counts": a 2D optimal image of an advertised colour-attachment
/// format, with COLOR_ATTACHMENT usage, offers at least framebufferColorSampleCounts (integer
/// formats too: framebufferIntegerColorSampleCounts only exists from Vulkan 1.2); a
/// depth/stencil attachment framebufferDepthSampleCounts. The conformance suite relies on it
/// (api.info.image_format_properties, rasterization_order_attachment_access creating 8-sample
/// R32G32_SFLOAT targets from the limits alone): a format gaining COLOR_ATTACHMENT needs its
/// multisampled proof (`proven_msaa`, tests/tests/msaa.rs) too.
#[test]
fn attachment_formats_offer_the_framebuffer_sample_counts() {
    let limits = crate::core::physical_device::limits::navi21_limits();
    for f in FORMATS {
        let features = format_properties(f.format).optimal_tiling_features;
        // Below Vulkan 1.2 integer formats are held to framebufferColorSampleCounts too.
        let (usage, want) = if features.contains(F::COLOR_ATTACHMENT) {
            (vk::ImageUsageFlags::COLOR_ATTACHMENT, limits.framebuffer_color_sample_counts)
        } else if features.contains(F::DEPTH_STENCIL_ATTACHMENT) {
            (vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT, limits.framebuffer_depth_sample_counts)
        } else {
            continue;
        };
        let q = ImageQuery {
            usage,
            ..query(f.format, vk::ImageType::TYPE_2D, vk::ImageTiling::OPTIMAL)
        };
        let got = image_format_properties(&q).unwrap().sample_counts;
        assert!(got.contains(want), "{:?}: sampleCounts {got:?}, must include {want:?}", f.format);
    }
}

#[test]
fn srgb_formats_store_through_their_unorm_twin() {
    use vk::Format as Fm;
    let twin = |f| info(f).unwrap().unorm_twin().map(|t| t.format);
    assert_eq!(twin(Fm::R8G8B8A8_SRGB), Some(Fm::R8G8B8A8_UNORM));
    assert_eq!(twin(Fm::A8B8G8R8_SRGB_PACK32), Some(Fm::R8G8B8A8_UNORM));
    assert_eq!(twin(Fm::B8G8R8A8_SRGB), Some(Fm::B8G8R8A8_UNORM));
    assert_eq!(twin(Fm::R8_SRGB), Some(Fm::R8_UNORM));
    assert_eq!(twin(Fm::R8G8_SRGB), Some(Fm::R8G8_UNORM));
    assert_eq!(twin(Fm::R8G8B8A8_UNORM), None);
    assert_eq!(twin(Fm::BC7_SRGB_BLOCK), None);
    assert!(proven_blit_dst(Fm::R8G8B8A8_SRGB));
    assert!(proven_blit_dst(Fm::B8G8R8A8_SRGB));
}

#[test]
fn blits_store_through_a_format_of_the_same_memory() {
    use vk::Format as Fm;
    let plan = |f| info(f).unwrap().blit_store().map(|s| (s.via.format, s.srgb, s.swap_rb));
    assert_eq!(plan(Fm::R16G16_SFLOAT), Some((Fm::R16G16_SFLOAT, false, false)));
    assert_eq!(plan(Fm::R8G8B8A8_SRGB), Some((Fm::R8G8B8A8_UNORM, true, false)));
    assert_eq!(plan(Fm::B8G8R8A8_UNORM), Some((Fm::R8G8B8A8_UNORM, false, true)));
    assert_eq!(plan(Fm::B8G8R8A8_SRGB), Some((Fm::R8G8B8A8_UNORM, true, true)));
    // Same channel order reversed, but 10-bit channels: A2B10G10R10, not RGBA8.
    assert_eq!(
        plan(Fm::A2R10G10B10_UNORM_PACK32),
        Some((Fm::A2B10G10R10_UNORM_PACK32, false, true))
    );
    // Packed 16-bit UNORM: through R16_UINT, packed by the kernel.
    let packed = |f| info(f).unwrap().blit_store().map(|s| (s.via.format, s.pack16));
    for f in [
        Fm::R5G6B5_UNORM_PACK16,
        Fm::B5G6R5_UNORM_PACK16,
        Fm::A1R5G5B5_UNORM_PACK16,
        Fm::R5G5B5A1_UNORM_PACK16,
        Fm::B5G5R5A1_UNORM_PACK16,
        Fm::R4G4B4A4_UNORM_PACK16,
        Fm::B4G4R4A4_UNORM_PACK16,
    ] {
        assert_eq!(packed(f), Some((Fm::R16_UINT, true)), "{f:?}");
    }
    assert_eq!(packed(Fm::R16_UNORM), Some((Fm::R16_UNORM, false)));
    assert_eq!(packed(Fm::R8G8_UNORM), Some((Fm::R8G8_UNORM, false)));
}

#[test]
fn every_extended_storage_format_is_a_storage_image() {
    // shaderStorageImageExtendedFormats is on: each format of its list must have
    // STORAGE_IMAGE with optimal tiling (and a hardware table row that stores it).
    assert_eq!(PROVEN_STORAGE_EXTENDED.len(), 23);
    for &f in PROVEN_STORAGE_EXTENDED {
        assert!(info(f).unwrap().caps.contains(Caps::STORAGE), "{f:?}");
        let p = format_properties_for(f, proven(f));
        assert!(p.optimal_tiling_features.contains(F::STORAGE_IMAGE), "{f:?}");
    }
}

/// LINEAR tiling advertises copies and clears of the formats whose copies are proven, for one
/// 2D level and layer, and nothing else: no sampling, storage or attachment of linear images.
#[test]
fn linear_tiling_advertises_transfer_only() {
    use vk::{ImageTiling as Ti, ImageType as Ty, ImageUsageFlags as U};
    let transfer = F::TRANSFER_SRC | F::TRANSFER_DST;
    for &format in PROVEN_TRANSFER {
        let p = format_properties_for(format, proven_linear(format));
        let want = if info(format).is_some_and(linear_allowed) { transfer } else { F::empty() };
        assert_eq!(p.linear_tiling_features, want, "{format:?}");
    }
    let rgba8 = vk::Format::R8G8B8A8_UNORM;
    let caps = proven_linear(rgba8);
    let copies = ImageQuery {
        usage: U::TRANSFER_SRC | U::TRANSFER_DST,
        ..query(rgba8, Ty::TYPE_2D, Ti::LINEAR)
    };
    let p = image_format_properties_for(&copies, caps).unwrap();
    assert_eq!(
        (p.max_mip_levels, p.max_array_layers, p.sample_counts),
        (1, 1, vk::SampleCountFlags::TYPE_1)
    );
    let refused = |q: ImageQuery, caps| {
        assert_eq!(
            image_format_properties_for(&q, caps).err(),
            Some(VkError::FormatNotSupported),
            "{q:?}"
        );
    };
    for usage in [U::SAMPLED, U::STORAGE, U::COLOR_ATTACHMENT, U::INPUT_ATTACHMENT] {
        refused(ImageQuery { usage: usage | U::TRANSFER_DST, ..copies }, caps);
    }
    refused(ImageQuery { ty: Ty::TYPE_3D, ..copies }, caps);
    refused(ImageQuery { ty: Ty::TYPE_1D, ..copies }, caps);
    // A format with no proven copies has no linear images at all.
    let r4g4 = vk::Format::R4G4_UNORM_PACK8;
    assert_eq!(proven_linear(r4g4), Caps(0));
    refused(ImageQuery { format: r4g4, ..copies }, proven_linear(r4g4));
}
