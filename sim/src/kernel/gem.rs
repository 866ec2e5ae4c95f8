//! GEM objects: page-aligned, zeroed host memory standing in for VRAM and GTT.
//!
//! The same bytes are seen by the CPU (through the simulated `mmap`) and by the GPU model
//! (through VM mappings), so an object's memory is a raw allocation that lives as long as any
//! handle, CPU mapping or GPU mapping holds the `Arc<GemObject>`.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub const PAGE_SIZE: u64 = 4096;

/// A buffer object.
#[derive(Debug)]
pub struct GemObject {
    ptr: NonNull<u8>,
    layout: Layout,
    /// Size in bytes (page multiple).
    pub size: u64,
    pub domains: u64,
    pub flags: u64,
    /// Fake offset handed out by GEM_MMAP.
    pub mmap_offset: u64,
    accounting: Arc<MemoryAccounting>,
}

// SAFETY: the memory is plain bytes accessed through raw pointers; concurrent access follows
// the GPU's memory model (ordering is the driver's job, as on hardware).
unsafe impl Send for GemObject {}
// SAFETY: as above.
unsafe impl Sync for GemObject {}

impl GemObject {
    /// Allocates zeroed memory; `None` when the host refuses.
    pub fn new(
        size: u64,
        domains: u64,
        flags: u64,
        mmap_offset: u64,
        accounting: Arc<MemoryAccounting>,
    ) -> Option<GemObject> {
        let size = size.checked_next_multiple_of(PAGE_SIZE)?;
        let layout =
            Layout::from_size_align(usize::try_from(size).ok()?, PAGE_SIZE as usize).ok()?;
        // SAFETY: the layout has a non-zero size (callers reject size 0).
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        accounting.add(domains, size);
        Some(GemObject { ptr, layout, size, domains, flags, mmap_offset, accounting })
    }

    /// Host address of byte 0.
    pub fn host_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

impl Drop for GemObject {
    fn drop(&mut self) {
        self.accounting.sub(self.domains, self.size);
        // SAFETY: allocated in `new` with this layout and not freed before.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

/// Bytes allocated per heap, for INFO usage queries and the allocation budget.
#[derive(Debug, Default)]
pub struct MemoryAccounting {
    pub vram: AtomicU64,
    pub gtt: AtomicU64,
}

impl MemoryAccounting {
    fn counter(&self, domains: u64) -> &AtomicU64 {
        if domains & ferrum_winsys::uapi::AMDGPU_GEM_DOMAIN_VRAM != 0 {
            &self.vram
        } else {
            &self.gtt
        }
    }

    fn add(&self, domains: u64, size: u64) {
        self.counter(domains).fetch_add(size, Ordering::Relaxed);
    }

    fn sub(&self, domains: u64, size: u64) {
        self.counter(domains).fetch_sub(size, Ordering::Relaxed);
    }

    /// Reserves `size` bytes in the heap for `domains` if that stays within `limit`.
    pub fn fits(&self, domains: u64, size: u64, limit: u64) -> bool {
        self.counter(domains).load(Ordering::Relaxed).saturating_add(size) <= limit
    }
}
