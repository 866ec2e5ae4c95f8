//! Image, sampler and texel-buffer instructions.
//!
//! One instruction kind covers every image operation. Its sources are a list in a fixed
//! order, and [`ImageArgs`] says which of the optional ones are present, so generic passes walk
//! them as plain operands while the interpreter and the backend read them by name through
//! [`ImageInst::sources`]. The order follows SPIR-V's image-operand bits:
//!
//! `handle, coord, dref, component, bias, lod, ddx, ddy, offset, sample, min_lod, data, cmp`
//!
//! `handle` is a deref of a `Handle` variable before `lower_image_handles`, and afterwards a
//! `u32` resource index of the descriptor (an image, a combined image/sampler, or a texel
//! buffer) or a `u32x2` pair (image, sampler) made by [`ImageOp::Combine`]. The addressing
//! shape ([`ImageShape`]) is copied from the handle's type at translation, so it survives the
//! lowering that replaces the typed deref with an index.

use super::inst::AtomicOp;
use super::types::ImageDim;
use super::Value;

/// Image operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageOp {
    /// Filtered sample; `lod`, `bias` or `ddx/ddy` choose the level (none: implicit, which
    /// needs derivatives), `dref` makes it a depth comparison.
    Sample,
    /// Gather one component (`component`) or the comparison result (`dref`) of the 2x2 footprint.
    Gather,
    /// Unfiltered texel fetch (`lod` or `sample`); also texel-buffer reads.
    Fetch,
    /// Storage image (or storage texel buffer) read.
    Read,
    /// Storage image write of `data`.
    Write,
    /// Storage image atomic with `data` (and `cmp` for compare-exchange).
    Atomic(AtomicOp),
    /// Size (width, height, depth or layers) of level `lod` (0 without).
    Size,
    /// Number of mip levels.
    Levels,
    /// Number of samples.
    Samples,
    /// Level of detail the coordinate would use: (clamped, unclamped).
    QueryLod,
    /// Combine an image and a sampler into one handle: sources (image, sampler).
    Combine,
}

/// How the coordinates of a handle address the image (from the handle's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageShape {
    /// Dimensionality.
    pub dim: ImageDim,
    /// Layered: the last coordinate is the layer.
    pub arrayed: bool,
    /// Multisampled.
    pub ms: bool,
}

impl ImageShape {
    /// Coordinates that address a texel, without the layer.
    pub fn space_coords(self) -> u8 {
        match self.dim {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 => 2,
            ImageDim::D3 | ImageDim::Cube => 3,
        }
    }

    /// Coordinate components of a sample or fetch (cube direction is 3, plus the layer).
    pub fn coords(self) -> u8 {
        self.space_coords() + u8::from(self.arrayed)
    }

    /// Components of a size query result (cube: width, height; arrays add layers).
    pub fn size_comps(self) -> u8 {
        match self.dim {
            ImageDim::Cube => 2 + u8::from(self.arrayed),
            _ => self.coords(),
        }
    }
}

/// Which optional sources an image instruction has (bit set per source kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ImageArgs(pub u16);

impl ImageArgs {
    /// The coordinate (absent only in queries of a whole image).
    pub const COORD: u16 = 1 << 0;
    /// Depth comparison reference.
    pub const DREF: u16 = 1 << 1;
    /// Gather component index.
    pub const COMPONENT: u16 = 1 << 2;
    /// LOD bias.
    pub const BIAS: u16 = 1 << 3;
    /// Explicit LOD (or fetch mip level).
    pub const LOD: u16 = 1 << 4;
    /// Explicit gradients: two sources (ddx, ddy).
    pub const GRAD: u16 = 1 << 5;
    /// Texel offset computed at run time (constant ones are [`ImageInst::offset`]).
    pub const OFFSET: u16 = 1 << 6;
    /// Sample index.
    pub const SAMPLE: u16 = 1 << 7;
    /// Minimum LOD clamp.
    pub const MIN_LOD: u16 = 1 << 8;
    /// Written texel or atomic data.
    pub const DATA: u16 = 1 << 9;
    /// Compare-exchange comparator.
    pub const CMP: u16 = 1 << 10;

    /// Source order after the handle.
    const ORDER: [u16; 11] = [
        Self::COORD,
        Self::DREF,
        Self::COMPONENT,
        Self::BIAS,
        Self::LOD,
        Self::GRAD,
        Self::OFFSET,
        Self::SAMPLE,
        Self::MIN_LOD,
        Self::DATA,
        Self::CMP,
    ];

    /// True if `bit` is present.
    pub fn has(self, bit: u16) -> bool {
        self.0 & bit != 0
    }

    /// Number of sources these arguments take, the handle included.
    pub fn count(self) -> usize {
        1 + Self::ORDER
            .iter()
            .map(|&b| usize::from(self.has(b)) * if b == Self::GRAD { 2 } else { 1 })
            .sum::<usize>()
    }
}

/// An image instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageInst {
    /// The operation.
    pub op: ImageOp,
    /// Sources in the order the module documentation gives.
    pub srcs: Vec<Value>,
    /// Which optional sources are present.
    pub args: ImageArgs,
    /// Constant texel offset, if any.
    pub offset: Option<[i32; 3]>,
    /// Addressing shape of the handle.
    pub shape: ImageShape,
}

/// The sources of an image instruction by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct ImageSrcs {
    pub handle: Option<Value>,
    pub coord: Option<Value>,
    pub dref: Option<Value>,
    pub component: Option<Value>,
    pub bias: Option<Value>,
    pub lod: Option<Value>,
    pub ddx: Option<Value>,
    pub ddy: Option<Value>,
    pub offset: Option<Value>,
    pub sample: Option<Value>,
    pub min_lod: Option<Value>,
    pub data: Option<Value>,
    pub cmp: Option<Value>,
}

impl ImageInst {
    /// The sources by name (`None` for absent ones, or for all if the list is malformed).
    pub fn sources(&self) -> ImageSrcs {
        let mut s = ImageSrcs::default();
        if self.srcs.len() != self.args.count() {
            return s;
        }
        let mut it = self.srcs.iter().copied();
        s.handle = it.next();
        for bit in ImageArgs::ORDER {
            if !self.args.has(bit) {
                continue;
            }
            let v = it.next();
            match bit {
                ImageArgs::COORD => s.coord = v,
                ImageArgs::DREF => s.dref = v,
                ImageArgs::COMPONENT => s.component = v,
                ImageArgs::BIAS => s.bias = v,
                ImageArgs::LOD => s.lod = v,
                ImageArgs::GRAD => (s.ddx, s.ddy) = (v, it.next()),
                ImageArgs::OFFSET => s.offset = v,
                ImageArgs::SAMPLE => s.sample = v,
                ImageArgs::MIN_LOD => s.min_lod = v,
                ImageArgs::DATA => s.data = v,
                _ => s.cmp = v,
            }
        }
        s
    }

    /// Builds the source list from named sources (the inverse of [`Self::sources`]).
    pub fn from_sources(op: ImageOp, shape: ImageShape, s: &ImageSrcs) -> Option<ImageInst> {
        let mut srcs = vec![s.handle?];
        let mut args = 0;
        let mut push = |bit: u16, v: Option<Value>, srcs: &mut Vec<Value>| {
            if let Some(v) = v {
                args |= bit;
                srcs.push(v);
            }
        };
        push(ImageArgs::COORD, s.coord, &mut srcs);
        push(ImageArgs::DREF, s.dref, &mut srcs);
        push(ImageArgs::COMPONENT, s.component, &mut srcs);
        push(ImageArgs::BIAS, s.bias, &mut srcs);
        push(ImageArgs::LOD, s.lod, &mut srcs);
        if let (Some(x), Some(y)) = (s.ddx, s.ddy) {
            push(ImageArgs::GRAD, Some(x), &mut srcs);
            srcs.push(y);
        }
        push(ImageArgs::OFFSET, s.offset, &mut srcs);
        push(ImageArgs::SAMPLE, s.sample, &mut srcs);
        push(ImageArgs::MIN_LOD, s.min_lod, &mut srcs);
        push(ImageArgs::DATA, s.data, &mut srcs);
        push(ImageArgs::CMP, s.cmp, &mut srcs);
        Some(ImageInst { op, srcs, args: ImageArgs(args), offset: None, shape })
    }

    /// True if the instruction writes memory (stores and atomics) or observes writes other
    /// invocations may make (storage reads), so it may not be removed, merged or moved.
    pub fn has_side_effects(&self) -> bool {
        matches!(self.op, ImageOp::Write | ImageOp::Atomic(_) | ImageOp::Read)
    }
}
