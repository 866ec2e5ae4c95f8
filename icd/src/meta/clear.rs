//! Clears: `vkCmdClearColorImage`, `vkCmdClearDepthStencilImage`, and the region-level
//! [`clear_region`] / [`clear_view_region`] that render-pass clears (`LOAD_OP_CLEAR`,
//! `vkCmdClearAttachments`) use.
//!
//! The value is packed into texel bits on the host (`pack`), and one kernel per image
//! dimensionality stores those bits over a rectangle of layers through a raw unsigned view of
//! the plane (`surface`): every format with the same element size clears the same way, and
//! depth and stencil planes (`_Z` swizzled) are written with the addresses the DB reads.

use ash::vk;
use ferrum_compiler::amd::abi::BindingLayout;
use ferrum_compiler::amd::{DescriptorKind, ResourceLayout};
use ferrum_compiler::ir::{AluOp, Shader};
use ferrum_compiler::meta::KernelBuilder;

use super::surface::{self, Dim};
use super::{pack, Kernel};
use crate::cmd::stream::CmdStream;
use crate::error::{VkError, VkResult};
use crate::format::FormatInfo;
use crate::image::layout::mip_extent;
use crate::image::view::ImageView;
use crate::image::Image;

/// Workgroup size of the clear kernels.
const GROUP: [u32; 3] = [8, 8, 1];

/// What a clear writes.
#[derive(Clone, Copy)]
pub enum ClearValue {
    Color(vk::ClearColorValue),
    DepthStencil(vk::ClearDepthStencilValue),
}

/// Where a clear writes: one mip level, a range of array layers (3D images: depth slices of
/// that level), and a rectangle in texels of that level.
#[derive(Debug, Clone, Copy)]
pub struct ClearRegion {
    /// `COLOR`, or any non-empty subset of `DEPTH | STENCIL` the format has.
    pub aspect: vk::ImageAspectFlags,
    pub level: u32,
    pub base_layer: u32,
    pub layer_count: u32,
    pub rect: vk::Rect2D,
}

/// The kernel: push constants are the texel (4 dwords), then the rectangle's x, y, first
/// layer, the sample (multisampled images), width and height. Thread (x, y, z) writes texel
/// (x0 + x, y0 + y, layer0 + z).
pub(super) fn kernel(dim: Dim) -> (Shader, ResourceLayout) {
    let mut k = KernelBuilder::new("ferrum_meta_clear", GROUP);
    let id = k.global_id();
    let (x, y, z) = (k.component(id, 0), k.component(id, 1), k.component(id, 2));
    let rect = k.push_constants(16, 4);
    let extent = k.push_constants(32, 2);
    let (w, h) = (k.component(extent, 0), k.component(extent, 1));
    let in_x = k.cmp(AluOp::Ult, x, w);
    let in_y = k.cmp(AluOp::Ult, y, h);
    let inside = k.alu(AluOp::Iand, 1, 1, &[in_x, in_y]);
    k.if_then(inside, |k| {
        let texel = k.push_constants(0, 4);
        let origin = k.component(rect, 0);
        let tx = k.op(AluOp::Iadd, &[x, origin]);
        let origin = k.component(rect, 1);
        let ty = k.op(AluOp::Iadd, &[y, origin]);
        let origin = k.component(rect, 2);
        let tz = k.op(AluOp::Iadd, &[z, origin]);
        let coord = match dim {
            Dim::D1 => k.vec(&[tx, tz]),
            Dim::D2 | Dim::D3 | Dim::D2Ms => k.vec(&[tx, ty, tz]),
        };
        let img = k.descriptor(0, 0, None);
        if dim == Dim::D2Ms {
            let sample = k.component(rect, 3);
            k.image_write_sample(img, dim.shape(), coord, sample, texel);
        } else {
            k.image_write(img, dim.shape(), coord, texel);
        }
    });
    let mut layout = ResourceLayout::default();
    let binding = BindingLayout { kind: DescriptorKind::StorageImage, offset: 0, array_size: 1 };
    layout.bindings.insert((0, 0), binding);
    (k.finish(), layout)
}

/// Checks a region against the image: level, layers or slices, rectangle inside the level.
fn check(image: &Image, r: &ClearRegion) -> VkResult<()> {
    let bad = |what| Err(VkError::InvalidUsage(what));
    if r.level >= image.levels {
        return bad("clear of a mip level the image lacks");
    }
    let w = mip_extent(image.extent.width, r.level);
    let h = mip_extent(image.extent.height, r.level);
    let layers = match Dim::of(image) {
        Dim::D3 => mip_extent(image.extent.depth, r.level),
        _ => image.layers,
    };
    let end = |o: u32, n: u32, size: u32| o.checked_add(n).is_none_or(|e| e > size);
    if r.layer_count == 0 || end(r.base_layer, r.layer_count, layers) {
        return bad("clear of layers the image lacks");
    }
    let (o, e) = (r.rect.offset, r.rect.extent);
    if o.x < 0 || o.y < 0 || end(o.x as u32, e.width, w) || end(o.y as u32, e.height, h) {
        return bad("clear rectangle outside the level");
    }
    Ok(())
}

/// Stores `texel` (raw bits) over the region of the plane holding `aspect`. No sync.
fn fill(
    s: &mut CmdStream,
    image: &Image,
    aspect: vk::ImageAspectFlags,
    r: &ClearRegion,
    texel: [u32; 4],
) -> VkResult<()> {
    let dim = Dim::of(image);
    let desc = surface::level_descriptor(image, aspect, r.level)?;
    let (o, e) = (r.rect.offset, r.rect.extent);
    let groups = [e.width.div_ceil(GROUP[0]), e.height.div_ceil(GROUP[1]), r.layer_count];
    // Multisampled images: every sample gets the value, one dispatch per sample.
    for sample in 0..image.samples {
        let mut push = texel.to_vec();
        push.extend([o.x as u32, o.y as u32, r.base_layer, sample, e.width, e.height]);
        super::run(s, Kernel::Clear(dim), &desc.words(), &push, groups)?;
    }
    Ok(())
}

/// Clears the region without the surrounding synchronisation (for commands that clear many
/// regions and sync once). `format` is the format the value is interpreted in (an image
/// view's, which may differ from the image's within its compatibility class).
fn clear_unsynced(
    s: &mut CmdStream,
    image: &Image,
    format: &FormatInfo,
    r: &ClearRegion,
    value: &ClearValue,
) -> VkResult<()> {
    check(image, r)?;
    let aspects = image.format.aspects();
    if r.aspect.is_empty() || !aspects.contains(r.aspect) {
        return Err(VkError::InvalidUsage("clear aspect not in the image's format"));
    }
    match value {
        ClearValue::Color(c) if r.aspect == vk::ImageAspectFlags::COLOR => {
            let texel = pack::pack_color(format, c).ok_or_else(|| {
                log::warn!("no colour clear for {:?}", format.format);
                VkError::FormatNotSupported
            })?;
            fill(s, image, r.aspect, r, texel)
        }
        ClearValue::DepthStencil(ds) if !r.aspect.contains(vk::ImageAspectFlags::COLOR) => {
            if r.aspect.contains(vk::ImageAspectFlags::DEPTH) {
                let d = pack::pack_depth(image.format, ds.depth)
                    .ok_or(VkError::InvalidUsage("depth clear of a format without depth"))?;
                fill(s, image, vk::ImageAspectFlags::DEPTH, r, [d, 0, 0, 0])?;
            }
            if r.aspect.contains(vk::ImageAspectFlags::STENCIL) {
                let st = [ds.stencil & 0xff, 0, 0, 0];
                fill(s, image, vk::ImageAspectFlags::STENCIL, r, st)?;
            }
            Ok(())
        }
        _ => Err(VkError::InvalidUsage("clear value does not match the aspect")),
    }
}

/// Clears a rectangle of one level and a range of layers of `image` to `value`.
///
/// For render-pass clears (`LOAD_OP_CLEAR`, `vkCmdClearAttachments`) and the transfer clears.
/// `format` says how a colour value is interpreted (pass the view's format; it may differ
/// from the image's within a compatibility class); depth/stencil use the image's format.
/// `region.aspect` is `COLOR` or a subset of `DEPTH | STENCIL` (each plane cleared fully: no
/// write masks). For 3D images layers are depth slices of `region.level`.
///
/// The write is a compute dispatch. Before it, the shader caches are invalidated; after it,
/// the CP waits for it (CS_PARTIAL_FLUSH), so its results are in L2 for what follows. A caller
/// that has the surface bound as a colour or depth target must itself flush the CB/DB caches
/// before (so the clear is not overwritten by dirty lines) and invalidate them after (so the
/// CB/DB do not read stale lines): this function knows nothing of render targets.
///
/// Errors: `InvalidUsage` for a region outside the image or a value/aspect mismatch,
/// `FormatNotSupported` for formats without a colour clear (compressed, 96-bit).
pub fn clear_region(
    s: &mut CmdStream,
    image: &Image,
    format: &FormatInfo,
    region: &ClearRegion,
    value: &ClearValue,
) -> VkResult<()> {
    super::begin(s)?;
    clear_unsynced(s, image, format, region, value)?;
    super::end(s)
}

/// [`clear_region`] through an image view: `base_layer` is relative to the view's first
/// layer, the level is the view's first level, the colour value is read in the view's format.
pub fn clear_view_region(
    s: &mut CmdStream,
    view: &ImageView,
    aspect: vk::ImageAspectFlags,
    base_layer: u32,
    layer_count: u32,
    rect: vk::Rect2D,
    value: &ClearValue,
) -> VkResult<()> {
    let image = view.image()?;
    let region = ClearRegion {
        aspect,
        level: view.range.base_mip_level,
        base_layer: view.range.base_array_layer + base_layer,
        layer_count,
        rect,
    };
    clear_region(s, image, view.format, &region, value)
}

/// The regions of one subresource range: every level, all its layers (3D: all slices).
fn range_regions(image: &Image, range: &vk::ImageSubresourceRange) -> VkResult<Vec<ClearRegion>> {
    let levels = if range.level_count == vk::REMAINING_MIP_LEVELS {
        image.levels.saturating_sub(range.base_mip_level)
    } else {
        range.level_count
    };
    let layers = if range.layer_count == vk::REMAINING_ARRAY_LAYERS {
        image.layers.saturating_sub(range.base_array_layer)
    } else {
        range.layer_count
    };
    if levels == 0
        || layers == 0
        || range.base_mip_level.checked_add(levels).is_none_or(|e| e > image.levels)
        || range.base_array_layer.checked_add(layers).is_none_or(|e| e > image.layers)
    {
        return Err(VkError::InvalidUsage("clear range outside the image"));
    }
    let mut out = Vec::new();
    for level in range.base_mip_level..range.base_mip_level + levels {
        let w = mip_extent(image.extent.width, level);
        let h = mip_extent(image.extent.height, level);
        let (base_layer, layer_count) = match Dim::of(image) {
            Dim::D3 => (0, mip_extent(image.extent.depth, level)),
            _ => (range.base_array_layer, layers),
        };
        let rect = vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent: vk::Extent2D { width: w, height: h },
        };
        out.push(ClearRegion { aspect: range.aspect_mask, level, base_layer, layer_count, rect });
    }
    Ok(out)
}

/// `vkCmdClearColorImage` and `vkCmdClearDepthStencilImage`: every level and layer of every
/// range, synchronised once around all of them.
pub fn clear_image(
    s: &mut CmdStream,
    image: &Image,
    value: &ClearValue,
    ranges: &[vk::ImageSubresourceRange],
) -> VkResult<()> {
    let mut regions = Vec::new();
    for r in ranges {
        regions.extend(range_regions(image, r)?);
    }
    if let ClearValue::Color(_) = value {
        // VUID-vkCmdClearColorImage-image-00007: not compressed nor depth/stencil.
        if image.format.is_compressed() || image.format.is_depth_stencil() {
            return Err(VkError::InvalidUsage("colour clear of a compressed or depth image"));
        }
    }
    super::begin(s)?;
    for r in &regions {
        clear_unsynced(s, image, image.format, r, value)?;
    }
    super::end(s)
}
