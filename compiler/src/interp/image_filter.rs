//! Filtered image reads for the interpreter: sampling and gathers, following the Vulkan
//! specification's texel-filtering chapter (level-of-detail selection, wrapping, nearest and
//! linear filters, depth comparison), in f32. Cube maps select a face by the major axis and
//! then clamp to the face's edges (seamless filtering across faces is not modelled).

use super::image::{Address, Args, Image, Sampler, TexelKind};
use super::InterpError;
use crate::ir::{ImageDim, ImageOp, ImageShape};

fn f(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

/// Where a coordinate lands in an image: face-local coordinates, layer, and level sizes.
struct Target {
    /// Normalized (or texel, if unnormalized) coordinates, one per space dimension.
    st: [f32; 3],
    /// Space dimensions (1, 2 or 3; cubes address 2D faces).
    dims: usize,
    layer: i64,
}

/// Vulkan's cube face selection: (face, s, t) from a direction.
fn cube_face(x: f32, y: f32, z: f32) -> (i64, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    (face, 0.5 * (sc / ma) + 0.5, 0.5 * (tc / ma) + 0.5)
}

fn target(shape: ImageShape, img: &Image, a: &Args) -> Target {
    let c = |i: usize| a.coord.get(i).map_or(0.0, |&v| f(v));
    let layer_of = |v: f32, n: u32| (v + 0.5).floor().clamp(0.0, (n.max(1) - 1) as f32) as i64;
    if shape.dim == ImageDim::Cube {
        let (face, s, t) = cube_face(c(0), c(1), c(2));
        let cube = if shape.arrayed { layer_of(c(3), img.layers / 6) } else { 0 };
        return Target { st: [s, t, 0.0], dims: 2, layer: cube * 6 + face };
    }
    let dims = usize::from(shape.space_coords());
    let mut st = [0.0; 3];
    for (k, s) in st.iter_mut().enumerate().take(dims) {
        *s = c(k);
    }
    let layer = if shape.arrayed { layer_of(c(dims), img.layers) } else { 0 };
    Target { st, dims, layer }
}

fn wrap(i: i64, n: i64, mode: Address) -> Option<i64> {
    Some(match mode {
        Address::Repeat => i.rem_euclid(n),
        Address::Mirror => {
            let t = i.rem_euclid(2 * n);
            if t < n {
                t
            } else {
                2 * n - 1 - t
            }
        }
        Address::ClampEdge => i.clamp(0, n - 1),
        Address::ClampBorder => {
            if (0..n).contains(&i) {
                i
            } else {
                return None;
            }
        }
        Address::MirrorClampEdge => (if i < 0 { -1 - i } else { i }).clamp(0, n - 1),
    })
}

/// Texel at integer coordinates after wrapping (border colour outside).
fn texel(img: &Image, s: &Sampler, t: &Target, ijk: [i64; 3], level: u32, cube: bool) -> [u32; 4] {
    let size = img.level_size(level).map(i64::from);
    let mut at = [0i64; 3];
    for k in 0..t.dims {
        let mode = if cube { Address::ClampEdge } else { s.address[k] };
        match wrap(ijk[k], size[k], mode) {
            Some(v) => at[k] = v,
            None => return s.border,
        }
    }
    img.texel_index(at, t.layer, 0, level).map_or(s.border, |i| img.texels[i])
}

/// Depth comparison `dref OP d` as 1.0 or 0.0 (Vulkan's VkCompareOp order).
fn compare(op: u8, dref: f32, d: f32) -> f32 {
    let pass = match op {
        0 => false,
        1 => dref < d,
        2 => dref == d,
        3 => dref <= d,
        4 => dref > d,
        5 => dref != d,
        6 => dref >= d,
        _ => true,
    };
    if pass {
        1.0
    } else {
        0.0
    }
}

/// The channels of a texel as filter inputs (with the comparison applied for `dref`).
fn channels(img: &Image, s: &Sampler, t: [u32; 4], dref: Option<f32>) -> [f32; 4] {
    if let Some(r) = dref {
        let c = compare(s.compare.unwrap_or(7), r, f32::from_bits(t[0]));
        return [c, 0.0, 0.0, 1.0];
    }
    match img.kind {
        TexelKind::Float => t.map(f32::from_bits),
        // Integer texels are only ever read unfiltered; carry their bits through exactly.
        _ => t.map(f32::from_bits),
    }
}

/// Filtered value of one level.
fn filter_level(
    img: &Image,
    s: &Sampler,
    t: &Target,
    a: &Args,
    level: u32,
    cube: bool,
    dref: Option<f32>,
) -> [f32; 4] {
    let size = img.level_size(level);
    let mut u = [0f32; 3];
    for (k, v) in u.iter_mut().enumerate().take(t.dims) {
        *v = if s.unnormalized { t.st[k] } else { t.st[k] * size[k] as f32 };
    }
    if !s.linear {
        let mut ijk = [0i64; 3];
        for k in 0..t.dims {
            ijk[k] = u[k].floor() as i64 + a.offset[k];
        }
        return channels(img, s, texel(img, s, t, ijk, level, cube), dref);
    }
    let mut base = [0i64; 3];
    let mut frac = [0f32; 3];
    for k in 0..t.dims {
        let x = u[k] - 0.5;
        base[k] = x.floor() as i64 + a.offset[k];
        frac[k] = x - x.floor();
    }
    let mut out = [0f32; 4];
    for corner in 0..(1usize << t.dims) {
        let mut ijk = base;
        let mut w = 1.0f32;
        for k in 0..t.dims {
            let hi = corner >> k & 1 == 1;
            ijk[k] += i64::from(hi);
            w *= if hi { frac[k] } else { 1.0 - frac[k] };
        }
        let c = channels(img, s, texel(img, s, t, ijk, level, cube), dref);
        for (o, v) in out.iter_mut().zip(c) {
            *o += w * v;
        }
    }
    out
}

/// A gradient of a cube direction `r` as the gradient of the face coordinates (s, t) of
/// the face `r` selects (Vulkan "Cube Map Derivative Transformation"): s = sc / (2 |ma|)
/// + 1/2, so ds = (dsc · |ma| − sc · d|ma|) / (2 ma²), and the same for t.
fn cube_gradient(r: [f32; 3], g: [f32; 3]) -> [f32; 2] {
    let (face, _, _) = cube_face(r[0], r[1], r[2]);
    // (index, sign) of sc, tc and the major axis per face.
    let (sc, tc, ma) = match face {
        0 => ((2, -1.0), (1, -1.0), (0, 1.0)),
        1 => ((2, 1.0), (1, -1.0), (0, -1.0)),
        2 => ((0, 1.0), (2, 1.0), (1, 1.0)),
        3 => ((0, 1.0), (2, -1.0), (1, -1.0)),
        4 => ((0, 1.0), (1, -1.0), (2, 1.0)),
        _ => ((0, -1.0), (1, -1.0), (2, -1.0)),
    };
    let m = r[ma.0] * ma.1;
    let dm = g[ma.0] * ma.1;
    [sc, tc].map(|(k, sign)| (g[k] * sign * m - r[k] * sign * dm) / (2.0 * m * m))
}

/// The unclamped level of detail from explicit arguments.
fn lambda(img: &Image, shape: ImageShape, t: &Target, a: &Args) -> Result<f32, InterpError> {
    let mut l = if let Some(l) = a.lod {
        f(l)
    } else if !a.ddx.is_empty() {
        let size = img.size;
        let comp = |d: &[u64], k: usize| d.get(k).map_or(0.0, |&x| f(x));
        let grad = |d: &[u64]| {
            let g = [comp(d, 0), comp(d, 1), comp(d, 2)];
            if shape.dim == ImageDim::Cube {
                let r = [comp(&a.coord, 0), comp(&a.coord, 1), comp(&a.coord, 2)];
                let [ds, dt] = cube_gradient(r, g);
                [ds, dt, 0.0]
            } else {
                g
            }
        };
        let len = |d: &[u64]| {
            let g = grad(d);
            (0..t.dims).map(|k| (g[k] * size[k] as f32).powi(2)).sum::<f32>().sqrt()
        };
        len(&a.ddx).max(len(&a.ddy)).log2()
    } else {
        return Err(InterpError::Unsupported(
            "implicit level of detail outside fragment shaders".into(),
        ));
    };
    if let Some(b) = a.bias {
        l += f(b);
    }
    if let Some(m) = a.min_lod {
        l = l.max(f(m));
    }
    Ok(l)
}

/// `OpImageQueryLod`: (the level the sample would read, clamped to the image's levels; the
/// unclamped level of detail), both relative to the base level.
pub fn query_lod(shape: ImageShape, img: &Image, a: &Args) -> Result<Vec<u64>, InterpError> {
    let l = lambda(img, shape, &target(shape, img, a), a)?;
    let q = (img.levels - 1) as f32;
    Ok(vec![u64::from(l.clamp(0.0, q).to_bits()), u64::from(l.to_bits())])
}

/// Sample or gather.
pub fn sample(
    op: ImageOp,
    shape: ImageShape,
    img: &Image,
    s: &Sampler,
    a: &Args,
) -> Result<Vec<u64>, InterpError> {
    let t = target(shape, img, a);
    let cube = shape.dim == ImageDim::Cube;
    let dref = a.dref.map(f);
    if dref.is_some() && s.compare.is_none() {
        return Err(InterpError::Invalid("depth comparison with a non-comparison sampler".into()));
    }
    if s.linear && img.kind != TexelKind::Float && op == ImageOp::Sample && dref.is_none() {
        return Err(InterpError::Invalid("linear filtering of an integer image".into()));
    }
    if op == ImageOp::Gather {
        return Ok(gather(img, s, &t, a, cube, dref));
    }
    let q = (img.levels - 1) as f32;
    let l = lambda(img, shape, &t, a)?.clamp(0.0, q);
    let v = if s.mip_linear && img.kind == TexelKind::Float {
        let lo = l.floor();
        let a0 = filter_level(img, s, &t, a, lo as u32, cube, dref);
        if lo >= q {
            a0
        } else {
            let a1 = filter_level(img, s, &t, a, lo as u32 + 1, cube, dref);
            let w = l - lo;
            [0, 1, 2, 3].map(|k| a0[k] * (1.0 - w) + a1[k] * w)
        }
    } else {
        let d = if l <= 0.5 { 0.0 } else { ((l + 0.5).ceil() - 1.0).clamp(0.0, q) };
        filter_level(img, s, &t, a, d as u32, cube, dref)
    };
    Ok(v.iter().map(|x| u64::from(x.to_bits())).collect())
}

/// The four texels of the 2x2 footprint at level 0, in Vulkan's order
/// (i0,j1), (i1,j1), (i1,j0), (i0,j0): one channel each, or the comparison results.
fn gather(
    img: &Image,
    s: &Sampler,
    t: &Target,
    a: &Args,
    cube: bool,
    dref: Option<f32>,
) -> Vec<u64> {
    let size = img.level_size(0);
    let mut base = [0i64; 3];
    for k in 0..2 {
        let u = if s.unnormalized { t.st[k] } else { t.st[k] * size[k] as f32 };
        base[k] = (u - 0.5).floor() as i64 + a.offset[k];
    }
    let comp = a.component.unwrap_or(0).min(3) as usize;
    [(0, 1), (1, 1), (1, 0), (0, 0)]
        .iter()
        .map(|&(di, dj)| {
            let tx = texel(img, s, t, [base[0] + di, base[1] + dj, 0], 0, cube);
            match dref {
                Some(r) => {
                    u64::from(compare(s.compare.unwrap_or(7), r, f32::from_bits(tx[0])).to_bits())
                }
                None => u64::from(tx[comp]),
            }
        })
        .collect()
}
