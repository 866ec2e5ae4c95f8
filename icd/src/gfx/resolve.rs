//! Resolve attachments: at the end of a subpass (`pResolveAttachments` of render pass 1 and 2)
//! or of a dynamic-rendering scope (`resolveImageView` / `resolveMode`), every multisampled
//! colour target with a resolve target is resolved over the render area and the scope's
//! layers by the meta resolve kernel (`meta::resolve`), the same path as `vkCmdResolveImage`.
//!
//! The colour block writes the multisampled target and the kernel reads it through the
//! texture path, so the CB's caches are flushed and the pixel work drained first
//! ([`flush_color_targets`]). Layout transitions need nothing (no compression metadata).

use ash::vk;

use super::draw::clip;
use super::rendering::Rendering;
use crate::cmd::pm4;
use crate::cmd::stream::CmdStream;
use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};
use crate::image::layout::mip_extent;
use crate::image::view::ImageView;
use crate::meta;
use crate::meta::resolve::{Mode, Region};

/// Where a colour target is resolved to, and how.
#[derive(Debug, Clone, Copy)]
pub struct ResolveTarget {
    pub view: vk::ImageView,
    pub mode: Mode,
}

/// Where a depth/stencil target is resolved to, and how each attached aspect is (`None`:
/// not resolved).
#[derive(Debug, Clone, Copy)]
pub struct DepthResolve {
    pub view: vk::ImageView,
    pub depth: Option<Mode>,
    pub stencil: Option<Mode>,
    /// The resolve attachment's own load-op clear (render passes: the aspects whose load op
    /// is CLEAR in the subpass that first uses it), applied when the subpass begins. An
    /// aspect the resolve leaves alone (mode NONE) keeps that value.
    pub load_clear: Option<LoadClear>,
}

/// A depth/stencil resolve attachment's load-op clear: the aspects, the value and the views
/// (`RenderPass::load_views`).
pub type LoadClear = (vk::ImageAspectFlags, vk::ClearDepthStencilValue, u32);

impl DepthResolve {
    /// The resolve of `target`'s attached aspects that the resolve view `view` also has,
    /// with the API modes `(depth, stencil)`; `None` when nothing is resolved.
    pub fn new(
        target: &super::rendering::DepthTarget,
        view: vk::ImageView,
        (depth, stencil): (vk::ResolveModeFlags, vk::ResolveModeFlags),
    ) -> VkResult<Option<Self>> {
        let aspects = self::view(view)?.format.aspects();
        let has = |a| aspects.contains(a);
        let depth = Mode::from_vk_depth_stencil(depth)?
            .filter(|_| target.has_depth() && has(vk::ImageAspectFlags::DEPTH));
        let stencil = Mode::from_vk_depth_stencil(stencil)?
            .filter(|_| target.has_stencil() && has(vk::ImageAspectFlags::STENCIL));
        let resolve = DepthResolve { view, depth, stencil, load_clear: None };
        Ok((depth.is_some() || stencil.is_some()).then_some(resolve))
    }
}

/// VGT_EVENT_TYPE values (gfx103.json enum VGT_EVENT_TYPE).
const PS_PARTIAL_FLUSH: u32 = 16;
const FLUSH_AND_INV_CB_META: u32 = 46;

/// Flushes the colour block's caches and waits for pixel work, so that shaders (the meta
/// kernels) see what the draws wrote. The simulator writes colour targets straight to memory
/// in draw order, so it needs nothing; on hardware the CB data flush wants the timestamped
/// form (RELEASE_MEM FLUSH_AND_INV_CB_DATA_TS with a fence wait, Mesa's GFX10 recipe), which
/// `cmd::barrier` does not emit for attachment writes either yet.
pub fn flush_color_targets(s: &mut CmdStream) -> VkResult<()> {
    s.emit(&pm4::event_write(FLUSH_AND_INV_CB_META, 0))?;
    s.emit(&pm4::event_write(PS_PARTIAL_FLUSH, 4))
}

fn view<'a>(h: vk::ImageView) -> VkResult<&'a ImageView> {
    // SAFETY: attachment views outlive the commands that use them (valid usage).
    unsafe { ImageView::from_handle(h) }.ok_or(VkError::InvalidUsage("null attachment view"))
}

/// The resolve mode of a resolve attachment of `format` in a render pass (render pass 1 and
/// 2 colour resolves: average for float and normalised formats, sample 0 for integers, as
/// the spec's "Render pass resolve operations" defines them).
pub fn pass_mode(view: vk::ImageView) -> VkResult<Mode> {
    Ok(Mode::for_format(self::view(view)?.format))
}

/// Resolves the colour targets of `r` that have a resolve target, then its depth/stencil
/// target's aspects that have one.
pub fn resolve_attachments(s: &mut CmdStream, r: &Rendering) -> VkResult<()> {
    let targets: Vec<_> =
        r.colors.iter().flatten().filter_map(|t| t.resolve.map(|d| (t.view, d))).collect();
    let depth = r.depth.as_ref().and_then(|d| d.resolve.map(|t| (d.view, t)));
    if targets.is_empty() && depth.is_none() {
        return Ok(());
    }
    // The pixel drain also covers depth/stencil writes in the simulator (it writes them
    // straight to memory); hardware would want the DB data flush too, the gap
    // `flush_color_targets` describes for colour.
    flush_color_targets(s)?;
    meta::begin(s)?;
    for (src, dst) in targets {
        let (a, b) = (view(src)?, view(dst.view)?);
        // VUID-VkSubpassDescription-pResolveAttachments-00850 /
        // VkRenderingAttachmentInfo-imageView-06865: the same format on both sides.
        if a.format.format != b.format.format {
            return Err(VkError::InvalidUsage("resolve attachment of another format"));
        }
        for region in regions(r, a, b) {
            let (src_image, dst_image) = (a.image()?, b.image()?);
            meta::resolve::resolve_region(s, src_image, dst_image, a.format, &region, dst.mode)?;
        }
    }
    if let Some((src, dst)) = depth {
        let (a, b) = (view(src)?, view(dst.view)?);
        let images = (a.image()?, b.image()?);
        let aspects = [
            (vk::ImageAspectFlags::DEPTH, dst.depth),
            (vk::ImageAspectFlags::STENCIL, dst.stencil),
        ];
        for (aspect, mode) in aspects {
            let Some(mode) = mode else { continue };
            for region in regions(r, a, b) {
                meta::resolve::resolve_depth_stencil_region(s, images, aspect, &region, mode)?;
            }
        }
    }
    meta::end(s)
}

/// The regions a resolve from view `a` into view `b` covers: the render area within both
/// views' levels, and the scope's layers (multiview: the layers of the subpass's views only).
fn regions(r: &Rendering, a: &ImageView, b: &ImageView) -> Vec<Region> {
    let level_extent = |v: &ImageView| vk::Extent2D {
        width: mip_extent(v.extent.width, v.range.base_mip_level),
        height: mip_extent(v.extent.height, v.range.base_mip_level),
    };
    let area = clip(clip(r.area, level_extent(a)), level_extent(b));
    let layers = r.layers.min(a.range.layer_count).min(b.range.layer_count);
    let (x, y) = (area.offset.x as u32, area.offset.y as u32);
    super::multiview::clear_layers(r.view_mask, 0, layers)
        .into_iter()
        .map(|(first, layers)| Region {
            src_level: a.range.base_mip_level,
            src: [x, y, a.range.base_array_layer + first],
            dst_level: b.range.base_mip_level,
            dst: [x, y, b.range.base_array_layer + first],
            extent: [area.extent.width, area.extent.height],
            layers,
        })
        .collect()
}
