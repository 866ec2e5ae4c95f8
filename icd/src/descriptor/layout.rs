//! `VkDescriptorSetLayout`: where each binding lives.
//!
//! Per the compute ABI, a set is GPU memory holding one 16-byte V# per array element of each
//! non-dynamic binding, bindings at 16-byte aligned offsets in binding-number order. Dynamic
//! uniform/storage buffers are not in set memory: the pipeline layout numbers them and their
//! V#s go into the push block at bind time, with the dynamic offset applied.

use std::sync::Arc;

use ash::vk;

use super::vsharp::BUFFER_DESCRIPTOR_SIZE;
use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

/// The descriptor types Ferrum implements (buffers only: no images or samplers exist yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    UniformBuffer,
    StorageBuffer,
    UniformBufferDynamic,
    StorageBufferDynamic,
}

impl Kind {
    pub fn from_vk(ty: vk::DescriptorType) -> VkResult<Kind> {
        Ok(match ty {
            vk::DescriptorType::UNIFORM_BUFFER => Kind::UniformBuffer,
            vk::DescriptorType::STORAGE_BUFFER => Kind::StorageBuffer,
            vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC => Kind::UniformBufferDynamic,
            vk::DescriptorType::STORAGE_BUFFER_DYNAMIC => Kind::StorageBufferDynamic,
            other => return Err(VkError::FeatureNotPresent(format!("descriptor type {other:?}"))),
        })
    }

    pub fn is_dynamic(self) -> bool {
        matches!(self, Kind::UniformBufferDynamic | Kind::StorageBufferDynamic)
    }
}

/// Where one binding's descriptors are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Byte offset of element 0 in set memory.
    Memory(u64),
    /// Index of element 0 among the set's dynamic descriptors.
    Dynamic(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BindingLayout {
    pub binding: u32,
    pub kind: Kind,
    pub count: u32,
    pub stages: vk::ShaderStageFlags,
    pub place: Place,
}

/// The layout itself, shared by the layout object, sets and pipeline layouts (an application
/// may destroy a set layout while those still use it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetLayout {
    /// Sorted by binding number.
    pub bindings: Vec<BindingLayout>,
    /// Bytes of set memory.
    pub size: u64,
    pub dynamic_count: u32,
}

impl SetLayout {
    pub fn new(raw: &[vk::DescriptorSetLayoutBinding<'_>]) -> VkResult<SetLayout> {
        let mut sorted: Vec<_> = raw.iter().filter(|b| b.descriptor_count > 0).collect();
        sorted.sort_by_key(|b| b.binding);
        // VUID-VkDescriptorSetLayoutCreateInfo-binding-00279: binding numbers are unique.
        if sorted.windows(2).any(|w| w[0].binding == w[1].binding) {
            return Err(VkError::InvalidUsage("descriptor binding number used twice"));
        }
        let (mut size, mut dynamic_count) = (0u64, 0u32);
        let mut bindings = Vec::with_capacity(sorted.len());
        for b in sorted {
            let kind = Kind::from_vk(b.descriptor_type)?;
            let place = if kind.is_dynamic() {
                dynamic_count += b.descriptor_count;
                Place::Dynamic(dynamic_count - b.descriptor_count)
            } else {
                size += BUFFER_DESCRIPTOR_SIZE * u64::from(b.descriptor_count);
                Place::Memory(size - BUFFER_DESCRIPTOR_SIZE * u64::from(b.descriptor_count))
            };
            bindings.push(BindingLayout {
                binding: b.binding,
                kind,
                count: b.descriptor_count,
                stages: b.stage_flags,
                place,
            });
        }
        Ok(SetLayout { bindings, size, dynamic_count })
    }

    pub fn binding(&self, number: u32) -> Option<&BindingLayout> {
        self.bindings.binary_search_by_key(&number, |b| b.binding).ok().map(|i| &self.bindings[i])
    }

    /// The binding holding descriptor `element` of `number`, following into the next bindings
    /// as descriptor updates do ("consecutive binding updates"), and the element within it.
    pub fn locate(&self, number: u32, element: u32) -> Option<(&BindingLayout, u32)> {
        let start = self.bindings.binary_search_by_key(&number, |b| b.binding).ok()?;
        let mut element = element;
        for b in &self.bindings[start..] {
            if element < b.count {
                return Some((b, element));
            }
            element -= b.count;
        }
        None
    }
}

/// A `VkDescriptorSetLayout`.
#[repr(C)]
pub struct DescriptorSetLayout {
    base: ObjectBase,
    pub layout: Arc<SetLayout>,
}
vk_object!(DescriptorSetLayout, vk::DescriptorSetLayout, vk::ObjectType::DESCRIPTOR_SET_LAYOUT);

impl DescriptorSetLayout {
    pub fn new(info: &vk::DescriptorSetLayoutCreateInfo<'_>) -> VkResult<Self> {
        if !info.flags.is_empty() {
            return Err(VkError::FeatureNotPresent(format!("set layout flags {:?}", info.flags)));
        }
        let raw = crate::api::array(info.p_bindings, info.binding_count);
        Ok(DescriptorSetLayout {
            base: ObjectBase::new(vk::ObjectType::DESCRIPTOR_SET_LAYOUT),
            layout: Arc::new(SetLayout::new(raw)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(
        binding: u32,
        ty: vk::DescriptorType,
        count: u32,
    ) -> vk::DescriptorSetLayoutBinding<'static> {
        vk::DescriptorSetLayoutBinding::default()
            .binding(binding)
            .descriptor_type(ty)
            .descriptor_count(count)
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
    }

    #[test]
    fn offsets_follow_binding_order_and_skip_dynamic_ones() {
        let raw = [
            b(5, vk::DescriptorType::STORAGE_BUFFER, 1),
            b(0, vk::DescriptorType::UNIFORM_BUFFER, 3),
            b(2, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 2),
            b(3, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1),
            b(9, vk::DescriptorType::STORAGE_BUFFER, 0),
        ];
        let l = SetLayout::new(&raw).unwrap();
        let places: Vec<_> = l.bindings.iter().map(|b| (b.binding, b.place)).collect();
        assert_eq!(
            places,
            [
                (0, Place::Memory(0)),
                (2, Place::Dynamic(0)),
                (3, Place::Dynamic(2)),
                (5, Place::Memory(48))
            ]
        );
        assert_eq!((l.size, l.dynamic_count), (64, 3));
        assert_eq!(l.locate(0, 4).map(|(b, e)| (b.binding, e)), Some((2, 1)));
        assert!(l.locate(5, 1).is_none());
    }

    #[test]
    fn images_and_duplicate_bindings_are_errors() {
        assert!(SetLayout::new(&[b(0, vk::DescriptorType::SAMPLED_IMAGE, 1)]).is_err());
        let dup = [
            b(1, vk::DescriptorType::STORAGE_BUFFER, 1),
            b(1, vk::DescriptorType::UNIFORM_BUFFER, 1),
        ];
        assert!(SetLayout::new(&dup).is_err());
    }
}
