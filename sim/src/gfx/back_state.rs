//! Decoding the rasterizer's and depth block's registers into the back end's state.

use super::addr::*;
use super::depth::DepthState;
use super::raster::{RasterState, Rect, Round};
use crate::cp::regs::{field, RegisterFile};

/// A TL/BR scissor register pair; `offset` is the window offset unless the TL register's
/// WINDOW_OFFSET_DISABLE bit (31) is set.
fn scissor(regs: &RegisterFile, tl: u32, offset: (i32, i32), has_disable: bool) -> Rect {
    let (t, b) = (regs.get(tl), regs.get(tl + 4));
    let bits = if has_disable { 14 } else { 15 };
    let (ox, oy) = if has_disable && t >> 31 != 0 { (0, 0) } else { offset };
    Rect {
        x0: field(t, 0, bits) as i32 + ox,
        y0: field(t, 16, 16 + bits) as i32 + oy,
        x1: field(b, 0, bits) as i32 + ox,
        y1: field(b, 16, 16 + bits) as i32 + oy,
    }
}

/// The window offset PA_SC_WINDOW_OFFSET (signed 16-bit fields).
pub fn window_offset(regs: &RegisterFile) -> (i32, i32) {
    let w = regs.get(PA_SC_WINDOW_OFFSET);
    (w as u16 as i16 as i32, (w >> 16) as u16 as i16 as i32)
}

/// The rasterizer state the registers program.
pub fn raster_state(regs: &RegisterFile) -> Result<RasterState, String> {
    let vtx = regs.get(PA_SU_VTX_CNTL);
    let snap_bits = match field(vtx, 3, 5) {
        q @ 0..=3 => 4 - q,
        4 => 0,
        5 => 8,
        6 => 10,
        _ => 12,
    };
    let round = [Round::Truncate, Round::Nearest, Round::NearestEven, Round::NearestOdd]
        [field(vtx, 1, 2) as usize];
    let aa = regs.get(PA_SC_AA_CONFIG);
    let msaa_enable = regs.get(PA_SC_MODE_CNTL_0) & 1 != 0;
    let log2 = field(aa, 0, 2);
    if log2 > 4 {
        return Err(format!("PA_SC_AA_CONFIG.MSAA_NUM_SAMPLES = {log2} is undefined"));
    }
    let samples = if msaa_enable { 1 << log2 } else { 1 };
    let mut sample_locs = [[(0i8, 0i8); 16]; 4];
    for (p, locs) in sample_locs.iter_mut().enumerate() {
        for (s, loc) in locs.iter_mut().enumerate() {
            let r = regs.get(PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 4 * (p as u32 * 4 + s as u32 / 4));
            let b = (s % 4) * 8;
            let sx = ((r >> b) & 0xf) as i8;
            let sy = ((r >> (b + 4)) & 0xf) as i8;
            *loc = ((sx << 4) >> 4, (sy << 4) >> 4);
        }
    }
    let m0 = regs.get(PA_SC_AA_MASK_X0Y0_X1Y0);
    let m1 = regs.get(PA_SC_AA_MASK_X0Y1_X1Y1);
    let aa_mask = [m0 as u16, (m0 >> 16) as u16, m1 as u16, (m1 >> 16) as u16];
    let p0 = regs.get(PA_SC_CENTROID_PRIORITY_0) as u64;
    let p1 = regs.get(PA_SC_CENTROID_PRIORITY_1) as u64;
    let prio = p0 | p1 << 32;
    let centroid_priority = core::array::from_fn(|i| ((prio >> (4 * i)) & 0xf) as u8);
    let off = window_offset(regs);
    let sc = scissor(regs, PA_SC_SCREEN_SCISSOR_TL, (0, 0), false)
        .intersect(scissor(regs, PA_SC_WINDOW_SCISSOR_TL, off, true))
        .intersect(scissor(regs, PA_SC_GENERIC_SCISSOR_TL, off, true));
    let vport_scissors = (regs.get(PA_SC_MODE_CNTL_0) & 2 != 0).then(|| {
        core::array::from_fn(|i| scissor(regs, PA_SC_VPORT_SCISSOR_0_TL + 8 * i as u32, off, true))
    });
    Ok(RasterState {
        snap_bits,
        round,
        half_pixel_center: vtx & 1 != 0,
        samples,
        sample_locs,
        aa_mask,
        centroid_priority,
        scissor: sc,
        vport_scissors,
    })
}

/// DB_DEPTH_CONTROL and friends.
pub fn depth_state(regs: &RegisterFile) -> DepthState {
    DepthState::from_regs(
        regs.get(DB_DEPTH_CONTROL),
        regs.get(DB_STENCIL_CONTROL),
        regs.get(DB_STENCILREFMASK),
        regs.get(DB_STENCILREFMASK_BF),
        (
            f32::from_bits(regs.get(DB_DEPTH_BOUNDS_MIN)),
            f32::from_bits(regs.get(DB_DEPTH_BOUNDS_MAX)),
        ),
    )
}

/// The depth range the DB clamps incoming depth to, per viewport (PA_SC_VPORT_ZMIN/ZMAX_n).
pub fn depth_clamp(regs: &RegisterFile) -> [(f32, f32); 16] {
    core::array::from_fn(|i| {
        let at = |a: u32| f32::from_bits(regs.get(a + 8 * i as u32));
        (at(PA_SC_VPORT_ZMIN_0), at(PA_SC_VPORT_ZMAX_0))
    })
}
