//! Polygon offset (depth bias) of the setup unit: PA_SU_SC_MODE_CNTL.POLY_OFFSET_*_ENABLE,
//! PA_SU_POLY_OFFSET_FRONT/BACK_SCALE and _OFFSET, PA_SU_POLY_OFFSET_CLAMP and
//! PA_SU_POLY_OFFSET_DB_FMT_CNTL.
//!
//! The bias of a triangle is `o = SCALE / 16 * m + OFFSET * r`, clamped by CLAMP, where
//! * `m` is the triangle's maximum depth slope `max(|dz/dx|, |dz/dy|)` in window
//!   coordinates (per pixel). The SCALE register is per 1/16 pixel, which is why drivers
//!   program it as 16 times the API's slope factor (RADV and radeonsi both do).
//! * `r` is the depth format's minimum resolvable difference, which DB_FMT_CNTL describes:
//!   POLY_OFFSET_NEG_NUM_DB_BITS holds -n as a signed byte. A fixed-point buffer has
//!   `r = 2^-n` (n = 16 for Z_16); a floating-point one (DB_IS_FLOAT_FMT) has
//!   `r = 2^(e - n)` with `e` the exponent of the largest |z| of the triangle's vertices and
//!   n = 23 (the mantissa width). These are the Vulkan spec's depth-bias equations with the
//!   API's constant factor in OFFSET: current RADV programs OFFSET with the API constant
//!   unscaled and NEG_NUM_DB_BITS = -16 for D16_UNORM, -23 with DB_IS_FLOAT_FMT for
//!   D32_SFLOAT.
//! * CLAMP = 0 (or NaN) does not clamp; a positive CLAMP bounds the bias from above, a
//!   negative one from below.
//!
//! The bias applies to triangles drawn filled, per face by FRONT/BACK_ENABLE, and to the
//! points and lines a polygon mode draws for a polygon, with the polygon's bias, when
//! POLY_OFFSET_PARA_ENABLE is set too (RADV and radeonsi set PARA_ENABLE exactly when point-
//! or line-mode polygons are offset; Vulkan biases polygons in every polygon mode). The depth
//! the pixel shader exports (mrtz) is not biased. What PARA_ENABLE does to point and line
//! primitives themselves is not documented where we can read it, so that is refused.

use ferrum_regs::gfx103 as r;

use crate::cp::regs::RegisterFile;
use crate::error::GpuError;
use r::PA_SU_POLY_OFFSET_DB_FMT_CNTL as FMT;
use r::PA_SU_SC_MODE_CNTL as SU;

/// One face's SCALE and OFFSET registers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaceOffset {
    pub scale: f32,
    pub offset: f32,
}

/// The polygon-offset state of a draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolyOffset {
    /// Per face, `None` when that face's offset is disabled.
    pub front: Option<FaceOffset>,
    pub back: Option<FaceOffset>,
    pub clamp: f32,
    /// -n: POLY_OFFSET_NEG_NUM_DB_BITS as a signed byte.
    pub neg_bits: i32,
    pub float: bool,
    /// POLY_OFFSET_PARA_ENABLE.
    pub para: bool,
}

impl PolyOffset {
    pub fn from_regs(regs: &RegisterFile) -> PolyOffset {
        let su = regs.get(r::PA_SU_SC_MODE_CNTL);
        let f = |a: u32| f32::from_bits(regs.get(a));
        let face = |enable: bool, scale: u32, offset: u32| {
            enable.then(|| FaceOffset { scale: f(scale), offset: f(offset) })
        };
        let fmt = regs.get(r::PA_SU_POLY_OFFSET_DB_FMT_CNTL);
        PolyOffset {
            front: face(
                SU::POLY_OFFSET_FRONT_ENABLE.is_set(su),
                r::PA_SU_POLY_OFFSET_FRONT_SCALE,
                r::PA_SU_POLY_OFFSET_FRONT_OFFSET,
            ),
            back: face(
                SU::POLY_OFFSET_BACK_ENABLE.is_set(su),
                r::PA_SU_POLY_OFFSET_BACK_SCALE,
                r::PA_SU_POLY_OFFSET_BACK_OFFSET,
            ),
            clamp: f(r::PA_SU_POLY_OFFSET_CLAMP),
            neg_bits: FMT::POLY_OFFSET_NEG_NUM_DB_BITS.get(fmt) as u8 as i8 as i32,
            float: FMT::POLY_OFFSET_DB_IS_FLOAT_FMT.is_set(fmt),
            para: SU::POLY_OFFSET_PARA_ENABLE.is_set(su),
        }
    }

    /// Whether any primitive can be offset.
    pub fn any(&self) -> bool {
        self.front.is_some() || self.back.is_some() || self.para
    }

    /// The minimum resolvable difference for a triangle whose largest |z| is `max_z`.
    pub fn resolvable(&self, max_z: f32) -> f64 {
        let e = if self.float {
            // The exponent of the largest |z| (denormals and zero: the smallest normal one).
            (((max_z.abs().to_bits() >> 23) & 0xff) as i32).max(1) - 127
        } else {
            0
        };
        2f64.powi(e + self.neg_bits)
    }

    /// The bias added to the depth of every sample of the triangle with window-space
    /// vertices `pos` (x, y, z), facing `front`. 0 when that face is not offset.
    pub fn bias(&self, pos: &[[f32; 4]; 3], front: bool) -> f64 {
        self.bias_with_max_z(pos, front, pos.iter().map(|p| p[2].abs()).fold(0.0, f32::max))
    }

    /// [`PolyOffset::bias`] of the plane through `pos` with the resolvable difference taken
    /// at `max_z` (the largest |z| of the polygon the plane belongs to).
    fn bias_with_max_z(&self, pos: &[[f32; 4]; 3], front: bool, max_z: f32) -> f64 {
        let Some(f) = (if front { self.front } else { self.back }) else { return 0.0 };
        let o = f.scale as f64 / 16.0 * max_slope(pos) + f.offset as f64 * self.resolvable(max_z);
        let c = self.clamp as f64;
        if c > 0.0 {
            o.min(c)
        } else if c < 0.0 {
            o.max(c)
        } else {
            o
        }
    }
}

impl PolyOffset {
    /// The bias of the points or lines a polygon mode draws for `polygon` (window positions,
    /// at least three), facing `front`: the polygon's own bias (its plane's slope, its
    /// largest |z|), as Vulkan applies depth bias to polygons in every polygon mode. The
    /// hardware offsets them when the face's enable and POLY_OFFSET_PARA_ENABLE are both set
    /// (how RADV and radeonsi program polygon offset of point- and line-mode polygons); a
    /// face enable without PARA_ENABLE is refused as not modelled.
    pub fn polygon_mode_bias(&self, polygon: &[[f32; 4]], front: bool) -> Result<f64, GpuError> {
        let face = if front { self.front } else { self.back };
        match (face.is_some(), self.para) {
            (false, _) => Ok(0.0),
            (true, false) => Err(GpuError::Unsupported(
                "polygon offset of point/line polygon modes without POLY_OFFSET_PARA_ENABLE is not \
                 modelled"
                    .into(),
            )),
            (true, true) if polygon.len() < 3 => Ok(0.0),
            (true, true) => {
                let max_z = polygon.iter().map(|p| p[2].abs()).fold(0.0, f32::max);
                let plane = [polygon[0], polygon[1], polygon[2]];
                Ok(self.bias_with_max_z(&plane, front, max_z))
            }
        }
    }
}

/// max(|dz/dx|, |dz/dy|) of the plane through three window-space vertices (0 when they are
/// collinear).
pub fn max_slope(p: &[[f32; 4]; 3]) -> f64 {
    let d = |i: usize, c: usize| p[i][c] as f64 - p[0][c] as f64;
    let (x1, y1, z1) = (d(1, 0), d(1, 1), d(1, 2));
    let (x2, y2, z2) = (d(2, 0), d(2, 1), d(2, 2));
    let det = x1 * y2 - x2 * y1;
    if det == 0.0 {
        return 0.0;
    }
    let dzdx = (z1 * y2 - z2 * y1) / det;
    let dzdy = (x1 * z2 - x2 * z1) / det;
    dzdx.abs().max(dzdy.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(neg_bits: i32, float: bool, clamp: f32) -> PolyOffset {
        let f = Some(FaceOffset { scale: 16.0, offset: 1.0 });
        PolyOffset { front: f, back: None, clamp, neg_bits, float, para: false }
    }

    #[test]
    fn slope_of_a_plane() {
        // z = 0.25 + 0.01 x - 0.03 y.
        let z = |x: f32, y: f32| 0.25 + 0.01 * x - 0.03 * y;
        let p = [
            [0.0, 0.0, z(0.0, 0.0), 1.0],
            [8.0, 0.0, z(8.0, 0.0), 1.0],
            [0.0, 4.0, z(0.0, 4.0), 1.0],
        ];
        assert!((max_slope(&p) - 0.03).abs() < 1e-7);
    }

    #[test]
    fn resolvable_difference() {
        // Z_16: 2^-16 whatever the depth.
        assert_eq!(state(-16, false, 0.0).resolvable(0.75), 2f64.powi(-16));
        // Float: 0.75 has exponent -1, so r = 2^(-1 - 23).
        assert_eq!(state(-23, true, 0.0).resolvable(0.75), 2f64.powi(-24));
        assert_eq!(state(-23, true, 0.0).resolvable(1.0), 2f64.powi(-23));
        assert_eq!(state(-23, true, 0.0).resolvable(0.0), 2f64.powi(-126 - 23));
    }

    #[test]
    fn clamp_and_faces() {
        let flat = [[0.0, 0.0, 0.5, 1.0], [1.0, 0.0, 0.5, 1.0], [0.0, 1.0, 0.5, 1.0]];
        let r = 2f64.powi(-16);
        assert_eq!(state(-16, false, 0.0).bias(&flat, true), r);
        assert_eq!(state(-16, false, 0.0).bias(&flat, false), 0.0);
        assert_eq!(state(-16, false, r as f32 / 2.0).bias(&flat, true), r / 2.0);
        assert_eq!(state(-16, false, -1.0).bias(&flat, true), r);
        let mut neg = state(-16, false, -(r as f32) / 4.0);
        neg.front = Some(FaceOffset { scale: 0.0, offset: -1.0 });
        assert_eq!(neg.bias(&flat, true), -r / 4.0);
    }
}
