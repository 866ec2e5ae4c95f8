//! Surfaces the back end reads and writes: where a pixel sample lives (the texture unit's
//! addressing, [`crate::tex::surface`], from the swizzle mode and shape the CB/DB registers
//! give) and the GPU memory behind it.

use crate::kernel::{Access, AddressSpace, VmFault};
use crate::tex::surface::{Dim, Layout as TexLayout, SurfaceDesc};

/// What the CB_COLORn_* / DB_* registers say about one render surface.
#[derive(Debug, Clone, Copy)]
pub struct RenderSurface {
    /// Byte address from the BASE registers, tile swizzle (pipe/bank XOR) bits included.
    pub base: u64,
    pub sw_mode: u32,
    pub bpe: u32,
    /// Mip-0 size in pixels.
    pub width: u32,
    pub height: u32,
    pub slices: u32,
    pub mips: u32,
    pub samples: u32,
    /// The view: first slice (layer 0), last slice a layer may reach, and mip rendered to.
    pub slice: u32,
    pub slice_max: u32,
    pub mip: u32,
}

/// The slices `slice..=slice_max` of one mip of a render surface, addressed: render-target
/// array layer `l` (the VS's render-target index) lands in slice `slice + l`.
pub struct Layout {
    tex: TexLayout,
    /// The surface base with the pipe/bank XOR bits removed.
    pub base: u64,
    slice: u32,
    slice_max: u32,
    mip: u32,
    /// Size of the rendered mip in pixels.
    pub width: u32,
    pub height: u32,
}

impl Layout {
    pub fn new(s: &RenderSurface) -> Result<Layout, String> {
        if !s.bpe.is_power_of_two() || s.bpe > 16 {
            return Err(format!("{} bytes per pixel", s.bpe));
        }
        if !s.samples.is_power_of_two() {
            return Err(format!("{} samples", s.samples));
        }
        let mut desc = SurfaceDesc {
            sw_mode: s.sw_mode,
            dim: Dim::D2,
            bpe_log2: s.bpe.trailing_zeros(),
            width: s.width,
            height: s.height,
            slices: s.slices.max(s.slice + 1).max(s.slice_max + 1),
            mips: s.mips.max(s.mip + 1),
            samples_log2: s.samples.trailing_zeros(),
            pitch: None,
            pipe_bank_xor: 0,
        };
        let plain = desc.layout().map_err(|e| e.0)?;
        // The BASE registers carry the tile swizzle in the bits below the block size.
        let block = (1u64 << plain.block_log2) - 1;
        let xor = (s.base & block) as u32;
        let tex = if xor != 0 {
            desc.pipe_bank_xor = xor;
            desc.layout().map_err(|e| format!("base {:#x}: {}", s.base, e.0))?
        } else {
            plain
        };
        let (width, height, _) = tex.mip_size(s.mip);
        let (base, slice, slice_max, mip) = (s.base & !block, s.slice, s.slice_max, s.mip);
        Ok(Layout { tex, base, slice, slice_max, mip, width, height })
    }

    /// Byte offset of sample `s` of pixel (x, y) of `layer` from the base; (x, y) inside the
    /// mip and the layer inside the view (see [`Layout::has_layer`]).
    pub fn offset(&self, x: u32, y: u32, layer: u32, s: u32) -> u64 {
        self.tex.offset(x, y, self.slice + layer, self.mip, s)
    }

    /// Whether render-target array layer `layer` is inside the view (SLICE_START..=SLICE_MAX).
    /// Layers past the view are not written: the Vulkan spec leaves rendering to a layer
    /// beyond the framebuffer's undefined, and dropping it keeps other memory intact.
    pub fn has_layer(&self, layer: u32) -> bool {
        self.slice.checked_add(layer).is_some_and(|s| s <= self.slice_max)
    }

    /// Bytes the surface spans from its base.
    pub fn size(&self) -> u64 {
        self.tex.size
    }

    pub fn contains(&self, x: i32, y: i32, layer: u32) -> bool {
        x >= 0
            && y >= 0
            && (x as u32) < self.width
            && (y as u32) < self.height
            && self.has_layer(layer)
    }
}

/// A surface's bytes, translated once per draw.
pub struct SurfaceMem {
    ptr: *mut u8,
    len: u64,
    /// False for read-only views: writes are dropped.
    writable: bool,
}

// SAFETY: the pointer is into GEM memory kept alive by the job's address space; the back end
// accesses surfaces only from the thread that runs the draw's in-order stages.
unsafe impl Send for SurfaceMem {}
// SAFETY: as for Send: shared references are only used by that one thread.
unsafe impl Sync for SurfaceMem {}

impl SurfaceMem {
    /// Maps `[base, base + len)`, which must lie in one writable (or, for `write` false,
    /// readable) mapping.
    pub fn map(space: &AddressSpace, base: u64, len: u64, write: bool) -> Result<Self, VmFault> {
        let access = if write { Access::Write } else { Access::Read };
        let ptr = space.translate(base, len.max(1), access)?;
        if write {
            space.translate(base, len.max(1), Access::Read)?;
        }
        Ok(SurfaceMem { ptr, len, writable: write })
    }

    /// Reads `n` (1..=16) bytes at `off` as a little-endian integer.
    pub fn read(&self, off: u64, n: u32) -> u128 {
        debug_assert!(off + n as u64 <= self.len);
        let mut b = [0u8; 16];
        // SAFETY: callers stay inside the surface (offsets come from the layout, whose size
        // was mapped); see `in_bounds`.
        unsafe {
            std::ptr::copy_nonoverlapping(self.ptr.add(off as usize), b.as_mut_ptr(), n as usize)
        };
        u128::from_le_bytes(b)
    }

    pub fn write(&self, off: u64, n: u32, v: u128) {
        if !self.writable {
            return;
        }
        debug_assert!(off + n as u64 <= self.len);
        let b = v.to_le_bytes();
        // SAFETY: as in `read`.
        unsafe {
            std::ptr::copy_nonoverlapping(b.as_ptr(), self.ptr.add(off as usize), n as usize)
        };
    }

    pub fn in_bounds(&self, off: u64, n: u32) -> bool {
        off + n as u64 <= self.len
    }
}
