//! The initial VGPRs of a pixel-shader wave and the parameter block the SPI writes into its
//! LDS.
//!
//! VGPR order (pm4-gfx103.md §6, as LLVM's and ACO's PS argument lists): PERSP_SAMPLE (I, J),
//! PERSP_CENTER (I, J), PERSP_CENTROID (I, J), PERSP_PULL_MODEL (I/W, J/W, 1/W), LINEAR_SAMPLE,
//! LINEAR_CENTER, LINEAR_CENTROID (I, J each), LINE_STIPPLE, POS_X, POS_Y, POS_Z, POS_W,
//! FRONT_FACE, ANCILLARY, SAMPLE_COVERAGE, POS_FIXED_PT. An input takes its VGPRs when its
//! SPI_PS_INPUT_ADDR bit is set and is loaded when its SPI_PS_INPUT_ENA bit is also set.
//!
//! I and J are the weights of vertices 1 and 2 (so that `P0 + I * P10 + J * P20` is the
//! attribute); the linear ones are screen-space barycentrics, the perspective ones divide
//! each weight by its vertex's clip w and renormalise.

use super::raster::{RasterState, Setup, FRAC_BITS};

/// VGPR counts of the 16 inputs, in SPI_PS_INPUT_ENA bit order.
pub const INPUT_VGPRS: [u32; 16] = [2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1];

/// Where on the pixel a value is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Center,
    Centroid,
    Sample,
}

/// A primitive as the pixel shader sees it.
pub struct PsPrim<'a> {
    pub setup: Setup,
    /// Window z and 1/w (clip) of the three vertices, in the primitive's vertex order.
    pub z: [f32; 3],
    pub inv_w: [f32; 3],
    pub front: bool,
    /// Index (0..3) of the provoking vertex.
    pub provoking: usize,
    /// Per vertex, the parameter exports of the vertex shader by PARAM index.
    pub params: [&'a [[u32; 4]]; 3],
    /// Points: the parameter slot of the sprite coordinates.
    pub sprite_slot: Option<usize>,
    /// The provoking vertex's parameters (flat-shaded inputs read these).
    pub flat: &'a [[u32; 4]],
    pub viewport: usize,
    /// Render-target array layer, relative to the targets' first slice.
    pub layer: u32,
    /// Polygon offset of the depth test's interpolated depth.
    pub z_bias: f64,
}

/// Position inside pixel (x, y) in 1/4096 pixel of the given location; `shaded` is the
/// sample a per-sample invocation shades.
pub fn location(
    rs: &RasterState,
    (x, y): (i32, i32),
    cov: u16,
    loc: Location,
    shaded: Option<u8>,
) -> (i64, i64) {
    let full = if rs.samples >= 16 { 0xffff } else { (1u16 << rs.samples) - 1 };
    let sample = match loc {
        Location::Center => None,
        _ if rs.samples <= 1 => None,
        _ if shaded.is_some() => shaded.map(u32::from),
        Location::Centroid if cov == 0 || cov == full => None,
        Location::Centroid => {
            rs.centroid_priority.iter().map(|&s| s as u32).find(|&s| cov >> s & 1 != 0)
        }
        Location::Sample => Some(if cov == 0 { 0 } else { cov.trailing_zeros() }),
    };
    let base = ((x as i64) << FRAC_BITS, (y as i64) << FRAC_BITS);
    let (ox, oy) = match sample {
        Some(s) => rs.sample_offset(x, y, s),
        None => {
            let c = if rs.half_pixel_center { 1 << (FRAC_BITS - 1) } else { 0 };
            (c, c)
        }
    };
    (base.0 + ox, base.1 + oy)
}

/// Screen-space barycentrics (weights of vertices 0, 1, 2) at a point.
pub fn linear_bary(p: &PsPrim<'_>, at: (i64, i64)) -> [f64; 3] {
    let w = p.setup.weights(at.0, at.1);
    let a = p.setup.area as f64;
    w.map(|v| v as f64 / a)
}

/// Perspective-correct barycentrics and the interpolated clip w.
pub fn persp_bary(p: &PsPrim<'_>, lin: [f64; 3]) -> ([f64; 3], f64) {
    let q: [f64; 3] = core::array::from_fn(|i| lin[i] * p.inv_w[i] as f64);
    let d = q[0] + q[1] + q[2];
    (q.map(|v| v / d), 1.0 / d)
}

/// The values of the input VGPRs `ena` (SPI_PS_INPUT_ENA bits) selects for one lane (pixel
/// (x, y) with coverage `cov`), in SPI_PS_INPUT_ENA bit order, flattened (`INPUT_VGPRS`
/// values per input); inputs not enabled are left 0.
pub fn lane_inputs(
    rs: &RasterState,
    baryc_cntl: u32,
    ena: u32,
    p: &PsPrim<'_>,
    (x, y): (i32, i32),
    cov: u16,
    shaded: Option<u8>,
) -> [u32; 24] {
    let f = |v: f64| (v as f32).to_bits();
    let mut out = [0u32; 24];
    let lin_at = |loc: Location| linear_bary(p, location(rs, (x, y), cov, loc, shaded));
    // (ENA bits of the perspective and linear pair, output index of each, location)
    for (persp_bit, lin_bit, at, loc) in
        [(0, 4, 0, Location::Sample), (1, 5, 2, Location::Center), (2, 6, 4, Location::Centroid)]
    {
        if ena & (1 << persp_bit | 1 << lin_bit) == 0 {
            continue;
        }
        let lin = lin_at(loc);
        if ena >> persp_bit & 1 != 0 {
            let (per, _) = persp_bary(p, lin);
            out[at..at + 2].copy_from_slice(&[f(per[1]), f(per[2])]);
        }
        if ena >> lin_bit & 1 != 0 {
            out[at + 9..at + 11].copy_from_slice(&[f(lin[1]), f(lin[2])]);
        }
    }
    if ena & 1 << 3 != 0 {
        let lin_c = lin_at(Location::Center);
        let q: [f64; 3] = core::array::from_fn(|i| lin_c[i] * p.inv_w[i] as f64);
        out[6..9].copy_from_slice(&[f(q[1]), f(q[2]), f(q[0] + q[1] + q[2])]);
    }
    // out[15]: the line stipple texture coordinate; stipple is not modelled (always 0).
    if ena & 0xf00 != 0 {
        // POS_FLOAT_LOCATION: 0 centre, 1 centroid, 2 sample.
        let pos_loc = match (baryc_cntl >> 16) & 3 {
            0 => Location::Center,
            1 => Location::Centroid,
            _ => Location::Sample,
        };
        let at = location(rs, (x, y), cov, pos_loc, shaded);
        let one = (1i64 << FRAC_BITS) as f64;
        let lin = linear_bary(p, at);
        let z = (0..3).map(|i| lin[i] * p.z[i] as f64).sum::<f64>();
        let (_, w) = persp_bary(p, lin);
        out[16] = f(at.0 as f64 / one);
        out[17] = f(at.1 as f64 / one);
        out[18] = f(z);
        out[19] = f(w);
    }
    let all_bits = baryc_cntl >> 24 & 1 != 0;
    out[20] = match (p.front, all_bits) {
        (true, true) => u32::MAX,
        (true, false) => 1,
        _ => 0,
    };
    // ANCILLARY: the sample index in bits 11:8 (render-target index 0).
    out[21] = (shaded.unwrap_or(0) as u32) << 8;
    out[22] = cov as u32;
    out[23] = pos_fixed(x, y);
    out
}

/// POS_FIXED_PT: the pixel's integer coordinates, x in bits 15:0 and y in 31:16.
pub fn pos_fixed(x: i32, y: i32) -> u32 {
    (x as u16 as u32) | (y as u16 as u32) << 16
}

/// The values of SPI_PS_INPUT_CNTL.DEFAULT_VAL: (0,0,0,0), (0,0,0,1), (1,1,1,0), (1,1,1,1).
fn default_value(v: u32) -> [u32; 4] {
    let (one, zero) = (1f32.to_bits(), 0);
    match v & 3 {
        0 => [zero; 4],
        1 => [zero, zero, zero, one],
        2 => [one, one, one, zero],
        _ => [one; 4],
    }
}

/// Appends one primitive's parameter block (P0, P10, P20 per attribute, 48 bytes each) for
/// the `num_interp` inputs SPI_PS_INPUT_CNTL_0.. describe.
pub fn param_block(p: &PsPrim<'_>, input_cntl: &[u32], out: &mut Vec<u8>) {
    for &cntl in input_cntl {
        let sprite = p.sprite_slot.filter(|_| cntl >> 17 & 1 != 0);
        let offset = sprite.unwrap_or((cntl & 0x3f) as usize);
        let flat = cntl >> 10 & 1 != 0 && sprite.is_none();
        let default = sprite.is_none() && cntl & 0x20 != 0;
        let vals: [[u32; 4]; 3] = if default {
            [default_value(cntl >> 8); 3]
        } else {
            // A parameter the vertex shader never exported reads as zero.
            core::array::from_fn(|v| p.params[v].get(offset).copied().unwrap_or([0; 4]))
        };
        let mut block = [[0u32; 4]; 3];
        if default {
            block[0] = vals[0];
        } else if flat {
            block[0] = p.flat.get(offset).copied().unwrap_or([0; 4]);
        } else {
            block[0] = vals[0];
            for c in 0..4 {
                let v0 = f32::from_bits(vals[0][c]);
                block[1][c] = (f32::from_bits(vals[1][c]) - v0).to_bits();
                block[2][c] = (f32::from_bits(vals[2][c]) - v0).to_bits();
            }
        }
        for row in block {
            for d in row {
                out.extend_from_slice(&d.to_le_bytes());
            }
        }
    }
}
