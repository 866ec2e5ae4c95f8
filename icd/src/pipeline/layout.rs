//! `VkPipelineLayout`: the set layouts and push-constant ranges a pipeline is compiled
//! against, and the numbering of dynamic buffers in the push block (set 0's dynamic bindings
//! first, per the compute ABI).

use std::sync::Arc;

use ash::vk;

use crate::core::object::{vk_object, ObjectBase, VkObject};
use crate::descriptor::{DescriptorSetLayout, SetLayout};
use crate::error::{VkError, VkResult};

/// Descriptor sets a pipeline layout can have: the entries of the ABI's set table; reported
/// as `maxBoundDescriptorSets`.
pub const MAX_SETS: usize = ferrum_compiler::amd::abi::MAX_SETS as usize;
/// Push-constant bytes (`maxPushConstantsSize`, and the ABI's push block prefix).
pub const MAX_PUSH_CONSTANTS: u32 = 256;

/// A `VkPipelineLayout`.
#[repr(C)]
pub struct PipelineLayout {
    base: ObjectBase,
    /// `None` for a null set layout (allowed for unused sets).
    pub sets: Vec<Option<Arc<SetLayout>>>,
    /// Index of each set's first dynamic descriptor in the push block.
    pub dynamic_base: Vec<u32>,
    pub dynamic_count: u32,
    pub push_ranges: Vec<vk::PushConstantRange>,
    /// Bytes of push constants (end of the furthest range).
    pub push_size: u32,
}
vk_object!(PipelineLayout, vk::PipelineLayout, vk::ObjectType::PIPELINE_LAYOUT);

impl PipelineLayout {
    pub fn new(info: &vk::PipelineLayoutCreateInfo<'_>) -> VkResult<Self> {
        let handles = crate::api::array(info.p_set_layouts, info.set_layout_count);
        // VUID-VkPipelineLayoutCreateInfo-setLayoutCount-00286: "setLayoutCount must be less
        // than or equal to VkPhysicalDeviceLimits::maxBoundDescriptorSets".
        if handles.len() > MAX_SETS {
            return Err(VkError::InvalidUsage("more than maxBoundDescriptorSets set layouts"));
        }
        let mut sets = Vec::with_capacity(handles.len());
        let (mut dynamic_base, mut dynamic_count) = (Vec::new(), 0u32);
        for &h in handles {
            // SAFETY: the application passes live (or null) set layouts (valid usage).
            let layout = unsafe { DescriptorSetLayout::from_handle(h) }.map(|l| l.layout.clone());
            dynamic_base.push(dynamic_count);
            dynamic_count += layout.as_ref().map_or(0, |l| l.dynamic_count);
            sets.push(layout);
        }
        let push_ranges =
            crate::api::array(info.p_push_constant_ranges, info.push_constant_range_count).to_vec();
        let mut push_size = 0;
        for r in &push_ranges {
            // VUID-VkPushConstantRange-offset-00294 / size-00296 / size-00297.
            let end = r.offset.saturating_add(r.size);
            if r.size == 0 || r.offset % 4 != 0 || r.size % 4 != 0 || end > MAX_PUSH_CONSTANTS {
                return Err(VkError::InvalidUsage("push constant range"));
            }
            push_size = push_size.max(end);
        }
        Ok(PipelineLayout {
            base: ObjectBase::new(vk::ObjectType::PIPELINE_LAYOUT),
            sets,
            dynamic_base,
            dynamic_count,
            push_ranges,
            push_size,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::physical_device::limits::navi21_limits;

    /// A layout of exactly `maxBoundDescriptorSets` sets is valid usage and must be created
    /// (dEQP-VK.binding_model.*.set15 and descriptorset_random.sets16 found 32 reported and 8
    /// accepted); one more is refused.
    #[test]
    fn layouts_hold_max_bound_descriptor_sets() {
        let max = navi21_limits().max_bound_descriptor_sets;
        let nulls = vec![vk::DescriptorSetLayout::null(); max as usize + 1];
        let info = |n: u32| vk::PipelineLayoutCreateInfo {
            set_layout_count: n,
            p_set_layouts: nulls.as_ptr(),
            ..Default::default()
        };
        assert_eq!(PipelineLayout::new(&info(max)).unwrap().sets.len(), max as usize);
        assert!(PipelineLayout::new(&info(max + 1)).is_err());
    }
}
