//! GEM ioctls: create, close, mmap offsets, CPU mappings, GPU VA and idle waits.

use std::sync::Arc;

use ferrum_winsys::{uapi, Errno};

use super::gem::{GemObject, PAGE_SIZE};
use super::vm::VaError;
use super::FileState;

const SUPPORTED_DOMAINS: u64 =
    uapi::AMDGPU_GEM_DOMAIN_CPU | uapi::AMDGPU_GEM_DOMAIN_GTT | uapi::AMDGPU_GEM_DOMAIN_VRAM;

impl FileState {
    pub(super) fn gem(&self, handle: u32) -> Result<Arc<GemObject>, Errno> {
        self.gems.lock().handles.get(&handle).cloned().ok_or(Errno::ENOENT)
    }

    pub(super) fn gem_create(&self, arg: &mut uapi::DrmAmdgpuGemCreate) -> Result<i32, Errno> {
        // SAFETY: plain integers; reading the input half of the union.
        let input = unsafe { arg.in_ };
        if input.domains & !SUPPORTED_DOMAINS != 0 || input.domains == 0 || input.bo_size == 0 {
            return Err(Errno::EINVAL);
        }
        if input.alignment != 0 && !input.alignment.is_power_of_two() {
            return Err(Errno::EINVAL);
        }
        let limit = if input.domains & uapi::AMDGPU_GEM_DOMAIN_VRAM != 0 {
            self.chip.vram_size.min(self.config.host_memory_limit)
        } else {
            self.chip.gtt_size.min(self.config.host_memory_limit)
        };
        let size = input.bo_size.checked_next_multiple_of(PAGE_SIZE).ok_or(Errno::ENOMEM)?;
        if !self.accounting.fits(input.domains, size, limit) {
            return Err(Errno::ENOMEM);
        }
        let mut gems = self.gems.lock();
        let handle = gems.next_handle;
        let offset = u64::from(handle) << 32;
        let gem = GemObject::new(
            size,
            input.domains,
            input.domain_flags,
            offset,
            self.accounting.clone(),
        )
        .ok_or(Errno::ENOMEM)?;
        gems.next_handle += 1;
        gems.handles.insert(handle, Arc::new(gem));
        arg.out = uapi::DrmAmdgpuGemCreateOut { handle, _pad: 0 };
        Ok(0)
    }

    pub(super) fn gem_close(&self, arg: &mut uapi::DrmGemClose) -> Result<i32, Errno> {
        let gem = {
            let mut gems = self.gems.lock();
            let gem = gems.handles.remove(&arg.handle).ok_or(Errno::EINVAL)?;
            gems.by_offset.remove(&gem.mmap_offset);
            gem
        };
        // Closing the last handle drops the object's mappings in this VM (amdgpu removes the
        // bo_va); work already submitted keeps its snapshot and therefore the memory.
        self.vm.unmap_all(&gem);
        Ok(0)
    }

    pub(super) fn gem_mmap(&self, arg: &mut uapi::DrmAmdgpuGemMmap) -> Result<i32, Errno> {
        // SAFETY: plain integers; reading the input half of the union.
        let handle = unsafe { arg.in_ }.handle;
        let mut gems = self.gems.lock();
        let gem = gems.handles.get(&handle).cloned().ok_or(Errno::ENOENT)?;
        if gem.flags & uapi::AMDGPU_GEM_CREATE_NO_CPU_ACCESS != 0 {
            return Err(Errno::EPERM);
        }
        gems.by_offset.insert(gem.mmap_offset, gem.clone());
        arg.out = uapi::DrmAmdgpuGemMmapOut { addr_ptr: gem.mmap_offset };
        Ok(0)
    }

    pub(super) fn mmap(&self, offset: u64, len: usize) -> Result<*mut u8, Errno> {
        let mut gems = self.gems.lock();
        let gem = gems.by_offset.get(&offset).cloned().ok_or(Errno::EINVAL)?;
        if len == 0 || len as u64 > gem.size {
            return Err(Errno::EINVAL);
        }
        let ptr = gem.host_ptr();
        gems.cpu_maps.entry(ptr as usize).or_insert((gem, 0)).1 += 1;
        Ok(ptr)
    }

    pub(super) fn munmap(&self, ptr: *mut u8, _len: usize) -> Result<(), Errno> {
        let mut gems = self.gems.lock();
        let entry = gems.cpu_maps.get_mut(&(ptr as usize)).ok_or(Errno::EINVAL)?;
        entry.1 -= 1;
        if entry.1 == 0 {
            gems.cpu_maps.remove(&(ptr as usize));
        }
        Ok(())
    }

    pub(super) fn gem_va(&self, arg: &mut uapi::DrmAmdgpuGemVa) -> Result<i32, Errno> {
        let valid_flags = uapi::AMDGPU_VM_DELAY_UPDATE
            | uapi::AMDGPU_VM_PAGE_READABLE
            | uapi::AMDGPU_VM_PAGE_WRITEABLE
            | uapi::AMDGPU_VM_PAGE_EXECUTABLE
            | uapi::AMDGPU_VM_MTYPE_MASK;
        if arg.flags & !valid_flags != 0 {
            // PRT (sparse) mappings are not modelled.
            return Err(Errno::EINVAL);
        }
        let to_errno = |e: VaError| match e {
            VaError::Invalid => Errno::EINVAL,
            VaError::NotFound => Errno::ENOENT,
        };
        let (va, offset, size, flags) = (arg.va_address, arg.offset_in_bo, arg.map_size, arg.flags);
        match arg.operation {
            uapi::AMDGPU_VA_OP_MAP => {
                self.vm.map(self.gem(arg.handle)?, va, offset, size, flags).map_err(to_errno)?
            }
            uapi::AMDGPU_VA_OP_REPLACE => {
                self.vm.replace(self.gem(arg.handle)?, va, offset, size, flags).map_err(to_errno)?
            }
            uapi::AMDGPU_VA_OP_UNMAP => {
                self.vm.unmap(&self.gem(arg.handle)?, va).map_err(to_errno)?
            }
            uapi::AMDGPU_VA_OP_CLEAR => self.vm.clear(va, size).map_err(to_errno)?,
            _ => return Err(Errno::EINVAL),
        }
        Ok(0)
    }

    pub(super) fn gem_wait_idle(&self, arg: &mut uapi::DrmAmdgpuGemWaitIdle) -> Result<i32, Errno> {
        // SAFETY: plain integers; reading the input half of the union.
        let input = unsafe { arg.in_ };
        let gem = self.gem(input.handle)?;
        let deadline = super::fence::amdgpu_deadline(input.timeout);
        let idle = self.notifier.wait_until(deadline, || !self.gem_busy(&gem));
        arg.out =
            uapi::DrmAmdgpuGemWaitIdleOut { status: u32::from(!idle), domain: gem.domains as u32 };
        Ok(0)
    }
}
