//! Multiview (VK_KHR_multiview): a subpass with a view mask renders every draw, load-op clear
//! and vkCmdClearAttachments once per view bit, into the attachment layer equal to the view
//! index (relative to the view's base layer). Draws reprogram the CB/DB slice range to that
//! one layer and write the view index into the `gl_ViewIndex` user SGPR of both stages
//! (`abi::graphics::VS_USER_DATA_VIEW_INDEX`, `PS_USER_DATA_VIEW_INDEX`), which is simpler
//! than exporting the layer from the VS and equally correct: each view's primitives reach
//! only its layer.

use ferrum_regs::gfx103 as r;

use super::rendering::Rendering;
use super::target::CB_STRIDE;
use super::Regs;

/// The most views a subpass may render (VkPhysicalDeviceMultiviewProperties, as RADV on
/// navi21): view masks use bits 0..7.
pub const MAX_VIEWS: u32 = 8;

/// VUID-VkSubpassDescription2-viewMask-06706 / VkRenderingInfo-viewMask-06128: view mask
/// bits below maxMultiviewViewCount.
pub fn check_mask(view_mask: u32) -> crate::error::VkResult<()> {
    if view_mask >> MAX_VIEWS != 0 {
        return Err(crate::error::VkError::InvalidUsage("view mask beyond maxMultiviewViewCount"));
    }
    Ok(())
}

/// The views a draw of a scope with `view_mask` runs: each set bit, or view 0 alone without
/// multiview.
pub fn views(view_mask: u32) -> Vec<u32> {
    if view_mask == 0 {
        return vec![0];
    }
    (0..32).filter(|b| view_mask >> b & 1 != 0).collect()
}

/// The (first layer, layer count) ranges a clear of `layers` layers from `base` touches: the
/// given range without multiview, otherwise one layer per view (Vulkan: with multiview,
/// vkCmdClearAttachments and load ops clear the layers of the views in the view mask).
pub fn clear_layers(view_mask: u32, base: u32, layers: u32) -> Vec<(u32, u32)> {
    if view_mask == 0 {
        return vec![(base, layers)];
    }
    views(view_mask).into_iter().map(|v| (v, 1)).collect()
}

/// The CB_COLORn_VIEW and DB_DEPTH_VIEW values of `rendering`'s attachments narrowed to the
/// single layer of `view`.
pub fn view_targets(rendering: &Rendering, view: u32) -> Regs {
    let mut regs = Regs::new();
    for (slot, t) in rendering.colors.iter().enumerate() {
        let Some(t) = t else { continue };
        let addr = r::CB_COLOR0_VIEW + slot as u32 * CB_STRIDE;
        let Some(v) = t.regs.get(addr) else { continue };
        let layer = t.target.base_layer + view;
        use r::CB_COLOR0_VIEW as V;
        regs.push(addr, V::SLICE_MAX.set(V::SLICE_START.set(v, layer), layer));
    }
    if let Some(t) = &rendering.depth {
        if let Some(v) = t.regs.get(r::DB_DEPTH_VIEW) {
            let layer = t.target.base_layer + view;
            use r::DB_DEPTH_VIEW as V;
            let v = V::SLICE_START.set(v, layer);
            let v = V::SLICE_START_HI.set(v, layer >> 11);
            let v = V::SLICE_MAX.set(v, layer);
            regs.push(r::DB_DEPTH_VIEW, V::SLICE_MAX_HI.set(v, layer >> 11));
        }
    }
    regs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_are_the_mask_bits() {
        assert_eq!(views(0), vec![0]);
        assert_eq!(views(0b1010), vec![1, 3]);
        assert_eq!(views(0xff), (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn clears_cover_one_layer_per_view() {
        assert_eq!(clear_layers(0, 2, 3), vec![(2, 3)]);
        assert_eq!(clear_layers(0b101, 0, 1), vec![(0, 1), (2, 1)]);
    }
}
