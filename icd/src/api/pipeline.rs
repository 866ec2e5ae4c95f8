//! Pipeline layout and shader module commands.

use ash::vk;

use super::{output, reference};
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value};
use crate::pipeline::{Pipeline, PipelineCache, PipelineLayout, ShaderModule};

pub unsafe extern "system" fn create_pipeline_layout(
    device: vk::Device,
    p_create_info: *const vk::PipelineLayoutCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_layout: *mut vk::PipelineLayout,
) -> vk::Result {
    guard("vkCreatePipelineLayout", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let layout = PipelineLayout::new(info)?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_layout)? } = layout.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_pipeline_layout(
    _device: vk::Device,
    layout: vk::PipelineLayout,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyPipelineLayout", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { PipelineLayout::take_handle(layout) });
    })
}

pub unsafe extern "system" fn create_shader_module(
    device: vk::Device,
    p_create_info: *const vk::ShaderModuleCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_module: *mut vk::ShaderModule,
) -> vk::Result {
    guard("vkCreateShaderModule", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let module = ShaderModule::new(info)?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_module)? } = module.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_shader_module(
    _device: vk::Device,
    module: vk::ShaderModule,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyShaderModule", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { ShaderModule::take_handle(module) });
    })
}

pub unsafe extern "system" fn create_compute_pipelines(
    device: vk::Device,
    cache: vk::PipelineCache,
    count: u32,
    p_infos: *const vk::ComputePipelineCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pipelines: *mut vk::Pipeline,
) -> vk::Result {
    guard("vkCreateComputePipelines", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: a live device and `count` valid create infos (valid usage).
        let device = unsafe { super::obj::<crate::core::device::Device>(device)? };
        if p_pipelines.is_null() && count > 0 {
            return Err(crate::error::VkError::InvalidUsage("null pPipelines"));
        }
        // SAFETY: a null or live pipeline cache (valid usage).
        let cache = unsafe { PipelineCache::from_handle(cache) };
        let infos = super::array(p_infos, count);
        // "When an application attempts to create many pipelines in a single command, it is
        // possible that some subset may fail creation. In that case, the corresponding entries
        // in the pPipelines output array will be filled with VK_NULL_HANDLE."
        // SAFETY: the application passes room for `count` handles.
        (0..infos.len()).for_each(|i| unsafe { p_pipelines.add(i).write(vk::Pipeline::null()) });
        let mut first_error = None;
        for (i, info) in infos.iter().enumerate() {
            let created = Pipeline::create(&device.shared, cache, info);
            let made = created.and_then(|p| p.into_handle_in(host));
            match made.map_err(crate::error::VkError::in_pipeline_creation) {
                // SAFETY: as above.
                Ok(handle) => unsafe { p_pipelines.add(i).write(handle) },
                Err(e) => {
                    // A refused shader is a driver limitation the user must be able to see;
                    // a compile-required answer is an expected outcome, not a failure.
                    if e == crate::error::VkError::PipelineCompileRequired {
                        log::info!("vkCreateComputePipelines: pipeline {i}: {e}");
                    } else {
                        log::warn!("vkCreateComputePipelines: pipeline {i}: {e}");
                    }
                    first_error.get_or_insert(e);
                    // VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT: return at the first
                    // failure, leaving the later entries null.
                    if info.flags.contains(vk::PipelineCreateFlags::EARLY_RETURN_ON_FAILURE) {
                        break;
                    }
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    })
}

pub unsafe extern "system" fn destroy_pipeline(
    _device: vk::Device,
    pipeline: vk::Pipeline,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyPipeline", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { Pipeline::take_handle(pipeline) });
    })
}

pub unsafe extern "system" fn create_pipeline_cache(
    device: vk::Device,
    p_create_info: *const vk::PipelineCacheCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_cache: *mut vk::PipelineCache,
) -> vk::Result {
    guard("vkCreatePipelineCache", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: a live device and a valid create info.
        let device = unsafe { super::obj::<crate::core::device::Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let initial = super::array(info.p_initial_data.cast::<u8>(), info.initial_data_size as u32);
        let cache = PipelineCache::new(&device.adapter, initial);
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_cache)? } = cache.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn destroy_pipeline_cache(
    _device: vk::Device,
    cache: vk::PipelineCache,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyPipelineCache", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { PipelineCache::take_handle(cache) });
    })
}

pub unsafe extern "system" fn get_pipeline_cache_data(
    _device: vk::Device,
    cache: vk::PipelineCache,
    p_size: *mut usize,
    p_data: *mut std::ffi::c_void,
) -> vk::Result {
    crate::entry::guard_status("vkGetPipelineCacheData", || {
        // SAFETY: a live cache and a writable size pointer.
        let cache = unsafe { super::obj::<PipelineCache>(cache)? };
        // SAFETY: the application passes a writable output pointer.
        let size = unsafe { output(p_size)? };
        let blob = cache.serialize();
        if p_data.is_null() {
            *size = blob.len();
            return Ok(vk::Result::SUCCESS);
        }
        // "at most pDataSize bytes will be written ... and VK_INCOMPLETE will be returned";
        // what is written must still be a valid cache, so a blob that does not fit entirely
        // is not written at all.
        if *size < blob.len() {
            *size = 0;
            return Ok(vk::Result::INCOMPLETE);
        }
        // SAFETY: `p_data` has room for `*size >= blob.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(blob.as_ptr(), p_data.cast(), blob.len()) };
        *size = blob.len();
        Ok(vk::Result::SUCCESS)
    })
}

pub unsafe extern "system" fn merge_pipeline_caches(
    _device: vk::Device,
    dst: vk::PipelineCache,
    count: u32,
    p_src: *const vk::PipelineCache,
) -> vk::Result {
    guard("vkMergePipelineCaches", || {
        // SAFETY: live caches (valid usage).
        let dst = unsafe { super::obj::<PipelineCache>(dst)? };
        for &s in super::array(p_src, count) {
            // SAFETY: as above.
            dst.merge(unsafe { super::obj::<PipelineCache>(s)? });
        }
        Ok(())
    })
}
