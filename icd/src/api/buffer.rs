//! Buffer commands.

use ash::vk;

use super::{obj, output, reference};
use crate::core::buffer::Buffer;
use crate::core::device::Device;
use crate::core::memory::DeviceMemory;
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value, guard_void};

pub unsafe extern "system" fn create_buffer(
    device: vk::Device,
    p_create_info: *const vk::BufferCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_buffer: *mut vk::Buffer,
) -> vk::Result {
    guard("vkCreateBuffer", || {
        // SAFETY: a live device and null or valid callbacks.
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_buffer)? } = (*Buffer::create(info)?).into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_buffer(
    _device: vk::Device,
    buffer: vk::Buffer,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyBuffer", (), || {
        // SAFETY: a null or live buffer handle, not used afterwards.
        drop(unsafe { Buffer::take_handle(buffer) });
    })
}

pub unsafe extern "system" fn get_buffer_memory_requirements(
    device: vk::Device,
    buffer: vk::Buffer,
    p_requirements: *mut vk::MemoryRequirements,
) {
    guard_void("vkGetBufferMemoryRequirements", || {
        // SAFETY: live handles and a writable output pointer.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a live Buffer handle (valid usage).
        let buffer = unsafe { obj::<Buffer>(buffer)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_requirements)? } = buffer.memory_requirements(&device.adapter.memory);
        Ok(())
    })
}

pub unsafe extern "system" fn get_buffer_memory_requirements2(
    device: vk::Device,
    p_info: *const vk::BufferMemoryRequirementsInfo2<'_>,
    p_requirements: *mut vk::MemoryRequirements2<'_>,
) {
    guard_void("vkGetBufferMemoryRequirements2", || {
        // SAFETY: live handles, a valid info structure and a valid output structure.
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_info)? };
        // SAFETY: the application passes a live Buffer handle (valid usage).
        let buffer = unsafe { obj::<Buffer>(info.buffer)? };
        // SAFETY: the application passes a writable output pointer.
        let out = unsafe { output(p_requirements)? };
        out.memory_requirements = buffer.memory_requirements(&device.adapter.memory);
        // SAFETY: the output chain is valid.
        for s in unsafe { crate::core::chain::iter_out(out.p_next) } {
            // SAFETY: every link of the chain is a valid structure.
            if unsafe { (*s).s_type } == vk::StructureType::MEMORY_DEDICATED_REQUIREMENTS {
                // Buffers never need or prefer a dedicated allocation.
                // SAFETY: the sType says this is a VkMemoryDedicatedRequirements.
                unsafe {
                    crate::core::chain::write_body(s, vk::MemoryDedicatedRequirements::default());
                }
            }
        }
        Ok(())
    })
}

pub unsafe extern "system" fn bind_buffer_memory(
    _device: vk::Device,
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    guard("vkBindBufferMemory", || {
        // SAFETY: the application passes a live Buffer handle (valid usage).
        let buf = unsafe { obj::<Buffer>(buffer)? };
        // SAFETY: the application passes a live DeviceMemory handle (valid usage).
        let mem = unsafe { obj::<DeviceMemory>(memory)? };
        buf.bind(memory, mem, offset)
    })
}

pub unsafe extern "system" fn bind_buffer_memory2(
    _device: vk::Device,
    count: u32,
    p_infos: *const vk::BindBufferMemoryInfo<'_>,
) -> vk::Result {
    guard("vkBindBufferMemory2", || {
        if count == 0 {
            return Ok(());
        }
        // SAFETY: the application passes `count` valid bind infos.
        let infos = unsafe { std::slice::from_raw_parts(p_infos, count as usize) };
        for info in infos {
            // SAFETY: the application passes a live Buffer handle (valid usage).
            let buf = unsafe { obj::<Buffer>(info.buffer)? };
            // SAFETY: the application passes a live DeviceMemory handle (valid usage).
            let mem = unsafe { obj::<DeviceMemory>(info.memory)? };
            buf.bind(info.memory, mem, info.memory_offset)?;
        }
        Ok(())
    })
}
