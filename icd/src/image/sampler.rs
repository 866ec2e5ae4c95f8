//! `VkSampler`: its S# words, computed at creation.

use ash::vk;

use crate::core::object::{vk_object, ObjectBase};
use crate::descriptor::ssharp;
use crate::error::VkResult;

/// A `VkSampler`.
#[repr(C)]
pub struct Sampler {
    base: ObjectBase,
    pub words: [u32; 4],
}
vk_object!(Sampler, vk::Sampler, vk::ObjectType::SAMPLER);

impl Sampler {
    pub fn create(info: &vk::SamplerCreateInfo<'_>) -> VkResult<Box<Self>> {
        // Chained structures (reduction mode, custom border colours, YCbCr conversion) belong
        // to extensions Ferrum does not expose.
        Ok(Box::new(Sampler {
            base: ObjectBase::new(vk::ObjectType::SAMPLER),
            words: ssharp::sampler(info)?,
        }))
    }
}
