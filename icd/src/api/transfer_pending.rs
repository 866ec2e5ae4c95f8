//! Image transfers before their kernels exist.
//!
//! No format advertises transfer or blit features yet, and without them no image copy, blit
//! or clear is valid to record; recording one anyway makes `vkEndCommandBuffer` fail with an
//! error and a log line. Replaced as the meta kernels land.

use ash::vk;

use super::obj;
use crate::cmd::CommandBuffer;
use crate::entry::guard_void;
use crate::error::VkError;

/// Generates `vkCmd*` image transfers that cannot be valid yet.
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
    cmd_copy_image "vkCmdCopyImage" (vk::Image, vk::ImageLayout, vk::Image, vk::ImageLayout, u32, *const vk::ImageCopy);
    cmd_blit_image "vkCmdBlitImage" (vk::Image, vk::ImageLayout, vk::Image, vk::ImageLayout, u32, *const vk::ImageBlit, vk::Filter);
    cmd_copy_buffer_to_image "vkCmdCopyBufferToImage" (vk::Buffer, vk::Image, vk::ImageLayout, u32, *const vk::BufferImageCopy);
    cmd_copy_image_to_buffer "vkCmdCopyImageToBuffer" (vk::Image, vk::ImageLayout, vk::Buffer, u32, *const vk::BufferImageCopy);
    cmd_clear_color_image "vkCmdClearColorImage" (vk::Image, vk::ImageLayout, *const vk::ClearColorValue, u32, *const vk::ImageSubresourceRange);
    cmd_clear_depth_stencil_image "vkCmdClearDepthStencilImage" (vk::Image, vk::ImageLayout, *const vk::ClearDepthStencilValue, u32, *const vk::ImageSubresourceRange);
}
