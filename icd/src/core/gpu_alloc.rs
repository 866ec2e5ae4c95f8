//! Driver-internal GPU memory: command-buffer chunks, query slots, event words.
//!
//! Each allocation is one CPU-mapped, write-combined GTT buffer object at a driver-chosen GPU
//! address, created `VM_ALWAYS_VALID` so that submissions need no BO list (the same choice as
//! application memory, see `core::memory`).

use ferrum_winsys as winsys;

use crate::error::{VkError, VkResult};

const PAGE_SIZE: u64 = 4096;
/// 256-byte alignment is what IBs and shader code need; pages give more than that.
const VA_ALIGNMENT: u64 = PAGE_SIZE;

/// Turns a winsys failure into the Vulkan error an application sees.
pub fn winsys_error(err: winsys::Error) -> VkError {
    match err {
        winsys::Error::OutOfMemory | winsys::Error::VaExhausted => VkError::OutOfDeviceMemory,
        winsys::Error::ContextLost(_) => VkError::DeviceLost(err.to_string()),
        other => VkError::InitializationFailed(other.to_string()),
    }
}

/// A mapped internal buffer object; unmapped and freed when dropped.
pub struct GpuAlloc {
    bo: winsys::Bo,
    map: winsys::CpuMapping,
    va: u64,
    size: u64,
}

impl std::fmt::Debug for GpuAlloc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GpuAlloc({:#x}+{:#x})", self.va, self.size)
    }
}

impl GpuAlloc {
    /// `size` bytes (rounded up to whole pages), zero-filled by the kernel.
    pub fn new(dev: &winsys::Device, size: u64) -> VkResult<Self> {
        let size = size.max(1).next_multiple_of(PAGE_SIZE);
        let desc = winsys::BoDesc {
            size,
            alignment: PAGE_SIZE,
            domain: winsys::Domain::Gtt,
            flags: winsys::BoFlags::CPU_ACCESS
                | winsys::BoFlags::WRITE_COMBINED
                | winsys::BoFlags::VM_ALWAYS_VALID,
        };
        let bo = dev.create_bo(&desc).map_err(winsys_error)?;
        let va = dev.alloc_va(size, VA_ALIGNMENT).map_err(winsys_error)?;
        let rw = winsys::VaFlags::READ | winsys::VaFlags::WRITE | winsys::VaFlags::EXECUTE;
        if let Err(e) = dev.map_va(&bo, va, 0, size, rw) {
            dev.free_va(va, size);
            return Err(winsys_error(e));
        }
        let map = match bo.map() {
            Ok(m) => m,
            Err(e) => {
                let _ = dev.unmap_va(&bo, va, 0, size);
                dev.free_va(va, size);
                return Err(winsys_error(e));
            }
        };
        Ok(GpuAlloc { bo, map, va, size })
    }

    pub fn va(&self) -> u64 {
        self.va
    }

    pub fn size(&self) -> u64 {
        self.size
    }

    /// Writes dwords at byte `offset`. This is the command-recording hot path, so it copies
    /// straight into the mapping instead of going through a byte buffer.
    pub fn write_u32s(&self, offset: u64, words: &[u32]) {
        let bytes = std::mem::size_of_val(words);
        // Offsets come from the driver's own bookkeeping; out of range is a driver bug.
        assert!(
            offset as usize + bytes <= self.map.len(),
            "internal GPU buffer write out of range"
        );
        // SAFETY: the range was checked against the mapping's length just above; the source is
        // a distinct Rust slice.
        unsafe {
            std::ptr::copy_nonoverlapping(
                words.as_ptr().cast::<u8>(),
                self.map.as_ptr().add(offset as usize),
                bytes,
            );
        }
    }

    pub fn read_u32(&self, offset: u64) -> u32 {
        self.map.read_u32(offset as usize).expect("internal GPU buffer read in range")
    }

    pub fn read_u64(&self, offset: u64) -> u64 {
        self.map.read_u64(offset as usize).expect("internal GPU buffer read in range")
    }
}

impl Drop for GpuAlloc {
    fn drop(&mut self) {
        let dev = self.bo.device().clone();
        if let Err(e) = dev.unmap_va(&self.bo, self.va, 0, self.size) {
            log::error!("unmapping internal GPU VA {:#x}: {e}", self.va);
        }
        dev.free_va(self.va, self.size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::physical_device::Adapter;

    #[test]
    fn allocations_are_mapped_zeroed_and_distinct() {
        let adapter = Adapter::open_simulated().unwrap();
        let a = GpuAlloc::new(&adapter.winsys, 100).unwrap();
        let b = GpuAlloc::new(&adapter.winsys, 5000).unwrap();
        assert_eq!((a.size(), b.size()), (4096, 8192));
        assert_ne!(a.va(), b.va());
        assert_eq!(a.va() % 256, 0);
        a.write_u32s(8, &[7, 8]);
        assert_eq!((a.read_u32(0), a.read_u64(8)), (0, (8 << 32) | 7));
    }
}
