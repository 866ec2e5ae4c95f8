//! `VkBuffer`: a range of bytes that will be bound to device memory.

use ash::vk;
use parking_lot::Mutex;

use crate::core::memory::DeviceMemory;
use crate::core::object::{vk_object, ObjectBase};
use crate::core::physical_device::limits::MAX_MEMORY_ALLOCATION_SIZE;
use crate::core::physical_device::memory::MemoryLayout;
use crate::error::{VkError, VkResult};

/// Buffer offsets Ferrum hands to the hardware are 16-byte aligned, which keeps every
/// descriptor alignment (uniform, storage, texel: 4) and 128-bit loads satisfied.
pub const BUFFER_ALIGNMENT: u64 = 16;

/// Where a buffer is bound: the memory's GPU address at the bound offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    pub memory: vk::DeviceMemory,
    pub offset: u64,
    pub gpu_address: u64,
}

/// A `VkBuffer`.
#[repr(C)]
pub struct Buffer {
    base: ObjectBase,
    pub size: u64,
    pub usage: vk::BufferUsageFlags,
    binding: Mutex<Option<Binding>>,
}
vk_object!(Buffer, vk::Buffer, vk::ObjectType::BUFFER);

impl Buffer {
    pub fn create(info: &vk::BufferCreateInfo<'_>) -> VkResult<Box<Self>> {
        // Sparse binding, residency and aliasing need features Ferrum does not support.
        if !info.flags.is_empty() {
            return Err(VkError::FeatureNotPresent(format!("buffer flags {:?}", info.flags)));
        }
        // VUID-VkBufferCreateInfo-size-00912: "size must be greater than 0".
        if info.size == 0 {
            return Err(VkError::InvalidUsage("buffer size 0"));
        }
        if info.size > MAX_MEMORY_ALLOCATION_SIZE {
            return Err(VkError::OutOfDeviceMemory);
        }
        Ok(Box::new(Buffer {
            base: ObjectBase::new(vk::ObjectType::BUFFER),
            size: info.size,
            usage: info.usage,
            binding: Mutex::new(None),
        }))
    }

    pub fn memory_requirements(&self, layout: &MemoryLayout) -> vk::MemoryRequirements {
        vk::MemoryRequirements {
            size: self.size.next_multiple_of(BUFFER_ALIGNMENT),
            alignment: BUFFER_ALIGNMENT,
            memory_type_bits: layout.all_types_mask(),
        }
    }

    pub fn binding(&self) -> Option<Binding> {
        *self.binding.lock()
    }

    /// Binds the buffer to `memory` at `offset`.
    pub fn bind(
        &self,
        handle: vk::DeviceMemory,
        memory: &DeviceMemory,
        offset: u64,
    ) -> VkResult<()> {
        // VUID-vkBindBufferMemory-memoryOffset-01036: "memoryOffset must be an integer multiple
        // of the alignment member of the VkMemoryRequirements structure".
        if offset % BUFFER_ALIGNMENT != 0 {
            return Err(VkError::InvalidUsage("misaligned buffer memory offset"));
        }
        // VUID-vkBindBufferMemory-size-01037: the buffer must fit in the memory after offset.
        if offset.checked_add(self.size).is_none_or(|end| end > memory.size()) {
            return Err(VkError::InvalidUsage("buffer does not fit in memory"));
        }
        let mut binding = self.binding.lock();
        // VUID-vkBindBufferMemory-buffer-07459: "buffer must not already be backed by memory".
        if binding.is_some() {
            return Err(VkError::InvalidUsage("buffer already bound"));
        }
        *binding =
            Some(Binding { memory: handle, offset, gpu_address: memory.gpu_address() + offset });
        Ok(())
    }
}
