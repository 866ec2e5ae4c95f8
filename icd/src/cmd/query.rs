//! Queries in command buffers: reset, begin/end (occlusion, pipeline statistics), timestamps,
//! and copies of results into buffers. Slot layouts are described in [`crate::core::query`].

use ash::vk;
use ferrum_regs::gfx103::{self as r, enums::VGT_EVENT_TYPE as ev};

use super::copy::buffer_address;
use super::pm4::{self, CopySource, ReleaseData};
use super::stream::CmdStream;
use crate::core::buffer::Buffer;
use crate::core::query::{
    QueryKind, QueryPool, AVAILABILITY_OFFSET, OCCLUSION_RBS, STATS_AVAILABILITY, STATS_BLOCK,
};
use crate::error::{VkError, VkResult};

/// ZPASS_DONE and SAMPLE_PIPELINESTAT take these EVENT_INDEX values (pm4-gfx103.md §4.4).
const ZPASS_INDEX: u32 = 1;
const SAMPLE_INDEX: u32 = 2;

/// `vkCmdResetQueryPool`: zeroes the slots (no valid count, not available).
pub fn reset(s: &mut CmdStream, pool: &QueryPool, first: u32, count: u32) -> VkResult<()> {
    pool.check_range(first, count)?;
    let mut va = pool.slot_va(first);
    let mut bytes = pool.kind.slot_bytes() * u64::from(count);
    while bytes > 0 {
        let n = bytes.min(pm4::DMA_MAX_BYTES);
        s.emit(&pm4::dma_data(pm4::DmaSource::Data(0), va, n as u32, true))?;
        va += n;
        bytes -= n;
    }
    Ok(())
}

/// DB_COUNT_CONTROL while an occlusion query is active: the DBs count passing samples
/// (exactly with `precise`; GFX10.3 may otherwise count conservatively, which Vulkan allows
/// for non-precise queries: any non-zero value when samples passed). Off again at the end.
fn count_control(active: bool, precise: bool) -> u32 {
    use r::DB_COUNT_CONTROL as C;
    if !active {
        return C::ZPASS_INCREMENT_DISABLE.val(1);
    }
    C::PERFECT_ZPASS_COUNTS.val(u32::from(precise))
        | C::DISABLE_CONSERVATIVE_ZPASS_COUNTS.val(u32::from(precise))
        | C::ZPASS_ENABLE.val(1)
        | C::SLICE_EVEN_ENABLE.val(1)
        | C::SLICE_ODD_ENABLE.val(1)
}

/// `vkCmdBeginQuery`.
pub fn begin(
    s: &mut CmdStream,
    pool: &QueryPool,
    index: u32,
    flags: vk::QueryControlFlags,
) -> VkResult<()> {
    pool.check_range(index, 1)?;
    let va = pool.slot_va(index);
    let precise = flags.contains(vk::QueryControlFlags::PRECISE);
    match pool.kind {
        QueryKind::Occlusion => {
            s.emit(&pm4::set_context_reg(r::DB_COUNT_CONTROL, count_control(true, precise)))?;
            s.emit(&pm4::event_write_to(ev::ZPASS_DONE, ZPASS_INDEX, va))
        }
        QueryKind::PipelineStatistics(_) => {
            // VUID-vkCmdBeginQuery-queryType-00800: PRECISE only for occlusion queries.
            if precise {
                return Err(VkError::InvalidUsage("PRECISE on a pipeline-statistics query"));
            }
            s.emit(&pm4::event_write(ev::PIPELINESTAT_START, 0))?;
            s.stats_query_active = true;
            s.emit(&pm4::event_write_to(ev::SAMPLE_PIPELINESTAT, SAMPLE_INDEX, va))
        }
        // VUID-vkCmdBeginQuery-queryType-02804: "The queryType used to create queryPool must
        // not be VK_QUERY_TYPE_TIMESTAMP".
        QueryKind::Timestamp => Err(VkError::InvalidUsage("vkCmdBeginQuery on a timestamp pool")),
    }
}

/// `vkCmdEndQuery`: the end sample, then (statistics) the availability word once the sample
/// has landed.
pub fn end(s: &mut CmdStream, pool: &QueryPool, index: u32) -> VkResult<()> {
    pool.check_range(index, 1)?;
    let va = pool.slot_va(index);
    match pool.kind {
        QueryKind::Occlusion => {
            s.emit(&pm4::event_write_to(ev::ZPASS_DONE, ZPASS_INDEX, va + 8))?;
            s.emit(&pm4::set_context_reg(r::DB_COUNT_CONTROL, count_control(false, false)))
        }
        QueryKind::PipelineStatistics(_) => {
            s.emit(&pm4::event_write_to(ev::SAMPLE_PIPELINESTAT, SAMPLE_INDEX, va + STATS_BLOCK))?;
            s.emit(&pm4::event_write(ev::PIPELINESTAT_STOP, 0))?;
            s.stats_query_active = false;
            s.emit(&pm4::release_mem(va + STATS_AVAILABILITY, ReleaseData::Value32(1)))
        }
        QueryKind::Timestamp => Err(VkError::InvalidUsage("vkCmdEndQuery on a timestamp pool")),
    }
}

/// Makes `count` reset queries from `first` available with a zero result: the extra
/// indices of a query ended in a multiview subpass. The slots were reset to zero (valid
/// usage), so only the valid bits (occlusion: begin = end = 0) or the availability word
/// (statistics, timestamps) are written.
pub fn zero_available(s: &mut CmdStream, pool: &QueryPool, first: u32, count: u32) -> VkResult<()> {
    if count == 0 {
        return Ok(());
    }
    // VUID-vkCmdEndQuery-query-00812: query + views lies in the pool.
    pool.check_range(first, count)?;
    for q in first..first + count {
        let va = pool.slot_va(q);
        match pool.kind {
            QueryKind::Occlusion => {
                for word in 0..2 * OCCLUSION_RBS {
                    s.emit2(&pm4::write_data_head(va + 8 * word + 4, 1), &[1 << 31])?;
                }
            }
            QueryKind::PipelineStatistics(_) => {
                s.emit2(&pm4::write_data_head(va + STATS_AVAILABILITY, 1), &[1])?;
            }
            QueryKind::Timestamp => {
                s.emit2(&pm4::write_data_head(va + AVAILABILITY_OFFSET, 1), &[1])?;
            }
        }
    }
    Ok(())
}

/// `vkCmdWriteTimestamp(2)`: top-of-pipe samples the counter when the CP gets here; any later
/// stage waits for prior work (bottom of pipe). Availability follows the value.
pub fn write_timestamp(
    s: &mut CmdStream,
    pool: &QueryPool,
    index: u32,
    stage: vk::PipelineStageFlags2,
) -> VkResult<()> {
    pool.check_range(index, 1)?;
    // VUID-vkCmdWriteTimestamp-queryPool-01416: "queryPool must have been created with a
    // queryType of VK_QUERY_TYPE_TIMESTAMP".
    if pool.kind != QueryKind::Timestamp {
        return Err(VkError::InvalidUsage("vkCmdWriteTimestamp into a non-timestamp pool"));
    }
    let va = pool.slot_va(index);
    let avail = va + AVAILABILITY_OFFSET;
    let top = (stage & !(vk::PipelineStageFlags2::TOP_OF_PIPE | vk::PipelineStageFlags2::NONE))
        .is_empty();
    if top {
        s.emit(&pm4::copy_data(CopySource::Timestamp, va, true))?;
        s.emit2(&pm4::write_data_head(avail, 1), &[1])
    } else {
        s.emit(&pm4::release_mem(va, ReleaseData::Timestamp))?;
        s.emit(&pm4::release_mem(avail, ReleaseData::Value32(1)))
    }
}

/// Where `vkCmdCopyQueryPoolResults` writes.
pub struct CopyTarget<'a> {
    pub dst: &'a Buffer,
    pub offset: u64,
    pub stride: u64,
    pub flags: vk::QueryResultFlags,
}

/// `vkCmdCopyQueryPoolResults`. Timestamps are copied by the CP; occlusion and statistics
/// results are sums and differences, computed by a meta kernel (`meta::query`).
pub fn copy_results(
    s: &mut CmdStream,
    pool: &QueryPool,
    first: u32,
    count: u32,
    t: &CopyTarget<'_>,
) -> VkResult<()> {
    pool.check_range(first, count)?;
    let wide = t.flags.contains(vk::QueryResultFlags::TYPE_64);
    let item = if wide { 8 } else { 4 };
    let avail = t.flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY);
    let need = (u64::from(pool.kind.values()) + u64::from(avail)) * item;
    // VUID-vkCmdCopyQueryPoolResults-dstOffset-00819 / 00824: the results fit in dstBuffer.
    if count > 0 && t.offset + t.stride * u64::from(count - 1) + need > t.dst.size {
        return Err(VkError::InvalidUsage("query results do not fit in dstBuffer"));
    }
    // VUID-vkCmdCopyQueryPoolResults-flags-00822 / 00823: offsets and stride are multiples
    // of the result size.
    if t.offset % item != 0 || t.stride % item != 0 {
        return Err(VkError::InvalidUsage("query copy offset or stride misaligned"));
    }
    if count == 0 {
        return Ok(());
    }
    if t.flags.contains(vk::QueryResultFlags::WAIT) {
        for i in first..first + count {
            wait_available(s, pool, i)?;
        }
    }
    match pool.kind {
        QueryKind::Timestamp => copy_timestamps(s, pool, first, count, t),
        _ => crate::meta::query::copy_results(s, pool, first, count, t),
    }
}

/// Makes the CP wait until query `index` is available.
fn wait_available(s: &mut CmdStream, pool: &QueryPool, index: u32) -> VkResult<()> {
    let va = pool.slot_va(index);
    match pool.kind {
        QueryKind::Timestamp => s.emit(&pm4::wait_mem_equal(va + AVAILABILITY_OFFSET, 1, u32::MAX)),
        QueryKind::PipelineStatistics(_) => {
            s.emit(&pm4::wait_mem_equal(va + STATS_AVAILABILITY, 1, u32::MAX))
        }
        QueryKind::Occlusion => {
            // Every begin and end count's valid bit (bit 63: bit 31 of the high dword).
            for word in 0..2 * OCCLUSION_RBS {
                let hi = va + 8 * word + 4;
                s.emit(&pm4::wait_mem_equal(hi, 1 << 31, 1 << 31))?;
            }
            Ok(())
        }
    }
}

fn copy_timestamps(
    s: &mut CmdStream,
    pool: &QueryPool,
    first: u32,
    count: u32,
    t: &CopyTarget<'_>,
) -> VkResult<()> {
    let wide = t.flags.contains(vk::QueryResultFlags::TYPE_64);
    for i in 0..count {
        let slot = pool.slot_va(first + i);
        let out = buffer_address(t.dst, t.offset + t.stride * u64::from(i))?;
        // An unavailable timestamp has no intermediate value (PARTIAL is not allowed for
        // timestamps): the CP copies whatever the slot holds only when it is available or
        // WAIT made it so; otherwise nothing is written but the availability.
        s.emit(&pm4::copy_data(CopySource::Memory(slot), out, wide))?;
        if t.flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY) {
            let src = CopySource::Memory(slot + AVAILABILITY_OFFSET);
            if wide {
                // The availability word is 32-bit; its upper half in the result is zero.
                s.emit(&pm4::copy_data(src, out + 8, false))?;
                s.emit2(&pm4::write_data_head(out + 12, 1), &[0])?;
            } else {
                s.emit(&pm4::copy_data(src, out + 4, false))?;
            }
        }
    }
    Ok(())
}
