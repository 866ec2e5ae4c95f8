//! `vkCmdClearAttachments`, and the work a secondary command buffer leaves to the primary
//! that executes it.
//!
//! Clears write the attachments through their views with the meta clear kernel. A secondary
//! that continues a scope whose views it does not know (dynamic rendering, or a render pass
//! inherited without a framebuffer) cannot do that, nor narrow the targets to a multiview
//! draw's layer: it defers both to the executing primary (`cmd::stream::Deferred`), which
//! records them against its own scope at the same point of the command sequence.

use ash::vk;

use super::draw::{self, emit};
use super::multiview;
use super::rendering::Rendering;
use crate::cmd::stream::{CmdStream, Deferred};
use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};
use crate::image::view::ImageView;
use crate::meta::clear::{clear_view_region, ClearValue};

/// Whether `r` is a secondary's scope without the attachment views.
fn without_views(r: &Rendering) -> bool {
    r.inherited.is_some_and(|i| i.no_views)
}

/// `vkCmdClearAttachments` in scope `r`: clears now, or defers the clear to the executing
/// primary when the scope's views are unknown here.
pub fn clear_attachments(
    s: &mut CmdStream,
    r: &Rendering,
    attachments: &[vk::ClearAttachment],
    rects: &[vk::ClearRect],
) -> VkResult<()> {
    if without_views(r) {
        return s.defer(Deferred::ClearAttachments(attachments.to_vec(), rects.to_vec()));
    }
    for a in attachments {
        if a.aspect_mask != vk::ImageAspectFlags::COLOR {
            clear_depth_stencil(s, r, a, rects)?;
        } else {
            clear_color(s, r, a, rects)?;
        }
    }
    Ok(())
}

/// The depth/stencil part of a clear: aspects the scope does not attach are not cleared (no
/// attachment: none).
fn clear_depth_stencil(
    s: &mut CmdStream,
    r: &Rendering,
    a: &vk::ClearAttachment,
    rects: &[vk::ClearRect],
) -> VkResult<()> {
    let Some(t) = &r.depth else { return Ok(()) };
    for rect in rects {
        for (base, n) in
            multiview::clear_layers(r.view_mask, rect.base_array_layer, rect.layer_count)
        {
            // SAFETY: a depth/stencil clear's value is that member (valid usage).
            let value = unsafe { a.clear_value.depth_stencil };
            draw::clear_depth_region(s, t, a.aspect_mask, base, n, rect.rect, value)?;
        }
    }
    Ok(())
}

/// A colour clear: "If colorAttachment is VK_ATTACHMENT_UNUSED the clear has no effect", nor
/// has one of a location without an attachment.
fn clear_color(
    s: &mut CmdStream,
    r: &Rendering,
    a: &vk::ClearAttachment,
    rects: &[vk::ClearRect],
) -> VkResult<()> {
    let Some(Some(t)) = r.colors.get(a.color_attachment as usize) else { return Ok(()) };
    // SAFETY: attachment views outlive the commands that use them (valid usage).
    let view = unsafe { ImageView::from_handle(t.view) }
        .ok_or(VkError::InvalidUsage("null attachment view"))?;
    // SAFETY: a colour clear's value is the colour member (valid usage).
    let value = ClearValue::Color(unsafe { a.clear_value.color });
    for rect in rects {
        let area = draw::clip(rect.rect, t.target.extent());
        if area.extent.width == 0 || area.extent.height == 0 {
            continue;
        }
        for (base, n) in
            multiview::clear_layers(r.view_mask, rect.base_array_layer, rect.layer_count)
        {
            let color = vk::ImageAspectFlags::COLOR;
            clear_view_region(s, view, color, base, n, area, &value)?;
        }
    }
    Ok(())
}

/// Narrows the targets to `view`'s layer before a multiview draw, or defers that to the
/// executing primary when the scope's views are unknown here.
pub fn view_targets(s: &mut CmdStream, r: &Rendering, view: u32) -> VkResult<()> {
    if without_views(r) {
        return s.defer(Deferred::ViewTargets(view));
    }
    emit(s, multiview::view_targets(r, view))
}

/// Records a secondary's deferred operation in the executing primary's scope `r`.
pub fn run_deferred(s: &mut CmdStream, r: &Rendering, op: &Deferred) -> VkResult<()> {
    if without_views(r) {
        // A secondary executing secondaries does not happen (vkCmdExecuteCommands is a
        // primary command), so the scope here always knows its views.
        return Err(VkError::InvalidUsage("deferred attachment work in a scope without views"));
    }
    match op {
        Deferred::ClearAttachments(a, rects) => clear_attachments(s, r, a, rects),
        Deferred::ViewTargets(view) => view_targets(s, r, *view),
    }
}
