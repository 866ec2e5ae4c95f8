//! Sampling: address modes, level selection, nearest/linear/trilinear filtering, depth
//! compare, gather and min/max reduction, from a T#, an S# and per-lane coordinates.
//!
//! Arithmetic follows the Vulkan "Texel Filtering" rules with navi21's precisions: texel
//! coordinates are quantised to 8 fractional bits before the filter weights are taken
//! (subTexelPrecisionBits = 8) and the mip blend factor to 8 bits (mipmapPrecisionBits).
//! Cube maps filter seamlessly unless the S# sets DISABLE_CUBE_WRAP (then each face is wrapped
//! by itself with the S#'s address modes, as VK_EXT_non_seamless_cube_map describes). Not modelled: anisotropic filtering (an S# asking for it
//! filters isotropically).

use super::desc::{clamp, ty, Ssharp};
use super::image::{Image, Memory, Texel};

/// One lane's sampling request after the instruction's operands are decoded.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    /// s, t, r (normalized unless `unnorm`); cube: face-local s, t in [0, 1].
    pub coord: [f32; 3],
    /// Array layer coordinate (unrounded), cube face or `8 × cube + face`.
    pub layer: Option<f32>,
    /// Level of detail after bias, before the sampler's clamps.
    pub lod: f32,
    /// Minimum LOD from a `_cl` operand.
    pub min_lod: Option<f32>,
    pub offset: [i32; 3],
    pub compare: Option<f32>,
    /// Gather: the channel (0..4) to gather.
    pub gather: Option<usize>,
    pub unnorm: bool,
    /// The border colour from the S#'s table entry (BORDER_COLOR_TYPE 3), register values in
    /// API component order.
    pub border: Option<[u32; 4]>,
}

/// Applies an address mode to integer texel coordinate `i` of an axis `n` texels long;
/// `None` is a border texel.
pub fn wrap(mode: u32, i: i64, n: u32) -> Option<u32> {
    let n = n as i64;
    let mirror_once = |i: i64| if i < 0 { -1 - i } else { i };
    let r = match mode {
        clamp::WRAP => i.rem_euclid(n),
        clamp::MIRROR => {
            let t = i.rem_euclid(2 * n);
            if t >= n {
                2 * n - 1 - t
            } else {
                t
            }
        }
        clamp::CLAMP_LAST_TEXEL => i.clamp(0, n - 1),
        clamp::MIRROR_ONCE_LAST_TEXEL => mirror_once(i).clamp(0, n - 1),
        clamp::CLAMP_HALF_BORDER | clamp::CLAMP_BORDER => i,
        _ => mirror_once(i),
    };
    (0..n).contains(&r).then_some(r as u32)
}

/// The direction through face-local point (s, t) (each in [0, 1] across the face) of cube face
/// `face`, with major-axis component ±1 (Vulkan's cube face table, inverted).
pub fn cube_direction(face: u32, s: f64, t: f64) -> [f64; 3] {
    let (sc, tc) = (2.0 * s - 1.0, 2.0 * t - 1.0);
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

/// Face-local (s, t) of direction `d` projected onto the plane of face `face` (values
/// outside [0, 1] lie beyond the face's edges), or `None` when `d` does not point towards
/// that face's side of the cube.
pub fn cube_project(face: u32, d: [f64; 3]) -> Option<(f64, f64)> {
    let [rx, ry, rz] = d;
    let (sc, tc, ma) = match face {
        0 => (-rz, -ry, rx),
        1 => (rz, -ry, -rx),
        2 => (rx, rz, ry),
        3 => (rx, -rz, -ry),
        4 => (rx, -ry, rz),
        _ => (-rx, -ry, -rz),
    };
    (ma > 0.0).then(|| ((sc / ma + 1.0) / 2.0, (tc / ma + 1.0) / 2.0))
}

/// The face direction `d` selects (Vulkan "Cube Map Face Selection": the largest magnitude,
/// ties to z then y).
pub fn cube_face(d: [f64; 3]) -> u32 {
    let [rx, ry, rz] = d;
    if rz.abs() >= rx.abs() && rz.abs() >= ry.abs() {
        if rz >= 0.0 {
            4
        } else {
            5
        }
    } else if ry.abs() >= rx.abs() {
        if ry >= 0.0 {
            2
        } else {
            3
        }
    } else if rx >= 0.0 {
        0
    } else {
        1
    }
}

/// The face and texel that texel (x, y) just outside face `face` (of n×n texels) lands on
/// when the cube is seen as a whole: the texel centre becomes a direction, the direction
/// picks a face and projects onto it. Corners resolve to one of the three faces meeting
/// there.
pub fn cube_neighbour(face: u32, x: i64, y: i64, n: u32) -> (u32, i64, i64) {
    let nf = n as f64;
    let d = cube_direction(face, (x as f64 + 0.5) / nf, (y as f64 + 0.5) / nf);
    let f = cube_face(d);
    let (s, t) = cube_project(f, d).unwrap_or((0.5, 0.5));
    let texel = |c: f64| ((c * nf).floor() as i64).clamp(0, n as i64 - 1);
    (f, texel(s), texel(t))
}

/// The channels X, Y, Z, W a border colour `rgba` fills under BC_SWIZZLE `bc` (each letter of
/// the enum's name says which component, X = R ... W = A, lands in that channel).
pub fn bc_channels(bc: u32, rgba: [u32; 4]) -> [u32; 4] {
    let from: [usize; 4] = match bc {
        1 => [0, 3, 1, 2], // XWYZ
        2 => [3, 2, 1, 0], // WZYX
        3 => [3, 0, 1, 2], // WXYZ
        4 => [2, 1, 0, 3], // ZYXW
        5 => [1, 0, 3, 2], // YXWZ
        _ => [0, 1, 2, 3], // XYZW (the T# parser refuses 6 and 7)
    };
    from.map(|k| rgba[k])
}

/// Compares `reference` with a texel value as SQ_TEX_DEPTH_COMPARE `func` does.
fn compare(func: u32, reference: f32, texel: f32) -> f32 {
    let pass = match func {
        0 => false,
        1 => reference < texel,
        2 => reference == texel,
        3 => reference <= texel,
        4 => reference > texel,
        5 => reference != texel,
        6 => reference >= texel,
        _ => true,
    };
    if pass {
        1.0
    } else {
        0.0
    }
}

struct Ctx<'a, M: Memory> {
    img: &'a Image,
    s: &'a Ssharp,
    mem: &'a mut M,
    r: &'a Request,
    integer: bool,
}

impl<M: Memory> Ctx<'_, M> {
    /// The border colour as the texture unit returns it. The S#'s colour (API order R, G, B,
    /// A) is first placed into the format's channels by the T#'s BC_SWIZZLE and then goes
    /// through DST_SEL like a texel read from memory. Drivers program BC_SWIZZLE from the
    /// format's own channel order (Mesa's `ac_border_color_swizzle` of the format description,
    /// PAL's and ROCr's `GetBcSwizzle`), which only makes sense because DST_SEL follows: the
    /// border colour therefore takes the view's component swizzle and the format's missing
    /// channels (0, 0, 1), as Vulkan's texel replacement before conversion to RGBA and
    /// swizzle requires, and RADV relies on that to report borderColorSwizzleFromImage.
    fn border(&self) -> [u32; 4] {
        let (one, zero) = if self.integer { (1, 0) } else { (1f32.to_bits(), 0) };
        let rgba = match (self.s.border_color_type, self.r.border) {
            (3, Some(b)) => b,
            (0, _) => [zero; 4],
            (1, _) => [zero, zero, zero, one],
            _ => [one; 4],
        };
        self.img.swizzle(bc_channels(self.img.t.bc_swizzle, rgba))
    }

    /// A texel (after DST_SEL) or the border colour, at absolute level and slice.
    fn texel(
        &mut self,
        level: u32,
        x: i64,
        y: i64,
        z: i64,
        size: (u32, u32, u32),
        linear: bool,
    ) -> Result<[u32; 4], M::Error> {
        let cube = self.img.t.ty == ty::CUBE;
        let (mut x, mut y, mut z) = (x, y, z);
        let (w, h) = (size.0 as i64, size.1 as i64);
        let outside = !((0..w).contains(&x) && (0..h).contains(&y));
        if cube && linear && !self.s.disable_cube_wrap && outside {
            // Seamless (Vulkan: linear filtering only; nearest clamps to the face's edge):
            // the tap is read from the neighbouring face.
            let z0 = self.img.slice_range(level).0 as i64;
            let face = (z - z0).rem_euclid(6);
            let (f, nx, ny) = cube_neighbour(face as u32, x, y, size.0);
            (x, y, z) = (nx, ny, z - face + f as i64);
        }
        // Seamless cubes ignore the address modes (a tap still outside is a face edge);
        // with DISABLE_CUBE_WRAP each face is wrapped by itself like a 2D image.
        let seamless = cube && !self.s.disable_cube_wrap;
        let modes = if seamless { [clamp::CLAMP_LAST_TEXEL; 3] } else { self.s.clamp };
        let is3d = self.img.t.ty == ty::D3;
        let (Some(x), Some(y), Some(z)) = (
            wrap(modes[0], x, size.0),
            wrap(modes[1], y, size.1),
            if is3d { wrap(modes[2], z, size.2) } else { Some(z as u32) },
        ) else {
            // Texel replacement comes before the depth comparison.
            return Ok(self.compared(self.border()));
        };
        let p = Texel { x, y, z, level, sample: 0 };
        let v = self.img.read(self.mem, &p)?;
        Ok(self.compared(self.img.swizzle(v)))
    }

    /// `v`, or with a depth-compare request the comparison result in every component.
    fn compared(&self, mut v: [u32; 4]) -> [u32; 4] {
        if let Some(reference) = self.r.compare {
            let c = compare(self.s.depth_compare, reference, f32::from_bits(v[0]));
            v = [c.to_bits(); 4];
        }
        v
    }

    /// Texel-space coordinate of axis `a` at a level of `n` texels.
    fn texel_coord(&self, a: usize, n: u32) -> f64 {
        let c = self.r.coord[a] as f64;
        if self.r.unnorm {
            c
        } else {
            c * n as f64
        }
    }

    /// Filters one level; `linear` selects bilinear (trilinear in z for 3D).
    fn level(&mut self, level: u32, slice: u32, linear: bool) -> Result<[f32; 4], M::Error> {
        let size = self.img.level_size(level);
        let is3d = self.img.t.ty == ty::D3;
        let dims = match self.img.t.ty {
            ty::D1 | ty::D1_ARRAY => 1,
            ty::D3 => 3,
            _ => 2,
        };
        let sizes = [size.0, size.1, size.2];
        // Per axis: first texel and weight of the second (8 fractional bits).
        let mut first = [0i64; 3];
        let mut frac = [0f32; 3];
        for a in 0..dims {
            let u = self.texel_coord(a, sizes[a]);
            if linear {
                let fx = ((u - 0.5) * 256.0).floor();
                let fx = if fx.is_finite() { fx as i64 } else { 0 };
                first[a] = (fx >> 8) + self.r.offset[a] as i64;
                frac[a] = (fx & 255) as f32 / 256.0;
            } else {
                let fx = (u * 256.0).floor();
                let fx = if fx.is_finite() { fx as i64 } else { 0 };
                first[a] = (fx >> 8) + self.r.offset[a] as i64;
            }
        }
        let z_base = if is3d { first[2] } else { slice as i64 };
        let taps = if linear { 1 << dims } else { 1 };
        let mut acc = [0f32; 4];
        let mut minmax: Option<[f32; 4]> = None;
        for k in 0..taps {
            let d = |a: usize| (k >> a & 1) as i64;
            let w: f32 = (0..dims)
                .map(|a| {
                    if !linear {
                        1.0
                    } else if d(a) == 1 {
                        frac[a]
                    } else {
                        1.0 - frac[a]
                    }
                })
                .product();
            let z = if is3d { z_base + d(2) } else { z_base };
            // Integer texels are not filtered, nor is a nearest sample: the one tap's bits
            // (a -0.0 or a NaN's payload stays as stored), carried in f32s.
            let v = self
                .texel(level, first[0] + d(0), first[1] + d(1), z, size, linear)?
                .map(f32::from_bits);
            if self.integer || !linear {
                return Ok(v);
            }
            for c in 0..4 {
                acc[c] += w * v[c];
            }
            if w > 0.0 {
                let m = minmax.get_or_insert(v);
                for c in 0..4 {
                    m[c] = if self.s.filter_mode == 1 { m[c].min(v[c]) } else { m[c].max(v[c]) };
                }
            }
        }
        Ok(match (self.s.filter_mode, minmax) {
            (1 | 2, Some(m)) => m,
            _ => acc,
        })
    }

    /// The four texels of the bilinear footprint, channel `c`, in gather order (i0,j1),
    /// (i1,j1), (i1,j0), (i0,j0).
    fn gather(&mut self, level: u32, slice: u32, c: usize) -> Result<[u32; 4], M::Error> {
        let size = self.img.level_size(level);
        let mut first = [0i64; 2];
        for (a, f) in first.iter_mut().enumerate() {
            let u = self.texel_coord(a, [size.0, size.1][a]);
            let fx = ((u - 0.5) * 256.0).floor();
            *f = (if fx.is_finite() { fx as i64 } else { 0 } >> 8) + self.r.offset[a] as i64;
        }
        let (x, y) = (first[0], first[1]);
        let z = slice as i64;
        Ok([
            self.texel(level, x, y + 1, z, size, true)?[c],
            self.texel(level, x + 1, y + 1, z, size, true)?[c],
            self.texel(level, x + 1, y, z, size, true)?[c],
            self.texel(level, x, y, z, size, true)?[c],
        ])
    }
}

/// The slice an array layer coordinate selects (rounded, clamped to the view's layers).
fn slice(img: &Image, layer: Option<f32>, level: u32) -> u32 {
    let (z0, z1) = img.slice_range(level);
    let Some(l) = layer else { return z0 };
    if img.t.ty == ty::CUBE {
        let id = if l.is_nan() { 0 } else { l.max(0.0).round_ties_even() as u32 };
        let face = (id % 8).min(5);
        return (z0 + 6 * (id / 8) + face).min(z1);
    }
    let l = if l.is_nan() { 0.0 } else { (l as f64 + 0.5).floor() };
    (z0 as f64 + l).min(z1 as f64).max(z0 as f64) as u32
}

/// Samples one lane: the filtered (or gathered) value after DST_SEL, as register values.
pub fn sample<M: Memory>(
    img: &Image,
    s: &Ssharp,
    mem: &mut M,
    r: &Request,
) -> Result<[u32; 4], M::Error> {
    let integer = img.format.is_integer() && r.compare.is_none();
    let mut ctx = Ctx { img, s, mem, r, integer };
    let (l0, l1) = img.levels();
    let max = (l1 - l0) as f32;
    let mut lod = r.lod + s.lod_bias;
    let lo = s.min_lod.max(img.t.min_lod - l0 as f32).max(r.min_lod.unwrap_or(0.0));
    lod = lod.min(s.max_lod).max(lo);
    if lod.is_nan() {
        lod = 0.0;
    }
    let mag = lod <= 0.0;
    let xy_linear = (if mag { s.mag_filter } else { s.min_filter }) & 1 == 1;
    if let Some(c) = r.gather {
        let level = l0 + if s.mip_filter == 0 { 0 } else { lod.max(0.0).round().min(max) as u32 };
        let v = ctx.gather(level, slice(img, r.layer, level), c)?;
        return Ok(v);
    }
    let out = match s.mip_filter {
        0 => {
            let z = slice(img, r.layer, l0);
            ctx.level(l0, z, xy_linear)?
        }
        1 => {
            let d = ((lod + 0.5).ceil() - 1.0).clamp(0.0, max) as u32;
            let z = slice(img, r.layer, l0 + d);
            ctx.level(l0 + d, z, xy_linear)?
        }
        _ => {
            let l = lod.clamp(0.0, max);
            let d = l.floor() as u32;
            let f = ((l - d as f32) * 256.0).floor() / 256.0;
            let a = ctx.level(l0 + d, slice(img, r.layer, l0 + d), xy_linear)?;
            if f == 0.0 || integer {
                a
            } else {
                let b = ctx.level(l0 + d + 1, slice(img, r.layer, l0 + d + 1), xy_linear)?;
                std::array::from_fn(|c| a[c] * (1.0 - f) + b[c] * f)
            }
        }
    };
    Ok(out.map(f32::to_bits))
}
