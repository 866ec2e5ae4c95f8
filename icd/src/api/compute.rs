//! `vkCmd*` compute commands: bind pipeline and descriptor sets, push constants, dispatch.

use std::ffi::c_void;

use ash::vk;

use super::{array, obj};
use crate::cmd::dispatch::{self, BoundSet, Groups};
use crate::cmd::CommandBuffer;
use crate::core::buffer::Buffer;
use crate::core::object::VkObject;
use crate::descriptor::DescriptorSet;
use crate::entry::guard_void;
use crate::error::{VkError, VkResult};
use crate::pipeline::{Pipeline, PipelineLayout, Program};

/// Runs a compute-state command on a live command buffer.
///
/// # Safety
/// `cb` must be a live command buffer handle.
pub(crate) unsafe fn record(
    name: &'static str,
    cb: vk::CommandBuffer,
    f: impl FnOnce(
        &CommandBuffer,
        &mut crate::cmd::stream::CmdStream,
        &mut dispatch::ComputeState,
    ) -> VkResult<()>,
) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        cb.record_compute(|s, st| f(cb, s, st));
        Ok(())
    })
}

pub unsafe extern "system" fn cmd_bind_pipeline(
    cb: vk::CommandBuffer,
    bind_point: vk::PipelineBindPoint,
    pipeline: vk::Pipeline,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        super::graphics::record("vkCmdBindPipeline", cb, |_, st, g| {
            match (&obj::<Pipeline>(pipeline)?.program, bind_point) {
                (Program::Compute(p), vk::PipelineBindPoint::COMPUTE) => {
                    st.pipeline = Some(p.clone())
                }
                (Program::Graphics(p), vk::PipelineBindPoint::GRAPHICS) => {
                    g.pipeline = Some(p.clone())
                }
                _ => return Err(VkError::InvalidUsage("pipeline does not match its bind point")),
            }
            Ok(())
        })
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_bind_descriptor_sets(
    cb: vk::CommandBuffer,
    bind_point: vk::PipelineBindPoint,
    layout: vk::PipelineLayout,
    first_set: u32,
    set_count: u32,
    p_sets: *const vk::DescriptorSet,
    dynamic_count: u32,
    p_dynamic_offsets: *const u32,
) {
    // SAFETY: live handles and arrays of the stated counts (valid usage).
    unsafe {
        super::graphics::record("vkCmdBindDescriptorSets", cb, |_, st, g| {
            let sets = match bind_point {
                vk::PipelineBindPoint::COMPUTE => &mut st.sets,
                vk::PipelineBindPoint::GRAPHICS => &mut g.sets,
                _ => return Err(VkError::FeatureNotPresent(format!("bind point {bind_point:?}"))),
            };
            obj::<PipelineLayout>(layout)?;
            let mut offsets = array(p_dynamic_offsets, dynamic_count).iter();
            for (i, &h) in array(p_sets, set_count).iter().enumerate() {
                let index = first_set as usize + i;
                let slot = sets
                    .get_mut(index)
                    .ok_or(VkError::InvalidUsage("descriptor set index beyond the table"))?;
                let Some(set) = DescriptorSet::from_handle(h) else {
                    *slot = BoundSet::default();
                    continue;
                };
                // "each element of pDynamicOffsets ... in order of set, binding, element".
                let dynamic = set
                    .dynamic
                    .lock()
                    .iter()
                    .map(|d| {
                        let off = u64::from(*offsets.next().unwrap_or(&0));
                        crate::descriptor::pool::DynamicBuffer { va: d.va + off, range: d.range }
                    })
                    .collect();
                *slot = BoundSet { va: set.va, dynamic };
            }
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_push_constants(
    cb: vk::CommandBuffer,
    _layout: vk::PipelineLayout,
    _stages: vk::ShaderStageFlags,
    offset: u32,
    size: u32,
    p_values: *const c_void,
) {
    // SAFETY: `size` readable bytes at `p_values` (valid usage).
    unsafe {
        record("vkCmdPushConstants", cb, |_, _, st| {
            let end = offset as usize + size as usize;
            let dst =
                st.push.get_mut(offset as usize..end).ok_or(VkError::InvalidUsage("push range"))?;
            dst.copy_from_slice(array(p_values.cast::<u8>(), size));
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_dispatch(cb: vk::CommandBuffer, x: u32, y: u32, z: u32) {
    // SAFETY: a live handle (valid usage).
    unsafe {
        record("vkCmdDispatch", cb, |cb, s, st| {
            dispatch::dispatch(s, st, cb.ip, Groups::Direct([x, y, z]), [0; 3])
        })
    }
}

pub unsafe extern "system" fn cmd_dispatch_indirect(
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdDispatchIndirect", cb, |cb, s, st| {
            let buffer = obj::<Buffer>(buffer)?;
            // VUID-vkCmdDispatchIndirect-offset-00407: "The sum of offset and the size of
            // VkDispatchIndirectCommand must be less than or equal to the size of buffer".
            if offset % 4 != 0 || offset + 12 > buffer.size {
                return Err(VkError::InvalidUsage("indirect dispatch arguments outside buffer"));
            }
            let va = crate::cmd::copy::buffer_address(buffer, offset)?;
            dispatch::dispatch(s, st, cb.ip, Groups::Indirect(va), [0; 3])
        })
    }
}
