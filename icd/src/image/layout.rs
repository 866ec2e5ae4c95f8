//! Surface layout as GFX10 hardware addresses it: sizes, alignments, pitches and the offset of
//! every mip level, for SW_LINEAR and the 64 KiB swizzled modes Ferrum uses.
//!
//! The rules are AMD's address library (addrlib, `Gfx10Lib::ComputeSurfaceInfoMacroTiled` and
//! the block-dimension helpers of `Addr::V2::Lib`), restated here; the address *equations*
//! within a block are the simulator's business, written separately. The facts used:
//!
//! - A swizzled surface is made of blocks of 2^16 bytes. Thin blocks (1D/2D images, and 3D
//!   images in `_Z`/`_R` modes) hold 2^(16 - log2 bpe) elements, width taking the odd bit:
//!   log2 w = (n + 1) / 2, log2 h = n - log2 w. Thick blocks (3D in `_S`/`_D` modes) are the
//!   1 KiB micro-block {16×8×8, 8×8×8, 8×8×4, 8×4×4, 4×4×4} (by bpe 1..16) scaled by 2^(6/3)
//!   in each dimension.
//! - Each level is padded to whole blocks. With more than one level, the smallest levels share
//!   one block, the *mip tail*: a level is in the tail when it fits in the tail's largest
//!   level (thin: half the block's width; thick: half its height, as 16 % 3 == 1 halves the
//!   width... see `tail_dim`) and at most `max_mips_in_tail` levels remain.
//! - Within one array layer (or one thick slab of `block[2]` slices), the tail block comes
//!   first, then the levels from the smallest non-tail level up to level 0, which is last.
//!   Layers follow each other at `layer_size`; thick slabs at `layer_size * block[2]`, each
//!   holding one slab of every level (addrlib's ComputeSurfaceAddrFromCoordMacroTiled). Level `m` in the tail sits at byte `tail_offset(m)` of the tail block.
//! - Linear surfaces pad the row pitch to 256 bytes; Ferrum offers them for one 2D level and
//!   layer only.

use ash::vk;

/// GFX10 swizzle modes Ferrum uses (SW_MODE in T#, CB and DB registers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum SwizzleMode {
    Linear = 0,
    /// 64 KiB depth (Z-order) with pipe/bank XOR: what the DB requires.
    Z64KX = 24,
    /// 64 KiB standard: textures (thick for 3D).
    S64KX = 25,
    /// 64 KiB display.
    D64KX = 26,
    /// 64 KiB render-target optimised.
    R64KX = 27,
}

impl SwizzleMode {
    fn is_thick_for(self, ty: vk::ImageType) -> bool {
        // addrlib (gfx10): 3D `_S` and `_D` surfaces are thick; `_Z` and `_R` stay thin.
        ty == vk::ImageType::TYPE_3D && matches!(self, SwizzleMode::S64KX | SwizzleMode::D64KX)
    }
}

const BLOCK_LOG2: u32 = 16;
const BLOCK_BYTES: u64 = 1 << BLOCK_LOG2;
/// Linear row pitches are multiples of this many bytes.
pub const LINEAR_PITCH_ALIGN: u64 = 256;
/// 1 KiB thick micro-block dimensions by log2(bytes per element).
const BLOCK_1K_3D: [[u32; 3]; 5] = [[16, 8, 8], [8, 8, 8], [8, 8, 4], [8, 4, 4], [4, 4, 4]];

/// What a surface is made of: element size and count (texel blocks for BC formats).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceDesc {
    pub ty: vk::ImageType,
    /// Bytes per element (texel block): 1, 2, 4, 8 or 16.
    pub bpe: u32,
    /// Mip-0 size in elements.
    pub width: u32,
    pub height: u32,
    /// 3D depth (1 otherwise).
    pub depth: u32,
    pub layers: u32,
    pub levels: u32,
    /// Samples per pixel (1, 2, 4, 8); more than one only for single-level 2D `_R`/`_Z`
    /// surfaces, as Vulkan allows and the hardware's MSAA layouts require.
    pub samples: u32,
    pub mode: SwizzleMode,
}

/// One mip level's place in a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Level {
    /// Byte offset from the start of the layer (thin) or of the slab of `block[2]` slices
    /// (thick: every slab holds the whole chain, one slab deep); for a level in the tail,
    /// from the start of the tail block.
    pub offset: u64,
    /// Padded width (elements per row) and height.
    pub pitch: u32,
    pub height: u32,
    pub in_tail: bool,
}

/// The computed layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Surface {
    pub desc: SurfaceDesc,
    /// Block dimensions in elements (1×1×1 for linear).
    pub block: [u32; 3],
    /// Bytes from one array layer (or thin 3D slice) to the next.
    pub layer_size: u64,
    pub size: u64,
    pub alignment: u64,
    pub levels: Vec<Level>,
    /// First level in the mip tail (= `levels.len()` when none).
    pub first_tail_level: u32,
}

fn log2(x: u32) -> u32 {
    debug_assert!(x.is_power_of_two());
    x.trailing_zeros()
}

fn align(x: u32, a: u32) -> u32 {
    x.next_multiple_of(a)
}

/// Mip size: `max(1, x >> level)` (the API's size of a level, in texels).
pub fn mip_extent(x: u32, level: u32) -> u32 {
    (x >> level).max(1)
}

/// Mip size as addrlib allocates it (`ShiftCeil`, in elements): `ceil(x / 2^level)`. It is
/// at least the API's size, and it is what the hardware pads and places, so layouts use it.
pub fn alloc_extent(x: u32, level: u32) -> u32 {
    x.max(1).div_ceil(1 << level.min(31)).max(1)
}

/// Block dimensions in elements for a 64 KiB swizzled surface. Multisampled surfaces keep
/// every sample of an element in the block, so the block covers fewer pixels: addrlib's
/// ComputeThinBlockDimension halves the single-sample dimensions log2(samples) times, width
/// first when the block size's log2 is even (as 16 is), alternating.
fn block_dims(desc: &SurfaceDesc) -> [u32; 3] {
    let e = log2(desc.bpe);
    if desc.samples > 1 {
        let s = log2(desc.samples);
        let (q, r) = (s >> 1, s & 1);
        let [w, h, d] = block_dims(&SurfaceDesc { samples: 1, ..*desc });
        return if BLOCK_LOG2 & 1 != 0 {
            [w >> q, h >> (q + r), d]
        } else {
            [w >> (q + r), h >> q, d]
        };
    }
    if desc.mode.is_thick_for(desc.ty) {
        let amp = (BLOCK_LOG2 - 10) / 3;
        let rest = (BLOCK_LOG2 - 10) % 3;
        let [w, h, d] = BLOCK_1K_3D[e as usize];
        [w << amp, h << (amp + rest / 2), d << (amp + u32::from(rest != 0))]
    } else {
        let n = BLOCK_LOG2 - e;
        let lw = n.div_ceil(2);
        [1 << lw, 1 << (n - lw), 1]
    }
}

/// The largest level that fits in the mip tail.
fn tail_dim(block: [u32; 3], thick: bool, mode: SwizzleMode, bpe: u32) -> [u32; 3] {
    let [w, h, d] = block;
    if !thick {
        // addrlib's dsMipmapHtileFix (set for navi21): `_Z` surfaces of 1- and 2-byte
        // elements shrink the tail to what 4-byte elements would allow, by the ratio of their
        // 256-byte micro-blocks (16×16 and 16×8 against 8×8).
        return match (mode, bpe) {
            (SwizzleMode::Z64KX, 1) => [w >> 2, h >> 1, d],
            (SwizzleMode::Z64KX, 2) => [w >> 2, h, d],
            _ => [w >> 1, h, d],
        };
    }
    match BLOCK_LOG2 % 3 {
        0 => [w, h >> 1, d],
        1 => [w >> 1, h, d],
        _ => [w, h, d >> 1],
    }
}

fn max_mips_in_tail(thick: bool) -> u32 {
    let effective = if thick { BLOCK_LOG2 - (BLOCK_LOG2 - 8) / 3 } else { BLOCK_LOG2 };
    if effective <= 11 {
        1 + (1 << (effective - 9))
    } else {
        effective - 4
    }
}

/// 256-byte thick micro-block depth by log2(bytes per element).
const BLOCK_256_3D_DEPTH: [u32; 5] = [8, 8, 4, 4, 4];

/// Byte offset within the tail of the `i`-th level in the tail (0 = the largest); thick tails
/// repeat each level's 256-byte pattern for every `micro_slices` group of slices.
fn tail_offset(i: u32, thick: bool, micro_slices: u32) -> u64 {
    let m = max_mips_in_tail(thick) - 1 - i;
    let offset = if m > 6 { 16u64 << m } else { u64::from(m) << 8 };
    offset * u64::from(micro_slices)
}

impl Surface {
    /// Computes the layout of `desc`.
    pub fn new(desc: SurfaceDesc) -> Surface {
        debug_assert!(desc.bpe.is_power_of_two() && desc.bpe <= 16);
        debug_assert!(desc.samples == 1 || (desc.levels == 1 && desc.mode != SwizzleMode::Linear));
        if desc.mode == SwizzleMode::Linear {
            Self::linear(desc)
        } else {
            Self::swizzled(desc)
        }
    }

    fn linear(desc: SurfaceDesc) -> Surface {
        let bpe = u64::from(desc.bpe);
        let pitch_align = (LINEAR_PITCH_ALIGN / bpe).max(1) as u32;
        let mut offset = 0u64;
        let mut levels = Vec::new();
        // Linear levels run from level 0 upward, each a whole (pitch × height × depth).
        for l in 0..desc.levels {
            let pitch = align(alloc_extent(desc.width, l), pitch_align);
            let height = alloc_extent(desc.height, l);
            levels.push(Level { offset, pitch, height, in_tail: false });
            let depth =
                if desc.ty == vk::ImageType::TYPE_3D { alloc_extent(desc.depth, l) } else { 1 };
            offset += u64::from(pitch) * u64::from(height) * u64::from(depth) * bpe;
        }
        let layer_size = offset.next_multiple_of(LINEAR_PITCH_ALIGN);
        Surface {
            desc,
            block: [1, 1, 1],
            layer_size,
            size: layer_size * u64::from(desc.layers),
            alignment: LINEAR_PITCH_ALIGN,
            levels,
            first_tail_level: desc.levels,
        }
    }

    fn swizzled(desc: SurfaceDesc) -> Surface {
        let block = block_dims(&desc);
        let thick = desc.mode.is_thick_for(desc.ty);
        let bpe = u64::from(desc.bpe);
        // Thin surfaces stack 3D slices like layers; thick ones pad depth to whole blocks.
        let slices = if desc.ty == vk::ImageType::TYPE_3D { desc.depth } else { desc.layers };
        let num_slices = align(slices, block[2]);
        let mip0_depth = if thick { desc.depth } else { 1 };
        let mut levels = vec![Level::default(); desc.levels as usize];
        if desc.levels == 1 {
            let pitch = align(desc.width, block[0]);
            let height = align(desc.height, block[1]);
            // Each element holds its samples one after another (the MSAA modes' equations
            // address sample bits above the element's), so a slice is `samples` times larger.
            let layer_size = u64::from(pitch) * u64::from(height) * bpe * u64::from(desc.samples);
            levels[0] = Level { offset: 0, pitch, height, in_tail: false };
            return Surface {
                desc,
                block,
                layer_size,
                size: layer_size * u64::from(num_slices),
                alignment: BLOCK_BYTES,
                levels,
                first_tail_level: 1,
            };
        }
        let tail = tail_dim(block, thick, desc.mode, desc.bpe);
        let max_in_tail = max_mips_in_tail(thick);
        let mut first_tail = desc.levels;
        let mut chain_slice_size = 0u64;
        let mut level_size = vec![0u64; desc.levels as usize];
        for l in 0..desc.levels {
            let (w, h) = (alloc_extent(desc.width, l), alloc_extent(desc.height, l));
            if w <= tail[0] && h <= tail[1] && desc.levels - l <= max_in_tail {
                first_tail = l;
                chain_slice_size += BLOCK_BYTES / u64::from(block[2]);
                break;
            }
            let pitch = align(w, block[0]);
            let height = align(h, block[1]);
            let slice = u64::from(pitch) * u64::from(height) * bpe;
            // Thick levels take `block[2]` slices of each slab (addrlib: slab-major).
            level_size[l as usize] = slice * u64::from(block[2]);
            chain_slice_size += slice;
            levels[l as usize] = Level { offset: 0, pitch, height, in_tail: false };
        }
        // The tail first, then the levels from the smallest non-tail one up to level 0.
        let mut offset = 0u64;
        let tail_depth = alloc_extent(mip0_depth, first_tail.min(desc.levels - 1));
        if first_tail != desc.levels {
            offset = BLOCK_BYTES;
        }
        let micro_d = BLOCK_256_3D_DEPTH[log2(desc.bpe) as usize];
        // The tail's slices within one slab.
        let slab_tail_depth = tail_depth.min(block[2]);
        let micro_slices = if thick { align(slab_tail_depth, micro_d) / micro_d } else { 1 };
        for l in (0..first_tail).rev() {
            levels[l as usize].offset = offset;
            offset += level_size[l as usize];
        }
        for l in first_tail..desc.levels {
            levels[l as usize] = Level {
                offset: tail_offset(l - first_tail, thick, micro_slices),
                pitch: tail[0],
                height: tail[1],
                in_tail: true,
            };
        }
        Surface {
            desc,
            block,
            layer_size: chain_slice_size,
            size: chain_slice_size * u64::from(num_slices),
            alignment: BLOCK_BYTES,
            levels,
            first_tail_level: first_tail,
        }
    }

    /// Bytes from one depth slice of `level` to the next (linear 3D images).
    pub fn linear_depth_pitch(&self, level: u32) -> u64 {
        let l = &self.levels[level as usize];
        u64::from(l.pitch) * u64::from(l.height) * u64::from(self.desc.bpe)
    }
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
