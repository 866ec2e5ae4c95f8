//! Viewports and scissors: the viewport transform (PA_CL_VPORT_*), its depth range for the
//! DB's clamp (PA_SC_VPORT_ZMIN/ZMAX), the per-viewport scissor (PA_SC_VPORT_SCISSOR_*), the
//! screen/window/generic scissors, and the guard band (PA_CL_GB_*).
//!
//! Facts (RADV `radv_get_viewport_xform`, `si_write_guardband`; the register database):
//! - x_w = scale_x * x_ndc + offset_x with scale = width / 2, offset = x + width / 2 (the same
//!   for y, a negative height flipping it); z_w = (maxDepth - minDepth) * z_ndc + minDepth for
//!   Vulkan's [0, 1] clip space.
//! - The hardware clips to the guard band, in units of the viewport's half extent: a vertex is
//!   clipped when |x_ndc| > GB_HORZ_CLIP_ADJ. The band reaches as far as window coordinates of
//!   +-32767 allow (the rasterizer's range), with the half extent taken at least 0.5 pixel.
//!   Primitives wholly beyond DISC_ADJ are discarded: 1.0 for triangles (the viewport edge);
//!   points and lines can reach past their vertices by half their size, so the discard band
//!   grows by that much.
//! - Viewport scissors are the API scissor intersected with the viewport rectangle (the
//!   rasterizer does not clip to the viewport itself when the guard band is wider), enabled
//!   by PA_SC_MODE_CNTL_0.VPORT_SCISSOR_ENABLE (see `multisample::mode_cntl_0`).

use ash::vk;
use ferrum_regs::gfx103 as r;

use crate::gfx::{fui, Regs};

/// Registers between one viewport's block and the next.
pub const VPORT_STRIDE: u32 = r::PA_CL_VPORT_XSCALE_1 - r::PA_CL_VPORT_XSCALE;
/// Between PA_SC_VPORT_SCISSOR_n_TL (and ZMIN_n) blocks.
pub const VPORT_SCISSOR_STRIDE: u32 = r::PA_SC_VPORT_SCISSOR_1_TL - r::PA_SC_VPORT_SCISSOR_0_TL;
pub const VPORT_ZMIN_STRIDE: u32 = r::PA_SC_VPORT_ZMIN_1 - r::PA_SC_VPORT_ZMIN_0;
/// Viewports the hardware has (maxViewports).
pub const MAX_VIEWPORTS: usize = 16;
/// Largest framebuffer extent (maxFramebufferWidth/Height): scissors clamp to it.
pub const MAX_EXTENT: u32 = 16384;
/// The rasterizer's coordinate range the guard band must stay inside.
const GB_MAX_RANGE: f32 = 32767.0;

/// PA_CL_VTE_CNTL: all six viewport scale/offset enables, and W as 1/W (the VS exports clip
/// coordinates; the clipper divides).
pub fn vte_cntl() -> u32 {
    use r::PA_CL_VTE_CNTL as F;
    F::VPORT_X_SCALE_ENA.val(1)
        | F::VPORT_X_OFFSET_ENA.val(1)
        | F::VPORT_Y_SCALE_ENA.val(1)
        | F::VPORT_Y_OFFSET_ENA.val(1)
        | F::VPORT_Z_SCALE_ENA.val(1)
        | F::VPORT_Z_OFFSET_ENA.val(1)
        | F::VTX_W0_FMT.val(1)
}

/// Scale and offset of x, y, z for one viewport.
pub fn xform(v: &vk::Viewport) -> ([f32; 3], [f32; 3]) {
    let (hw, hh) = (0.5 * v.width, 0.5 * v.height);
    ([hw, hh, v.max_depth - v.min_depth], [v.x + hw, v.y + hh, v.min_depth])
}

/// The transform and depth range registers of `viewports` (viewport i = index i).
pub fn viewports(viewports: &[vk::Viewport]) -> Regs {
    let mut regs = Regs::new();
    for (i, v) in viewports.iter().take(MAX_VIEWPORTS).enumerate() {
        let (scale, offset) = xform(v);
        let base = r::PA_CL_VPORT_XSCALE + VPORT_STRIDE * i as u32;
        for (k, value) in
            [scale[0], offset[0], scale[1], offset[1], scale[2], offset[2]].into_iter().enumerate()
        {
            regs.push(base + 4 * k as u32, fui(value));
        }
        // The DB clamps fragment depth to the viewport's depth range (Vulkan: to [min, max]
        // of minDepth/maxDepth, which may be given in either order).
        let z = r::PA_SC_VPORT_ZMIN_0 + VPORT_ZMIN_STRIDE * i as u32;
        regs.push(z, fui(v.min_depth.min(v.max_depth)));
        regs.push(z + 4, fui(v.min_depth.max(v.max_depth)));
    }
    regs
}

/// An inclusive-exclusive pixel rectangle clamped to the hardware's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl Rect {
    /// A scissor rectangle, clamped to [0, MAX_EXTENT] (the offset is non-negative by valid
    /// usage; a huge extent is legal and means "to the edge").
    pub fn from_scissor(s: &vk::Rect2D) -> Rect {
        let clamp = |v: i64| v.clamp(0, MAX_EXTENT as i64) as u32;
        let (x, y) = (s.offset.x as i64, s.offset.y as i64);
        Rect {
            x0: clamp(x),
            y0: clamp(y),
            x1: clamp(x + s.extent.width as i64),
            y1: clamp(y + s.extent.height as i64),
        }
    }

    /// The pixels a viewport's rectangle touches (a negative height extends upwards).
    pub fn from_viewport(v: &vk::Viewport) -> Rect {
        let clamp = |v: f32| v.clamp(0.0, MAX_EXTENT as f32) as u32;
        let (xa, xb) = (v.x.min(v.x + v.width), v.x.max(v.x + v.width));
        let (ya, yb) = (v.y.min(v.y + v.height), v.y.max(v.y + v.height));
        Rect {
            x0: clamp(xa.floor()),
            y0: clamp(ya.floor()),
            x1: clamp(xb.ceil()),
            y1: clamp(yb.ceil()),
        }
    }

    pub fn intersect(self, o: Rect) -> Rect {
        let x0 = self.x0.max(o.x0);
        let y0 = self.y0.max(o.y0);
        Rect { x0, y0, x1: self.x1.min(o.x1).max(x0), y1: self.y1.min(o.y1).max(y0) }
    }

    /// The TL and BR register values (BR exclusive), window offset not applied.
    pub fn tl_br(&self) -> (u32, u32) {
        use r::PA_SC_VPORT_SCISSOR_0_BR as BR;
        use r::PA_SC_VPORT_SCISSOR_0_TL as TL;
        (
            TL::TL_X.val(self.x0) | TL::TL_Y.val(self.y0) | TL::WINDOW_OFFSET_DISABLE.val(1),
            BR::BR_X.val(self.x1) | BR::BR_Y.val(self.y1),
        )
    }
}

/// PA_SC_VPORT_SCISSOR_n for `scissors[i]` and `viewports[i]` (the two are always set in
/// pairs here: the register holds their intersection, so a dynamic change of either needs
/// both).
pub fn scissors(viewports: &[vk::Viewport], scissors: &[vk::Rect2D]) -> Regs {
    let mut regs = Regs::new();
    for (i, (v, s)) in viewports.iter().zip(scissors).take(MAX_VIEWPORTS).enumerate() {
        let rect = Rect::from_scissor(s).intersect(Rect::from_viewport(v));
        let (tl, br) = rect.tl_br();
        let at = r::PA_SC_VPORT_SCISSOR_0_TL + VPORT_SCISSOR_STRIDE * i as u32;
        regs.push(at, tl);
        regs.push(at + 4, br);
    }
    regs
}

/// The screen, window and generic scissors for a render area (the framebuffer's extent or
/// the render area of a render pass): everything outside it is never drawn, and the window
/// offset stays 0.
pub fn render_area(area: &vk::Rect2D) -> Regs {
    let rect = Rect::from_scissor(area);
    let (tl, br) = rect.tl_br();
    let mut regs = Regs::new();
    regs.push(r::PA_SC_WINDOW_OFFSET, 0);
    // The screen scissor has no WINDOW_OFFSET_DISABLE bit and 16-bit fields.
    use r::PA_SC_SCREEN_SCISSOR_BR as SBR;
    use r::PA_SC_SCREEN_SCISSOR_TL as STL;
    regs.push(r::PA_SC_SCREEN_SCISSOR_TL, STL::TL_X.val(rect.x0) | STL::TL_Y.val(rect.y0));
    regs.push(r::PA_SC_SCREEN_SCISSOR_BR, SBR::BR_X.val(rect.x1) | SBR::BR_Y.val(rect.y1));
    regs.push(r::PA_SC_WINDOW_SCISSOR_TL, tl);
    regs.push(r::PA_SC_WINDOW_SCISSOR_BR, br);
    regs.push(r::PA_SC_GENERIC_SCISSOR_TL, tl);
    regs.push(r::PA_SC_GENERIC_SCISSOR_BR, br);
    regs
}

/// What is rasterized, for the guard band's discard distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RastPrim {
    Triangles,
    /// Lines of this width in pixels.
    Lines(f32),
    /// Points of at most this size in pixels.
    Points(f32),
}

/// PA_CL_GB_{VERT,HORZ}_{CLIP,DISC}_ADJ for `viewports` (the band must suit every one).
pub fn guard_band(viewports: &[vk::Viewport], prim: RastPrim) -> Regs {
    let (mut gb_x, mut gb_y) = (f32::INFINITY, f32::INFINITY);
    let (mut disc_x, mut disc_y) = (1.0f32, 1.0f32);
    for v in viewports.iter().take(MAX_VIEWPORTS) {
        let (scale, offset) = xform(v);
        let sx = scale[0].abs().max(0.5);
        let sy = scale[1].abs().max(0.5);
        gb_x = gb_x.min((GB_MAX_RANGE - offset[0].abs()) / sx);
        gb_y = gb_y.min((GB_MAX_RANGE - offset[1].abs()) / sy);
        let reach = match prim {
            RastPrim::Triangles => 0.0,
            RastPrim::Lines(w) | RastPrim::Points(w) => 0.5 * w,
        };
        disc_x = disc_x.max(1.0 + reach / sx);
        disc_y = disc_y.max(1.0 + reach / sy);
    }
    if gb_x.is_infinite() {
        (gb_x, gb_y) = (1.0, 1.0);
    }
    // Clipping must not start beyond where discarding starts, and neither inside the viewport.
    let (gb_x, gb_y) = (gb_x.max(1.0), gb_y.max(1.0));
    let (disc_x, disc_y) = (disc_x.min(gb_x), disc_y.min(gb_y));
    let mut regs = Regs::new();
    regs.push(r::PA_CL_GB_VERT_CLIP_ADJ, fui(gb_y));
    regs.push(r::PA_CL_GB_VERT_DISC_ADJ, fui(disc_y));
    regs.push(r::PA_CL_GB_HORZ_CLIP_ADJ, fui(gb_x));
    regs.push(r::PA_CL_GB_HORZ_DISC_ADJ, fui(disc_x));
    regs
}

#[cfg(test)]
#[path = "viewport_tests.rs"]
mod tests;
