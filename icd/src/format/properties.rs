//! `vkGetPhysicalDeviceFormatProperties(2)` and `...ImageFormatProperties(2)` answers,
//! derived from the format table and the paths that work end to end.

use ash::vk;

use super::{info, Caps, FormatInfo, Numeric};
use crate::core::physical_device::limits::MAX_MEMORY_ALLOCATION_SIZE;
use crate::error::{VkError, VkResult};

type F = vk::FormatFeatureFlags;

/// The paths that work end to end today, per format (each a [`Caps`] bit that the format's
/// hardware capability is masked with), for OPTIMAL tiling only (LINEAR: [`proven_linear`]).
/// A format and bit are added here only together with
/// the tests that prove them: SAMPLE, FILTER and STORAGE by `tests/tests/image_shaders.rs`
/// (STORAGE of the integer and 32-bit float formats listed with it alone too)
/// (a shader's imageStore to a swizzled 2-level, 2-layer image, read back through imageLoad,
/// texelFetch and nearest/linear textureLod, differential against lavapipe; FILTER only for
/// the float formats there); DEPTH_STENCIL (depth/stencil
/// attachment) by `tests/tests/graphics_depth.rs` (depth and stencil tests, ops, clears, load
/// ops, bias, clamp and bounds on D16, D32, S8 and D32S8, read back by copies, differential
/// against lavapipe). TRANSFER is [`PROVEN_TRANSFER`], BLIT [`PROVEN_BLIT`], sampling of the
/// other formats and uniform texel buffers (FETCH) [`PROVEN_SAMPLED`], vertex input
/// [`PROVEN_VERTEX`], COLOR and BLEND (colour attachments, with blending) [`PROVEN_COLOR`]; ATOMIC and BUFFER_ATOMIC image and texel-buffer atomics
/// ([`PROVEN_ATOMICS`]), BUFFER_STORAGE storage texel buffers.
pub const PROVEN: &[(vk::Format, Caps)] = &[
    (vk::Format::R8G8B8A8_UNORM, Caps::SAMPLE.union(Caps::FILTER).union(Caps::STORAGE)),
    (vk::Format::R16G16B16A16_SFLOAT, Caps::SAMPLE.union(Caps::FILTER).union(Caps::STORAGE)),
    (vk::Format::R32G32B32A32_SFLOAT, Caps::SAMPLE.union(Caps::FILTER).union(Caps::STORAGE)),
    (vk::Format::R32_UINT, Caps::SAMPLE.union(Caps::STORAGE).union(PROVEN_ATOMICS)),
    (vk::Format::R32_SINT, Caps::SAMPLE.union(Caps::STORAGE).union(PROVEN_ATOMICS)),
    (vk::Format::R8G8B8A8_SNORM, Caps::STORAGE),
    (vk::Format::A8B8G8R8_UNORM_PACK32, Caps::STORAGE),
    (vk::Format::A8B8G8R8_SNORM_PACK32, Caps::STORAGE),
    (vk::Format::A8B8G8R8_UINT_PACK32, Caps::STORAGE),
    (vk::Format::A8B8G8R8_SINT_PACK32, Caps::STORAGE),
    (vk::Format::R8G8B8A8_UINT, Caps::STORAGE),
    (vk::Format::R8G8B8A8_SINT, Caps::STORAGE),
    (vk::Format::R16G16B16A16_UINT, Caps::STORAGE),
    (vk::Format::R16G16B16A16_SINT, Caps::STORAGE),
    (vk::Format::R32_SFLOAT, Caps::STORAGE),
    (vk::Format::R32G32_UINT, Caps::STORAGE),
    (vk::Format::R32G32_SINT, Caps::STORAGE),
    (vk::Format::R32G32_SFLOAT, Caps::STORAGE),
    (vk::Format::R32G32B32A32_UINT, Caps::STORAGE),
    (vk::Format::R32G32B32A32_SINT, Caps::STORAGE),
    (vk::Format::D16_UNORM, Caps::DEPTH_STENCIL),
    (vk::Format::D32_SFLOAT, Caps::DEPTH_STENCIL),
    (vk::Format::S8_UINT, Caps::DEPTH_STENCIL),
    (vk::Format::D32_SFLOAT_S8_UINT, Caps::DEPTH_STENCIL),
];

/// Image and texel-buffer atomics (every GLSL atomic on a 2D-array storage image and an
/// imageBuffer, colliding and owned texels, returned and final values), proven for R32_UINT
/// and R32_SINT by `tests/tests/image_atomics.rs` (`r32_atomics_match_lavapipe`,
/// differential against lavapipe).
const PROVEN_ATOMICS: Caps = Caps::ATOMIC.union(Caps::BUFFER_ATOMIC);

/// Formats whose transfers (copies with buffers and images, and clears for the formats
/// that have them) are proven with OPTIMAL tiling by `tests/tests/meta_transfer.rs`: uploads
/// of 3 levels and 2 layers, clears of a level and layer range, image-to-image copies at
/// offsets and padded downloads, byte-exact against lavapipe, validation on. Formats lavapipe
/// does not copy (R4G4, R4G4B4A4, R8_SRGB, R8G8_SRGB, A2B10G10R10_SINT) are not listed.
pub const PROVEN_TRANSFER: &[vk::Format] = &[
    vk::Format::R8_UNORM,
    vk::Format::R8_SNORM,
    vk::Format::R8_UINT,
    vk::Format::R8_SINT,
    vk::Format::B4G4R4A4_UNORM_PACK16,
    vk::Format::R5G6B5_UNORM_PACK16,
    vk::Format::B5G6R5_UNORM_PACK16,
    vk::Format::R5G5B5A1_UNORM_PACK16,
    vk::Format::B5G5R5A1_UNORM_PACK16,
    vk::Format::A1R5G5B5_UNORM_PACK16,
    vk::Format::R8G8_UNORM,
    vk::Format::R8G8_SNORM,
    vk::Format::R8G8_UINT,
    vk::Format::R8G8_SINT,
    vk::Format::R16_UNORM,
    vk::Format::R16_SNORM,
    vk::Format::R16_UINT,
    vk::Format::R16_SINT,
    vk::Format::R16_SFLOAT,
    vk::Format::R8G8B8A8_UNORM,
    vk::Format::R8G8B8A8_SNORM,
    vk::Format::R8G8B8A8_UINT,
    vk::Format::R8G8B8A8_SINT,
    vk::Format::R8G8B8A8_SRGB,
    vk::Format::B8G8R8A8_UNORM,
    vk::Format::B8G8R8A8_SNORM,
    vk::Format::B8G8R8A8_UINT,
    vk::Format::B8G8R8A8_SINT,
    vk::Format::B8G8R8A8_SRGB,
    vk::Format::A8B8G8R8_UNORM_PACK32,
    vk::Format::A8B8G8R8_SNORM_PACK32,
    vk::Format::A8B8G8R8_UINT_PACK32,
    vk::Format::A8B8G8R8_SINT_PACK32,
    vk::Format::A8B8G8R8_SRGB_PACK32,
    vk::Format::A2R10G10B10_UNORM_PACK32,
    vk::Format::A2R10G10B10_UINT_PACK32,
    vk::Format::A2B10G10R10_UNORM_PACK32,
    vk::Format::A2B10G10R10_SNORM_PACK32,
    vk::Format::A2B10G10R10_UINT_PACK32,
    vk::Format::R16G16_UNORM,
    vk::Format::R16G16_SNORM,
    vk::Format::R16G16_UINT,
    vk::Format::R16G16_SINT,
    vk::Format::R16G16_SFLOAT,
    vk::Format::R32_UINT,
    vk::Format::R32_SINT,
    vk::Format::R32_SFLOAT,
    vk::Format::B10G11R11_UFLOAT_PACK32,
    vk::Format::E5B9G9R9_UFLOAT_PACK32,
    vk::Format::R16G16B16A16_UNORM,
    vk::Format::R16G16B16A16_SNORM,
    vk::Format::R16G16B16A16_UINT,
    vk::Format::R16G16B16A16_SINT,
    vk::Format::R16G16B16A16_SFLOAT,
    vk::Format::R32G32_UINT,
    vk::Format::R32G32_SINT,
    vk::Format::R32G32_SFLOAT,
    vk::Format::R32G32B32A32_UINT,
    vk::Format::R32G32B32A32_SINT,
    vk::Format::R32G32B32A32_SFLOAT,
    vk::Format::D16_UNORM,
    vk::Format::D32_SFLOAT,
    vk::Format::S8_UINT,
    vk::Format::D32_SFLOAT_S8_UINT,
    vk::Format::BC1_RGB_UNORM_BLOCK,
    vk::Format::BC1_RGB_SRGB_BLOCK,
    vk::Format::BC1_RGBA_UNORM_BLOCK,
    vk::Format::BC1_RGBA_SRGB_BLOCK,
    vk::Format::BC2_UNORM_BLOCK,
    vk::Format::BC2_SRGB_BLOCK,
    vk::Format::BC3_UNORM_BLOCK,
    vk::Format::BC3_SRGB_BLOCK,
    vk::Format::BC4_UNORM_BLOCK,
    vk::Format::BC4_SNORM_BLOCK,
    vk::Format::BC5_UNORM_BLOCK,
    vk::Format::BC5_SNORM_BLOCK,
    vk::Format::BC6H_UFLOAT_BLOCK,
    vk::Format::BC6H_SFLOAT_BLOCK,
    vk::Format::BC7_UNORM_BLOCK,
    vk::Format::BC7_SRGB_BLOCK,
];

/// Formats whose blits in both directions (`BLIT_SRC` with their proven SAMPLE, `BLIT_DST`
/// with their proven STORAGE: the blit kernel samples the source and stores the destination)
/// are proven by `tests/tests/meta_blit.rs` (`blits_match_lavapipe`): scaled, mirrored,
/// layered and last-level blits with nearest and (float formats) linear filters, conversions
/// between them, differential against lavapipe.
pub const PROVEN_BLIT: &[vk::Format] = &[
    vk::Format::R8G8B8A8_UNORM,
    vk::Format::R16G16B16A16_SFLOAT,
    vk::Format::R32G32B32A32_SFLOAT,
    vk::Format::R32_UINT,
    vk::Format::R32_SINT,
];

/// Sampled colour formats lavapipe does not blit, so no blit of theirs is proven.
const UNBLITTED: &[vk::Format] =
    &[vk::Format::B5G6R5_UNORM_PACK16, vk::Format::A2R10G10B10_UNORM_PACK32];

/// The depth formats whose depth plane is proven blitted (nearest, into the same format:
/// `BLIT_SRC` and `BLIT_DST`) by `meta_blit.rs` (`depth_blits_match_lavapipe`: the blits of
/// `blits_match_lavapipe`, bit-exact against lavapipe).
const PROVEN_DEPTH_BLIT: &[vk::Format] = &[vk::Format::D16_UNORM, vk::Format::D32_SFLOAT];

/// Whether `format` is proven as a blit source (`BLIT_SRC`) by `meta_blit.rs`
/// (`every_sampled_format_blits_as_source`: the blits of `blits_match_lavapipe` into RGBA32F,
/// R32_UINT or R32_SINT, nearest and, non-integer, linear, differential against lavapipe):
/// the colour formats of [`PROVEN_SAMPLED`] but [`UNBLITTED`]; and [`PROVEN_DEPTH_BLIT`].
pub fn proven_blit_src(format: vk::Format) -> bool {
    let depth = info(format).is_some_and(FormatInfo::is_depth_stencil);
    PROVEN_SAMPLED.contains(&format) && !UNBLITTED.contains(&format) && !depth
        || PROVEN_DEPTH_BLIT.contains(&format)
}

/// Whether `format` is proven as a blit destination (`BLIT_DST`) by `meta_blit.rs`
/// (`every_colour_format_blits_as_destination`: the blits of `blits_match_lavapipe` from the
/// same format, nearest, and for non-integer formats linear from RGBA32F, against
/// lavapipe): the colour targets of [`PROVEN_COLOR`] that are blit sources and that the blit
/// kernel can store, through a typed storage T# ([`FormatInfo::blit_store`]: the format, or
/// for sRGB its UNORM twin with the kernel encoding sRGB, and for BGRA the RGBA format of the
/// same layout with R and B swapped; for packed 16-bit UNORM formats R16_UINT, the kernel
/// packing the channels: also `meta_blit_edges.rs`, hand-computed edges). Depth:
/// [`PROVEN_DEPTH_BLIT`].
pub fn proven_blit_dst(format: vk::Format) -> bool {
    let Some(f) = info(format) else { return false };
    PROVEN_DEPTH_BLIT.contains(&format)
        || PROVEN_COLOR.contains(&format)
            && proven_blit_src(format)
            && !UNBLITTED_DST.contains(&format)
            && f.blit_store().is_some()
}

/// Colour targets lavapipe does not blit into (no `BLIT_DST`), so no blit into them is
/// proven (B10G11R11: the kernel would store it directly, typed).
const UNBLITTED_DST: &[vk::Format] = &[vk::Format::B10G11R11_UFLOAT_PACK32];

/// Whether multisampled images (2, 4 and 8 samples) of `format` are proven end to end by
/// `tests/tests/msaa.rs`: every colour format of [`PROVEN_COLOR`] (rendering per sample is
/// the colour back end's format-independent path, proven by rendering on RGBA8, BGRA8,
/// B10G11R11, RGBA16F and RGBA32F; every listed format is cleared, copied and resolved at
/// 2/4/8 samples against lavapipe; integer formats resolve sample 0) and the depth/stencil
/// formats of [`PROVEN_MSAA_DEPTH_STENCIL`]. Below Vulkan 1.2 every colour-attachment format,
/// integer formats included, must offer framebufferColorSampleCounts (the spec's "Supported
/// Sample Counts"; `properties_tests` checks it), so a format gaining COLOR_ATTACHMENT gains
/// its multisampled proof here by construction.
pub fn proven_msaa(format: vk::Format) -> bool {
    PROVEN_COLOR.contains(&format) || PROVEN_MSAA_DEPTH_STENCIL.contains(&format)
}

/// Depth/stencil formats of [`proven_msaa`]: per-sample depth-tested attachments with
/// load-op clears in `msaa.rs` (depth/stencil resolves are not offered); the stencil
/// formats' per-sample stencil tests are proven by the conformance suite's
/// `pipeline.monolithic.multisample.raster_samples.*.stencil` / `depth_stencil` and
/// `std_sample_locations.draw.stencil.*` (all pass), D32S8's depth plane by `msaa.rs`.
pub const PROVEN_MSAA_DEPTH_STENCIL: &[vk::Format] = &[
    vk::Format::D16_UNORM,
    vk::Format::D32_SFLOAT,
    vk::Format::S8_UINT,
    vk::Format::D32_SFLOAT_S8_UINT,
];

/// The sample counts a multisampled image may have (navi21's `_R`/`_Z` MSAA layouts stop at 8).
pub const MSAA_SAMPLE_COUNTS: vk::SampleCountFlags = vk::SampleCountFlags::from_raw(
    vk::SampleCountFlags::TYPE_1.as_raw()
        | vk::SampleCountFlags::TYPE_2.as_raw()
        | vk::SampleCountFlags::TYPE_4.as_raw()
        | vk::SampleCountFlags::TYPE_8.as_raw(),
);

/// Formats whose vertex-buffer fetch (`VERTEX_BUFFER`) is proven by `tests/tests/format_render.rs`
/// (`every_vertex_format_fetches_like_lavapipe`: one point per vertex of a buffer read at an
/// offset and a stride wider than the format, every component's value and the defaults of the
/// missing ones written out bit for bit, differential against lavapipe), besides
/// `tests/tests/graphics.rs` (per-vertex and per-instance rates) and `tests/tests/cube.rs`:
/// every format the hardware fetches that lavapipe fetches too (not A2B10G10R10_SINT).
pub const PROVEN_VERTEX: &[vk::Format] = &[
    vk::Format::R8_UNORM,
    vk::Format::R8_SNORM,
    vk::Format::R8_USCALED,
    vk::Format::R8_SSCALED,
    vk::Format::R8_UINT,
    vk::Format::R8_SINT,
    vk::Format::R8G8_UNORM,
    vk::Format::R8G8_SNORM,
    vk::Format::R8G8_USCALED,
    vk::Format::R8G8_SSCALED,
    vk::Format::R8G8_UINT,
    vk::Format::R8G8_SINT,
    vk::Format::R16_UNORM,
    vk::Format::R16_SNORM,
    vk::Format::R16_USCALED,
    vk::Format::R16_SSCALED,
    vk::Format::R16_UINT,
    vk::Format::R16_SINT,
    vk::Format::R16_SFLOAT,
    vk::Format::R8G8B8A8_UNORM,
    vk::Format::R8G8B8A8_SNORM,
    vk::Format::R8G8B8A8_USCALED,
    vk::Format::R8G8B8A8_SSCALED,
    vk::Format::R8G8B8A8_UINT,
    vk::Format::R8G8B8A8_SINT,
    vk::Format::B8G8R8A8_UNORM,
    vk::Format::A8B8G8R8_UNORM_PACK32,
    vk::Format::A8B8G8R8_SNORM_PACK32,
    vk::Format::A8B8G8R8_USCALED_PACK32,
    vk::Format::A8B8G8R8_SSCALED_PACK32,
    vk::Format::A8B8G8R8_UINT_PACK32,
    vk::Format::A8B8G8R8_SINT_PACK32,
    vk::Format::A2R10G10B10_UNORM_PACK32,
    vk::Format::A2B10G10R10_UNORM_PACK32,
    vk::Format::A2B10G10R10_SNORM_PACK32,
    vk::Format::A2B10G10R10_USCALED_PACK32,
    vk::Format::A2B10G10R10_SSCALED_PACK32,
    vk::Format::A2B10G10R10_UINT_PACK32,
    vk::Format::R16G16_UNORM,
    vk::Format::R16G16_SNORM,
    vk::Format::R16G16_USCALED,
    vk::Format::R16G16_SSCALED,
    vk::Format::R16G16_UINT,
    vk::Format::R16G16_SINT,
    vk::Format::R16G16_SFLOAT,
    vk::Format::R32_UINT,
    vk::Format::R32_SINT,
    vk::Format::R32_SFLOAT,
    vk::Format::B10G11R11_UFLOAT_PACK32,
    vk::Format::R16G16B16A16_UNORM,
    vk::Format::R16G16B16A16_SNORM,
    vk::Format::R16G16B16A16_USCALED,
    vk::Format::R16G16B16A16_SSCALED,
    vk::Format::R16G16B16A16_UINT,
    vk::Format::R16G16B16A16_SINT,
    vk::Format::R16G16B16A16_SFLOAT,
    vk::Format::R32G32_UINT,
    vk::Format::R32G32_SINT,
    vk::Format::R32G32_SFLOAT,
    vk::Format::R32G32B32_UINT,
    vk::Format::R32G32B32_SINT,
    vk::Format::R32G32B32_SFLOAT,
    vk::Format::R32G32B32A32_UINT,
    vk::Format::R32G32B32A32_SINT,
    vk::Format::R32G32B32A32_SFLOAT,
];

/// Formats whose colour attachments (`COLOR_ATTACHMENT`, and `COLOR_ATTACHMENT_BLEND` for the
/// formats [`blends`]) are proven by `tests/tests/format_render.rs`
/// (`every_colour_format_renders_like_lavapipe`: a load-op clear, pixel-exact rectangles whose
/// values cover each channel's range and beyond (clamping), an overwrite, and two blended
/// draws (alpha blending; reverse subtract with MAX alpha) over each other; the texels read
/// back by copies and compared channel by channel with lavapipe's), besides the scenes of
/// `tests/tests/graphics.rs`. Formats lavapipe does not copy (R4G4B4A4, R8_SRGB, R8G8_SRGB)
/// are not listed.
pub const PROVEN_COLOR: &[vk::Format] = &[
    vk::Format::B4G4R4A4_UNORM_PACK16,
    vk::Format::R5G6B5_UNORM_PACK16,
    vk::Format::B5G6R5_UNORM_PACK16,
    vk::Format::R5G5B5A1_UNORM_PACK16,
    vk::Format::B5G5R5A1_UNORM_PACK16,
    vk::Format::A1R5G5B5_UNORM_PACK16,
    vk::Format::R8_UNORM,
    vk::Format::R8_SNORM,
    vk::Format::R8_UINT,
    vk::Format::R8_SINT,
    vk::Format::R8G8_UNORM,
    vk::Format::R8G8_SNORM,
    vk::Format::R8G8_UINT,
    vk::Format::R8G8_SINT,
    vk::Format::R16_UNORM,
    vk::Format::R16_SNORM,
    vk::Format::R16_UINT,
    vk::Format::R16_SINT,
    vk::Format::R16_SFLOAT,
    vk::Format::R8G8B8A8_UNORM,
    vk::Format::R8G8B8A8_SNORM,
    vk::Format::R8G8B8A8_UINT,
    vk::Format::R8G8B8A8_SINT,
    vk::Format::R8G8B8A8_SRGB,
    vk::Format::B8G8R8A8_UNORM,
    vk::Format::B8G8R8A8_SNORM,
    vk::Format::B8G8R8A8_UINT,
    vk::Format::B8G8R8A8_SINT,
    vk::Format::B8G8R8A8_SRGB,
    vk::Format::A8B8G8R8_UNORM_PACK32,
    vk::Format::A8B8G8R8_SNORM_PACK32,
    vk::Format::A8B8G8R8_UINT_PACK32,
    vk::Format::A8B8G8R8_SINT_PACK32,
    vk::Format::A8B8G8R8_SRGB_PACK32,
    vk::Format::A2R10G10B10_UNORM_PACK32,
    vk::Format::A2R10G10B10_UINT_PACK32,
    vk::Format::A2B10G10R10_UNORM_PACK32,
    vk::Format::A2B10G10R10_UINT_PACK32,
    vk::Format::R16G16_UNORM,
    vk::Format::R16G16_SNORM,
    vk::Format::R16G16_UINT,
    vk::Format::R16G16_SINT,
    vk::Format::R16G16_SFLOAT,
    vk::Format::R32_UINT,
    vk::Format::R32_SINT,
    vk::Format::R32_SFLOAT,
    vk::Format::B10G11R11_UFLOAT_PACK32,
    vk::Format::R16G16B16A16_UNORM,
    vk::Format::R16G16B16A16_SNORM,
    vk::Format::R16G16B16A16_UINT,
    vk::Format::R16G16B16A16_SINT,
    vk::Format::R16G16B16A16_SFLOAT,
    vk::Format::R32G32_UINT,
    vk::Format::R32G32_SINT,
    vk::Format::R32G32_SFLOAT,
    vk::Format::R32G32B32A32_UINT,
    vk::Format::R32G32B32A32_SINT,
    vk::Format::R32G32B32A32_SFLOAT,
];

/// Whether a colour attachment of `format` is proven with blending: the UNORM, sRGB and
/// float formats of [`PROVEN_COLOR`] (integer formats are never blended; lavapipe, the
/// oracle, does not blend SNORM targets).
pub fn blends(format: vk::Format) -> bool {
    let blendable = info(format)
        .is_some_and(|f| matches!(f.numeric, Numeric::Unorm | Numeric::Srgb | Numeric::Float));
    PROVEN_COLOR.contains(&format) && blendable
}

/// Formats whose storage texel buffers (imageStore and imageLoad through an imageBuffer, the
/// buffer's bytes and the loaded values) are proven by `tests/tests/image_shaders.rs`
/// (`storage_texel_buffers_match_lavapipe`, differential against lavapipe). Texel-buffer
/// atomics are not proven.
pub const PROVEN_STORAGE_TEXEL: &[vk::Format] = &[
    vk::Format::R8G8B8A8_UNORM,
    vk::Format::R8G8B8A8_SNORM,
    vk::Format::A8B8G8R8_UNORM_PACK32,
    vk::Format::A8B8G8R8_SNORM_PACK32,
    vk::Format::A8B8G8R8_UINT_PACK32,
    vk::Format::A8B8G8R8_SINT_PACK32,
    vk::Format::R8G8B8A8_UINT,
    vk::Format::R8G8B8A8_SINT,
    vk::Format::R16G16B16A16_UINT,
    vk::Format::R16G16B16A16_SINT,
    vk::Format::R16G16B16A16_SFLOAT,
    vk::Format::R32_UINT,
    vk::Format::R32_SINT,
    vk::Format::R32_SFLOAT,
    vk::Format::R32G32_UINT,
    vk::Format::R32G32_SINT,
    vk::Format::R32G32_SFLOAT,
    vk::Format::R32G32B32A32_UINT,
    vk::Format::R32G32B32A32_SINT,
    vk::Format::R32G32B32A32_SFLOAT,
];

/// The formats of the spec's `shaderStorageImageExtendedFormats` feature ("Features",
/// the list under the feature), whose storage images (STORAGE) are proven by
/// `tests/tests/image_shaders.rs` (`storage_fetch_and_sampling_match_lavapipe` and the
/// unformatted variant: imageStore to a swizzled 2-level, 2-layer image, read back through
/// imageLoad, texelFetch and nearest textureLod, differential against lavapipe).
pub const PROVEN_STORAGE_EXTENDED: &[vk::Format] = &[
    vk::Format::R16G16_SFLOAT,
    vk::Format::B10G11R11_UFLOAT_PACK32,
    vk::Format::R16_SFLOAT,
    vk::Format::R16G16B16A16_UNORM,
    vk::Format::A2B10G10R10_UNORM_PACK32,
    vk::Format::R16G16_UNORM,
    vk::Format::R8G8_UNORM,
    vk::Format::R16_UNORM,
    vk::Format::R8_UNORM,
    vk::Format::R16G16B16A16_SNORM,
    vk::Format::R16G16_SNORM,
    vk::Format::R8G8_SNORM,
    vk::Format::R16_SNORM,
    vk::Format::R8_SNORM,
    vk::Format::R16G16_SINT,
    vk::Format::R8G8_SINT,
    vk::Format::R16_SINT,
    vk::Format::R8_SINT,
    vk::Format::A2B10G10R10_UINT_PACK32,
    vk::Format::R16G16_UINT,
    vk::Format::R8G8_UINT,
    vk::Format::R16_UINT,
    vk::Format::R8_UINT,
];

/// Formats whose sampling is proven by `tests/tests/format_sampling.rs`: a copy-uploaded
/// 2-level, 2-layer image read back through texelFetch and nearest textureLod (SAMPLE), linear
/// textureLod for the non-integer colour formats (FILTER, where the hardware filters), and the same
/// bytes through a uniform texel buffer for the formats with a buffer format (FETCH), all
/// differential against lavapipe; the depth formats through their depth aspect, also with
/// depth-compare samplers.
pub const PROVEN_SAMPLED: &[vk::Format] = &[
    vk::Format::B4G4R4A4_UNORM_PACK16,
    vk::Format::R5G6B5_UNORM_PACK16,
    vk::Format::B5G6R5_UNORM_PACK16,
    vk::Format::R5G5B5A1_UNORM_PACK16,
    vk::Format::B5G5R5A1_UNORM_PACK16,
    vk::Format::A1R5G5B5_UNORM_PACK16,
    vk::Format::R8_UNORM,
    vk::Format::R8_SNORM,
    vk::Format::R8_UINT,
    vk::Format::R8_SINT,
    vk::Format::R8G8_UNORM,
    vk::Format::R8G8_SNORM,
    vk::Format::R8G8_UINT,
    vk::Format::R8G8_SINT,
    vk::Format::R16_UNORM,
    vk::Format::R16_SNORM,
    vk::Format::R16_UINT,
    vk::Format::R16_SINT,
    vk::Format::R16_SFLOAT,
    vk::Format::R8G8B8A8_UNORM,
    vk::Format::R8G8B8A8_SNORM,
    vk::Format::R8G8B8A8_UINT,
    vk::Format::R8G8B8A8_SINT,
    vk::Format::R8G8B8A8_SRGB,
    vk::Format::B8G8R8A8_UNORM,
    vk::Format::B8G8R8A8_SRGB,
    vk::Format::A8B8G8R8_UNORM_PACK32,
    vk::Format::A8B8G8R8_SNORM_PACK32,
    vk::Format::A8B8G8R8_UINT_PACK32,
    vk::Format::A8B8G8R8_SINT_PACK32,
    vk::Format::A8B8G8R8_SRGB_PACK32,
    vk::Format::A2R10G10B10_UNORM_PACK32,
    vk::Format::A2B10G10R10_UNORM_PACK32,
    vk::Format::A2B10G10R10_UINT_PACK32,
    vk::Format::R16G16_UNORM,
    vk::Format::R16G16_SNORM,
    vk::Format::R16G16_UINT,
    vk::Format::R16G16_SINT,
    vk::Format::R16G16_SFLOAT,
    vk::Format::R32_UINT,
    vk::Format::R32_SINT,
    vk::Format::R32_SFLOAT,
    vk::Format::B10G11R11_UFLOAT_PACK32,
    vk::Format::E5B9G9R9_UFLOAT_PACK32,
    vk::Format::R16G16B16A16_UNORM,
    vk::Format::R16G16B16A16_SNORM,
    vk::Format::R16G16B16A16_UINT,
    vk::Format::R16G16B16A16_SINT,
    vk::Format::R16G16B16A16_SFLOAT,
    vk::Format::R32G32_UINT,
    vk::Format::R32G32_SINT,
    vk::Format::R32G32_SFLOAT,
    vk::Format::R32G32B32A32_UINT,
    vk::Format::R32G32B32A32_SINT,
    vk::Format::R32G32B32A32_SFLOAT,
    vk::Format::D16_UNORM,
    vk::Format::D32_SFLOAT,
];

/// Block-compressed formats whose sampling and blits as a source are proven by
/// `tests/tests/bc_sampling.rs`: blocks covering every mode (BC6H's 14, BC7's 8, both BC1/
/// BC4/BC5 endpoint orders) uploaded into a 3-level, 2-layer image of a size no multiple of
/// the block, read back through texelFetch, nearest, linear and trilinear textureLod
/// (SAMPLE, FILTER), and blitted into RGBA32F nearest and scaled linear (BLIT_SRC), all
/// differential against lavapipe. Their copies are [`PROVEN_TRANSFER`]'s. Nothing else:
/// the hardware neither renders nor stores blocks, and there is no buffer format for them.
pub const PROVEN_BC: &[vk::Format] = &[
    vk::Format::BC1_RGB_UNORM_BLOCK,
    vk::Format::BC1_RGB_SRGB_BLOCK,
    vk::Format::BC1_RGBA_UNORM_BLOCK,
    vk::Format::BC1_RGBA_SRGB_BLOCK,
    vk::Format::BC2_UNORM_BLOCK,
    vk::Format::BC2_SRGB_BLOCK,
    vk::Format::BC3_UNORM_BLOCK,
    vk::Format::BC3_SRGB_BLOCK,
    vk::Format::BC4_UNORM_BLOCK,
    vk::Format::BC4_SNORM_BLOCK,
    vk::Format::BC5_UNORM_BLOCK,
    vk::Format::BC5_SNORM_BLOCK,
    vk::Format::BC6H_UFLOAT_BLOCK,
    vk::Format::BC6H_SFLOAT_BLOCK,
    vk::Format::BC7_UNORM_BLOCK,
    vk::Format::BC7_SRGB_BLOCK,
];

/// The paths proven for `format` (OPTIMAL tiling for the image paths); none for formats not
/// listed in any table.
pub fn proven(format: vk::Format) -> Caps {
    let mut caps = PROVEN.iter().find(|p| p.0 == format).map_or(Caps(0), |p| p.1);
    let mut add = |listed: bool, c: Caps| {
        if listed {
            caps = caps | c;
        }
    };
    // Depth is sampled, not filtered (without compare): lavapipe, the oracle, does not filter it.
    let depth = info(format).is_some_and(FormatInfo::is_depth_stencil);
    let filter = if depth { Caps(0) } else { Caps::FILTER };
    add(PROVEN_SAMPLED.contains(&format), Caps::SAMPLE | filter | Caps::FETCH);
    add(PROVEN_BC.contains(&format), Caps::SAMPLE | Caps::FILTER | Caps::BLIT);
    add(PROVEN_BLIT.contains(&format), Caps::BLIT | Caps::BLIT_DST);
    add(proven_blit_src(format), Caps::BLIT);
    add(proven_blit_dst(format), Caps::BLIT_DST);
    add(PROVEN_TRANSFER.contains(&format), Caps::TRANSFER);
    add(PROVEN_VERTEX.contains(&format), Caps::VERTEX);
    add(PROVEN_COLOR.contains(&format), Caps::COLOR);
    add(blends(format), Caps::BLEND);
    // Storage texel buffers: every storage-image format of `image_shaders.rs` through an
    // imageBuffer as well (`storage_texel_buffers_match_lavapipe`).
    add(PROVEN_STORAGE_TEXEL.contains(&format), Caps::BUFFER_STORAGE);
    add(PROVEN_STORAGE_EXTENDED.contains(&format), Caps::STORAGE);
    caps
}

/// What is advertised for `format`: [`proven`] for OPTIMAL tiling and [`proven_linear`] for
/// LINEAR tiling, or everything the hardware has when `FERRUM_DEBUG=unproven_formats` asks
/// for it (for bringing up paths in other branches; it advertises features that may not
/// work). Returns the OPTIMAL- and the LINEAR-tiling capabilities.
pub fn advertised(format: vk::Format) -> (Caps, Caps) {
    if crate::debug::flags().unproven_formats {
        (Caps(u16::MAX), Caps(u16::MAX))
    } else {
        (proven(format), proven_linear(format))
    }
}

/// What works end to end on LINEAR images (one 2D level and layer, the only linear images
/// [`image_format_properties_for`] offers): copies and clears (TRANSFER) of the formats
/// whose OPTIMAL copies are proven, proven by `tests/tests/image_transfer.rs` (host writes
/// through `vkGetImageSubresourceLayout`'s row pitch, buffer↔linear, linear↔linear,
/// linear↔optimal copies and clears of linear images, differential against lavapipe and the
/// spec's addressing). Sampling, storage and attachments of linear images are not proven.
pub fn proven_linear(format: vk::Format) -> Caps {
    if proven(format).contains(Caps::TRANSFER) {
        Caps::TRANSFER
    } else {
        Caps(0)
    }
}

/// Image features for `caps` (already masked).
fn image_features(f: &FormatInfo, caps: Caps) -> vk::FormatFeatureFlags {
    let mut out = F::empty();
    let mut set = |cond: bool, bits: F| {
        if cond {
            out |= bits;
        }
    };
    let has = |c: Caps| caps.contains(c);
    set(has(Caps::SAMPLE), F::SAMPLED_IMAGE);
    set(has(Caps::SAMPLE | Caps::FILTER), F::SAMPLED_IMAGE_FILTER_LINEAR);
    set(has(Caps::SAMPLE | Caps::BLIT), F::BLIT_SRC);
    set(has(Caps::STORAGE), F::STORAGE_IMAGE);
    set(has(Caps::STORAGE | Caps::ATOMIC), F::STORAGE_IMAGE_ATOMIC);
    set(has(Caps::COLOR), F::COLOR_ATTACHMENT);
    set(has(Caps::COLOR | Caps::BLEND), F::COLOR_ATTACHMENT_BLEND);
    // Blits store through a storage view; a colour target can take one as well, and so can
    // the plane of a depth-only format (stored like one colour channel).
    let depth_only = has(Caps::DEPTH_STENCIL) && f.aspects() == vk::ImageAspectFlags::DEPTH;
    set(has(Caps::BLIT_DST) && (has(Caps::COLOR) || has(Caps::STORAGE) || depth_only), F::BLIT_DST);
    set(has(Caps::DEPTH_STENCIL), F::DEPTH_STENCIL_ATTACHMENT);
    if f.img_format != 0 && has(Caps::TRANSFER) {
        out |= F::TRANSFER_SRC | F::TRANSFER_DST;
    }
    out
}

fn buffer_features(caps: Caps) -> vk::FormatFeatureFlags {
    let mut out = F::empty();
    if caps.contains(Caps::VERTEX) {
        out |= F::VERTEX_BUFFER;
    }
    if caps.contains(Caps::FETCH) && !caps.contains(Caps::VERTEX_ONLY) {
        out |= F::UNIFORM_TEXEL_BUFFER;
    }
    if caps.contains(Caps::BUFFER_STORAGE) {
        out |= F::STORAGE_TEXEL_BUFFER;
    }
    if caps.contains(Caps::BUFFER_STORAGE | Caps::BUFFER_ATOMIC) {
        out |= F::STORAGE_TEXEL_BUFFER_ATOMIC;
    }
    out
}

/// Whether linear tiling is offered for `f` at all: colour formats without blocks.
fn linear_allowed(f: &FormatInfo) -> bool {
    !f.is_depth_stencil() && !f.is_compressed()
}

/// The hardware's features for `format` masked by `allowed`.
pub fn format_properties_for(format: vk::Format, allowed: Caps) -> vk::FormatProperties {
    let Some(f) = info(format) else { return vk::FormatProperties::default() };
    // Copies move bits and blits sample and render, so every image format has both paths.
    let img_caps = if f.img_format != 0 {
        (f.caps | Caps::TRANSFER | Caps::BLIT | Caps::BLIT_DST).intersect(allowed)
    } else {
        Caps(0)
    };
    // VERTEX_ONLY describes the format, not a path: keep it whenever fetching is allowed.
    // Vertex input is the FETCH hardware through a path of its own (VERTEX).
    let vertex_only = Caps(f.caps.0 & Caps::VERTEX_ONLY.0);
    let hw = if f.caps.contains(Caps::FETCH) { f.caps | Caps::VERTEX } else { f.caps };
    let buf_caps = if f.buf_format != 0 { hw.intersect(allowed) | vertex_only } else { Caps(0) };
    let optimal = image_features(f, img_caps);
    let linear = if linear_allowed(f) {
        // The DB cannot address linear surfaces on GFX10.
        optimal & !F::DEPTH_STENCIL_ATTACHMENT
    } else {
        F::empty()
    };
    vk::FormatProperties {
        linear_tiling_features: linear,
        optimal_tiling_features: optimal,
        buffer_features: buffer_features(buf_caps),
    }
}

/// `vkGetPhysicalDeviceFormatProperties`.
pub fn format_properties(format: vk::Format) -> vk::FormatProperties {
    if super::vertex64::components(format).is_some() {
        // Vertex input only, read as 32-bit dwords (see `vertex64`), as RADV offers them.
        return vk::FormatProperties { buffer_features: F::VERTEX_BUFFER, ..Default::default() };
    }
    let (caps, linear) = advertised(format);
    let mut p = format_properties_for(format, caps);
    p.linear_tiling_features = format_properties_for(format, linear).linear_tiling_features;
    p
}

/// The arguments of `vkGetPhysicalDeviceImageFormatProperties`.
#[derive(Debug, Clone, Copy)]
pub struct ImageQuery {
    pub format: vk::Format,
    pub ty: vk::ImageType,
    pub tiling: vk::ImageTiling,
    pub usage: vk::ImageUsageFlags,
    pub flags: vk::ImageCreateFlags,
}

/// Image sizes navi21 addresses (the device limits report the same).
pub const MAX_EXTENT_1D: u32 = 16384;
pub const MAX_EXTENT_2D: u32 = 16384;
pub const MAX_EXTENT_3D: u32 = 2048;
pub const MAX_ARRAY_LAYERS: u32 = 2048;

/// Whether the usage bits are all backed by `features`.
fn usage_supported(usage: vk::ImageUsageFlags, features: vk::FormatFeatureFlags) -> bool {
    type U = vk::ImageUsageFlags;
    let needs = [
        (U::SAMPLED, F::SAMPLED_IMAGE),
        (U::STORAGE, F::STORAGE_IMAGE),
        (U::COLOR_ATTACHMENT, F::COLOR_ATTACHMENT),
        (U::DEPTH_STENCIL_ATTACHMENT, F::DEPTH_STENCIL_ATTACHMENT),
    ];
    let direct = needs.iter().all(|&(u, f)| !usage.contains(u) || features.contains(f));
    let input = !usage.contains(U::INPUT_ATTACHMENT)
        || features.intersects(F::COLOR_ATTACHMENT | F::DEPTH_STENCIL_ATTACHMENT);
    // Without VK_KHR_maintenance1, transfer usage needs no format feature (any supported
    // image format may be copied); with the TRANSFER bits reported they must be present.
    let transfer = !features.intersects(F::TRANSFER_SRC | F::TRANSFER_DST)
        || (!usage.contains(U::TRANSFER_SRC) || features.contains(F::TRANSFER_SRC))
            && (!usage.contains(U::TRANSFER_DST) || features.contains(F::TRANSFER_DST));
    let known = U::TRANSFER_SRC
        | U::TRANSFER_DST
        | U::SAMPLED
        | U::STORAGE
        | U::COLOR_ATTACHMENT
        | U::DEPTH_STENCIL_ATTACHMENT
        | U::TRANSIENT_ATTACHMENT
        | U::INPUT_ATTACHMENT;
    direct && input && transfer && known.contains(usage)
}

/// The union of the `tiling` features of the formats in `f`'s compatibility class, each
/// with the features `allowed` (all of them) or else the ones it advertises.
fn class_features(
    f: &FormatInfo,
    tiling: vk::ImageTiling,
    allowed: Caps,
) -> vk::FormatFeatureFlags {
    let all = allowed.contains(Caps(u16::MAX));
    super::FORMATS.iter().filter(|g| super::view_compatible(f, g)).fold(F::empty(), |acc, g| {
        let (optimal, linear) = advertised(g.format);
        match tiling {
            vk::ImageTiling::LINEAR => {
                let p = format_properties_for(g.format, if all { allowed } else { linear });
                acc | p.linear_tiling_features
            }
            _ => {
                let p = format_properties_for(g.format, if all { allowed } else { optimal });
                acc | p.optimal_tiling_features
            }
        }
    })
}

/// Whether a view of format `format` supports `usage` with `tiling`
/// (VUID-VkImageViewCreateInfo-usage-02274..02277 for the views of EXTENDED_USAGE images).
pub fn view_usage_supported(
    format: vk::Format,
    tiling: vk::ImageTiling,
    usage: vk::ImageUsageFlags,
) -> bool {
    let features = match tiling {
        vk::ImageTiling::LINEAR => {
            format_properties_for(format, advertised(format).1).linear_tiling_features
        }
        _ => format_properties_for(format, advertised(format).0).optimal_tiling_features,
    };
    usage_supported(usage, features)
}

/// `vkGetPhysicalDeviceImageFormatProperties` with the features `allowed`.
pub fn image_format_properties_for(
    q: &ImageQuery,
    allowed: Caps,
) -> VkResult<vk::ImageFormatProperties> {
    let unsupported = Err(VkError::FormatNotSupported);
    let Some(f) = info(q.format) else { return unsupported };
    let props = format_properties_for(q.format, allowed);
    let features = match q.tiling {
        vk::ImageTiling::OPTIMAL => props.optimal_tiling_features,
        vk::ImageTiling::LINEAR => props.linear_tiling_features,
        _ => return unsupported,
    };
    type C = vk::ImageCreateFlags;
    // VK_KHR_maintenance2: an EXTENDED_USAGE image may have usage its own format lacks if a
    // format it can be viewed as (MUTABLE_FORMAT: the compatibility class) has it; each
    // view's usage is then checked against the view's format (`image::view`).
    let usage_features = if q.flags.contains(C::EXTENDED_USAGE | C::MUTABLE_FORMAT) {
        class_features(f, q.tiling, allowed)
    } else {
        features
    };
    if features.is_empty() || !usage_supported(q.usage, usage_features) {
        return unsupported;
    }
    // Sparse images, 2D views of 3D images and block-texel views (uncompressed views of
    // compressed blocks) need features or extensions Ferrum does not offer. ALIAS
    // (VK_KHR_bind_memory2) promises that two images made with the same parameters read the
    // same memory the same way: Ferrum computes a layout from the create info alone, so that
    // always holds.
    if !(C::MUTABLE_FORMAT | C::CUBE_COMPATIBLE | C::ALIAS | C::EXTENDED_USAGE).contains(q.flags) {
        return unsupported;
    }
    let linear = q.tiling == vk::ImageTiling::LINEAR;
    let (extent, layers) = match q.ty {
        vk::ImageType::TYPE_1D if !f.is_compressed() && !f.is_depth_stencil() => {
            ((MAX_EXTENT_1D, 1, 1), MAX_ARRAY_LAYERS)
        }
        vk::ImageType::TYPE_2D => ((MAX_EXTENT_2D, MAX_EXTENT_2D, 1), MAX_ARRAY_LAYERS),
        vk::ImageType::TYPE_3D if !f.is_depth_stencil() && !f.is_compressed() => {
            ((MAX_EXTENT_3D, MAX_EXTENT_3D, MAX_EXTENT_3D), 1)
        }
        _ => return unsupported,
    };
    if q.flags.contains(C::CUBE_COMPATIBLE) && (q.ty != vk::ImageType::TYPE_2D || linear) {
        return unsupported;
    }
    // Linear images: one 2D level and layer, as most drivers offer (the spec's minimum).
    if linear && q.ty != vk::ImageType::TYPE_2D {
        return unsupported;
    }
    // The spec's sampleCounts rules: one sample for linear, non-2D, cube-compatible images
    // and formats that are no attachment; storage usage adds storageImageSampleCounts (1:
    // shaderStorageImageMultisample is off).
    let multisampled = !linear
        && q.ty == vk::ImageType::TYPE_2D
        && !q.flags.contains(C::CUBE_COMPATIBLE)
        && features.intersects(F::COLOR_ATTACHMENT | F::DEPTH_STENCIL_ATTACHMENT)
        && !q.usage.contains(vk::ImageUsageFlags::STORAGE)
        && proven_msaa(q.format);
    let max_dim = extent.0.max(extent.1).max(extent.2);
    Ok(vk::ImageFormatProperties {
        max_extent: vk::Extent3D { width: extent.0, height: extent.1, depth: extent.2 },
        max_mip_levels: if linear { 1 } else { 32 - max_dim.leading_zeros() },
        max_array_layers: if linear { 1 } else { layers },
        sample_counts: if multisampled { MSAA_SAMPLE_COUNTS } else { vk::SampleCountFlags::TYPE_1 },
        max_resource_size: MAX_MEMORY_ALLOCATION_SIZE,
    })
}

/// `vkGetPhysicalDeviceImageFormatProperties`.
pub fn image_format_properties(q: &ImageQuery) -> VkResult<vk::ImageFormatProperties> {
    let (optimal, linear) = advertised(q.format);
    let caps = if q.tiling == vk::ImageTiling::LINEAR { linear } else { optimal };
    image_format_properties_for(q, caps)
}

#[cfg(test)]
#[path = "properties_tests.rs"]
mod tests;
