//! Timestamp queries in command buffers: reset, write, copy results.

use ash::vk;

use super::copy::buffer_address;
use super::pm4::{self, CopySource, ReleaseData};
use super::stream::CmdStream;
use crate::core::buffer::Buffer;
use crate::core::query::{QueryPool, AVAILABILITY_OFFSET, QUERY_SLOT_BYTES};
use crate::error::{VkError, VkResult};

/// `vkCmdResetQueryPool`: zeroes timestamp and availability of each slot.
pub fn reset(s: &mut CmdStream, pool: &QueryPool, first: u32, count: u32) -> VkResult<()> {
    pool.check_range(first, count)?;
    if count == 0 {
        return Ok(());
    }
    let va = pool.slot_va(first);
    let bytes = QUERY_SLOT_BYTES * u64::from(count);
    s.emit(&pm4::dma_data(pm4::DmaSource::Data(0), va, bytes as u32, true))
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

/// `vkCmdCopyQueryPoolResults`.
#[allow(clippy::too_many_arguments)]
pub fn copy_results(
    s: &mut CmdStream,
    pool: &QueryPool,
    first: u32,
    count: u32,
    dst: &Buffer,
    offset: u64,
    stride: u64,
    flags: vk::QueryResultFlags,
) -> VkResult<()> {
    pool.check_range(first, count)?;
    let wide = flags.contains(vk::QueryResultFlags::TYPE_64);
    let item = if wide { 8 } else { 4 };
    let avail = flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY);
    let need = if avail { 2 * item } else { item };
    // VUID-vkCmdCopyQueryPoolResults-dstOffset-00819 / 00824: the results fit in dstBuffer.
    if count > 0 && offset + stride * u64::from(count - 1) + need > dst.size {
        return Err(VkError::InvalidUsage("query results do not fit in dstBuffer"));
    }
    for i in 0..count {
        let slot = pool.slot_va(first + i);
        let out = buffer_address(dst, offset + stride * u64::from(i))?;
        if flags.contains(vk::QueryResultFlags::WAIT) {
            s.emit(&pm4::wait_mem_equal(slot + AVAILABILITY_OFFSET, 1, 0xffff_ffff))?;
        }
        s.emit(&pm4::copy_data(CopySource::Memory(slot), out, wide))?;
        if avail {
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
