//! Pipeline layout and shader module commands.

use ash::vk;

use super::{output, reference};
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value};
use crate::pipeline::{Pipeline, PipelineCache, PipelineLayout, ShaderModule};

pub unsafe extern "system" fn create_pipeline_layout(
    _device: vk::Device,
    p_create_info: *const vk::PipelineLayoutCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_layout: *mut vk::PipelineLayout,
) -> vk::Result {
    guard("vkCreatePipelineLayout", || {
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let layout = PipelineLayout::new(info)?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_layout)? } = Box::new(layout).into_handle();
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
    _device: vk::Device,
    p_create_info: *const vk::ShaderModuleCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_module: *mut vk::ShaderModule,
) -> vk::Result {
    guard("vkCreateShaderModule", || {
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let module = ShaderModule::new(info)?;
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_module)? } = Box::new(module).into_handle();
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
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pipelines: *mut vk::Pipeline,
) -> vk::Result {
    guard("vkCreateComputePipelines", || {
        // SAFETY: a live device and `count` valid create infos (valid usage).
        let device = unsafe { super::obj::<crate::core::device::Device>(device)? };
        if p_pipelines.is_null() && count > 0 {
            return Err(crate::error::VkError::InvalidUsage("null pPipelines"));
        }
        // SAFETY: a null or live pipeline cache (valid usage).
        let cache = unsafe { PipelineCache::from_handle(cache) };
        let mut first_error = None;
        for (i, info) in super::array(p_infos, count).iter().enumerate() {
            // "When an application attempts to create many pipelines in a single command, it
            // is possible that some subset may fail creation. In that case, the corresponding
            // entries in the pPipelines output array will be filled with VK_NULL_HANDLE."
            let handle = match Pipeline::create(&device.shared, cache, info) {
                Ok(p) => Box::new(p).into_handle(),
                Err(e) => {
                    log::warn!("vkCreateComputePipelines: pipeline {i}: {e}");
                    first_error.get_or_insert(e);
                    vk::Pipeline::null()
                }
            };
            // SAFETY: the application passes room for `count` handles.
            unsafe { p_pipelines.add(i).write(handle) };
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
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_cache: *mut vk::PipelineCache,
) -> vk::Result {
    guard("vkCreatePipelineCache", || {
        // SAFETY: a live device and a valid create info.
        let device = unsafe { super::obj::<crate::core::device::Device>(device)? };
        // SAFETY: the application passes a valid input structure.
        let info = unsafe { reference(p_create_info)? };
        let initial = super::array(info.p_initial_data.cast::<u8>(), info.initial_data_size as u32);
        let cache = PipelineCache::new(&device.adapter, initial);
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_cache)? } = Box::new(cache).into_handle();
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
