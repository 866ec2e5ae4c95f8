//! Physical-device queries and `vkCreateDevice`.

use std::ffi::c_char;

use ash::vk;

use super::{array, obj, out, output, reference};
use crate::core::chain;
use crate::core::device::{Device, DEVICE_EXTENSIONS};
use crate::core::host_memory::HostMemory;
use crate::core::object::VkObject;
use crate::core::physical_device::{features, PhysicalDevice};
use crate::entry::{guard, guard_status, guard_void};
use crate::error::{VkError, VkResult};
use crate::format::properties::{self as formats, ImageQuery};

type Pd = vk::PhysicalDevice;

pub unsafe extern "system" fn get_physical_device_features(
    pd: Pd,
    p_features: *mut vk::PhysicalDeviceFeatures,
) {
    guard_void("vkGetPhysicalDeviceFeatures", || {
        // SAFETY: a live handle and a writable output pointer.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_features)? } = features::supported_features();
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_features2(
    pd: Pd,
    p_features: *mut vk::PhysicalDeviceFeatures2<'_>,
) {
    guard_void("vkGetPhysicalDeviceFeatures2", || {
        // SAFETY: a live handle and a valid output chain.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        let f2 = unsafe { output(p_features)? };
        f2.features = features::supported_features();
        // SAFETY: the application passes a valid output chain.
        unsafe { features::fill_chain(f2.p_next) };
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_properties(
    pd: Pd,
    p_properties: *mut vk::PhysicalDeviceProperties,
) {
    guard_void("vkGetPhysicalDeviceProperties", || {
        // SAFETY: a live handle and a writable output pointer.
        let pd = unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_properties)? } = pd.adapter.properties();
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_properties2(
    pd: Pd,
    p_properties: *mut vk::PhysicalDeviceProperties2<'_>,
) {
    guard_void("vkGetPhysicalDeviceProperties2", || {
        // SAFETY: a live handle and a valid output chain.
        let pd = unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        let p2 = unsafe { output(p_properties)? };
        p2.properties = pd.adapter.properties();
        // SAFETY: the application passes a valid output chain.
        unsafe { pd.adapter.fill_properties_chain(p2.p_next) };
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_queue_family_properties(
    pd: Pd,
    p_count: *mut u32,
    p_properties: *mut vk::QueueFamilyProperties,
) {
    guard_void("vkGetPhysicalDeviceQueueFamilyProperties", || {
        // SAFETY: a live handle and two-call idiom pointers.
        let pd = unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: two-call idiom pointers from the application (a void command cannot report
        // VK_INCOMPLETE).
        unsafe { out::write_all(p_count, p_properties, &pd.adapter.queue_families()) }.map(drop)
    })
}

pub unsafe extern "system" fn get_physical_device_queue_family_properties2(
    pd: Pd,
    p_count: *mut u32,
    p_properties: *mut vk::QueueFamilyProperties2<'_>,
) {
    guard_void("vkGetPhysicalDeviceQueueFamilyProperties2", || {
        // SAFETY: a live handle and two-call idiom pointers.
        let pd = unsafe { obj::<PhysicalDevice>(pd)? };
        let families = pd.adapter.queue_families();
        // SAFETY: two-call idiom pointers from the application (a void command cannot report
        // VK_INCOMPLETE).
        unsafe {
            out::write_with(p_count, p_properties, families.len(), |p, i| {
                p.queue_family_properties = families[i]
            })
        }
        .map(drop)
    })
}

pub unsafe extern "system" fn get_physical_device_memory_properties(
    pd: Pd,
    p_properties: *mut vk::PhysicalDeviceMemoryProperties,
) {
    guard_void("vkGetPhysicalDeviceMemoryProperties", || {
        // SAFETY: a live handle and a writable output pointer.
        let pd = unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_properties)? } = pd.adapter.memory.properties;
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_memory_properties2(
    pd: Pd,
    p_properties: *mut vk::PhysicalDeviceMemoryProperties2<'_>,
) {
    guard_void("vkGetPhysicalDeviceMemoryProperties2", || {
        // SAFETY: a live handle and a valid output structure.
        let pd = unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        unsafe { output(p_properties)? }.memory_properties = pd.adapter.memory.properties;
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_format_properties(
    pd: Pd,
    format: vk::Format,
    p_properties: *mut vk::FormatProperties,
) {
    guard_void("vkGetPhysicalDeviceFormatProperties", || {
        // SAFETY: a live handle and a writable output pointer.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_properties)? } = formats::format_properties(format);
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_format_properties2(
    pd: Pd,
    format: vk::Format,
    p_properties: *mut vk::FormatProperties2<'_>,
) {
    guard_void("vkGetPhysicalDeviceFormatProperties2", || {
        // SAFETY: a live handle and a valid output structure.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        let out = unsafe { output(p_properties)? };
        out.format_properties = formats::format_properties(format);
        // SAFETY: the output chain is the application's valid, writable pNext chain.
        for s in unsafe { chain::iter_out(out.p_next) } {
            // SAFETY: `s` is a live structure of the chain; its sType names its type.
            if unsafe { (*s).s_type } == vk::StructureType::FORMAT_PROPERTIES_3 {
                let value = crate::format::flags2::format_properties3(format);
                // SAFETY: the sType says `s` is a VkFormatProperties3.
                unsafe { chain::write_body(s, value) };
            }
        }
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_image_format_properties(
    pd: Pd,
    format: vk::Format,
    ty: vk::ImageType,
    tiling: vk::ImageTiling,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
    p_properties: *mut vk::ImageFormatProperties,
) -> vk::Result {
    guard("vkGetPhysicalDeviceImageFormatProperties", || {
        // SAFETY: a live handle.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        let out = unsafe { output(p_properties)? };
        let query = ImageQuery { format, ty, tiling, usage, flags };
        // "If format is not a supported image format, or if the combination of format, type,
        // tiling, usage, and flags is not supported for images, then
        // vkGetPhysicalDeviceImageFormatProperties returns VK_ERROR_FORMAT_NOT_SUPPORTED"
        // (and the properties are zeroed, which the CTS checks).
        *out = vk::ImageFormatProperties::default();
        *out = formats::image_format_properties(&query)?;
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_image_format_properties2(
    pd: Pd,
    p_info: *const vk::PhysicalDeviceImageFormatInfo2<'_>,
    p_properties: *mut vk::ImageFormatProperties2<'_>,
) -> vk::Result {
    guard("vkGetPhysicalDeviceImageFormatProperties2", || {
        // SAFETY: a live handle.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_info)? };
        // SAFETY: the application passes a writable output structure.
        let out = unsafe { output(p_properties)? };
        out.image_format_properties = vk::ImageFormatProperties::default();
        // SAFETY: the application passes a valid input chain and a writable output chain.
        unsafe { image_format_chain(info.p_next, out.p_next)? };
        // Other chained inputs (stencil usage, view formats...) belong to extensions Ferrum
        // does not expose, so the plain query answers.
        let query = ImageQuery {
            format: info.format,
            ty: info.ty,
            tiling: info.tiling,
            usage: info.usage,
            flags: info.flags,
        };
        out.image_format_properties = formats::image_format_properties(&query)?;
        Ok(())
    })
}

/// The Vulkan 1.1 structures of `vkGetPhysicalDeviceImageFormatProperties2`'s chains.
///
/// No external memory handle type is supported: "If handleType is not compatible with the
/// format, type, tiling, usage, and flags specified in VkPhysicalDeviceImageFormatInfo2, then
/// vkGetPhysicalDeviceImageFormatProperties2 returns VK_ERROR_FORMAT_NOT_SUPPORTED" (a zero
/// handleType asks nothing). Every supported format is single-plane and sampled without
/// Y'CbCr conversion, through one combined image sampler descriptor.
///
/// # Safety
/// `info_next` must be a valid input chain, `out_next` a valid writable output chain.
unsafe fn image_format_chain(
    info_next: *const std::ffi::c_void,
    out_next: *mut std::ffi::c_void,
) -> VkResult<()> {
    // SAFETY: forwarded to the caller.
    let external =
        unsafe { chain::find_in::<vk::PhysicalDeviceExternalImageFormatInfo<'_>>(info_next) };
    // SAFETY: forwarded to the caller.
    for s in unsafe { chain::iter_out(out_next) } {
        // SAFETY: each link is a writable structure of the type its sType names.
        unsafe {
            match (*s).s_type {
                vk::StructureType::EXTERNAL_IMAGE_FORMAT_PROPERTIES => {
                    chain::write_body(s, vk::ExternalImageFormatProperties::default())
                }
                vk::StructureType::SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES => {
                    chain::write_body(
                        s,
                        vk::SamplerYcbcrConversionImageFormatProperties {
                            combined_image_sampler_descriptor_count: 1,
                            ..Default::default()
                        },
                    )
                }
                _ => {}
            }
        }
    }
    match external {
        Some(e) if !e.handle_type.is_empty() => Err(VkError::FormatNotSupported),
        _ => Ok(()),
    }
}

pub unsafe extern "system" fn get_physical_device_sparse_image_format_properties(
    pd: Pd,
    _format: vk::Format,
    _ty: vk::ImageType,
    _samples: vk::SampleCountFlags,
    _usage: vk::ImageUsageFlags,
    _tiling: vk::ImageTiling,
    p_count: *mut u32,
    p_properties: *mut vk::SparseImageFormatProperties,
) {
    guard_void("vkGetPhysicalDeviceSparseImageFormatProperties", || {
        // SAFETY: a live handle and two-call idiom pointers; sparse images are unsupported.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: two-call idiom pointers from the application (a void command cannot report
        // VK_INCOMPLETE).
        unsafe { out::write_all(p_count, p_properties, &[]) }.map(drop)
    })
}

pub unsafe extern "system" fn get_physical_device_sparse_image_format_properties2(
    pd: Pd,
    _p_info: *const vk::PhysicalDeviceSparseImageFormatInfo2<'_>,
    p_count: *mut u32,
    p_properties: *mut vk::SparseImageFormatProperties2<'_>,
) {
    guard_void("vkGetPhysicalDeviceSparseImageFormatProperties2", || {
        // SAFETY: a live handle and two-call idiom pointers; sparse images are unsupported.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: two-call idiom pointers from the application (a void command cannot report
        // VK_INCOMPLETE).
        unsafe { out::write_with(p_count, p_properties, 0, |_, _| ()) }.map(drop)
    })
}

pub unsafe extern "system" fn get_physical_device_external_buffer_properties(
    pd: Pd,
    _p_info: *const vk::PhysicalDeviceExternalBufferInfo<'_>,
    p_properties: *mut vk::ExternalBufferProperties<'_>,
) {
    guard_void("vkGetPhysicalDeviceExternalBufferProperties", || {
        // SAFETY: a live handle and a valid output structure. No external memory handle types
        // are supported, which the spec expresses as all-zero properties.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        unsafe { output(p_properties)? }.external_memory_properties =
            vk::ExternalMemoryProperties::default();
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_external_fence_properties(
    pd: Pd,
    _p_info: *const vk::PhysicalDeviceExternalFenceInfo<'_>,
    p_properties: *mut vk::ExternalFenceProperties<'_>,
) {
    guard_void("vkGetPhysicalDeviceExternalFenceProperties", || {
        // SAFETY: a live handle and a valid output structure; no external fence handles.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        let p = unsafe { output(p_properties)? };
        p.export_from_imported_handle_types = vk::ExternalFenceHandleTypeFlags::empty();
        p.compatible_handle_types = vk::ExternalFenceHandleTypeFlags::empty();
        p.external_fence_features = vk::ExternalFenceFeatureFlags::empty();
        Ok(())
    })
}

pub unsafe extern "system" fn get_physical_device_external_semaphore_properties(
    pd: Pd,
    _p_info: *const vk::PhysicalDeviceExternalSemaphoreInfo<'_>,
    p_properties: *mut vk::ExternalSemaphoreProperties<'_>,
) {
    guard_void("vkGetPhysicalDeviceExternalSemaphoreProperties", || {
        // SAFETY: a live handle and a valid output structure; no external semaphore handles.
        unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a writable output pointer.
        let p = unsafe { output(p_properties)? };
        p.export_from_imported_handle_types = vk::ExternalSemaphoreHandleTypeFlags::empty();
        p.compatible_handle_types = vk::ExternalSemaphoreHandleTypeFlags::empty();
        p.external_semaphore_features = vk::ExternalSemaphoreFeatureFlags::empty();
        Ok(())
    })
}

pub unsafe extern "system" fn enumerate_device_extension_properties(
    pd: Pd,
    p_layer_name: *const c_char,
    p_count: *mut u32,
    p_properties: *mut vk::ExtensionProperties,
) -> vk::Result {
    guard_status("vkEnumerateDeviceExtensionProperties", || {
        // SAFETY: a live handle and two-call idiom pointers.
        unsafe { obj::<PhysicalDevice>(pd)? };
        if !p_layer_name.is_null() {
            return Err(VkError::LayerNotPresent("driver layers".into()));
        }
        // SAFETY: two-call idiom pointers from the application.
        unsafe {
            out::write_all(p_count, p_properties, &out::extension_properties(DEVICE_EXTENSIONS))
        }
    })
}

pub unsafe extern "system" fn create_device(
    pd: Pd,
    p_create_info: *const vk::DeviceCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_device: *mut vk::Device,
) -> vk::Result {
    guard("vkCreateDevice", || {
        let pd_handle = pd;
        // SAFETY: a live handle, a valid create info and a writable handle pointer.
        let pd = unsafe { obj::<PhysicalDevice>(pd)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        // SAFETY: the application passes a writable output pointer.
        let out = unsafe { output(p_device)? };
        // SAFETY: the chain of a valid create info.
        let group = unsafe { chain::find_in::<vk::DeviceGroupDeviceCreateInfo<'_>>(info.p_next) };
        if let Some(group) = group {
            check_device_group(group, pd_handle)?;
        }
        // SAFETY: `info` is a valid create info (checked non-null above).
        // SAFETY: null or valid callbacks (valid usage). Without them the device uses Rust's
        // allocator (physical devices do not keep their instance's callbacks).
        let host = unsafe { HostMemory::from_ptr(p_allocator, HostMemory::SYSTEM) };
        // SAFETY: `info` is a valid create info (checked non-null above).
        *out = (*unsafe { Device::create(pd.adapter.clone(), info)? }).into_handle_in(host)?;
        Ok(())
    })
}

/// VUID-VkDeviceGroupDeviceCreateInfo-physicalDeviceCount-00377: the group's devices must
/// include the one `vkCreateDevice` was called on; every Ferrum group holds just that one.
fn check_device_group(group: &vk::DeviceGroupDeviceCreateInfo<'_>, pd: Pd) -> VkResult<()> {
    let members = array(group.p_physical_devices, group.physical_device_count);
    match members {
        [] => Ok(()),
        [only] if *only == pd => Ok(()),
        _ => Err(VkError::InitializationFailed(
            "device group names a physical device outside this device's group".into(),
        )),
    }
}
