//! Buffer updates, fills and copies on the command processor.
//!
//! Updates carry their data inside the command stream (WRITE_DATA). Fills and copies use CP
//! DMA (DMA_DATA), which needs no shader and moves bytes through L2 like shader stores do.
//! Every DMA packet sets CP_SYNC, so later packets in the stream see the result without a
//! separate wait.

use super::pm4::{self, DmaSource};
use super::stream::CmdStream;
use crate::core::buffer::Buffer;
use crate::error::{VkError, VkResult};

/// Data dwords per WRITE_DATA packet (well under the 14-bit COUNT limit).
const WRITE_DATA_CHUNK_DW: usize = 4000;

/// The GPU address of `offset` in a bound buffer.
pub fn buffer_address(buffer: &Buffer, offset: u64) -> VkResult<u64> {
    let binding = buffer.binding().ok_or(VkError::InvalidUsage("buffer has no memory bound"))?;
    Ok(binding.gpu_address + offset)
}

/// `vkCmdUpdateBuffer`.
pub fn update_buffer(s: &mut CmdStream, dst: &Buffer, offset: u64, data: &[u32]) -> VkResult<()> {
    // VUID-vkCmdUpdateBuffer-dstOffset-00032 / dataSize-00033: offset and size inside the
    // buffer; -00036/-00038: multiples of 4 (the caller passes whole dwords).
    if offset % 4 != 0 || offset + 4 * data.len() as u64 > dst.size {
        return Err(VkError::InvalidUsage("vkCmdUpdateBuffer range outside the buffer"));
    }
    let mut va = buffer_address(dst, offset)?;
    for chunk in data.chunks(WRITE_DATA_CHUNK_DW) {
        s.emit2(&pm4::write_data_head(va, chunk.len()), chunk)?;
        va += 4 * chunk.len() as u64;
    }
    Ok(())
}

/// Emits DMA_DATA packets for `bytes` bytes, each at most [`pm4::DMA_MAX_BYTES`].
fn dma(s: &mut CmdStream, src: DmaSource, dst: u64, bytes: u64) -> VkResult<()> {
    let mut done = 0;
    while done < bytes {
        let n = (bytes - done).min(pm4::DMA_MAX_BYTES);
        let src = match src {
            DmaSource::Memory(va) => DmaSource::Memory(va + done),
            fill => fill,
        };
        s.emit(&pm4::dma_data(src, dst + done, n as u32, true))?;
        done += n;
    }
    Ok(())
}

/// `vkCmdFillBuffer`.
pub fn fill_buffer(
    s: &mut CmdStream,
    dst: &Buffer,
    offset: u64,
    size: u64,
    data: u32,
) -> VkResult<()> {
    // VUID-vkCmdFillBuffer-dstOffset-00024: "dstOffset must be less than the size of dstBuffer".
    if offset >= dst.size || offset % 4 != 0 {
        return Err(VkError::InvalidUsage("vkCmdFillBuffer offset"));
    }
    // "If VK_WHOLE_SIZE is used and the remaining size of the buffer is not a multiple of 4,
    // then the nearest smaller multiple is used."
    let size = if size == ash::vk::WHOLE_SIZE { (dst.size - offset) & !3 } else { size };
    if size % 4 != 0 || offset + size > dst.size {
        return Err(VkError::InvalidUsage("vkCmdFillBuffer size"));
    }
    dma(s, DmaSource::Data(data), buffer_address(dst, offset)?, size)
}

/// One region of `vkCmdCopyBuffer`.
pub fn copy_buffer(
    s: &mut CmdStream,
    src: &Buffer,
    dst: &Buffer,
    region: &ash::vk::BufferCopy,
) -> VkResult<()> {
    // VUID-VkBufferCopy-size-01988 and vkCmdCopyBuffer-srcOffset-00113..dstOffset-00116:
    // non-zero size, both ranges inside their buffers.
    let fits = |b: &Buffer, off: u64| off.checked_add(region.size).is_some_and(|e| e <= b.size);
    if region.size == 0 || !fits(src, region.src_offset) || !fits(dst, region.dst_offset) {
        return Err(VkError::InvalidUsage("vkCmdCopyBuffer region outside a buffer"));
    }
    let src_va = buffer_address(src, region.src_offset)?;
    dma(s, DmaSource::Memory(src_va), buffer_address(dst, region.dst_offset)?, region.size)
}
