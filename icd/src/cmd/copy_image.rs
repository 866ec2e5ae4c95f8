//! Copies between buffers and linear images, row by row on the command processor's DMA.
//!
//! A linear image row is contiguous memory, so each row of a region is one DMA_DATA packet
//! (CP_SYNC set, like buffer copies: later packets see the result). Swizzled images need the
//! surface's address equation per texel: those copies belong to the compute (meta) kernels,
//! which are not built yet, so they are refused with an error that `vkEndCommandBuffer` reports.

use ash::vk;

use super::copy::buffer_address;
use super::pm4::{self, DmaSource};
use super::stream::CmdStream;
use crate::core::buffer::Buffer;
use crate::error::{VkError, VkResult};
use crate::image::layout::{mip_extent, SwizzleMode};
use crate::image::Image;

/// Which way a buffer/image copy goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    BufferToImage,
    ImageToBuffer,
}

/// One row to move: image address, buffer address, bytes.
struct Row {
    image: u64,
    buffer: u64,
    bytes: u64,
}

/// The rows of one `VkBufferImageCopy` region, checked against both resources.
fn rows(buffer: &Buffer, image: &Image, r: &vk::BufferImageCopy) -> VkResult<Vec<Row>> {
    if image.surface.desc.mode != SwizzleMode::Linear {
        return Err(VkError::NotImplemented("copies with swizzled images (meta kernels)"));
    }
    let sub = r.image_subresource;
    // VUID-vkCmdCopyBufferToImage-imageSubresource-01701/01702: level and layers exist.
    if sub.mip_level >= image.levels
        || sub.layer_count == 0
        || sub.base_array_layer.checked_add(sub.layer_count).is_none_or(|e| e > image.layers)
        || sub.aspect_mask != vk::ImageAspectFlags::COLOR
    {
        return Err(VkError::InvalidUsage("buffer/image copy subresource"));
    }
    let f = image.format;
    let (bw, bh) = (u32::from(f.block.0), u32::from(f.block.1));
    let level_w = mip_extent(image.extent.width, sub.mip_level);
    let level_h = mip_extent(image.extent.height, sub.mip_level);
    let level_d = mip_extent(image.extent.depth, sub.mip_level);
    let (o, e) = (r.image_offset, r.image_extent);
    // VUID-vkCmdCopyBufferToImage-pRegions-06218..06220: the region lies inside the level.
    let inside = |off: i32, ext: u32, size: u32| {
        off >= 0 && (off as u32).checked_add(ext).is_some_and(|end| end <= size)
    };
    if e.width == 0
        || e.height == 0
        || e.depth == 0
        || !inside(o.x, e.width, level_w)
        || !inside(o.y, e.height, level_h)
        || !inside(o.z, e.depth, level_d)
        || o.x as u32 % bw != 0
        || o.y as u32 % bh != 0
    {
        return Err(VkError::InvalidUsage("buffer/image copy region outside the level"));
    }
    let bpe = u64::from(f.block_bytes);
    let row_len = u64::from(
        if r.buffer_row_length == 0 { e.width } else { r.buffer_row_length }.div_ceil(bw),
    );
    let img_h = u64::from(
        if r.buffer_image_height == 0 { e.height } else { r.buffer_image_height }.div_ceil(bh),
    );
    let (wb, hb) = (u64::from(e.width.div_ceil(bw)), u64::from(e.height.div_ceil(bh)));
    let slices = u64::from(e.depth) * u64::from(sub.layer_count);
    // VUID-vkCmdCopyBufferToImage-pRegions-00171: the buffer holds the whole region.
    let span = ((slices - 1) * img_h * row_len + (hb - 1) * row_len + wb) * bpe;
    if r.buffer_offset.checked_add(span).is_none_or(|end| end > buffer.size) {
        return Err(VkError::InvalidUsage("buffer/image copy region outside the buffer"));
    }
    let s = &image.surface;
    let level = s.levels[sub.mip_level as usize];
    let row_pitch = u64::from(level.pitch) * bpe;
    let depth_pitch = s.linear_depth_pitch(sub.mip_level);
    let (image_va, buffer_va) = (image.address()?, buffer_address(buffer, 0)?);
    let mut out = Vec::with_capacity((slices * hb) as usize);
    for layer in 0..u64::from(sub.layer_count) {
        for z in 0..u64::from(e.depth) {
            let slice = layer * u64::from(e.depth) + z;
            let base = image_va
                + s.layer_size * (u64::from(sub.base_array_layer) + layer)
                + level.offset
                + depth_pitch * (o.z as u64 + z);
            for y in 0..hb {
                out.push(Row {
                    image: base
                        + row_pitch * (u64::from(o.y as u32 / bh) + y)
                        + bpe * u64::from(o.x as u32 / bw),
                    buffer: buffer_va + r.buffer_offset + (slice * img_h + y) * row_len * bpe,
                    bytes: wb * bpe,
                });
            }
        }
    }
    Ok(out)
}

/// One region of `vkCmdCopyBufferToImage` or `vkCmdCopyImageToBuffer`.
pub fn copy_buffer_image(
    s: &mut CmdStream,
    buffer: &Buffer,
    image: &Image,
    region: &vk::BufferImageCopy,
    dir: Direction,
) -> VkResult<()> {
    for row in rows(buffer, image, region)? {
        let (src, dst) = match dir {
            Direction::BufferToImage => (row.buffer, row.image),
            Direction::ImageToBuffer => (row.image, row.buffer),
        };
        let mut done = 0;
        while done < row.bytes {
            let n = (row.bytes - done).min(pm4::DMA_MAX_BYTES);
            s.emit(&pm4::dma_data(DmaSource::Memory(src + done), dst + done, n as u32, true))?;
            done += n;
        }
    }
    Ok(())
}

/// The byte address of block row `y` (from the region's origin) of `slice` in a linear image.
struct LinearRegion<'a> {
    image: &'a Image,
    va: u64,
    level: u32,
}

impl LinearRegion<'_> {
    fn row(&self, layer: u32, z: u32, block: (u32, u32)) -> u64 {
        let s = &self.image.surface;
        let l = s.levels[self.level as usize];
        let bpe = u64::from(s.desc.bpe);
        self.va
            + s.layer_size * u64::from(layer)
            + l.offset
            + s.linear_depth_pitch(self.level) * u64::from(z)
            + u64::from(l.pitch) * bpe * u64::from(block.1)
            + bpe * u64::from(block.0)
    }
}

/// Checks that `[offset, offset + extent)` of `sub` lies in `image`'s level, in blocks.
fn check_region(
    image: &Image,
    sub: &vk::ImageSubresourceLayers,
    o: vk::Offset3D,
    e: vk::Extent3D,
) -> VkResult<()> {
    let f = image.format;
    let (bw, bh) = (u32::from(f.block.0), u32::from(f.block.1));
    let fits = |off: i32, ext: u32, size: u32, b: u32| {
        off >= 0
            && off as u32 % b == 0
            && (off as u32).checked_add(ext).is_some_and(|end| end <= size)
    };
    if sub.mip_level >= image.levels
        || sub.layer_count == 0
        || sub.base_array_layer.checked_add(sub.layer_count).is_none_or(|end| end > image.layers)
        || sub.aspect_mask != vk::ImageAspectFlags::COLOR
        || !fits(o.x, e.width, mip_extent(image.extent.width, sub.mip_level), bw)
        || !fits(o.y, e.height, mip_extent(image.extent.height, sub.mip_level), bh)
        || !fits(o.z, e.depth, mip_extent(image.extent.depth, sub.mip_level), 1)
    {
        return Err(VkError::InvalidUsage("image copy region outside the image"));
    }
    Ok(())
}

/// One region of `vkCmdCopyImage` between linear images.
pub fn copy_image(s: &mut CmdStream, src: &Image, dst: &Image, r: &vk::ImageCopy) -> VkResult<()> {
    if src.surface.desc.mode != SwizzleMode::Linear || dst.surface.desc.mode != SwizzleMode::Linear
    {
        return Err(VkError::NotImplemented("copies with swizzled images (meta kernels)"));
    }
    // VUID-vkCmdCopyImage-srcImage-01548: formats of the same size class.
    if src.surface.desc.bpe != dst.surface.desc.bpe || src.format.block != dst.format.block {
        return Err(VkError::InvalidUsage("vkCmdCopyImage between incompatible formats"));
    }
    let e = r.extent;
    let (ss, ds) = (r.src_subresource, r.dst_subresource);
    if e.width == 0 || e.height == 0 || e.depth == 0 || ss.layer_count != ds.layer_count {
        return Err(VkError::InvalidUsage("vkCmdCopyImage extent or layer count"));
    }
    check_region(src, &ss, r.src_offset, e)?;
    check_region(dst, &ds, r.dst_offset, e)?;
    let (bw, bh) = (u32::from(src.format.block.0), u32::from(src.format.block.1));
    let (wb, hb) = (e.width.div_ceil(bw), e.height.div_ceil(bh));
    let bytes = u64::from(wb) * u64::from(src.surface.desc.bpe);
    let a = LinearRegion { image: src, va: src.address()?, level: ss.mip_level };
    let b = LinearRegion { image: dst, va: dst.address()?, level: ds.mip_level };
    let block = |o: vk::Offset3D, y: u32| (o.x as u32 / bw, o.y as u32 / bh + y);
    for layer in 0..ss.layer_count {
        for z in 0..e.depth {
            for y in 0..hb {
                let from = a.row(
                    ss.base_array_layer + layer,
                    r.src_offset.z as u32 + z,
                    block(r.src_offset, y),
                );
                let to = b.row(
                    ds.base_array_layer + layer,
                    r.dst_offset.z as u32 + z,
                    block(r.dst_offset, y),
                );
                s.emit(&pm4::dma_data(DmaSource::Memory(from), to, bytes as u32, true))?;
            }
        }
    }
    Ok(())
}
