//! Surface addressing: where texel (x, y, z, mip, sample) of a surface lives, as navi21's
//! texture, colour and depth blocks compute it. Pure functions of a descriptor-level
//! description; nothing here reads memory.
//!
//! Interface (for the texture unit here and the colour/depth back ends):
//! * [`SurfaceDesc`]: what a T# (or CB/DB registers) says about a surface — swizzle mode
//!   (hardware `SW_MODE` value), [`Dim`], log2 bytes per element, mip-0 size in *elements*
//!   (block-compressed formats: 4×4 blocks), slices (array layers, or depth for 3D), mip count,
//!   log2 samples, an optional custom linear pitch, and the pipe/bank XOR (the base-address
//!   bits below the block size).
//! * [`SurfaceDesc::layout`] validates the description and computes a [`Layout`] once: the
//!   mip chain (pitch, height, offsets, mip-tail placement) and sizes, or a [`SurfaceError`]
//!   for shapes the hardware cannot address.
//! * [`Layout::offset`] is the address equation: byte offset of the element's first byte
//!   from the surface base, for in-range coordinates (callers clamp or reject first).
//! * [`texel_offset`] does both in one call.
//!
//! The rules are AMD addrlib's gfx10 ones (Gfx10Lib::ComputeSurfaceInfoMacroTiled/
//! MicroTiled/Linear and ComputeSurfaceAddrFromCoord*), for navi21's GB_ADDR_CONFIG
//! ([`GB_ADDR_CONFIG`]: 16 pipes, 16 packers, 256-byte pipe interleave, RB+):
//! * Linear: rows of `pitch` elements (width aligned to 256 bytes), mips stored smallest
//!   first, so mip 0 is last in each slice; slices are whole mip chains.
//! * 256 B micro-tiled (`_S`/`_D`): blocks of 256 bytes in row-major order, mips as linear.
//! * 4 KiB / 64 KiB macro-tiled: within a block, each address bit is the XOR of chosen
//!   x/y/z/sample bits ([`super::swizzle_table`], AMD's equations); blocks row-major. Mips
//!   that fit the *mip tail* share one block at the start of the slice, placed at fixed
//!   offsets; larger mips follow, smallest first. Thin modes (2D, and `_R`/`_Z` 3D) repeat the
//!   whole chain per slice; thick 3D modes (`_S`/`_D`) have blocks several slices deep.
//! * `_X`/`_T` modes XOR the pipe/bank bits with the base address's low bits (the "tile
//!   swizzle" drivers OR into the T# base address).
//!
//! Mip sizes are `ceil(size / 2^mip)`, as addrlib allocates them.

use super::equation::{self, Equation};
use super::swizzle_table as t;

/// navi21's GB_ADDR_CONFIG: NUM_PIPES = 4 (16), PIPE_INTERLEAVE_SIZE = 0 (256 B),
/// MAX_COMPRESSED_FRAGS = 1, NUM_PKRS = 4 (16). The equations in `swizzle_table` are for
/// this value.
pub const GB_ADDR_CONFIG: u32 = 0x0000_0444;

/// Hardware swizzle modes (`SW_MODE`) gfx10 defines for textures and render targets.
pub mod sw {
    pub const LINEAR: u32 = 0;
    pub const S_256B: u32 = 1;
    pub const D_256B: u32 = 2;
    pub const S_4KB: u32 = 5;
    pub const D_4KB: u32 = 6;
    pub const S_64KB: u32 = 9;
    pub const D_64KB: u32 = 10;
    pub const S_64KB_T: u32 = 17;
    pub const D_64KB_T: u32 = 18;
    pub const S_4KB_X: u32 = 21;
    pub const D_4KB_X: u32 = 22;
    pub const Z_64KB_X: u32 = 24;
    pub const S_64KB_X: u32 = 25;
    pub const D_64KB_X: u32 = 26;
    pub const R_64KB_X: u32 = 27;
}

/// How the surface extends beyond 2D, for addressing: arrays and cubes are 2D with slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dim {
    D1,
    D2,
    D3,
}

/// A surface as a descriptor describes it (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceDesc {
    pub sw_mode: u32,
    pub dim: Dim,
    /// log2 of bytes per element (0..=4).
    pub bpe_log2: u32,
    /// Mip-0 size in elements.
    pub width: u32,
    pub height: u32,
    /// Array layers (1D/2D, cube faces included) or depth (3D).
    pub slices: u32,
    pub mips: u32,
    pub samples_log2: u32,
    /// Linear only, one mip: row pitch in elements instead of the aligned width.
    pub pitch: Option<u32>,
    /// Base-address bits below the block size (bytes); must be 0 for non-XOR modes.
    pub pipe_bank_xor: u32,
}

/// Why a surface description cannot be addressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurfaceError(pub String);

impl std::fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Placement of one mip level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MipInfo {
    /// Pitch and height in elements (aligned to the block).
    pub pitch: u32,
    pub height: u32,
    /// Byte offset of the mip's first block within a slice (or a block-deep slab for thick
    /// modes).
    pub offset: u64,
    /// In the mip tail: element offset of the mip inside the tail block.
    pub tail: Option<(u32, u32)>,
}

/// The computed layout of a surface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub desc: SurfaceDesc,
    pub mips: Vec<MipInfo>,
    /// Block dimensions in elements (slices for thick modes).
    pub block: (u32, u32, u32),
    pub block_log2: u32,
    /// Bytes from one slice (thick: one block-deep slab) to the next.
    pub slice_size: u64,
    /// Bytes the whole surface spans.
    pub size: u64,
    thick: bool,
    equation: Option<&'static Equation>,
}

/// Block size log2, whether the mode XORs in the pipe/bank bits, and the equations (one row
/// of `block_log2` words per log2 bytes per element), for a mode and dimension; `None` for
/// combinations gfx10 does not have.
fn mode_info(mode: u32, dim: Dim, samples_log2: u32) -> Option<(u32, bool, &'static [u64])> {
    let msaa_ok = matches!(mode, sw::Z_64KB_X | sw::R_64KB_X);
    let d3 = dim == Dim::D3;
    if samples_log2 > 0 && (!msaa_ok || d3 || samples_log2 > 3) {
        return None;
    }
    let aa = samples_log2 as usize;
    let b8 = |r: &'static [[u64; 8]; 5]| Some((8, false, r.as_flattened()));
    let b12 = |x: bool, r: &'static [[u64; 12]; 5]| Some((12, x, r.as_flattened()));
    let b16 = |x: bool, r: &'static [[u64; 16]; 5]| Some((16, x, r.as_flattened()));
    match (mode, d3) {
        (sw::S_256B, false) => b8(&t::S256),
        (sw::D_256B, false) => b8(&t::D256),
        (sw::S_4KB, false) => b12(false, &t::S4K),
        (sw::D_4KB, false) => b12(false, &t::D4K),
        (sw::S_4KB_X, false) => b12(true, &t::S4K_X),
        (sw::D_4KB_X, false) => b12(true, &t::D4K_X),
        (sw::S_64KB, false) => b16(false, &t::S64K),
        (sw::D_64KB, false) => b16(false, &t::D64K),
        (sw::S_64KB_T, false) => b16(true, &t::S64K_T),
        (sw::D_64KB_T, false) => b16(true, &t::D64K_T),
        (sw::S_64KB_X, false) => b16(true, &t::S64K_X),
        (sw::D_64KB_X, false) => b16(true, &t::D64K_X),
        (sw::R_64KB_X, _) => b16(true, [&t::R64K_X1, &t::R64K_X2, &t::R64K_X4, &t::R64K_X8][aa]),
        (sw::Z_64KB_X, _) => b16(true, [&t::Z64K_X1, &t::Z64K_X2, &t::Z64K_X4, &t::Z64K_X8][aa]),
        (sw::S_4KB, true) => b12(false, &t::S4K_3D),
        (sw::S_4KB_X, true) => b12(true, &t::S4K_X_3D),
        (sw::S_64KB, true) => b16(false, &t::S64K_3D),
        (sw::S_64KB_X, true) => b16(true, &t::S64K_X_3D),
        (sw::S_64KB_T, true) => b16(true, &t::S64K_T_3D),
        (sw::D_64KB_X, true) => b16(true, &t::D64K_X_3D),
        _ => None,
    }
}

/// Whether a mode is thick for a 3D resource (standard and display modes are).
fn is_thick(mode: u32, dim: Dim) -> bool {
    dim == Dim::D3 && !matches!(mode, sw::Z_64KB_X | sw::R_64KB_X | sw::LINEAR)
}

/// Block dimensions in elements (addrlib ComputeThin/ThickBlockDimension).
fn block_dims(block_log2: u32, bpe_log2: u32, samples_log2: u32, thick: bool) -> (u32, u32, u32) {
    if thick {
        const BLOCK_1K_3D: [(u32, u32, u32); 5] =
            [(16, 8, 8), (8, 8, 8), (8, 8, 4), (8, 4, 4), (4, 4, 4)];
        let (w, h, d) = BLOCK_1K_3D[bpe_log2 as usize];
        let kb = block_log2 - 10;
        let (avg, rest) = (kb / 3, kb % 3);
        return (w << avg, h << (avg + rest / 2), d << (avg + (rest != 0) as u32));
    }
    let elems = block_log2 - bpe_log2 - samples_log2;
    let width_first = samples_log2 & 1 == 0 || block_log2 & 1 != 0;
    let w = (elems + width_first as u32) / 2;
    (1 << w, 1 << (elems - w), 1)
}

fn shift_ceil(v: u32, s: u32) -> u32 {
    (v.max(1) as u64).div_ceil(1 << s) as u32
}

fn align(v: u32, a: u32) -> u32 {
    v.div_ceil(a) * a
}

impl SurfaceDesc {
    /// Validates the description and computes its layout.
    pub fn layout(&self) -> Result<Layout, SurfaceError> {
        let err = |s: String| Err(SurfaceError(s));
        if self.bpe_log2 > 4 {
            return err(format!("{} bytes per element", 1u32 << self.bpe_log2));
        }
        if self.width == 0 || self.height == 0 || self.slices == 0 || self.mips == 0 {
            return err("empty surface".into());
        }
        if self.mips > 16 || (self.samples_log2 > 0 && self.mips > 1) {
            return err(format!("{} mips with {} samples", self.mips, 1 << self.samples_log2));
        }
        if self.dim == Dim::D1 && self.height > 1 {
            return err("1D surface with height > 1".into());
        }
        if self.sw_mode == sw::LINEAR {
            if self.samples_log2 > 0 {
                return err("multisampled linear surface".into());
            }
            if self.pipe_bank_xor != 0 {
                return err("linear surface with a tile swizzle".into());
            }
            return Ok(self.linear());
        }
        let Some((block_log2, xor, eq)) = mode_info(self.sw_mode, self.dim, self.samples_log2)
        else {
            return err(format!(
                "swizzle mode {} not valid for a {:?} surface with {} samples",
                self.sw_mode,
                self.dim,
                1 << self.samples_log2
            ));
        };
        if self.pitch.is_some() {
            return err("custom pitch on a swizzled surface".into());
        }
        let xor_mask = (1u32 << block_log2) - 1;
        if self.pipe_bank_xor & !xor_mask != 0 || (!xor && self.pipe_bank_xor != 0) {
            return err(format!(
                "tile swizzle {:#x} not valid for swizzle mode {}",
                self.pipe_bank_xor, self.sw_mode
            ));
        }
        let n = block_log2 as usize;
        let e = self.bpe_log2 as usize;
        let equation = Some(Equation::of(&eq[n * e..n * (e + 1)]));
        let thick = is_thick(self.sw_mode, self.dim);
        let block = block_dims(block_log2, self.bpe_log2, self.samples_log2, thick);
        let mut l = if block_log2 == 8 {
            self.micro_tiled(block)
        } else {
            self.macro_tiled(block, block_log2, thick)
        };
        l.equation = equation;
        Ok(l)
    }

    fn bpe(&self) -> u64 {
        1 << self.bpe_log2
    }

    fn linear(&self) -> Layout {
        let align_el = 256 >> self.bpe_log2;
        let mut mips = vec![MipInfo::default(); self.mips as usize];
        let mut slice = 0u64;
        for i in (0..self.mips).rev() {
            let w = shift_ceil(self.width, i);
            let h = shift_ceil(self.height, i);
            let pitch = match self.pitch {
                Some(p) if self.mips == 1 => p,
                _ => align(w, align_el),
            };
            mips[i as usize] = MipInfo { pitch, height: h, offset: slice, tail: None };
            slice += pitch as u64 * h as u64 * self.bpe();
        }
        Layout {
            desc: *self,
            mips,
            block: (align_el, 1, 1),
            block_log2: 8,
            slice_size: slice,
            size: slice * self.slices as u64,
            thick: false,
            equation: None,
        }
    }

    fn micro_tiled(&self, block: (u32, u32, u32)) -> Layout {
        let mut mips = vec![MipInfo::default(); self.mips as usize];
        let mut slice = 0u64;
        for i in (0..self.mips).rev() {
            let pitch = align(shift_ceil(self.width, i), block.0);
            let height = align(shift_ceil(self.height, i), block.1);
            mips[i as usize] = MipInfo { pitch, height, offset: slice, tail: None };
            slice += pitch as u64 * height as u64 * self.bpe();
        }
        Layout {
            desc: *self,
            mips,
            block,
            block_log2: 8,
            slice_size: slice,
            size: slice * self.slices as u64,
            thick: false,
            equation: None,
        }
    }

    /// Largest mip that goes into the tail and how many mips a tail holds.
    fn tail_limits(&self, block: (u32, u32, u32), block_log2: u32, thick: bool) -> (u32, u32, u32) {
        let (mut w, mut h) = (block.0, block.1);
        if thick {
            match block_log2 % 3 {
                0 => h >>= 1,
                1 => w >>= 1,
                _ => {}
            }
        } else {
            w >>= 1;
        }
        // dsMipmapHtileFix (set for navi21): Z modes with 1- and 2-byte elements.
        if self.sw_mode == sw::Z_64KB_X && self.bpe_log2 <= 1 {
            const B256: [(u32, u32); 5] = [(16, 16), (16, 8), (8, 8), (8, 4), (4, 4)];
            let (bw, bh) = B256[self.bpe_log2 as usize];
            w /= bw / B256[2].0;
            h /= bh / B256[2].1;
        }
        let eff = if thick { block_log2 - (block_log2 - 8) / 3 } else { block_log2 };
        let max_in_tail = if eff <= 11 { 1 + (1 << (eff - 9)) } else { eff - 4 };
        (w, h, max_in_tail)
    }

    fn macro_tiled(&self, block: (u32, u32, u32), block_log2: u32, thick: bool) -> Layout {
        let block_size = 1u64 << block_log2;
        let frags = 1u64 << self.samples_log2;
        let mut mips = vec![MipInfo::default(); self.mips as usize];
        let (tw, th, max_in_tail) = self.tail_limits(block, block_log2, thick);
        let mut first_in_tail = self.mips;
        let mut sizes = vec![0u64; self.mips as usize];
        let mut chain = 0u64;
        for i in 0..self.mips {
            let (w, h) = (shift_ceil(self.width, i), shift_ceil(self.height, i));
            if self.mips > 1 && w <= tw && h <= th && self.mips - i <= max_in_tail {
                first_in_tail = i;
                chain += block_size / block.2 as u64;
                break;
            }
            let pitch = align(w, block.0);
            let height = align(h, block.1);
            let slice = pitch as u64 * height as u64 * self.bpe() * frags;
            sizes[i as usize] = slice * block.2 as u64;
            chain += slice;
            mips[i as usize] = MipInfo { pitch, height, offset: 0, tail: None };
        }
        // Mips above the tail: smallest first, after the tail block.
        let mut offset = if first_in_tail < self.mips { block_size } else { 0 };
        for i in (0..first_in_tail).rev() {
            mips[i as usize].offset = offset;
            offset += sizes[i as usize];
        }
        const B256_2D: [(u32, u32); 5] = [(16, 16), (16, 8), (8, 8), (8, 4), (4, 4)];
        const B256_3D: [(u32, u32); 5] = [(8, 4), (4, 4), (4, 4), (4, 2), (2, 2)];
        let micro = if thick { B256_3D } else { B256_2D }[self.bpe_log2 as usize];
        for i in first_in_tail..self.mips {
            let m = max_in_tail - 1 - (i - first_in_tail);
            let mip_offset: u32 = if m > 6 { 16 << m } else { m << 8 };
            let even = |s: u32| (0..6).fold(0, |a, k| a | ((mip_offset >> (s + k)) & (1 << k)));
            let (mut mx, mut my) = (even(9), even(8));
            if block_log2 & 1 != 0 {
                std::mem::swap(&mut mx, &mut my);
                if self.bpe_log2 & 1 != 0 {
                    my = (my << 1) | (mx & 1);
                    mx >>= 1;
                }
            }
            mips[i as usize] = MipInfo {
                pitch: tw,
                height: th,
                offset: 0,
                tail: Some((mx * micro.0, my * micro.1)),
            };
        }
        let pitch = align(self.width, block.0);
        let height = align(self.height, block.1);
        let slices = align(self.slices, block.2);
        let slice_size =
            if self.mips > 1 { chain } else { pitch as u64 * height as u64 * self.bpe() * frags };
        Layout {
            desc: *self,
            mips,
            block,
            block_log2,
            slice_size: if thick { slice_size * block.2 as u64 } else { slice_size },
            size: slice_size * slices as u64,
            thick,
            equation: None,
        }
    }
}

/// The base-address bits an XOR mode applies: the pipe bits (4 for 16 pipes) above the
/// 256-byte interleave, then, past two column bits, up to 4 bank bits that fit the block
/// (addrlib's pipe/bank XOR mask).
fn xor_bits(block_log2: u32) -> u32 {
    const PIPES_LOG2: u32 = 4;
    const COLUMN_BITS: u32 = 2;
    let banks = block_log2.saturating_sub(8 + PIPES_LOG2 + COLUMN_BITS).min(4);
    let mask = ((1u32 << PIPES_LOG2) - 1) | ((1 << banks) - 1) << (PIPES_LOG2 + COLUMN_BITS);
    (mask << 8) & ((1 << block_log2) - 1)
}

impl Layout {
    /// Byte offset from the surface base of element (x, y) of slice `z` (array layer or 3D
    /// depth) in `mip`, sample `sample`. Coordinates must be inside the mip.
    pub fn offset(&self, x: u32, y: u32, z: u32, mip: u32, sample: u32) -> u64 {
        let m = &self.mips[mip as usize];
        let Some(eq) = self.equation else {
            let bpe = 1u64 << self.desc.bpe_log2;
            return self.slice_size * z as u64
                + m.offset
                + (y as u64 * m.pitch as u64 + x as u64) * bpe;
        };
        let (ex, ey, ez) = match m.tail {
            Some((tx, ty)) => (x + tx, y + ty, z),
            None => (x, y, z),
        };
        let mut within = u64::from(eq.eval(equation::pack(ex, ey, ez, sample)));
        within ^= (self.desc.pipe_bank_xor & xor_bits(self.block_log2)) as u64;
        let (bw, bh, bd) = self.block;
        let (slice_size, slice) =
            if self.thick { (self.slice_size, z / bd) } else { (self.slice_size, z) };
        let idx = if m.tail.is_some() {
            0
        } else {
            (y / bh) as u64 * (m.pitch / bw) as u64 + (x / bw) as u64
        };
        slice_size * slice as u64 + m.offset + (idx << self.block_log2) + within
    }

    /// Width and height in elements of `mip` (the visible size, not the aligned pitch).
    pub fn mip_size(&self, mip: u32) -> (u32, u32, u32) {
        let d = &self.desc;
        let depth = if d.dim == Dim::D3 { shift_ceil(d.slices, mip) } else { d.slices };
        (shift_ceil(d.width, mip), shift_ceil(d.height, mip), depth)
    }
}

/// Byte offset of one element from the surface base (see the module doc).
pub fn texel_offset(
    desc: &SurfaceDesc,
    x: u32,
    y: u32,
    z: u32,
    mip: u32,
    sample: u32,
) -> Result<u64, SurfaceError> {
    let l = desc.layout()?;
    if mip >= desc.mips || sample >= 1 << desc.samples_log2 {
        return Err(SurfaceError(format!("mip {mip} / sample {sample} out of range")));
    }
    let (w, h, d) = l.mip_size(mip);
    if x >= w || y >= h || z >= d {
        return Err(SurfaceError(format!("({x}, {y}, {z}) outside mip {mip}")));
    }
    Ok(l.offset(x, y, z, mip, sample))
}
