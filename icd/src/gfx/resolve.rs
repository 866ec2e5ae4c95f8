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

/// Resolves the colour targets of `r` that have a resolve target.
pub fn resolve_attachments(s: &mut CmdStream, r: &Rendering) -> VkResult<()> {
    let targets: Vec<_> =
        r.colors.iter().flatten().filter_map(|t| t.resolve.map(|d| (t.view, d))).collect();
    if targets.is_empty() {
        return Ok(());
    }
    flush_color_targets(s)?;
    meta::begin(s)?;
    for (src, dst) in targets {
        let (a, b) = (view(src)?, view(dst.view)?);
        let (src_image, dst_image) = (a.image()?, b.image()?);
        // VUID-VkSubpassDescription-pResolveAttachments-00850 /
        // VkRenderingAttachmentInfo-imageView-06865: the same format on both sides.
        if a.format.format != b.format.format {
            return Err(VkError::InvalidUsage("resolve attachment of another format"));
        }
        let level_extent = |v: &ImageView| vk::Extent2D {
            width: mip_extent(v.extent.width, v.range.base_mip_level),
            height: mip_extent(v.extent.height, v.range.base_mip_level),
        };
        let area = clip(clip(r.area, level_extent(a)), level_extent(b));
        let layers = r.layers.min(a.range.layer_count).min(b.range.layer_count);
        let (x, y) = (area.offset.x as u32, area.offset.y as u32);
        // Multiview: the layers of the subpass's views only.
        for (first, layers) in super::multiview::clear_layers(r.view_mask, 0, layers) {
            let region = Region {
                src_level: a.range.base_mip_level,
                src: [x, y, a.range.base_array_layer + first],
                dst_level: b.range.base_mip_level,
                dst: [x, y, b.range.base_array_layer + first],
                extent: [area.extent.width, area.extent.height],
                layers,
            };
            meta::resolve::resolve_region(s, src_image, dst_image, a.format, &region, dst.mode)?;
        }
    }
    meta::end(s)
}
