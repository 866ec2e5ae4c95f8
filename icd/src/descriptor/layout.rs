//! `VkDescriptorSetLayout`: where each binding lives.
//!
//! Per the compute ABI, a set is GPU memory holding each non-dynamic binding's descriptors,
//! bindings in binding-number order at 16-byte aligned offsets, array elements
//! [`Kind::size`] bytes apart:
//!
//! | kind | bytes | words |
//! |---|---|---|
//! | uniform/storage buffer | 16 | raw V# |
//! | uniform/storage texel buffer | 16 | typed V# (STRIDE = texel size, NUM_RECORDS = texels) |
//! | sampler | 16 | S# |
//! | sampled/storage image | 32 | T# |
//! | input attachment | 32 | T# of 2D-array type (see [`Kind::InputAttachment`]) |
//! | combined image sampler | 64 | T# at 0, S# at 32 |
//!
//! Dynamic uniform/storage buffers are not in set memory: the pipeline layout numbers them and
//! their V#s go into the push block at bind time, with the dynamic offset applied. Immutable
//! samplers are written into set memory when a set is allocated.

use std::sync::Arc;

use ash::vk;

use crate::core::object::{vk_object, ObjectBase, VkObject};
use crate::error::{VkError, VkResult};
use crate::image::sampler::Sampler;

/// The descriptor types Ferrum implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    UniformBuffer,
    StorageBuffer,
    UniformBufferDynamic,
    StorageBufferDynamic,
    Sampler,
    CombinedImageSampler,
    SampledImage,
    StorageImage,
    UniformTexelBuffer,
    StorageTexelBuffer,
    /// A subpass input: the view's T#, always of a 2D-array (MSAA: 2D-array MSAA) type,
    /// because the compiler addresses every `subpassLoad` as (x, y, view index).
    InputAttachment,
}

impl Kind {
    pub fn from_vk(ty: vk::DescriptorType) -> VkResult<Kind> {
        Ok(match ty {
            vk::DescriptorType::UNIFORM_BUFFER => Kind::UniformBuffer,
            vk::DescriptorType::STORAGE_BUFFER => Kind::StorageBuffer,
            vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC => Kind::UniformBufferDynamic,
            vk::DescriptorType::STORAGE_BUFFER_DYNAMIC => Kind::StorageBufferDynamic,
            vk::DescriptorType::SAMPLER => Kind::Sampler,
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER => Kind::CombinedImageSampler,
            vk::DescriptorType::SAMPLED_IMAGE => Kind::SampledImage,
            vk::DescriptorType::STORAGE_IMAGE => Kind::StorageImage,
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER => Kind::UniformTexelBuffer,
            vk::DescriptorType::STORAGE_TEXEL_BUFFER => Kind::StorageTexelBuffer,
            vk::DescriptorType::INPUT_ATTACHMENT => Kind::InputAttachment,
            other => return Err(VkError::FeatureNotPresent(format!("descriptor type {other:?}"))),
        })
    }

    pub fn is_dynamic(self) -> bool {
        matches!(self, Kind::UniformBufferDynamic | Kind::StorageBufferDynamic)
    }

    /// Bytes one descriptor of this kind takes in set memory (see the module docs).
    /// Bytes per element in set memory; the compiler's ABI owns these sizes, so shaders and
    /// descriptor writes cannot disagree.
    pub fn size(self) -> u64 {
        use ferrum_compiler::amd::abi;
        u64::from(match self {
            Kind::SampledImage | Kind::StorageImage | Kind::InputAttachment => {
                abi::IMAGE_DESCRIPTOR_SIZE
            }
            Kind::CombinedImageSampler => abi::COMBINED_DESCRIPTOR_SIZE,
            Kind::Sampler => abi::SAMPLER_DESCRIPTOR_SIZE,
            _ => 16,
        })
    }

    /// Whether the kind reads a sampler (and so may have immutable samplers).
    pub fn has_sampler(self) -> bool {
        matches!(self, Kind::Sampler | Kind::CombinedImageSampler)
    }
}

/// Byte offset of the S# within a combined image sampler descriptor.
pub const COMBINED_SAMPLER_OFFSET: u64 = ferrum_compiler::amd::abi::COMBINED_SAMPLER_OFFSET as u64;

/// Where one binding's descriptors are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Byte offset of element 0 in set memory.
    Memory(u64),
    /// Index of element 0 among the set's dynamic descriptors.
    Dynamic(u32),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingLayout {
    pub binding: u32,
    pub kind: Kind,
    pub count: u32,
    pub stages: vk::ShaderStageFlags,
    pub place: Place,
    /// S# words of the immutable samplers, one per element (empty when none).
    pub immutable: Vec<[u32; 4]>,
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
                let bytes = kind.size() * u64::from(b.descriptor_count);
                size += bytes;
                Place::Memory(size - bytes)
            };
            bindings.push(BindingLayout {
                binding: b.binding,
                kind,
                count: b.descriptor_count,
                stages: b.stage_flags,
                place,
                immutable: immutable_samplers(b, kind)?,
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

/// The S# words of a binding's immutable samplers ("pImmutableSamplers ... ignored" unless
/// the type is SAMPLER or COMBINED_IMAGE_SAMPLER).
fn immutable_samplers(
    b: &vk::DescriptorSetLayoutBinding<'_>,
    kind: Kind,
) -> VkResult<Vec<[u32; 4]>> {
    if !kind.has_sampler() || b.p_immutable_samplers.is_null() {
        return Ok(Vec::new());
    }
    crate::api::array(b.p_immutable_samplers, b.descriptor_count)
        .iter()
        .map(|&h| {
            // SAFETY: the application passes live samplers (valid usage).
            unsafe { Sampler::from_handle(h) }
                .map(|s| s.words)
                .ok_or(VkError::InvalidUsage("null immutable sampler"))
        })
        .collect()
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
    fn image_descriptors_take_their_sizes() {
        let raw = [
            b(0, vk::DescriptorType::SAMPLED_IMAGE, 2),
            b(1, vk::DescriptorType::COMBINED_IMAGE_SAMPLER, 1),
            b(2, vk::DescriptorType::SAMPLER, 3),
            b(3, vk::DescriptorType::STORAGE_TEXEL_BUFFER, 1),
            b(4, vk::DescriptorType::STORAGE_IMAGE, 1),
        ];
        let l = SetLayout::new(&raw).unwrap();
        let places: Vec<_> = l.bindings.iter().map(|b| b.place).collect();
        let m = Place::Memory;
        assert_eq!(places, [m(0), m(64), m(128), m(176), m(192)]);
        assert_eq!(l.size, 224);
    }

    #[test]
    fn unsupported_types_and_duplicate_bindings_are_errors() {
        let ia = SetLayout::new(&[b(0, vk::DescriptorType::INPUT_ATTACHMENT, 3)]).unwrap();
        assert_eq!((ia.bindings[0].kind, ia.size), (Kind::InputAttachment, 96));
        let accel = vk::DescriptorType::ACCELERATION_STRUCTURE_KHR;
        assert!(SetLayout::new(&[b(0, accel, 1)]).is_err());
        let dup = [
            b(1, vk::DescriptorType::STORAGE_BUFFER, 1),
            b(1, vk::DescriptorType::UNIFORM_BUFFER, 1),
        ];
        assert!(SetLayout::new(&dup).is_err());
    }
}
