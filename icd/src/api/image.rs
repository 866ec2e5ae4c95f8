//! Image, image view, buffer view and sampler commands.

use ash::vk;

use super::{obj, output, reference};
use crate::core::device::Device;
use crate::core::memory::DeviceMemory;
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value, guard_void};
use crate::image::sampler::Sampler;
use crate::image::view::{BufferView, ImageView};
use crate::image::Image;

/// Generates `vkCreate*`/`vkDestroy*` pairs for objects made from their create info alone.
macro_rules! create_destroy {
    ($($create:ident $cname:literal $info:ty => $ty:ty, $destroy:ident $dname:literal;)*) => {$(
        pub unsafe extern "system" fn $create(
            device: vk::Device,
            p_create_info: *const $info,
            p_allocator: *const vk::AllocationCallbacks<'_>,
            p_out: *mut <$ty as VkObject>::Handle,
        ) -> vk::Result {
            guard($cname, || {
                // SAFETY: a live device and null or valid callbacks.
                let host = unsafe { super::child_host(device, p_allocator)? };
                // SAFETY: the application passes a valid input structure.
                let info = unsafe { reference(p_create_info)? };
                // SAFETY: the application passes a writable output pointer.
                let out = unsafe { output(p_out)? };
                *out = (*<$ty>::create(info)?).into_handle_in(host)?;
                Ok(())
            })
        }

        pub unsafe extern "system" fn $destroy(
            _device: vk::Device,
            handle: <$ty as VkObject>::Handle,
            _p_allocator: *const vk::AllocationCallbacks<'_>,
        ) {
            guard_value($dname, (), || {
                // SAFETY: a null or live handle, not used afterwards.
                drop(unsafe { <$ty>::take_handle(handle) });
            })
        }
    )*};
}

create_destroy! {
    create_image "vkCreateImage" vk::ImageCreateInfo<'_> => Image, destroy_image "vkDestroyImage";
    create_image_view "vkCreateImageView" vk::ImageViewCreateInfo<'_> => ImageView, destroy_image_view "vkDestroyImageView";
    create_buffer_view "vkCreateBufferView" vk::BufferViewCreateInfo<'_> => BufferView, destroy_buffer_view "vkDestroyBufferView";
    create_sampler "vkCreateSampler" vk::SamplerCreateInfo<'_> => Sampler, destroy_sampler "vkDestroySampler";
}

pub unsafe extern "system" fn get_image_memory_requirements(
    device: vk::Device,
    image: vk::Image,
    p_requirements: *mut vk::MemoryRequirements,
) {
    guard_void("vkGetImageMemoryRequirements", || {
        // SAFETY: live handles (valid usage).
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: as above.
        let image = unsafe { obj::<Image>(image)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_requirements)? } = image.memory_requirements(&device.adapter.memory);
        Ok(())
    })
}

pub unsafe extern "system" fn bind_image_memory(
    _device: vk::Device,
    image: vk::Image,
    memory: vk::DeviceMemory,
    offset: vk::DeviceSize,
) -> vk::Result {
    guard("vkBindImageMemory", || {
        // SAFETY: live handles (valid usage).
        let img = unsafe { obj::<Image>(image)? };
        // SAFETY: as above.
        let mem = unsafe { obj::<DeviceMemory>(memory)? };
        img.bind(memory, mem, offset)
    })
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
        *unsafe { output(p_count)? } = 0;
        Ok(())
    })
}

pub unsafe extern "system" fn get_image_subresource_layout(
    _device: vk::Device,
    image: vk::Image,
    p_subresource: *const vk::ImageSubresource,
    p_layout: *mut vk::SubresourceLayout,
) {
    guard_void("vkGetImageSubresourceLayout", || {
        // SAFETY: a live image (valid usage).
        let image = unsafe { obj::<Image>(image)? };
        // SAFETY: the application passes a valid input structure.
        let sub = unsafe { reference(p_subresource)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_layout)? } = image.subresource_layout(sub)?;
        Ok(())
    })
}

// VK_KHR_get_memory_requirements2 and VK_KHR_bind_memory2: the image forms.

pub unsafe extern "system" fn get_image_memory_requirements2(
    device: vk::Device,
    p_info: *const vk::ImageMemoryRequirementsInfo2<'_>,
    p_requirements: *mut vk::MemoryRequirements2<'_>,
) {
    guard_void("vkGetImageMemoryRequirements2", || {
        // SAFETY: live handles (valid usage).
        let device = unsafe { obj::<Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_info)? };
        // SAFETY: the application passes a live Image handle (valid usage).
        let image = unsafe { obj::<Image>(info.image)? };
        // SAFETY: the application passes a writable output pointer.
        let out = unsafe { output(p_requirements)? };
        out.memory_requirements = image.memory_requirements(&device.adapter.memory);
        // SAFETY: the output chain is valid.
        for s in unsafe { crate::core::chain::iter_out(out.p_next) } {
            // SAFETY: every link of the chain is a valid structure.
            if unsafe { (*s).s_type } == vk::StructureType::MEMORY_DEDICATED_REQUIREMENTS {
                // Images carry no metadata (DCC/HTILE) that would make a dedicated allocation
                // matter, so none is required or preferred.
                // SAFETY: the sType says this is a VkMemoryDedicatedRequirements.
                unsafe {
                    crate::core::chain::write_body(s, vk::MemoryDedicatedRequirements::default());
                }
            }
        }
        Ok(())
    })
}

pub unsafe extern "system" fn get_image_sparse_memory_requirements2(
    _device: vk::Device,
    _p_info: *const vk::ImageSparseMemoryRequirementsInfo2<'_>,
    p_count: *mut u32,
    _p_requirements: *mut vk::SparseImageMemoryRequirements2<'_>,
) {
    guard_void("vkGetImageSparseMemoryRequirements2", || {
        // No image is sparse (sparseBinding is not advertised): the count is zero.
        // SAFETY: the application passes a writable count.
        *unsafe { output(p_count)? } = 0;
        Ok(())
    })
}

pub unsafe extern "system" fn bind_image_memory2(
    _device: vk::Device,
    count: u32,
    p_infos: *const vk::BindImageMemoryInfo<'_>,
) -> vk::Result {
    guard("vkBindImageMemory2", || {
        if count == 0 {
            return Ok(());
        }
        // SAFETY: the application passes `count` valid bind infos.
        let infos = unsafe { std::slice::from_raw_parts(p_infos, count as usize) };
        for info in infos {
            // SAFETY: the application passes live Image and DeviceMemory handles (valid usage).
            let img = unsafe { obj::<Image>(info.image)? };
            // SAFETY: as above.
            let mem = unsafe { obj::<DeviceMemory>(info.memory)? };
            img.bind(info.memory, mem, info.memory_offset)?;
        }
        Ok(())
    })
}
