//! Image, view, sampler and image-transfer commands before images exist.
//!
//! Every format reports no image features and `vkGetPhysicalDeviceImageFormatProperties`
//! refuses every combination, so no image can be validly created: creation fails with an error
//! and a log line, destruction accepts only null, and recording a command that needs an image
//! makes `vkEndCommandBuffer` fail. Replaced piece by piece as the image path lands.

use ash::vk::{self, Handle};

use super::obj;
use crate::cmd::CommandBuffer;
use crate::entry::{guard, guard_value, guard_void};
use crate::error::VkError;

/// Generates `vkCreate*`/`vkDestroy*` pairs for objects that cannot be created yet.
macro_rules! absent_objects {
    ($($create:ident $cname:literal $info:ty, $destroy:ident $dname:literal $handle:ty;)*) => {$(
        pub unsafe extern "system" fn $create(
            _device: vk::Device,
            _p_create_info: *const $info,
            _p_allocator: *const vk::AllocationCallbacks<'_>,
            _p_out: *mut $handle,
        ) -> vk::Result {
            guard($cname, || Err(VkError::NotImplemented("images")))
        }

        pub unsafe extern "system" fn $destroy(
            _device: vk::Device,
            handle: $handle,
            _p_allocator: *const vk::AllocationCallbacks<'_>,
        ) {
            // Only null can be passed: creation never succeeds.
            guard_value($dname, (), || debug_assert!(handle.is_null()))
        }
    )*};
}

absent_objects! {
    create_image "vkCreateImage" vk::ImageCreateInfo<'_>, destroy_image "vkDestroyImage" vk::Image;
    create_image_view "vkCreateImageView" vk::ImageViewCreateInfo<'_>, destroy_image_view "vkDestroyImageView" vk::ImageView;
    create_buffer_view "vkCreateBufferView" vk::BufferViewCreateInfo<'_>, destroy_buffer_view "vkDestroyBufferView" vk::BufferView;
    create_sampler "vkCreateSampler" vk::SamplerCreateInfo<'_>, destroy_sampler "vkDestroySampler" vk::Sampler;
}

pub unsafe extern "system" fn get_image_memory_requirements(
    _device: vk::Device,
    _image: vk::Image,
    _p_requirements: *mut vk::MemoryRequirements,
) {
    guard_void("vkGetImageMemoryRequirements", || Err(VkError::NotImplemented("images")))
}

pub unsafe extern "system" fn bind_image_memory(
    _device: vk::Device,
    _image: vk::Image,
    _memory: vk::DeviceMemory,
    _offset: vk::DeviceSize,
) -> vk::Result {
    guard("vkBindImageMemory", || Err(VkError::NotImplemented("images")))
}

pub unsafe extern "system" fn get_image_sparse_memory_requirements(
    _device: vk::Device,
    _image: vk::Image,
    p_count: *mut u32,
    _p_requirements: *mut vk::SparseImageMemoryRequirements,
) {
    guard_void("vkGetImageSparseMemoryRequirements", || {
        // No image is sparse: "If the image was not created with
        // VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT then pSparseMemoryRequirementCount will be set to
        // zero and pSparseMemoryRequirements will not be written to."
        // SAFETY: the application passes a writable count.
        *unsafe { super::output(p_count)? } = 0;
        Ok(())
    })
}

pub unsafe extern "system" fn get_image_subresource_layout(
    _device: vk::Device,
    _image: vk::Image,
    _p_subresource: *const vk::ImageSubresource,
    _p_layout: *mut vk::SubresourceLayout,
) {
    guard_void("vkGetImageSubresourceLayout", || Err(VkError::NotImplemented("images")))
}

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
