//! Pipeline layout and shader module commands.

use ash::vk;

use super::{output, reference};
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value};
use crate::pipeline::{PipelineLayout, ShaderModule};

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
