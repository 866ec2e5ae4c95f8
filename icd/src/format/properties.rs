//! `vkGetPhysicalDeviceFormatProperties(2)` and `...ImageFormatProperties(2)` answers,
//! derived from the format table and the paths that work end to end.

use ash::vk;

use super::{info, Caps, FormatInfo};
use crate::core::physical_device::limits::MAX_MEMORY_ALLOCATION_SIZE;
use crate::error::{VkError, VkResult};

type F = vk::FormatFeatureFlags;

/// The paths that work end to end today, per format (each a [`Caps`] bit that the format's
/// hardware capability is masked with), for OPTIMAL tiling only: LINEAR tiling and buffer
/// features are proven for no format yet. A format and bit are added here only together with
/// the tests that prove them: SAMPLE, FILTER and STORAGE by `tests/tests/image_shaders.rs`
/// (a shader's imageStore to a swizzled 2-level, 2-layer image, read back through imageLoad,
/// texelFetch and nearest/linear textureLod, differential against lavapipe; FILTER only for
/// the float formats there); COLOR (colour attachment without blending) by
/// `tests/tests/graphics.rs` (render passes with clears and draws, differential against
/// lavapipe). TRANSFER needs the copy kernels, COLOR/DEPTH_STENCIL/BLIT the
/// graphics path, ATOMIC image atomics, FETCH/BUFFER_STORAGE texel-buffer instructions.
pub const PROVEN: &[(vk::Format, Caps)] = &[
    (
        vk::Format::R8G8B8A8_UNORM,
        Caps::SAMPLE.union(Caps::FILTER).union(Caps::STORAGE).union(Caps::COLOR),
    ),
    (vk::Format::R16G16B16A16_SFLOAT, Caps::SAMPLE.union(Caps::FILTER).union(Caps::STORAGE)),
    (vk::Format::R32G32B32A32_SFLOAT, Caps::SAMPLE.union(Caps::FILTER).union(Caps::STORAGE)),
    (vk::Format::R32_UINT, Caps::SAMPLE.union(Caps::STORAGE)),
];

/// Formats whose vertex-buffer fetch (`VERTEX_BUFFER`) is proven, by `tests/tests/graphics.rs`
/// (vertex attributes with per-vertex and per-instance rates, differential against lavapipe).
/// Other buffer features stay unadvertised.
pub const PROVEN_VERTEX: &[vk::Format] = &[vk::Format::R32G32_SFLOAT, vk::Format::R8G8B8A8_UNORM];

/// The paths [`PROVEN`] for `format` with OPTIMAL tiling (none for formats not listed).
pub fn proven(format: vk::Format) -> Caps {
    PROVEN.iter().find(|p| p.0 == format).map_or(Caps(0), |p| p.1)
}

/// What is advertised for `format`: [`proven`] (OPTIMAL tiling only), or everything the
/// hardware has when `FERRUM_DEBUG=unproven_formats` asks for it (for bringing up paths in
/// other branches; it advertises features that may not work). Returns the OPTIMAL-tiling
/// capabilities and whether LINEAR tiling gets the same.
pub fn advertised(format: vk::Format) -> (Caps, bool) {
    if crate::debug::flags().unproven_formats {
        (Caps(u16::MAX), true)
    } else {
        (proven(format), false)
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
    set(has(Caps::COLOR | Caps::BLIT), F::BLIT_DST);
    set(has(Caps::DEPTH_STENCIL), F::DEPTH_STENCIL_ATTACHMENT);
    if f.img_format != 0 && has(Caps::TRANSFER) && !out.is_empty() {
        out |= F::TRANSFER_SRC | F::TRANSFER_DST;
    }
    out
}

fn buffer_features(caps: Caps) -> vk::FormatFeatureFlags {
    let mut out = F::empty();
    if caps.contains(Caps::FETCH) {
        out |= F::VERTEX_BUFFER;
        if !caps.contains(Caps::VERTEX_ONLY) {
            out |= F::UNIFORM_TEXEL_BUFFER;
        }
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
        (f.caps | Caps::TRANSFER | Caps::BLIT).intersect(allowed)
    } else {
        Caps(0)
    };
    // VERTEX_ONLY describes the format, not a path: keep it whenever fetching is allowed.
    let vertex_only = Caps(f.caps.0 & Caps::VERTEX_ONLY.0);
    let buf_caps =
        if f.buf_format != 0 { f.caps.intersect(allowed) | vertex_only } else { Caps(0) };
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
    let (caps, linear) = advertised(format);
    let mut p = format_properties_for(format, caps);
    if !linear {
        p.linear_tiling_features = F::empty();
    }
    if PROVEN_VERTEX.contains(&format) {
        p.buffer_features |= F::VERTEX_BUFFER;
    }
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
    if features.is_empty() || !usage_supported(q.usage, features) {
        return unsupported;
    }
    type C = vk::ImageCreateFlags;
    // Sparse images, 2D views of 3D images and block-texel views need features or
    // extensions Ferrum does not offer.
    if !(C::MUTABLE_FORMAT | C::CUBE_COMPATIBLE).contains(q.flags) {
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
    let max_dim = extent.0.max(extent.1).max(extent.2);
    Ok(vk::ImageFormatProperties {
        max_extent: vk::Extent3D { width: extent.0, height: extent.1, depth: extent.2 },
        max_mip_levels: if linear { 1 } else { 32 - max_dim.leading_zeros() },
        max_array_layers: if linear { 1 } else { layers },
        // Multisampled images come with the graphics path.
        sample_counts: vk::SampleCountFlags::TYPE_1,
        max_resource_size: MAX_MEMORY_ALLOCATION_SIZE,
    })
}

/// `vkGetPhysicalDeviceImageFormatProperties`.
pub fn image_format_properties(q: &ImageQuery) -> VkResult<vk::ImageFormatProperties> {
    let (caps, linear) = advertised(q.format);
    if q.tiling == vk::ImageTiling::LINEAR && !linear {
        return Err(VkError::FormatNotSupported);
    }
    image_format_properties_for(q, caps)
}

#[cfg(test)]
#[path = "properties_tests.rs"]
mod tests;
