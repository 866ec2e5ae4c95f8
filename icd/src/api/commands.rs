//! `vkCmd*` recording commands for transfers, synchronisation and queries.
//!
//! Each resolves its handles and records through [`CommandBuffer::record`], which keeps the
//! first failure for `vkEndCommandBuffer` (these commands return `void`).

use std::ffi::c_void;

use ash::vk;

use super::obj;
use crate::cmd::barrier::{self, access2, stages2, Dependency};
use crate::cmd::stream::Piece;
use crate::cmd::{copy, pm4, query, CommandBuffer};
use crate::core::buffer::Buffer;
use crate::core::query::{Event, QueryPool};
use crate::entry::guard_void;
use crate::error::{VkError, VkResult};

/// Runs a recording command on a live command buffer.
///
/// # Safety
/// `cb` must be a live command buffer handle.
unsafe fn record(
    name: &'static str,
    cb: vk::CommandBuffer,
    f: impl FnOnce(&mut crate::cmd::stream::CmdStream) -> VkResult<()>,
) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        unsafe { obj::<CommandBuffer>(cb)? }.record(f);
        Ok(())
    })
}

/// As [`record`], for commands that read the graphics state.
///
/// # Safety
/// `cb` must be a live command buffer handle.
unsafe fn record_graphics(
    name: &'static str,
    cb: vk::CommandBuffer,
    f: impl FnOnce(
        &mut crate::cmd::stream::CmdStream,
        &mut crate::gfx::draw::GraphicsState,
    ) -> VkResult<()>,
) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        unsafe { obj::<CommandBuffer>(cb)? }.record_graphics(|s, _, g| f(s, g));
        Ok(())
    })
}

pub unsafe extern "system" fn cmd_update_buffer(
    cb: vk::CommandBuffer,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    size: vk::DeviceSize,
    p_data: *const c_void,
) {
    // SAFETY: live handles; `p_data` holds `size` bytes (valid usage).
    unsafe {
        record("vkCmdUpdateBuffer", cb, |s| {
            let dst = obj::<Buffer>(dst)?;
            // VUID-vkCmdUpdateBuffer-dataSize-00037/00038: 0 < size <= 65536, multiple of 4.
            if size == 0 || size > 65536 || size % 4 != 0 || p_data.is_null() {
                return Err(VkError::InvalidUsage("vkCmdUpdateBuffer dataSize"));
            }
            let mut words = vec![0u32; size as usize / 4];
            std::ptr::copy_nonoverlapping(
                p_data.cast::<u8>(),
                words.as_mut_ptr().cast(),
                size as usize,
            );
            copy::update_buffer(s, dst, offset, &words)
        })
    }
}

pub unsafe extern "system" fn cmd_fill_buffer(
    cb: vk::CommandBuffer,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    size: vk::DeviceSize,
    data: u32,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdFillBuffer", cb, |s| {
            copy::fill_buffer(s, obj::<Buffer>(dst)?, offset, size, data)
        })
    }
}

pub unsafe extern "system" fn cmd_copy_buffer(
    cb: vk::CommandBuffer,
    src: vk::Buffer,
    dst: vk::Buffer,
    count: u32,
    p_regions: *const vk::BufferCopy,
) {
    // SAFETY: live handles and `count` regions (valid usage).
    unsafe {
        record("vkCmdCopyBuffer", cb, |s| {
            let (src, dst) = (obj::<Buffer>(src)?, obj::<Buffer>(dst)?);
            super::array(p_regions, count)
                .iter()
                .try_for_each(|r| copy::copy_buffer(s, src, dst, r))
        })
    }
}

pub unsafe extern "system" fn cmd_copy_buffer2(
    cb: vk::CommandBuffer,
    p_info: *const vk::CopyBufferInfo2<'_>,
) {
    // SAFETY: a live handle and a valid info (valid usage).
    unsafe {
        record("vkCmdCopyBuffer2", cb, |s| {
            let info = super::reference(p_info)?;
            let (src, dst) = (obj::<Buffer>(info.src_buffer)?, obj::<Buffer>(info.dst_buffer)?);
            for r in super::array(info.p_regions, info.region_count) {
                let region = vk::BufferCopy {
                    src_offset: r.src_offset,
                    dst_offset: r.dst_offset,
                    size: r.size,
                };
                copy::copy_buffer(s, src, dst, &region)?;
            }
            Ok(())
        })
    }
}

/// The dependency of a legacy barrier command.
fn legacy_dependency(
    src_stages: vk::PipelineStageFlags,
    dst_stages: vk::PipelineStageFlags,
    memory: &[vk::MemoryBarrier<'_>],
    buffers: &[vk::BufferMemoryBarrier<'_>],
    images: &[vk::ImageMemoryBarrier<'_>],
) -> Dependency {
    let (src, dst) = (stages2(src_stages), stages2(dst_stages));
    let mut dep = Dependency::default();
    // Execution-only barriers still order the stages.
    dep.add(src, vk::AccessFlags2::empty(), dst, vk::AccessFlags2::empty());
    for b in memory {
        dep.add(src, access2(b.src_access_mask), dst, access2(b.dst_access_mask));
    }
    for b in buffers {
        dep.add(src, access2(b.src_access_mask), dst, access2(b.dst_access_mask));
    }
    for b in images {
        dep.add(src, access2(b.src_access_mask), dst, access2(b.dst_access_mask));
    }
    dep
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_pipeline_barrier(
    cb: vk::CommandBuffer,
    src_stages: vk::PipelineStageFlags,
    dst_stages: vk::PipelineStageFlags,
    _flags: vk::DependencyFlags,
    memory_count: u32,
    p_memory: *const vk::MemoryBarrier<'_>,
    buffer_count: u32,
    p_buffers: *const vk::BufferMemoryBarrier<'_>,
    image_count: u32,
    p_images: *const vk::ImageMemoryBarrier<'_>,
) {
    let dep = legacy_dependency(
        src_stages,
        dst_stages,
        super::array(p_memory, memory_count),
        super::array(p_buffers, buffer_count),
        super::array(p_images, image_count),
    );
    // SAFETY: a live handle (valid usage).
    unsafe { record("vkCmdPipelineBarrier", cb, |s| barrier::emit_dependency(s, &dep)) }
}

pub unsafe extern "system" fn cmd_pipeline_barrier2(
    cb: vk::CommandBuffer,
    p_info: *const vk::DependencyInfo<'_>,
) {
    // SAFETY: a live handle and a valid dependency info (valid usage).
    unsafe {
        record("vkCmdPipelineBarrier2", cb, |s| {
            let mut dep = Dependency::default();
            dep.add_info(super::reference(p_info)?);
            barrier::emit_dependency(s, &dep)
        })
    }
}

pub unsafe extern "system" fn cmd_set_event(
    cb: vk::CommandBuffer,
    event: vk::Event,
    stages: vk::PipelineStageFlags,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdSetEvent", cb, |s| {
            barrier::write_event(s, obj::<Event>(event)?.va(), stages2(stages), 1)
        })
    }
}

pub unsafe extern "system" fn cmd_reset_event(
    cb: vk::CommandBuffer,
    event: vk::Event,
    stages: vk::PipelineStageFlags,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdResetEvent", cb, |s| {
            barrier::write_event(s, obj::<Event>(event)?.va(), stages2(stages), 0)
        })
    }
}

pub unsafe extern "system" fn cmd_set_event2(
    cb: vk::CommandBuffer,
    event: vk::Event,
    p_info: *const vk::DependencyInfo<'_>,
) {
    // SAFETY: live handles and a valid dependency info (valid usage).
    unsafe {
        record("vkCmdSetEvent2", cb, |s| {
            let mut dep = Dependency::default();
            dep.add_info(super::reference(p_info)?);
            // The event is set once the source scope completes.
            barrier::write_event(s, obj::<Event>(event)?.va(), dep.src_stages, 1)
        })
    }
}

pub unsafe extern "system" fn cmd_reset_event2(
    cb: vk::CommandBuffer,
    event: vk::Event,
    stages: vk::PipelineStageFlags2,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdResetEvent2", cb, |s| {
            barrier::write_event(s, obj::<Event>(event)?.va(), stages, 0)
        })
    }
}

/// The GPU addresses of an event array.
///
/// # Safety
/// `events` must hold `count` live event handles.
unsafe fn event_vas(count: u32, events: *const vk::Event) -> VkResult<Vec<u64>> {
    // SAFETY: forwarded to the caller.
    super::array(events, count).iter().map(|&e| Ok(unsafe { obj::<Event>(e)? }.va())).collect()
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_wait_events(
    cb: vk::CommandBuffer,
    event_count: u32,
    p_events: *const vk::Event,
    src_stages: vk::PipelineStageFlags,
    dst_stages: vk::PipelineStageFlags,
    memory_count: u32,
    p_memory: *const vk::MemoryBarrier<'_>,
    buffer_count: u32,
    p_buffers: *const vk::BufferMemoryBarrier<'_>,
    image_count: u32,
    p_images: *const vk::ImageMemoryBarrier<'_>,
) {
    let dep = legacy_dependency(
        src_stages,
        dst_stages,
        super::array(p_memory, memory_count),
        super::array(p_buffers, buffer_count),
        super::array(p_images, image_count),
    );
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdWaitEvents", cb, |s| {
            barrier::wait_events(s, &event_vas(event_count, p_events)?, &dep)
        })
    }
}

pub unsafe extern "system" fn cmd_wait_events2(
    cb: vk::CommandBuffer,
    event_count: u32,
    p_events: *const vk::Event,
    p_infos: *const vk::DependencyInfo<'_>,
) {
    // SAFETY: live handles and one dependency info per event (valid usage).
    unsafe {
        record("vkCmdWaitEvents2", cb, |s| {
            let mut dep = Dependency::default();
            super::array(p_infos, event_count).iter().for_each(|i| dep.add_info(i));
            barrier::wait_events(s, &event_vas(event_count, p_events)?, &dep)
        })
    }
}

pub unsafe extern "system" fn cmd_reset_query_pool(
    cb: vk::CommandBuffer,
    pool: vk::QueryPool,
    first: u32,
    count: u32,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdResetQueryPool", cb, |s| {
            query::reset(s, obj::<QueryPool>(pool)?, first, count)
        })
    }
}

pub unsafe extern "system" fn cmd_begin_query(
    cb: vk::CommandBuffer,
    pool: vk::QueryPool,
    index: u32,
    flags: vk::QueryControlFlags,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdBeginQuery", cb, |s| query::begin(s, obj::<QueryPool>(pool)?, index, flags))
    }
}

pub unsafe extern "system" fn cmd_end_query(
    cb: vk::CommandBuffer,
    pool: vk::QueryPool,
    index: u32,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record_graphics("vkCmdEndQuery", cb, |s, g| {
            let pool = obj::<QueryPool>(pool)?;
            query::end(s, pool, index)?;
            // In a multiview subpass the query spans one index per view: the first holds
            // the total of every view, the others read zero (a distribution the spec allows).
            let views = g.rendering.as_ref().map_or(0, |r| r.view_mask.count_ones());
            query::zero_available(s, pool, index + 1, views.saturating_sub(1))
        })
    }
}

pub unsafe extern "system" fn cmd_write_timestamp(
    cb: vk::CommandBuffer,
    stage: vk::PipelineStageFlags,
    pool: vk::QueryPool,
    index: u32,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record_graphics("vkCmdWriteTimestamp", cb, |s, g| {
            timestamp(s, g, obj::<QueryPool>(pool)?, index, stages2(stage))
        })
    }
}

pub unsafe extern "system" fn cmd_write_timestamp2(
    cb: vk::CommandBuffer,
    stage: vk::PipelineStageFlags2,
    pool: vk::QueryPool,
    index: u32,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record_graphics("vkCmdWriteTimestamp2", cb, |s, g| {
            timestamp(s, g, obj::<QueryPool>(pool)?, index, stage)
        })
    }
}

/// A timestamp; in a multiview subpass it spans one index per view: the first is the
/// timestamp, the others zero (the first of the spec's two allowed behaviours).
fn timestamp(
    s: &mut crate::cmd::stream::CmdStream,
    g: &crate::gfx::draw::GraphicsState,
    pool: &QueryPool,
    index: u32,
    stage: vk::PipelineStageFlags2,
) -> VkResult<()> {
    query::write_timestamp(s, pool, index, stage)?;
    let views = g.rendering.as_ref().map_or(0, |r| r.view_mask.count_ones());
    query::zero_available(s, pool, index + 1, views.saturating_sub(1))
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_copy_query_pool_results(
    cb: vk::CommandBuffer,
    pool: vk::QueryPool,
    first: u32,
    count: u32,
    dst: vk::Buffer,
    offset: vk::DeviceSize,
    stride: vk::DeviceSize,
    flags: vk::QueryResultFlags,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdCopyQueryPoolResults", cb, |s| {
            let (pool, dst) = (obj::<QueryPool>(pool)?, obj::<Buffer>(dst)?);
            let target = query::CopyTarget { dst, offset, stride, flags };
            query::copy_results(s, pool, first, count, &target)
        })
    }
}

pub unsafe extern "system" fn cmd_execute_commands(
    cb: vk::CommandBuffer,
    count: u32,
    p_buffers: *const vk::CommandBuffer,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record_graphics("vkCmdExecuteCommands", cb, |s, g| {
            // Secondaries continuing this scope leave the targets to the primary.
            if let Some(r) = &g.rendering {
                crate::gfx::draw::scope_targets(s, r)?;
            }
            for &h in super::array(p_buffers, count) {
                let secondary = obj::<CommandBuffer>(h)?;
                // VUID-vkCmdExecuteCommands-pCommandBuffers-00088: "each element of
                // pCommandBuffers must have been allocated with a level of
                // VK_COMMAND_BUFFER_LEVEL_SECONDARY".
                if secondary.level != vk::CommandBufferLevel::SECONDARY {
                    return Err(VkError::InvalidUsage("vkCmdExecuteCommands of a primary"));
                }
                for piece in secondary.pieces()? {
                    match piece {
                        Piece::Ib(ib) => s.emit(&pm4::indirect_buffer(ib.va, ib.size_dw, false))?,
                        Piece::Deferred(op) => {
                            let r = g.rendering.as_ref().ok_or(VkError::InvalidUsage(
                                "a secondary continuing a scope executed outside one",
                            ))?;
                            crate::gfx::clear_attachments::run_deferred(s, r, &op)?;
                        }
                    }
                }
            }
            Ok(())
        })
    }
}
