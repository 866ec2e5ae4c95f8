//! `VkDeviceMemory`: one amdgpu buffer object per allocation, mapped into the device's GPU
//! virtual address space for its whole life.
//!
//! Mapping for the CPU goes through the winsys (GEM mmap), so a pointer handed to the
//! application is the very memory the (simulated) GPU reads. Every host-visible type is also
//! host-coherent, so flush and invalidate only validate their ranges.

use std::ffi::c_void;

use ash::vk;
use ferrum_winsys as winsys;
use parking_lot::Mutex;

use crate::core::gpu_alloc::winsys_error;
use crate::core::object::{vk_object, ObjectBase};
use crate::core::physical_device::limits::MAX_MEMORY_ALLOCATION_SIZE;
use crate::core::physical_device::memory::{BoPlacement, Domain};
use crate::core::physical_device::Adapter;
use crate::error::{VkError, VkResult};

/// GPU VA alignment of allocations: 64 KiB lets the kernel use large pages for big BOs.
const VA_ALIGNMENT: u64 = 64 * 1024;
/// Allocations are whole pages.
const PAGE_SIZE: u64 = 4096;

/// A `VkDeviceMemory`.
#[repr(C)]
pub struct DeviceMemory {
    base: ObjectBase,
    size: u64,
    type_index: u32,
    host_visible: bool,
    gpu_address: u64,
    /// The CPU mapping while the application has the memory mapped.
    mapping: Mutex<Option<winsys::CpuMapping>>,
    bo: winsys::Bo,
}
vk_object!(DeviceMemory, vk::DeviceMemory, vk::ObjectType::DEVICE_MEMORY);

fn bo_desc(size: u64, placement: BoPlacement) -> winsys::BoDesc {
    let mut flags = if placement.cpu_access {
        winsys::BoFlags::CPU_ACCESS
    } else {
        winsys::BoFlags::NO_CPU_ACCESS
    };
    if placement.write_combined {
        flags |= winsys::BoFlags::WRITE_COMBINED;
    }
    // Per-VM BOs are resident for every submission, so no BO list has to be tracked per
    // command buffer (RADV makes the same choice for non-exportable memory). External memory
    // would need shareable BOs; none is exposed.
    flags |= winsys::BoFlags::VM_ALWAYS_VALID;
    let domain = match placement.domain {
        Domain::Vram => winsys::Domain::Vram,
        Domain::Gtt => winsys::Domain::Gtt,
    };
    winsys::BoDesc { size, alignment: PAGE_SIZE, domain, flags }
}

impl DeviceMemory {
    pub fn allocate(adapter: &Adapter, info: &vk::MemoryAllocateInfo<'_>) -> VkResult<Box<Self>> {
        let (ty, placement) = adapter
            .memory
            .memory_type(info.memory_type_index)
            .ok_or(VkError::InvalidUsage("memoryTypeIndex out of range"))?;
        // VUID-VkMemoryAllocateInfo-allocationSize-07897: "allocationSize must be greater than 0".
        if info.allocation_size == 0 {
            return Err(VkError::InvalidUsage("allocationSize 0"));
        }
        let heap = adapter.memory.properties.memory_heaps[ty.heap_index as usize];
        if info.allocation_size > MAX_MEMORY_ALLOCATION_SIZE || info.allocation_size > heap.size {
            return Err(VkError::OutOfDeviceMemory);
        }
        let size = info.allocation_size.next_multiple_of(PAGE_SIZE);
        let dev = &adapter.winsys;
        let bo = dev.create_bo(&bo_desc(size, placement)).map_err(winsys_error)?;
        let gpu_address = dev.alloc_va(size, VA_ALIGNMENT).map_err(winsys_error)?;
        let rw = winsys::VaFlags::READ | winsys::VaFlags::WRITE | winsys::VaFlags::EXECUTE;
        if let Err(e) = dev.map_va(&bo, gpu_address, 0, size, rw) {
            dev.free_va(gpu_address, size);
            return Err(winsys_error(e));
        }
        log::trace!(
            "allocated {size:#x} bytes of type {} at GPU VA {gpu_address:#x}",
            info.memory_type_index
        );
        Ok(Box::new(DeviceMemory {
            base: ObjectBase::new(vk::ObjectType::DEVICE_MEMORY),
            size: info.allocation_size,
            type_index: info.memory_type_index,
            host_visible: ty.property_flags.contains(vk::MemoryPropertyFlags::HOST_VISIBLE),
            gpu_address,
            mapping: Mutex::new(None),
            bo,
        }))
    }

    /// The size the application asked for.
    pub fn size(&self) -> u64 {
        self.size
    }

    pub fn type_index(&self) -> u32 {
        self.type_index
    }

    pub fn gpu_address(&self) -> u64 {
        self.gpu_address
    }

    /// `vkMapMemory`: a host pointer to byte `offset`.
    pub fn map(&self, offset: u64, size: u64) -> VkResult<*mut c_void> {
        // VUID-vkMapMemory-memory-00682: "memory must have been created with a memory type that
        // reports VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT".
        if !self.host_visible {
            return Err(VkError::MemoryMapFailed("memory type is not host-visible".into()));
        }
        // VUID-vkMapMemory-offset-00679: "offset must be less than the size of memory".
        // VUID-vkMapMemory-size-00681: "If size is not VK_WHOLE_SIZE, size must be less than or
        // equal to the size of the memory minus offset".
        let in_range = offset < self.size
            && (size == vk::WHOLE_SIZE || (size != 0 && size <= self.size - offset));
        if !in_range {
            return Err(VkError::MemoryMapFailed(format!(
                "range {offset:#x}+{size:#x} outside memory"
            )));
        }
        let mut mapping = self.mapping.lock();
        // VUID-vkMapMemory-memory-00678: "memory must not be currently host mapped".
        if mapping.is_some() {
            return Err(VkError::MemoryMapFailed("memory is already mapped".into()));
        }
        let map = self.bo.map().map_err(|e| VkError::MemoryMapFailed(e.to_string()))?;
        // SAFETY: `offset < size <= mapping length`, so the pointer stays inside the mapping.
        let ptr = unsafe { map.as_ptr().add(offset as usize) };
        *mapping = Some(map);
        Ok(ptr.cast())
    }

    /// `vkUnmapMemory`.
    pub fn unmap(&self) {
        self.mapping.lock().take();
    }

    /// Checks a flush/invalidate range. Host-visible memory is always coherent, so there is
    /// nothing to write back or discard.
    pub fn check_mapped_range(&self, offset: u64, size: u64) -> VkResult<()> {
        // VUID-VkMappedMemoryRange-memory-00684: "memory must be currently host mapped".
        if self.mapping.lock().is_none() {
            return Err(VkError::InvalidUsage("flush/invalidate of unmapped memory"));
        }
        if offset >= self.size || (size != vk::WHOLE_SIZE && size > self.size - offset) {
            return Err(VkError::InvalidUsage("flush/invalidate range outside memory"));
        }
        Ok(())
    }
}

impl Drop for DeviceMemory {
    fn drop(&mut self) {
        // "If a memory object is mapped at the time it is freed, it is implicitly unmapped."
        self.mapping.get_mut().take();
        let dev = self.bo.device().clone();
        let size = self.bo.size();
        if let Err(e) = dev.unmap_va(&self.bo, self.gpu_address, 0, size) {
            log::error!("unmapping GPU VA {:#x}: {e}", self.gpu_address);
        }
        dev.free_va(self.gpu_address, size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alloc(adapter: &Adapter, type_index: u32, size: u64) -> VkResult<Box<DeviceMemory>> {
        let info =
            vk::MemoryAllocateInfo::default().allocation_size(size).memory_type_index(type_index);
        DeviceMemory::allocate(adapter, &info)
    }

    #[test]
    fn host_visible_types_read_back_through_the_bo() {
        let adapter = Adapter::open_simulated().unwrap();
        for i in 0..adapter.memory.properties.memory_type_count {
            let mem = alloc(&adapter, i, 10_000).unwrap();
            if !mem.host_visible {
                assert!(mem.map(0, vk::WHOLE_SIZE).is_err());
                continue;
            }
            let p = mem.map(16, vk::WHOLE_SIZE).unwrap() as *mut u32;
            // SAFETY: the mapping covers 10_000 - 16 bytes from `p`.
            unsafe { p.write(0xC0DE_0000 + i) };
            mem.unmap();
            let map = mem.bo.map().unwrap();
            assert_eq!(map.read_u32(16).unwrap(), 0xC0DE_0000 + i);
        }
    }

    #[test]
    fn rejects_bad_requests() {
        let adapter = Adapter::open_simulated().unwrap();
        assert!(alloc(&adapter, 99, 4096).is_err());
        assert!(alloc(&adapter, 1, 0).is_err());
        assert_eq!(alloc(&adapter, 1, 1 << 40).err(), Some(VkError::OutOfDeviceMemory));
        let mem = alloc(&adapter, 1, 4096).unwrap();
        assert!(mem.map(4096, 1).is_err());
        assert!(mem.check_mapped_range(0, 16).is_err());
        mem.map(0, 4096).unwrap();
        assert!(mem.map(0, 16).is_err(), "double map must fail");
        assert!(mem.check_mapped_range(0, vk::WHOLE_SIZE).is_ok());
        // Distinct allocations get distinct GPU addresses.
        let other = alloc(&adapter, 1, 4096).unwrap();
        assert_ne!(mem.gpu_address(), other.gpu_address());
    }
}
