//! A first-fit allocator for GPU virtual addresses.
//!
//! On amdgpu userspace picks the GPU address of every mapping (the kernel only validates it),
//! so the driver needs an allocator; free ranges are kept coalesced in a `BTreeMap`.

use std::collections::BTreeMap;

/// Free ranges of a GPU VA space, `start -> end` (exclusive), never adjacent.
#[derive(Debug, Clone)]
pub struct VaAllocator {
    free: BTreeMap<u64, u64>,
}

const PAGE: u64 = 4096;

impl VaAllocator {
    /// An allocator over `[start, end)`.
    pub fn new(start: u64, end: u64) -> VaAllocator {
        let mut free = BTreeMap::new();
        if end > start {
            free.insert(start, end);
        }
        VaAllocator { free }
    }

    /// Allocates `size` bytes (rounded up to whole pages) at a multiple of `align` (a power of
    /// two; non-powers are rounded up). `None` when no free range fits.
    pub fn alloc(&mut self, size: u64, align: u64) -> Option<u64> {
        let size = size.max(1).checked_next_multiple_of(PAGE)?;
        let align = align.max(PAGE).checked_next_power_of_two()?;
        let (start, end, va) = self.free.iter().find_map(|(&start, &end)| {
            let va = start.checked_next_multiple_of(align)?;
            (va.checked_add(size)? <= end).then_some((start, end, va))
        })?;
        self.free.remove(&start);
        if va > start {
            self.free.insert(start, va);
        }
        if va + size < end {
            self.free.insert(va + size, end);
        }
        Some(va)
    }

    /// Returns `[va, va + size)` (size rounded up to pages) to the free list.
    pub fn free(&mut self, va: u64, size: u64) {
        let Some(size) = size.max(1).checked_next_multiple_of(PAGE) else {
            return;
        };
        let mut start = va;
        let mut end = va.saturating_add(size);
        if let Some((&prev_start, &prev_end)) = self.free.range(..=start).next_back() {
            if prev_end > start {
                log::error!("VA range {va:#x}+{size:#x} freed twice or never allocated");
                return;
            }
            if prev_end == start {
                self.free.remove(&prev_start);
                start = prev_start;
            }
        }
        if let Some(&next_end) = self.free.get(&end) {
            self.free.remove(&end);
            end = next_end;
        }
        self.free.insert(start, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocates_aligned_and_reuses_freed_space() {
        let mut va = VaAllocator::new(0x20_0000, 0x100_0000);
        let a = va.alloc(0x1000, 0x1000).unwrap();
        assert_eq!(a, 0x20_0000);
        let b = va.alloc(0x1000, 0x10_0000).unwrap();
        assert_eq!(b, 0x30_0000);
        let c = va.alloc(10, 1).unwrap();
        assert_eq!(c, 0x20_1000);
        va.free(a, 0x1000);
        va.free(c, 10);
        assert_eq!(va.alloc(0x2000, 0x1000), Some(0x20_0000));
        assert_eq!(va.alloc(0x1000_0000, 0x1000), None);
    }

    #[test]
    fn coalesces_on_free() {
        let mut va = VaAllocator::new(0x1000, 0x5000);
        let ranges: Vec<u64> = (0..4).map(|_| va.alloc(0x1000, 0).unwrap()).collect();
        assert_eq!(va.alloc(0x1000, 0), None);
        for r in [ranges[1], ranges[3], ranges[0], ranges[2]] {
            va.free(r, 0x1000);
        }
        assert_eq!(va.free.len(), 1);
        assert_eq!(va.alloc(0x4000, 0), Some(0x1000));
    }
}
