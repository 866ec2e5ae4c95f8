//! Buffer objects: creation, CPU mapping and GPU virtual-address mapping.

use core::ptr::NonNull;

use bitflags::bitflags;

use crate::device::Device;
use crate::error::{Error, Result};
use crate::uapi;

/// GPU page size: BO sizes and VA mappings are multiples of it.
pub const PAGE_SIZE: u64 = 4096;

/// Where a BO lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    Vram,
    Gtt,
}

bitflags! {
    /// Creation flags (`AMDGPU_GEM_CREATE_*`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct BoFlags: u64 {
        /// The CPU will map it (VRAM: must be in the CPU-visible window).
        const CPU_ACCESS = uapi::AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED;
        const NO_CPU_ACCESS = uapi::AMDGPU_GEM_CREATE_NO_CPU_ACCESS;
        /// Write-combined (uncached) system memory for GTT.
        const WRITE_COMBINED = uapi::AMDGPU_GEM_CREATE_CPU_GTT_USWC;
        const VRAM_CLEARED = uapi::AMDGPU_GEM_CREATE_VRAM_CLEARED;
        /// Per-VM BO: always resident, needs no BO-list entry, cannot be exported.
        const VM_ALWAYS_VALID = uapi::AMDGPU_GEM_CREATE_VM_ALWAYS_VALID;
        const EXPLICIT_SYNC = uapi::AMDGPU_GEM_CREATE_EXPLICIT_SYNC;
    }
}

bitflags! {
    /// Page permissions and memory type of a GPU VA mapping (`AMDGPU_VM_*`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct VaFlags: u32 {
        const READ = uapi::AMDGPU_VM_PAGE_READABLE;
        const WRITE = uapi::AMDGPU_VM_PAGE_WRITEABLE;
        const EXECUTE = uapi::AMDGPU_VM_PAGE_EXECUTABLE;
        const UNCACHED = uapi::AMDGPU_VM_MTYPE_UC;
    }
}

/// What to create.
#[derive(Debug, Clone, Copy)]
pub struct BoDesc {
    pub size: u64,
    pub alignment: u64,
    pub domain: Domain,
    pub flags: BoFlags,
}

/// A GEM buffer object; closed when dropped (which also removes its GPU VA mappings).
#[derive(Debug)]
pub struct Bo {
    dev: Device,
    handle: u32,
    desc: BoDesc,
}

impl Device {
    /// Creates a BO.
    pub fn create_bo(&self, desc: &BoDesc) -> Result<Bo> {
        if desc.size == 0 {
            return Err(Error::InvalidArgument("BO size 0"));
        }
        let domains = match desc.domain {
            Domain::Vram => uapi::AMDGPU_GEM_DOMAIN_VRAM,
            Domain::Gtt => uapi::AMDGPU_GEM_DOMAIN_GTT,
        };
        // The kernel allocates whole pages; report the size that really exists so that the
        // whole BO can be mapped at a page-granular GPU VA.
        let desc = &BoDesc { size: desc.size.next_multiple_of(PAGE_SIZE), ..*desc };
        let mut arg = uapi::DrmAmdgpuGemCreate::new(uapi::DrmAmdgpuGemCreateIn {
            bo_size: desc.size,
            alignment: desc.alignment.max(4096),
            domains,
            domain_flags: desc.flags.bits(),
        });
        // SAFETY: gem_create carries no user pointers.
        unsafe { self.ioctl(uapi::DRM_IOCTL_AMDGPU_GEM_CREATE, &mut arg) }
            .map_err(|errno| Error::ioctl("AMDGPU_GEM_CREATE", errno))?;
        Ok(Bo { dev: self.clone(), handle: arg.out().handle, desc: *desc })
    }

    /// Maps `size` bytes of `bo` starting at `offset` at GPU address `va`.
    pub fn map_va(&self, bo: &Bo, va: u64, offset: u64, size: u64, flags: VaFlags) -> Result<()> {
        self.gem_va(bo.handle, uapi::AMDGPU_VA_OP_MAP, va, offset, size, flags.bits())
    }

    /// Removes a mapping made by [`Device::map_va`] (same `va`, `offset`, `size`).
    pub fn unmap_va(&self, bo: &Bo, va: u64, offset: u64, size: u64) -> Result<()> {
        self.gem_va(bo.handle, uapi::AMDGPU_VA_OP_UNMAP, va, offset, size, 0)
    }

    fn gem_va(
        &self,
        handle: u32,
        op: u32,
        va: u64,
        offset: u64,
        size: u64,
        flags: u32,
    ) -> Result<()> {
        let mut arg = uapi::DrmAmdgpuGemVa {
            handle,
            operation: op,
            flags,
            va_address: va,
            offset_in_bo: offset,
            map_size: size,
            ..Default::default()
        };
        // SAFETY: gem_va carries no user pointers.
        unsafe { self.ioctl(uapi::DRM_IOCTL_AMDGPU_GEM_VA, &mut arg) }
            .map_err(|errno| Error::ioctl("AMDGPU_GEM_VA", errno))?;
        Ok(())
    }
}

impl Bo {
    /// The GEM handle (for BO lists and fence chunks).
    pub fn handle(&self) -> u32 {
        self.handle
    }

    /// Size in bytes, rounded up to whole pages at creation.
    pub fn size(&self) -> u64 {
        self.desc.size
    }

    pub fn desc(&self) -> &BoDesc {
        &self.desc
    }

    pub fn device(&self) -> &Device {
        &self.dev
    }

    /// Maps the whole BO for CPU access.
    pub fn map(&self) -> Result<CpuMapping> {
        let mut arg =
            uapi::DrmAmdgpuGemMmap::new(uapi::DrmAmdgpuGemMmapIn { handle: self.handle, _pad: 0 });
        // SAFETY: gem_mmap carries no user pointers.
        unsafe { self.dev.ioctl(uapi::DRM_IOCTL_AMDGPU_GEM_MMAP, &mut arg) }
            .map_err(|errno| Error::ioctl("AMDGPU_GEM_MMAP", errno))?;
        let len = usize::try_from(self.desc.size).map_err(|_| Error::OutOfMemory)?;
        let ptr = self
            .dev
            .0
            .kernel
            .mmap(arg.out().addr_ptr, len)
            .map_err(|errno| Error::ioctl("mmap", errno))?;
        let ptr = NonNull::new(ptr).ok_or(Error::ioctl("mmap", crate::Errno::EFAULT))?;
        Ok(CpuMapping { dev: self.dev.clone(), ptr, len })
    }

    /// Waits until the GPU no longer uses the BO; `false` if still busy at the timeout.
    pub fn wait_idle(&self, timeout: Option<std::time::Duration>) -> Result<bool> {
        let mut arg = uapi::DrmAmdgpuGemWaitIdle::new(uapi::DrmAmdgpuGemWaitIdleIn {
            handle: self.handle,
            flags: 0,
            timeout: crate::time::deadline_ns(timeout) as u64,
        });
        // SAFETY: gem_wait_idle carries no user pointers.
        unsafe { self.dev.ioctl(uapi::DRM_IOCTL_AMDGPU_GEM_WAIT_IDLE, &mut arg) }
            .map_err(|errno| Error::ioctl("AMDGPU_GEM_WAIT_IDLE", errno))?;
        Ok(arg.out().status == 0)
    }
}

impl Drop for Bo {
    fn drop(&mut self) {
        let mut arg = uapi::DrmGemClose { handle: self.handle, pad: 0 };
        // SAFETY: gem_close carries no user pointers.
        if let Err(errno) = unsafe { self.dev.ioctl(uapi::DRM_IOCTL_GEM_CLOSE, &mut arg) } {
            log::error!("GEM_CLOSE of handle {} failed: {errno}", self.handle);
        }
    }
}

/// A CPU mapping of a BO. It stays valid after the `Bo` is dropped (the kernel keeps the
/// object alive while mapped) and is unmapped when dropped.
///
/// The GPU may write the memory concurrently, so access goes through copies rather than
/// Rust references; synchronise with fences before reading GPU results.
#[derive(Debug)]
pub struct CpuMapping {
    dev: Device,
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is plain shared memory; all access is through raw-pointer copies.
unsafe impl Send for CpuMapping {}
// SAFETY: as above; no interior references are handed out.
unsafe impl Sync for CpuMapping {}

impl CpuMapping {
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn check(&self, offset: usize, len: usize) -> Result<()> {
        match offset.checked_add(len) {
            Some(end) if end <= self.len => Ok(()),
            _ => Err(Error::InvalidArgument("access beyond the end of a CPU mapping")),
        }
    }

    /// Copies `data` into the mapping at byte `offset`.
    pub fn write(&self, offset: usize, data: &[u8]) -> Result<()> {
        self.check(offset, data.len())?;
        // SAFETY: the range is inside the mapping (checked) and `data` cannot overlap it
        // (it is a Rust slice, the mapping is never lent out as one).
        unsafe {
            core::ptr::copy_nonoverlapping(data.as_ptr(), self.ptr.as_ptr().add(offset), data.len())
        };
        Ok(())
    }

    /// Copies bytes at `offset` into `out`.
    pub fn read(&self, offset: usize, out: &mut [u8]) -> Result<()> {
        self.check(offset, out.len())?;
        // SAFETY: the range is inside the mapping (checked); `out` is distinct memory.
        unsafe {
            core::ptr::copy_nonoverlapping(
                self.ptr.as_ptr().add(offset),
                out.as_mut_ptr(),
                out.len(),
            )
        };
        Ok(())
    }

    /// Writes little-endian dwords at byte `offset`.
    pub fn write_u32s(&self, offset: usize, data: &[u32]) -> Result<()> {
        let bytes: Vec<u8> = data.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.write(offset, &bytes)
    }

    /// Reads `count` little-endian dwords at byte `offset`.
    pub fn read_u32s(&self, offset: usize, count: usize) -> Result<Vec<u32>> {
        let mut bytes = vec![0u8; count * 4];
        self.read(offset, &mut bytes)?;
        Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    pub fn read_u32(&self, offset: usize) -> Result<u32> {
        Ok(self.read_u32s(offset, 1)?[0])
    }

    pub fn read_u64(&self, offset: usize) -> Result<u64> {
        let mut b = [0u8; 8];
        self.read(offset, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }
}

impl Drop for CpuMapping {
    fn drop(&mut self) {
        // SAFETY: `ptr`/`len` came from this kernel's mmap and nothing else references it.
        if let Err(errno) = unsafe { self.dev.0.kernel.munmap(self.ptr.as_ptr(), self.len) } {
            log::error!("munmap failed: {errno}");
        }
    }
}
