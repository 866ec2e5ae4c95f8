//! Sampler Y′CbCr conversion objects (core in Vulkan 1.1, from VK_KHR_sampler_ycbcr_conversion).
//!
//! The commands are core in 1.1, so they exist, but the `samplerYcbcrConversion` feature they
//! need is not supported (no multi-planar formats, no chroma reconstruction in the sampler
//! path). Without the feature no conversion can be created validly
//! (VUID-vkCreateSamplerYcbcrConversion-None-01648), so creation is refused loudly and only
//! the null handle can reach destruction.

use ash::vk;

use super::{obj, output};
use crate::core::device::Device;
use crate::entry::{guard, guard_void};
use crate::error::VkError;

pub unsafe extern "system" fn create_sampler_ycbcr_conversion(
    device: vk::Device,
    _p_create_info: *const vk::SamplerYcbcrConversionCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_conversion: *mut vk::SamplerYcbcrConversion,
) -> vk::Result {
    guard("vkCreateSamplerYcbcrConversion", || {
        // SAFETY: a live handle and a writable output pointer (valid usage).
        unsafe { obj::<Device>(device)? };
        // SAFETY: as above.
        *unsafe { output(p_conversion)? } = vk::SamplerYcbcrConversion::null();
        Err(VkError::InvalidUsage(
            "samplerYcbcrConversion is not supported (VUID-vkCreateSamplerYcbcrConversion-None-01648)",
        ))
    })
}

pub unsafe extern "system" fn destroy_sampler_ycbcr_conversion(
    device: vk::Device,
    conversion: vk::SamplerYcbcrConversion,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_void("vkDestroySamplerYcbcrConversion", || {
        // SAFETY: a live handle (valid usage).
        unsafe { obj::<Device>(device)? };
        // VUID-vkDestroySamplerYcbcrConversion-ycbcrConversion-parameter: null or a handle
        // that vkCreateSamplerYcbcrConversion returned, which never happens.
        if conversion != vk::SamplerYcbcrConversion::null() {
            return Err(VkError::InvalidUsage("no sampler Y'CbCr conversion was ever created"));
        }
        Ok(())
    })
}
