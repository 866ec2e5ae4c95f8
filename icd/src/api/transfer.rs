//! Image transfers.
//!
//! Copies between buffers and linear images, and between linear images, run on the CP's DMA
//! (`cmd::copy_image`). Copies with swizzled images and clears are compute (meta) kernels
//! (`crate::meta`), and so are blits (`meta::blit`, colour formats only).

use ash::vk;

use super::obj;
use crate::cmd::copy_image::{copy_buffer_image, copy_image, Direction};
use crate::cmd::CommandBuffer;
use crate::core::buffer::Buffer;
use crate::entry::guard_void;
use crate::image::layout::SwizzleMode;
use crate::image::Image;
use crate::meta;
use crate::meta::clear::{clear_image, ClearValue};

/// Records the regions of a buffer/image copy.
///
/// # Safety
/// Live handles; `p_regions` holds `count` regions (valid usage).
unsafe fn buffer_image(
    name: &'static str,
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    image: vk::Image,
    count: u32,
    p_regions: *const vk::BufferImageCopy,
    dir: Direction,
) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        cb.record(|s| {
            // SAFETY: forwarded to the caller.
            let (buffer, image) = unsafe { (obj::<Buffer>(buffer)?, obj::<Image>(image)?) };
            let regions = super::array(p_regions, count);
            if image.surface.desc.mode == SwizzleMode::Linear && image.stencil.is_none() {
                for r in regions {
                    copy_buffer_image(s, buffer, image, r, dir)?;
                }
                return Ok(());
            }
            meta::begin(s)?;
            for r in regions {
                meta::copy::buffer_image(s, buffer, image, r, dir == Direction::BufferToImage)?;
            }
            meta::end(s)
        });
        Ok(())
    })
}

pub unsafe extern "system" fn cmd_copy_buffer_to_image(
    cb: vk::CommandBuffer,
    src: vk::Buffer,
    dst: vk::Image,
    _layout: vk::ImageLayout,
    count: u32,
    p_regions: *const vk::BufferImageCopy,
) {
    let dir = Direction::BufferToImage;
    // SAFETY: the application's valid usage.
    unsafe { buffer_image("vkCmdCopyBufferToImage", cb, src, dst, count, p_regions, dir) }
}

pub unsafe extern "system" fn cmd_copy_image_to_buffer(
    cb: vk::CommandBuffer,
    src: vk::Image,
    _layout: vk::ImageLayout,
    dst: vk::Buffer,
    count: u32,
    p_regions: *const vk::BufferImageCopy,
) {
    let dir = Direction::ImageToBuffer;
    // SAFETY: the application's valid usage.
    unsafe { buffer_image("vkCmdCopyImageToBuffer", cb, dst, src, count, p_regions, dir) }
}

pub unsafe extern "system" fn cmd_copy_image(
    cb: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    count: u32,
    p_regions: *const vk::ImageCopy,
) {
    guard_void("vkCmdCopyImage", || {
        // SAFETY: a live command buffer (valid usage).
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        cb.record(|s| {
            // SAFETY: live images (valid usage).
            let (src, dst) = unsafe { (obj::<Image>(src)?, obj::<Image>(dst)?) };
            let regions = super::array(p_regions, count);
            let linear = |i: &Image| i.surface.desc.mode == SwizzleMode::Linear;
            if linear(src) && linear(dst) {
                for r in regions {
                    copy_image(s, src, dst, r)?;
                }
                return Ok(());
            }
            meta::begin(s)?;
            for r in regions {
                meta::copy::image_image(s, src, dst, r)?;
            }
            meta::end(s)
        });
        Ok(())
    })
}

/// Records a clear of the ranges of `image` to `value`.
///
/// # Safety
/// Live handles; `p_ranges` holds `count` ranges (valid usage).
unsafe fn clear(
    name: &'static str,
    cb: vk::CommandBuffer,
    image: vk::Image,
    value: ClearValue,
    count: u32,
    p_ranges: *const vk::ImageSubresourceRange,
) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        cb.record(|s| {
            // SAFETY: forwarded to the caller.
            let image = unsafe { obj::<Image>(image)? };
            clear_image(s, image, &value, super::array(p_ranges, count))
        });
        Ok(())
    })
}

pub unsafe extern "system" fn cmd_clear_color_image(
    cb: vk::CommandBuffer,
    image: vk::Image,
    _layout: vk::ImageLayout,
    p_color: *const vk::ClearColorValue,
    count: u32,
    p_ranges: *const vk::ImageSubresourceRange,
) {
    // SAFETY: pColor is a valid pointer (valid usage).
    let value = ClearValue::Color(unsafe { *p_color });
    // SAFETY: the application's valid usage.
    unsafe { clear("vkCmdClearColorImage", cb, image, value, count, p_ranges) }
}

pub unsafe extern "system" fn cmd_clear_depth_stencil_image(
    cb: vk::CommandBuffer,
    image: vk::Image,
    _layout: vk::ImageLayout,
    p_value: *const vk::ClearDepthStencilValue,
    count: u32,
    p_ranges: *const vk::ImageSubresourceRange,
) {
    // SAFETY: pDepthStencil is a valid pointer (valid usage).
    let value = ClearValue::DepthStencil(unsafe { *p_value });
    // SAFETY: the application's valid usage.
    unsafe { clear("vkCmdClearDepthStencilImage", cb, image, value, count, p_ranges) }
}

pub unsafe extern "system" fn cmd_blit_image(
    cb: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    count: u32,
    p_regions: *const vk::ImageBlit,
    filter: vk::Filter,
) {
    guard_void("vkCmdBlitImage", || {
        // SAFETY: a live command buffer (valid usage).
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        cb.record(|s| {
            // SAFETY: live images (valid usage).
            let (src, dst) = unsafe { (obj::<Image>(src)?, obj::<Image>(dst)?) };
            meta::begin(s)?;
            for r in super::array(p_regions, count) {
                meta::blit::blit(s, src, dst, r, filter)?;
            }
            meta::end(s)
        });
        Ok(())
    })
}

pub unsafe extern "system" fn cmd_resolve_image(
    cb: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    count: u32,
    p_regions: *const vk::ImageResolve,
) {
    guard_void("vkCmdResolveImage", || {
        // SAFETY: a live command buffer (valid usage).
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        cb.record(|s| {
            // SAFETY: live images (valid usage).
            let (src, dst) = unsafe { (obj::<Image>(src)?, obj::<Image>(dst)?) };
            meta::begin(s)?;
            for r in super::array(p_regions, count) {
                meta::resolve::resolve_image(s, src, dst, r)?;
            }
            meta::end(s)
        });
        Ok(())
    })
}
