//! Image semantics of the interpreter: images are plain arrays of texels, each four 32-bit
//! channels already converted to the shader's view (f32 bits for float images, integers for
//! integer ones), so no memory format is modelled. Sampling follows the Vulkan texel-filtering
//! equations (address modes, nearest and linear filters, nearest and linear mip selection,
//! depth comparison, gather), evaluated in f32.
//!
//! The interpreter is the oracle compiler passes are checked against, so what matters is that
//! every image operation has one exact, deterministic meaning; the hardware's fixed-point
//! filtering weights are the simulator's business.

use super::InterpError;
use crate::ir::{AtomicOp, ImageDim, ImageOp, ImageShape};

/// How texel channels are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexelKind {
    /// f32 bit patterns.
    Float,
    /// Unsigned integers.
    Uint,
    /// Signed integers.
    Sint,
}

/// Sampler address modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Address {
    /// Repeat.
    Repeat,
    /// Mirrored repeat.
    Mirror,
    /// Clamp to edge.
    ClampEdge,
    /// Clamp to border (the border colour).
    ClampBorder,
    /// Mirror once, then clamp to edge.
    MirrorClampEdge,
}

/// Sampler state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampler {
    /// Descriptor set.
    pub set: u32,
    /// Binding.
    pub binding: u32,
    /// Array element.
    pub index: u32,
    /// Linear (true) or nearest magnification and minification.
    pub linear: bool,
    /// Linear (true) or nearest mipmap mode.
    pub mip_linear: bool,
    /// Address mode per coordinate (u, v, w).
    pub address: [Address; 3],
    /// Depth comparison: `dref OP texel` (0 never … 7 always, Vulkan's `VkCompareOp` order).
    pub compare: Option<u8>,
    /// Unnormalized coordinates.
    pub unnormalized: bool,
    /// Border colour channels (bit patterns of the image's kind).
    pub border: [u32; 4],
}

/// An image, texel buffer or combined image/sampler descriptor with its contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Descriptor set.
    pub set: u32,
    /// Binding.
    pub binding: u32,
    /// Array element.
    pub index: u32,
    /// Width, height, depth of level 0 (1 where unused).
    pub size: [u32; 3],
    /// Array layers (6 per cube).
    pub layers: u32,
    /// Mip levels.
    pub levels: u32,
    /// Samples per texel.
    pub samples: u32,
    /// Channel interpretation.
    pub kind: TexelKind,
    /// Texels: level, then layer, then sample, then z, y, x.
    pub texels: Vec<[u32; 4]>,
    /// The sampler half of a combined image/sampler.
    pub sampler: Option<Sampler>,
}

impl Image {
    /// A 2D (or, with `layers` > 1, layered) image of zero texels.
    pub fn new(
        key: (u32, u32, u32),
        size: [u32; 3],
        layers: u32,
        levels: u32,
        kind: TexelKind,
    ) -> Image {
        let mut img = Image {
            set: key.0,
            binding: key.1,
            index: key.2,
            size: size.map(|s| s.max(1)),
            layers: layers.max(1),
            levels: levels.max(1),
            samples: 1,
            kind,
            texels: Vec::new(),
            sampler: None,
        };
        img.texels = vec![[0; 4]; img.level_offset(img.levels) as usize];
        img
    }

    /// Size of level `l`.
    pub fn level_size(&self, l: u32) -> [u32; 3] {
        self.size.map(|s| (s >> l.min(31)).max(1))
    }

    fn level_texels(&self, l: u32) -> u64 {
        let [w, h, d] = self.level_size(l);
        u64::from(w)
            * u64::from(h)
            * u64::from(d)
            * u64::from(self.layers)
            * u64::from(self.samples)
    }

    /// Index of the first texel of level `l`.
    pub fn level_offset(&self, l: u32) -> u64 {
        (0..l).map(|i| self.level_texels(i)).sum()
    }

    /// Index of texel (x, y, z) of `layer`, `sample`, level `l`, if inside the image.
    pub fn texel_index(
        &self,
        [x, y, z]: [i64; 3],
        layer: i64,
        sample: i64,
        l: u32,
    ) -> Option<usize> {
        let [w, h, d] = self.level_size(l).map(i64::from);
        let inside = |v: i64, n: i64| (0..n).contains(&v);
        if l >= self.levels
            || !inside(x, w)
            || !inside(y, h)
            || !inside(z, d)
            || !inside(layer, i64::from(self.layers))
            || !inside(sample, i64::from(self.samples))
        {
            return None;
        }
        let i = ((layer * i64::from(self.samples) + sample) * d + z) * h * w + y * w + x;
        usize::try_from(self.level_offset(l) + i as u64).ok()
    }
}

/// The sources of one image instruction, as interpreter data.
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// Coordinates.
    pub coord: Vec<u64>,
    /// Coordinate bit size.
    pub coord_bits: u8,
    pub(crate) dref: Option<u64>,
    pub(crate) component: Option<u64>,
    pub(crate) bias: Option<u64>,
    pub(crate) lod: Option<u64>,
    pub(crate) ddx: Vec<u64>,
    pub(crate) ddy: Vec<u64>,
    pub(crate) offset: [i64; 3],
    pub(crate) sample: Option<u64>,
    pub(crate) min_lod: Option<u64>,
    pub(crate) data: Vec<u64>,
    pub(crate) cmp: Option<u64>,
}

/// Runs image operation `op` on `img` (and `smp`); returns the result channels.
pub fn run(
    op: ImageOp,
    shape: ImageShape,
    img: &mut Image,
    smp: Option<&Sampler>,
    a: &Args,
    comps: usize,
) -> Result<Vec<u64>, InterpError> {
    let out = match op {
        ImageOp::Fetch | ImageOp::Read => {
            let lod = a.lod.unwrap_or(0) as u32;
            let t = fetch(img, shape, a, lod)?.unwrap_or([0; 4]);
            t.iter().map(|&c| u64::from(c)).collect()
        }
        ImageOp::Write => {
            if let Some(i) = texel_at(img, shape, a, a.lod.unwrap_or(0) as u32)? {
                for (k, v) in a.data.iter().take(4).enumerate() {
                    img.texels[i][k] = *v as u32;
                }
            }
            return Ok(Vec::new());
        }
        ImageOp::Atomic(aop) => return atomic(img, shape, a, aop),
        ImageOp::Size => size(img, shape, a.lod.unwrap_or(0) as u32),
        ImageOp::Levels => vec![u64::from(img.levels)],
        ImageOp::Samples => vec![u64::from(img.samples)],
        ImageOp::Sample | ImageOp::Gather => {
            let s = smp.ok_or_else(|| InterpError::Invalid("sampling without a sampler".into()))?;
            super::image_filter::sample(op, shape, img, s, a)?
        }
        ImageOp::QueryLod => super::image_filter::query_lod(shape, img, a)?,
        ImageOp::Combine => return Err(InterpError::Invalid("combine executed as an op".into())),
    };
    Ok(out.into_iter().chain(std::iter::repeat(0)).take(comps).collect())
}

/// Integer coordinates (x, y, z), layer and sample of an unfiltered access.
fn int_coord(shape: ImageShape, a: &Args) -> ([i64; 3], i64, i64) {
    let c = |i: usize| a.coord.get(i).map_or(0, |&v| crate::ir::ops::sext(v, a.coord_bits));
    let n = usize::from(shape.space_coords());
    let mut xyz = [0i64; 3];
    for (k, x) in xyz.iter_mut().enumerate().take(n) {
        *x = c(k) + a.offset[k];
    }
    let mut layer = if shape.arrayed { c(n) } else { 0 };
    if shape.dim == ImageDim::Cube {
        // Storage and fetch access to cubes address faces as layers.
        layer = if shape.arrayed { c(2) } else { xyz[2] };
        xyz[2] = 0;
    }
    (xyz, layer, a.sample.map_or(0, |s| s as i64))
}

fn texel_at(
    img: &Image,
    shape: ImageShape,
    a: &Args,
    lod: u32,
) -> Result<Option<usize>, InterpError> {
    let (xyz, layer, sample) = int_coord(shape, a);
    Ok(img.texel_index(xyz, layer, sample, lod))
}

fn fetch(
    img: &Image,
    shape: ImageShape,
    a: &Args,
    lod: u32,
) -> Result<Option<[u32; 4]>, InterpError> {
    Ok(texel_at(img, shape, a, lod)?.map(|i| img.texels[i]))
}

fn size(img: &Image, shape: ImageShape, lod: u32) -> Vec<u64> {
    let [w, h, d] = img.level_size(lod).map(u64::from);
    let layers = u64::from(img.layers);
    match (shape.dim, shape.arrayed) {
        (ImageDim::D1 | ImageDim::Buffer, false) => vec![w],
        (ImageDim::D1, true) => vec![w, layers],
        (ImageDim::D2, false) | (ImageDim::Cube, false) => vec![w, h],
        (ImageDim::D2, true) => vec![w, h, layers],
        (ImageDim::Cube, true) => vec![w, h, layers / 6],
        (ImageDim::D3, _) | (ImageDim::Buffer, true) => vec![w, h, d],
    }
}

fn atomic(
    img: &mut Image,
    shape: ImageShape,
    a: &Args,
    op: AtomicOp,
) -> Result<Vec<u64>, InterpError> {
    let Some(i) = texel_at(img, shape, a, 0)? else {
        // Out-of-bounds atomics do nothing and return zero.
        return Ok(vec![0]);
    };
    let old = img.texels[i][0];
    let d = a.data.first().copied().unwrap_or(0) as u32;
    let new = match op {
        AtomicOp::Add => old.wrapping_add(d),
        AtomicOp::Imin => (old as i32).min(d as i32) as u32,
        AtomicOp::Umin => old.min(d),
        AtomicOp::Imax => (old as i32).max(d as i32) as u32,
        AtomicOp::Umax => old.max(d),
        AtomicOp::And => old & d,
        AtomicOp::Or => old | d,
        AtomicOp::Xor => old ^ d,
        AtomicOp::Xchg | AtomicOp::Store => d,
        AtomicOp::CmpXchg => {
            if Some(u64::from(old)) == a.cmp.map(|c| c & 0xffff_ffff) {
                d
            } else {
                old
            }
        }
        AtomicOp::Load => old,
    };
    img.texels[i][0] = new;
    Ok(if op == AtomicOp::Store { Vec::new() } else { vec![u64::from(old)] })
}
