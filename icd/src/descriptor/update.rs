//! `vkUpdateDescriptorSets`: writes buffer descriptors (V#s into set memory, dynamic ones into
//! the set's host list) and copies descriptors between sets.

use ash::vk;

use super::layout::{Kind, Place};
use super::pool::{DescriptorSet, DynamicBuffer};
use super::vsharp::{self, BUFFER_DESCRIPTOR_SIZE};
use crate::core::buffer::Buffer;
use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};

/// The address and range a `VkDescriptorBufferInfo` names.
fn resolve(info: &vk::DescriptorBufferInfo) -> VkResult<DynamicBuffer> {
    // SAFETY: the application passes a live buffer (valid usage).
    let buffer = unsafe { Buffer::from_handle(info.buffer) }
        .ok_or(VkError::InvalidUsage("null buffer in a descriptor write"))?;
    let binding = buffer.binding().ok_or(VkError::InvalidUsage("descriptor of unbound buffer"))?;
    // VUID-VkDescriptorBufferInfo-offset-00340: "offset must be less than the size of buffer".
    if info.offset >= buffer.size {
        return Err(VkError::InvalidUsage("descriptor offset outside the buffer"));
    }
    let range = if info.range == vk::WHOLE_SIZE { buffer.size - info.offset } else { info.range };
    Ok(DynamicBuffer { va: binding.gpu_address + info.offset, range })
}

/// Stores one descriptor of binding `number`, element `element` (following into later
/// bindings as the spec's consecutive-binding rule says).
fn store(
    set: &DescriptorSet,
    number: u32,
    element: u32,
    kind: Kind,
    d: DynamicBuffer,
) -> VkResult<()> {
    let (binding, element) = set
        .layout
        .locate(number, element)
        .ok_or(VkError::InvalidUsage("descriptor write past the last binding"))?;
    // VUID-VkWriteDescriptorSet-descriptorType-00319: the type matches the binding.
    if binding.kind != kind {
        return Err(VkError::InvalidUsage("descriptor type does not match the binding"));
    }
    match binding.place {
        Place::Memory(offset) => {
            let at = offset + BUFFER_DESCRIPTOR_SIZE * u64::from(element);
            set.write(at, vsharp::buffer(d.va, d.range));
        }
        Place::Dynamic(index) => set.dynamic.lock()[(index + element) as usize] = d,
    }
    Ok(())
}

/// One buffer descriptor (an update template's element).
pub fn write_buffer(
    set: &DescriptorSet,
    binding: u32,
    element: u32,
    kind: Kind,
    info: &vk::DescriptorBufferInfo,
) -> VkResult<()> {
    store(set, binding, element, kind, resolve(info)?)
}

/// One `VkWriteDescriptorSet`.
pub fn write(set: &DescriptorSet, w: &vk::WriteDescriptorSet<'_>) -> VkResult<()> {
    let kind = Kind::from_vk(w.descriptor_type)?;
    let infos = crate::api::array(w.p_buffer_info, w.descriptor_count);
    for (i, info) in infos.iter().enumerate() {
        store(set, w.dst_binding, w.dst_array_element + i as u32, kind, resolve(info)?)?;
    }
    Ok(())
}

/// One `VkCopyDescriptorSet`.
pub fn copy(
    src: &DescriptorSet,
    dst: &DescriptorSet,
    c: &vk::CopyDescriptorSet<'_>,
) -> VkResult<()> {
    for i in 0..c.descriptor_count {
        let (b, e) = src
            .layout
            .locate(c.src_binding, c.src_array_element + i)
            .ok_or(VkError::InvalidUsage("descriptor copy past the last source binding"))?;
        let d = match b.place {
            Place::Memory(offset) => {
                let w = src.read(offset + BUFFER_DESCRIPTOR_SIZE * u64::from(e));
                let va = u64::from(w[0]) | (u64::from(w[1] & 0xffff) << 32);
                DynamicBuffer { va, range: u64::from(w[2]) }
            }
            Place::Dynamic(index) => src.dynamic.lock()[(index + e) as usize],
        };
        store(dst, c.dst_binding, c.dst_array_element + i, b.kind, d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ash::vk::{self, Handle};

    use super::*;
    use crate::core::device::DeviceShared;
    use crate::core::memory::DeviceMemory;
    use crate::core::physical_device::Adapter;
    use crate::descriptor::{DescriptorPool, SetLayout};

    #[test]
    fn writes_and_copies_land_as_vsharps() {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        let shared = Arc::new(DeviceShared::new(adapter.clone()).unwrap());
        let mem_info =
            vk::MemoryAllocateInfo::default().allocation_size(65536).memory_type_index(1);
        let mem = DeviceMemory::allocate(&adapter, &mem_info).unwrap();
        let buffer = Buffer::create(&vk::BufferCreateInfo::default().size(1000)).unwrap();
        buffer.bind(vk::DeviceMemory::from_raw(1), &mem, 256).unwrap();
        let buffer = buffer.into_handle();

        let bindings = [
            vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(2),
            vk::DescriptorSetLayoutBinding::default()
                .binding(1)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
                .descriptor_count(1),
        ];
        let layout = Arc::new(SetLayout::new(&bindings).unwrap());
        let sizes = [
            vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: 4 },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
                descriptor_count: 2,
            },
        ];
        let info = vk::DescriptorPoolCreateInfo::default().max_sets(2).pool_sizes(&sizes);
        let pool = DescriptorPool::new(&shared, &info).unwrap();
        let (a, b) = (pool.allocate(&layout).unwrap(), pool.allocate(&layout).unwrap());
        assert_eq!(pool.allocate(&layout).err(), Some(VkError::OutOfPoolMemory));
        // SAFETY: live sets of `pool`.
        let (a, b) = unsafe {
            (DescriptorSet::from_handle(a).unwrap(), DescriptorSet::from_handle(b).unwrap())
        };
        assert_eq!(b.va, a.va + 32);

        let infos = [
            vk::DescriptorBufferInfo { buffer, offset: 16, range: vk::WHOLE_SIZE },
            vk::DescriptorBufferInfo { buffer, offset: 0, range: 64 },
        ];
        let w = vk::WriteDescriptorSet::default()
            .dst_binding(0)
            .dst_array_element(1)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&infos[..1]);
        write(a, &w).unwrap();
        let va = mem.gpu_address() + 256 + 16;
        assert_eq!(a.read(16), vsharp::buffer(va, 984));
        assert_eq!(a.gpu_read(16), a.read(16), "GPU memory holds the same V#");
        let dynamic = w
            .dst_binding(1)
            .dst_array_element(0)
            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
            .buffer_info(&infos[1..]);
        write(a, &dynamic).unwrap();
        assert_eq!(a.dynamic.lock()[0], DynamicBuffer { va: va - 16, range: 64 });
        let wrong = w.descriptor_type(vk::DescriptorType::UNIFORM_BUFFER);
        assert!(write(a, &wrong).is_err());

        let c = vk::CopyDescriptorSet::default()
            .src_binding(0)
            .src_array_element(1)
            .dst_binding(0)
            .dst_array_element(0)
            .descriptor_count(1);
        copy(a, b, &c).unwrap();
        assert_eq!(b.read(0), a.read(16));
        copy(a, b, &c.src_binding(1).src_array_element(0).dst_binding(1)).unwrap();
        assert_eq!(b.dynamic.lock()[0], a.dynamic.lock()[0]);
        // Element 1 of binding 0 is storage, element 0 of binding 1 is dynamic uniform: a
        // copy running across them into two storage slots mismatches.
        assert!(copy(a, b, &c.descriptor_count(2)).is_err());
        pool.reset();
        // SAFETY: created above, destroyed once.
        drop(unsafe { Buffer::take_handle(buffer) });
    }
}
