//! `VkDescriptorUpdateTemplate` (VK_KHR_descriptor_update_template): a recorded list of
//! descriptor writes whose infos (buffer, image or texel-buffer view, by the entry's type) are read from application memory at
//! update time, at an offset and stride per entry.

use std::ffi::c_void;

use ash::vk;

use super::layout::Kind;
use super::pool::DescriptorSet;
use super::update::{self, Info};
use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

/// One `VkDescriptorUpdateTemplateEntry`, checked.
#[derive(Debug, Clone, Copy)]
struct Entry {
    binding: u32,
    element: u32,
    count: u32,
    kind: Kind,
    offset: usize,
    stride: usize,
}

/// A `VkDescriptorUpdateTemplate`.
#[repr(C)]
pub struct DescriptorUpdateTemplate {
    base: ObjectBase,
    entries: Vec<Entry>,
}
vk_object!(
    DescriptorUpdateTemplate,
    vk::DescriptorUpdateTemplate,
    vk::ObjectType::DESCRIPTOR_UPDATE_TEMPLATE
);

impl DescriptorUpdateTemplate {
    pub fn new(info: &vk::DescriptorUpdateTemplateCreateInfo<'_>) -> VkResult<Self> {
        // Push-descriptor templates belong to VK_KHR_push_descriptor, which is not exposed.
        if info.template_type != vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET {
            return Err(VkError::InvalidUsage("push-descriptor update template"));
        }
        let entries =
            crate::api::array(info.p_descriptor_update_entries, info.descriptor_update_entry_count)
                .iter()
                .map(|e| {
                    Ok(Entry {
                        binding: e.dst_binding,
                        element: e.dst_array_element,
                        count: e.descriptor_count,
                        kind: Kind::from_vk(e.descriptor_type)?,
                        offset: e.offset,
                        stride: e.stride,
                    })
                })
                .collect::<VkResult<Vec<_>>>()?;
        Ok(DescriptorUpdateTemplate {
            base: ObjectBase::new(vk::ObjectType::DESCRIPTOR_UPDATE_TEMPLATE),
            entries,
        })
    }

    /// `vkUpdateDescriptorSetWithTemplate`.
    ///
    /// # Safety
    /// `data` must hold a `VkDescriptorBufferInfo` at `offset + i * stride` for every entry
    /// and element (the command's valid usage).
    pub unsafe fn update(&self, set: &DescriptorSet, data: *const c_void) -> VkResult<()> {
        if data.is_null() && self.entries.iter().any(|e| e.count > 0) {
            return Err(VkError::InvalidUsage("null pData"));
        }
        for e in &self.entries {
            for i in 0..e.count {
                let at = e.offset + e.stride * i as usize;
                // SAFETY: guaranteed by the caller; the application's data need not be aligned.
                let at = unsafe { data.cast::<u8>().add(at) };
                let element = e.element + i;
                // SAFETY: as above: the structure the entry's type names is at `at`.
                unsafe {
                    match e.kind {
                        Kind::UniformBuffer
                        | Kind::StorageBuffer
                        | Kind::UniformBufferDynamic
                        | Kind::StorageBufferDynamic => {
                            let b = at.cast::<vk::DescriptorBufferInfo>().read_unaligned();
                            update::write_one(set, e.binding, element, e.kind, Info::Buffer(&b))
                        }
                        Kind::UniformTexelBuffer | Kind::StorageTexelBuffer => {
                            let v = at.cast::<vk::BufferView>().read_unaligned();
                            update::write_one(set, e.binding, element, e.kind, Info::TexelBuffer(v))
                        }
                        _ => {
                            let im = at.cast::<vk::DescriptorImageInfo>().read_unaligned();
                            update::write_one(set, e.binding, element, e.kind, Info::Image(&im))
                        }
                    }?;
                }
            }
        }
        Ok(())
    }
}
