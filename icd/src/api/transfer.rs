//! Image transfers.
//!
//! Copies between buffers and linear images run on the CP's DMA (`cmd::copy_image`). Copies
//! with swizzled images, image-to-image copies, blits and clears need the compute (meta)
//! kernels, which do not exist yet: recording them makes `vkEndCommandBuffer` fail with an
//! error and a log line. No format advertises transfer features until all of them work.

use ash::vk;

use super::obj;
use crate::cmd::copy_image::{copy_buffer_image, copy_image, Direction};
use crate::cmd::CommandBuffer;
use crate::core::buffer::Buffer;
use crate::entry::guard_void;
use crate::error::VkError;
use crate::image::Image;

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
            for r in super::array(p_regions, count) {
                copy_buffer_image(s, buffer, image, r, dir)?;
            }
            Ok(())
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
            for r in super::array(p_regions, count) {
                copy_image(s, src, dst, r)?;
            }
            Ok(())
        });
        Ok(())
    })
}

/// Generates `vkCmd*` image transfers that need the meta kernels.
macro_rules! absent_transfers {
    ($($f:ident $name:literal ($($ty:ty),*);)*) => {$(
        pub unsafe extern "system" fn $f(cb: vk::CommandBuffer, $(_: $ty),*) {
            guard_void($name, || {
                // SAFETY: the application passes a live command buffer (valid usage).
                let cb = unsafe { obj::<CommandBuffer>(cb)? };
                cb.record(|_| Err(VkError::NotImplemented($name)));
                Ok(())
            })
        }
    )*};
}

absent_transfers! {
    cmd_blit_image "vkCmdBlitImage" (vk::Image, vk::ImageLayout, vk::Image, vk::ImageLayout, u32, *const vk::ImageBlit, vk::Filter);
    cmd_clear_color_image "vkCmdClearColorImage" (vk::Image, vk::ImageLayout, *const vk::ClearColorValue, u32, *const vk::ImageSubresourceRange);
    cmd_clear_depth_stencil_image "vkCmdClearDepthStencilImage" (vk::Image, vk::ImageLayout, *const vk::ClearDepthStencilValue, u32, *const vk::ImageSubresourceRange);
}
