//! Surfaces the back end reads and writes: where a pixel sample lives (the layout the swizzle
//! mode selects) and the GPU memory behind it.
//!
//! The layout sits behind [`Layout`] so that the swizzle-mode equations (addrlib's, shared with
//! the texture unit) plug in without the colour and depth code knowing them. This module has
//! the linear layout only; the swizzled modes come from the texture unit's addressing.

use crate::kernel::{Access, AddressSpace, VmFault};

/// Where each sample of a 2D surface (one mip level, one slice) lives.
pub trait Layout: Send + Sync {
    /// Byte offset of sample `s` of pixel (x, y) from the surface base.
    fn offset(&self, x: u32, y: u32, s: u32) -> u64;
    /// Bytes the surface spans from its base.
    fn size(&self) -> u64;
}

/// SW_LINEAR: rows of `pitch` elements; on GFX10 the pitch is aligned to 256 bytes
/// (addrlib's linear pitch alignment), and linear surfaces are single-sampled.
pub struct Linear {
    pub bpe: u32,
    pub pitch: u32,
    pub height: u32,
}

impl Linear {
    pub fn new(width: u32, height: u32, bpe: u32) -> Linear {
        let align = (256 / bpe).max(1);
        Linear { bpe, pitch: width.div_ceil(align) * align, height }
    }
}

impl Layout for Linear {
    fn offset(&self, x: u32, y: u32, _s: u32) -> u64 {
        (y as u64 * self.pitch as u64 + x as u64) * self.bpe as u64
    }

    fn size(&self) -> u64 {
        self.pitch as u64 * self.height as u64 * self.bpe as u64
    }
}

/// The layout of swizzle mode `sw_mode` (the SwizzleMode enum: 0 = SW_LINEAR).
pub fn layout(
    sw_mode: u32,
    width: u32,
    height: u32,
    bpe: u32,
    samples: u32,
) -> Result<Box<dyn Layout>, String> {
    match sw_mode {
        0 if samples > 1 => Err("a linear surface cannot be multisampled".into()),
        0 => Ok(Box::new(Linear::new(width, height, bpe))),
        m => Err(format!("swizzle mode {m} is not modelled by the back end yet")),
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
// accesses it from one thread at a time.
unsafe impl Send for SurfaceMem {}
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
