//! The table of every command Ferrum implements.
//!
//! Each row names the ash `PFN_` type of the command, so a function whose signature drifts
//! from the Vulkan headers fails to compile instead of corrupting the caller's stack.

use std::ffi::CStr;

use ash::vk;

use crate::api::{
    buffer, command_pool as pool, commands as cmd, compute, descriptor as desc, device,
    device_address as bda, device_group as group, dynamic_state as dyn_state, executable as exe,
    graphics as g3d, graphics_pending as gfx, image as img, instance, memory, multi_draw,
    physical_device as pd, pipeline, query, queue, sync, transfer as xfer, transfer2 as xfer2,
    ycbcr,
};

/// How a command is dispatched, which decides which `GetProcAddr` may return it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Callable without an instance (`vkCreateInstance`, enumeration, the loader interface).
    Global,
    Instance,
    PhysicalDevice,
    Device,
}

type VoidFn = unsafe extern "system" fn();

/// One command.
pub struct Entry {
    pub name: &'static CStr,
    pub level: Level,
    pub func: VoidFn,
    /// The core version or the extension that brings the command under this name.
    pub provider: Provider,
}

/// What brings a command under one of its names. A promoted command has a row per name:
/// `vkTrimCommandPool` (core 1.1) and `vkTrimCommandPoolKHR` (VK_KHR_maintenance1) are found
/// under different conditions, as the spec says of aliases ("a function pointer for a given
/// alias can only be retrieved if the extension or version that introduced that alias is
/// supported and enabled").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// A core command of this API version (`vk::API_VERSION_1_x`): `vkGetDeviceProcAddr`
    /// answers it on devices whose API version includes it.
    Core(u32),
    /// A device extension's name for the command (`vkTrimCommandPoolKHR`):
    /// `vkGetDeviceProcAddr` answers it only on devices that enabled the extension.
    Extension(&'static CStr),
}

impl Provider {
    /// The extension, for an extension's name of a command.
    pub fn extension(self) -> Option<&'static CStr> {
        match self {
            Provider::Extension(ext) => Some(ext),
            Provider::Core(_) => None,
        }
    }
}

/// `vk_icdNegotiateLoaderICDInterfaceVersion` (no ash type: it is not a Vulkan command).
pub type PfnNegotiate = unsafe extern "system" fn(*mut u32) -> vk::Result;
/// `vk_icdGetPhysicalDeviceProcAddr`.
pub type PfnGetPhysicalDeviceProcAddr =
    unsafe extern "system" fn(vk::Instance, *const std::ffi::c_char) -> vk::PFN_vkVoidFunction;

/// A row's provider: `in c"VK_..."` for an extension's name, `since API_VERSION_1_x` for a
/// core command newer than 1.0, nothing for Vulkan 1.0.
macro_rules! provider {
    () => {
        Provider::Core(vk::API_VERSION_1_0)
    };
    (in $ext:literal) => {
        Provider::Extension($ext)
    };
    (since $version:ident) => {
        Provider::Core(vk::$version)
    };
}

macro_rules! entries {
    ($($level:ident $name:literal $($how:ident $what:tt)? : $pfn:ty => $f:path;)*) => {
        pub static ENTRIES: &[Entry] = &[$(
            Entry {
                name: $name,
                level: Level::$level,
                provider: provider!($($how $what)?),
                func: {
                    const F: $pfn = $f;
                    // SAFETY: the loader casts the pointer back to the command's own type,
                    // which `$pfn` checked at compile time above.
                    unsafe { std::mem::transmute::<$pfn, VoidFn>(F) }
                },
            },
        )*];
    };
}

entries! {
    Global c"vkGetInstanceProcAddr": vk::PFN_vkGetInstanceProcAddr => instance::get_instance_proc_addr;
    Global c"vkCreateInstance": vk::PFN_vkCreateInstance => instance::create_instance;
    Global c"vkEnumerateInstanceVersion" since API_VERSION_1_1: vk::PFN_vkEnumerateInstanceVersion => instance::enumerate_instance_version;
    Global c"vkEnumerateInstanceExtensionProperties": vk::PFN_vkEnumerateInstanceExtensionProperties => instance::enumerate_instance_extension_properties;
    Global c"vk_icdNegotiateLoaderICDInterfaceVersion": PfnNegotiate => crate::vk_icdNegotiateLoaderICDInterfaceVersion;
    Global c"vk_icdGetPhysicalDeviceProcAddr": PfnGetPhysicalDeviceProcAddr => crate::vk_icdGetPhysicalDeviceProcAddr;

    Instance c"vkDestroyInstance": vk::PFN_vkDestroyInstance => instance::destroy_instance;
    Instance c"vkEnumeratePhysicalDevices": vk::PFN_vkEnumeratePhysicalDevices => instance::enumerate_physical_devices;
    Instance c"vkEnumeratePhysicalDeviceGroups" since API_VERSION_1_1: vk::PFN_vkEnumeratePhysicalDeviceGroups => instance::enumerate_physical_device_groups;
    Instance c"vkEnumeratePhysicalDeviceGroupsKHR" in c"VK_KHR_device_group_creation": vk::PFN_vkEnumeratePhysicalDeviceGroups => instance::enumerate_physical_device_groups;

    PhysicalDevice c"vkGetPhysicalDeviceFeatures": vk::PFN_vkGetPhysicalDeviceFeatures => pd::get_physical_device_features;
    PhysicalDevice c"vkGetPhysicalDeviceFeatures2" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceFeatures2 => pd::get_physical_device_features2;
    PhysicalDevice c"vkGetPhysicalDeviceFeatures2KHR" in c"VK_KHR_get_physical_device_properties2": vk::PFN_vkGetPhysicalDeviceFeatures2 => pd::get_physical_device_features2;
    PhysicalDevice c"vkGetPhysicalDeviceProperties": vk::PFN_vkGetPhysicalDeviceProperties => pd::get_physical_device_properties;
    PhysicalDevice c"vkGetPhysicalDeviceProperties2" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceProperties2 => pd::get_physical_device_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceProperties2KHR" in c"VK_KHR_get_physical_device_properties2": vk::PFN_vkGetPhysicalDeviceProperties2 => pd::get_physical_device_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceQueueFamilyProperties": vk::PFN_vkGetPhysicalDeviceQueueFamilyProperties => pd::get_physical_device_queue_family_properties;
    PhysicalDevice c"vkGetPhysicalDeviceQueueFamilyProperties2" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceQueueFamilyProperties2 => pd::get_physical_device_queue_family_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceQueueFamilyProperties2KHR" in c"VK_KHR_get_physical_device_properties2": vk::PFN_vkGetPhysicalDeviceQueueFamilyProperties2 => pd::get_physical_device_queue_family_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceMemoryProperties": vk::PFN_vkGetPhysicalDeviceMemoryProperties => pd::get_physical_device_memory_properties;
    PhysicalDevice c"vkGetPhysicalDeviceMemoryProperties2" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceMemoryProperties2 => pd::get_physical_device_memory_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceMemoryProperties2KHR" in c"VK_KHR_get_physical_device_properties2": vk::PFN_vkGetPhysicalDeviceMemoryProperties2 => pd::get_physical_device_memory_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceFormatProperties": vk::PFN_vkGetPhysicalDeviceFormatProperties => pd::get_physical_device_format_properties;
    PhysicalDevice c"vkGetPhysicalDeviceFormatProperties2" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceFormatProperties2 => pd::get_physical_device_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceFormatProperties2KHR" in c"VK_KHR_get_physical_device_properties2": vk::PFN_vkGetPhysicalDeviceFormatProperties2 => pd::get_physical_device_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceImageFormatProperties": vk::PFN_vkGetPhysicalDeviceImageFormatProperties => pd::get_physical_device_image_format_properties;
    PhysicalDevice c"vkGetPhysicalDeviceImageFormatProperties2" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceImageFormatProperties2 => pd::get_physical_device_image_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceImageFormatProperties2KHR" in c"VK_KHR_get_physical_device_properties2": vk::PFN_vkGetPhysicalDeviceImageFormatProperties2 => pd::get_physical_device_image_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceSparseImageFormatProperties": vk::PFN_vkGetPhysicalDeviceSparseImageFormatProperties => pd::get_physical_device_sparse_image_format_properties;
    PhysicalDevice c"vkGetPhysicalDeviceSparseImageFormatProperties2" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceSparseImageFormatProperties2 => pd::get_physical_device_sparse_image_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceSparseImageFormatProperties2KHR" in c"VK_KHR_get_physical_device_properties2": vk::PFN_vkGetPhysicalDeviceSparseImageFormatProperties2 => pd::get_physical_device_sparse_image_format_properties2;
    PhysicalDevice c"vkGetPhysicalDeviceExternalBufferProperties" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceExternalBufferProperties => pd::get_physical_device_external_buffer_properties;
    PhysicalDevice c"vkGetPhysicalDeviceExternalFenceProperties" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceExternalFenceProperties => pd::get_physical_device_external_fence_properties;
    PhysicalDevice c"vkGetPhysicalDeviceExternalSemaphoreProperties" since API_VERSION_1_1: vk::PFN_vkGetPhysicalDeviceExternalSemaphoreProperties => pd::get_physical_device_external_semaphore_properties;
    PhysicalDevice c"vkEnumerateDeviceExtensionProperties": vk::PFN_vkEnumerateDeviceExtensionProperties => pd::enumerate_device_extension_properties;
    PhysicalDevice c"vkCreateDevice": vk::PFN_vkCreateDevice => pd::create_device;

    Device c"vkGetDeviceProcAddr": vk::PFN_vkGetDeviceProcAddr => device::get_device_proc_addr;
    Device c"vkDestroyDevice": vk::PFN_vkDestroyDevice => device::destroy_device;
    Device c"vkGetDeviceQueue": vk::PFN_vkGetDeviceQueue => device::get_device_queue;
    Device c"vkGetDeviceQueue2" since API_VERSION_1_1: vk::PFN_vkGetDeviceQueue2 => device::get_device_queue2;
    Device c"vkDeviceWaitIdle": vk::PFN_vkDeviceWaitIdle => device::device_wait_idle;
    Device c"vkQueueWaitIdle": vk::PFN_vkQueueWaitIdle => queue::queue_wait_idle;
    Device c"vkQueueSubmit": vk::PFN_vkQueueSubmit => queue::queue_submit;
    Device c"vkQueueSubmit2" since API_VERSION_1_3: vk::PFN_vkQueueSubmit2 => queue::queue_submit2;
    Device c"vkQueueSubmit2KHR" in c"VK_KHR_synchronization2": vk::PFN_vkQueueSubmit2 => queue::queue_submit2;
    Device c"vkAllocateMemory": vk::PFN_vkAllocateMemory => memory::allocate_memory;
    Device c"vkFreeMemory": vk::PFN_vkFreeMemory => memory::free_memory;
    Device c"vkMapMemory": vk::PFN_vkMapMemory => memory::map_memory;
    Device c"vkUnmapMemory": vk::PFN_vkUnmapMemory => memory::unmap_memory;
    Device c"vkFlushMappedMemoryRanges": vk::PFN_vkFlushMappedMemoryRanges => memory::flush_mapped_memory_ranges;
    Device c"vkInvalidateMappedMemoryRanges": vk::PFN_vkInvalidateMappedMemoryRanges => memory::invalidate_mapped_memory_ranges;
    Device c"vkBindBufferMemory": vk::PFN_vkBindBufferMemory => buffer::bind_buffer_memory;
    Device c"vkBindBufferMemory2" since API_VERSION_1_1: vk::PFN_vkBindBufferMemory2 => buffer::bind_buffer_memory2;
    Device c"vkCreateBuffer": vk::PFN_vkCreateBuffer => buffer::create_buffer;
    Device c"vkDestroyBuffer": vk::PFN_vkDestroyBuffer => buffer::destroy_buffer;
    Device c"vkGetBufferMemoryRequirements": vk::PFN_vkGetBufferMemoryRequirements => buffer::get_buffer_memory_requirements;
    Device c"vkGetBufferMemoryRequirements2" since API_VERSION_1_1: vk::PFN_vkGetBufferMemoryRequirements2 => buffer::get_buffer_memory_requirements2;
    Device c"vkGetBufferDeviceAddressKHR" in c"VK_KHR_buffer_device_address": vk::PFN_vkGetBufferDeviceAddress => bda::get_buffer_device_address;
    Device c"vkGetBufferOpaqueCaptureAddressKHR" in c"VK_KHR_buffer_device_address": vk::PFN_vkGetBufferOpaqueCaptureAddress => bda::get_buffer_opaque_capture_address;
    Device c"vkGetDeviceMemoryOpaqueCaptureAddressKHR" in c"VK_KHR_buffer_device_address": vk::PFN_vkGetDeviceMemoryOpaqueCaptureAddress => bda::get_device_memory_opaque_capture_address;
    Device c"vkCreateFence": vk::PFN_vkCreateFence => sync::create_fence;
    Device c"vkDestroyFence": vk::PFN_vkDestroyFence => sync::destroy_fence;
    Device c"vkResetFences": vk::PFN_vkResetFences => sync::reset_fences;
    Device c"vkGetFenceStatus": vk::PFN_vkGetFenceStatus => sync::get_fence_status;
    Device c"vkWaitForFences": vk::PFN_vkWaitForFences => sync::wait_for_fences;
    Device c"vkCreateSemaphore": vk::PFN_vkCreateSemaphore => sync::create_semaphore;
    Device c"vkDestroySemaphore": vk::PFN_vkDestroySemaphore => sync::destroy_semaphore;
    Device c"vkGetSemaphoreCounterValueKHR" in c"VK_KHR_timeline_semaphore": vk::PFN_vkGetSemaphoreCounterValue => sync::get_semaphore_counter_value;
    Device c"vkSignalSemaphoreKHR" in c"VK_KHR_timeline_semaphore": vk::PFN_vkSignalSemaphore => sync::signal_semaphore;
    Device c"vkWaitSemaphoresKHR" in c"VK_KHR_timeline_semaphore": vk::PFN_vkWaitSemaphores => sync::wait_semaphores;
    Device c"vkCreateCommandPool": vk::PFN_vkCreateCommandPool => pool::create_command_pool;
    Device c"vkDestroyCommandPool": vk::PFN_vkDestroyCommandPool => pool::destroy_command_pool;
    Device c"vkResetCommandPool": vk::PFN_vkResetCommandPool => pool::reset_command_pool;
    Device c"vkAllocateCommandBuffers": vk::PFN_vkAllocateCommandBuffers => pool::allocate_command_buffers;
    Device c"vkFreeCommandBuffers": vk::PFN_vkFreeCommandBuffers => pool::free_command_buffers;
    Device c"vkBeginCommandBuffer": vk::PFN_vkBeginCommandBuffer => pool::begin_command_buffer;
    Device c"vkEndCommandBuffer": vk::PFN_vkEndCommandBuffer => pool::end_command_buffer;
    Device c"vkResetCommandBuffer": vk::PFN_vkResetCommandBuffer => pool::reset_command_buffer;
    Device c"vkCmdUpdateBuffer": vk::PFN_vkCmdUpdateBuffer => cmd::cmd_update_buffer;
    Device c"vkCmdFillBuffer": vk::PFN_vkCmdFillBuffer => cmd::cmd_fill_buffer;
    Device c"vkCmdCopyBuffer": vk::PFN_vkCmdCopyBuffer => cmd::cmd_copy_buffer;
    Device c"vkCmdPipelineBarrier": vk::PFN_vkCmdPipelineBarrier => cmd::cmd_pipeline_barrier;
    Device c"vkCmdPipelineBarrier2KHR" in c"VK_KHR_synchronization2": vk::PFN_vkCmdPipelineBarrier2 => cmd::cmd_pipeline_barrier2;
    Device c"vkCmdSetEvent": vk::PFN_vkCmdSetEvent => cmd::cmd_set_event;
    Device c"vkCmdResetEvent": vk::PFN_vkCmdResetEvent => cmd::cmd_reset_event;
    Device c"vkCmdWaitEvents": vk::PFN_vkCmdWaitEvents => cmd::cmd_wait_events;
    Device c"vkCmdSetEvent2KHR" in c"VK_KHR_synchronization2": vk::PFN_vkCmdSetEvent2 => cmd::cmd_set_event2;
    Device c"vkCmdResetEvent2KHR" in c"VK_KHR_synchronization2": vk::PFN_vkCmdResetEvent2 => cmd::cmd_reset_event2;
    Device c"vkCmdWaitEvents2KHR" in c"VK_KHR_synchronization2": vk::PFN_vkCmdWaitEvents2 => cmd::cmd_wait_events2;
    Device c"vkCmdWriteTimestamp2KHR" in c"VK_KHR_synchronization2": vk::PFN_vkCmdWriteTimestamp2 => cmd::cmd_write_timestamp2;
    Device c"vkCmdResetQueryPool": vk::PFN_vkCmdResetQueryPool => cmd::cmd_reset_query_pool;
    Device c"vkCmdWriteTimestamp": vk::PFN_vkCmdWriteTimestamp => cmd::cmd_write_timestamp;
    Device c"vkCmdCopyQueryPoolResults": vk::PFN_vkCmdCopyQueryPoolResults => cmd::cmd_copy_query_pool_results;
    Device c"vkCmdExecuteCommands": vk::PFN_vkCmdExecuteCommands => cmd::cmd_execute_commands;
    Device c"vkCreateDescriptorSetLayout": vk::PFN_vkCreateDescriptorSetLayout => desc::create_descriptor_set_layout;
    Device c"vkDestroyDescriptorSetLayout": vk::PFN_vkDestroyDescriptorSetLayout => desc::destroy_descriptor_set_layout;
    Device c"vkCreateDescriptorPool": vk::PFN_vkCreateDescriptorPool => desc::create_descriptor_pool;
    Device c"vkDestroyDescriptorPool": vk::PFN_vkDestroyDescriptorPool => desc::destroy_descriptor_pool;
    Device c"vkResetDescriptorPool": vk::PFN_vkResetDescriptorPool => desc::reset_descriptor_pool;
    Device c"vkAllocateDescriptorSets": vk::PFN_vkAllocateDescriptorSets => desc::allocate_descriptor_sets;
    Device c"vkFreeDescriptorSets": vk::PFN_vkFreeDescriptorSets => desc::free_descriptor_sets;
    Device c"vkUpdateDescriptorSets": vk::PFN_vkUpdateDescriptorSets => desc::update_descriptor_sets;
    Device c"vkCreatePipelineLayout": vk::PFN_vkCreatePipelineLayout => pipeline::create_pipeline_layout;
    Device c"vkDestroyPipelineLayout": vk::PFN_vkDestroyPipelineLayout => pipeline::destroy_pipeline_layout;
    Device c"vkCreateShaderModule": vk::PFN_vkCreateShaderModule => pipeline::create_shader_module;
    Device c"vkDestroyShaderModule": vk::PFN_vkDestroyShaderModule => pipeline::destroy_shader_module;
    Device c"vkCreatePipelineCache": vk::PFN_vkCreatePipelineCache => pipeline::create_pipeline_cache;
    Device c"vkDestroyPipelineCache": vk::PFN_vkDestroyPipelineCache => pipeline::destroy_pipeline_cache;
    Device c"vkGetPipelineCacheData": vk::PFN_vkGetPipelineCacheData => pipeline::get_pipeline_cache_data;
    Device c"vkMergePipelineCaches": vk::PFN_vkMergePipelineCaches => pipeline::merge_pipeline_caches;
    Device c"vkGetPipelineExecutablePropertiesKHR" in c"VK_KHR_pipeline_executable_properties": vk::PFN_vkGetPipelineExecutablePropertiesKHR => exe::get_pipeline_executable_properties;
    Device c"vkGetPipelineExecutableStatisticsKHR" in c"VK_KHR_pipeline_executable_properties": vk::PFN_vkGetPipelineExecutableStatisticsKHR => exe::get_pipeline_executable_statistics;
    Device c"vkGetPipelineExecutableInternalRepresentationsKHR" in c"VK_KHR_pipeline_executable_properties": vk::PFN_vkGetPipelineExecutableInternalRepresentationsKHR => exe::get_pipeline_executable_internal_representations;
    Device c"vkCreateComputePipelines": vk::PFN_vkCreateComputePipelines => pipeline::create_compute_pipelines;
    Device c"vkDestroyPipeline": vk::PFN_vkDestroyPipeline => pipeline::destroy_pipeline;
    Device c"vkCmdBindPipeline": vk::PFN_vkCmdBindPipeline => compute::cmd_bind_pipeline;
    Device c"vkCmdBindDescriptorSets": vk::PFN_vkCmdBindDescriptorSets => compute::cmd_bind_descriptor_sets;
    Device c"vkCmdPushConstants": vk::PFN_vkCmdPushConstants => compute::cmd_push_constants;
    Device c"vkCmdDispatch": vk::PFN_vkCmdDispatch => compute::cmd_dispatch;
    Device c"vkCmdDispatchIndirect": vk::PFN_vkCmdDispatchIndirect => compute::cmd_dispatch_indirect;
    Device c"vkCmdDispatchBaseKHR" in c"VK_KHR_device_group": vk::PFN_vkCmdDispatchBase => group::cmd_dispatch_base;
    Device c"vkCmdSetDeviceMaskKHR" in c"VK_KHR_device_group": vk::PFN_vkCmdSetDeviceMask => group::cmd_set_device_mask;
    Device c"vkGetDeviceGroupPeerMemoryFeaturesKHR" in c"VK_KHR_device_group": vk::PFN_vkGetDeviceGroupPeerMemoryFeatures => group::get_device_group_peer_memory_features;
    Device c"vkCreateQueryPool": vk::PFN_vkCreateQueryPool => query::create_query_pool;
    Device c"vkDestroyQueryPool": vk::PFN_vkDestroyQueryPool => query::destroy_query_pool;
    Device c"vkGetQueryPoolResults": vk::PFN_vkGetQueryPoolResults => query::get_query_pool_results;
    Device c"vkResetQueryPoolEXT" in c"VK_EXT_host_query_reset": vk::PFN_vkResetQueryPool => query::reset_query_pool;
    Device c"vkCreateEvent": vk::PFN_vkCreateEvent => query::create_event;
    Device c"vkDestroyEvent": vk::PFN_vkDestroyEvent => query::destroy_event;
    Device c"vkGetEventStatus": vk::PFN_vkGetEventStatus => query::get_event_status;
    Device c"vkSetEvent": vk::PFN_vkSetEvent => query::set_event;
    Device c"vkResetEvent": vk::PFN_vkResetEvent => query::reset_event;
    Device c"vkGetDeviceMemoryCommitment": vk::PFN_vkGetDeviceMemoryCommitment => memory::get_device_memory_commitment;

    // Images, views, samplers and image transfers.
    Device c"vkCreateImage": vk::PFN_vkCreateImage => img::create_image;
    Device c"vkDestroyImage": vk::PFN_vkDestroyImage => img::destroy_image;
    Device c"vkGetImageMemoryRequirements": vk::PFN_vkGetImageMemoryRequirements => img::get_image_memory_requirements;
    Device c"vkBindImageMemory": vk::PFN_vkBindImageMemory => img::bind_image_memory;
    Device c"vkGetImageSparseMemoryRequirements": vk::PFN_vkGetImageSparseMemoryRequirements => img::get_image_sparse_memory_requirements;
    Device c"vkGetImageSubresourceLayout": vk::PFN_vkGetImageSubresourceLayout => img::get_image_subresource_layout;
    Device c"vkCreateImageView": vk::PFN_vkCreateImageView => img::create_image_view;
    Device c"vkDestroyImageView": vk::PFN_vkDestroyImageView => img::destroy_image_view;
    Device c"vkCreateBufferView": vk::PFN_vkCreateBufferView => img::create_buffer_view;
    Device c"vkDestroyBufferView": vk::PFN_vkDestroyBufferView => img::destroy_buffer_view;
    Device c"vkCreateSampler": vk::PFN_vkCreateSampler => img::create_sampler;
    Device c"vkDestroySampler": vk::PFN_vkDestroySampler => img::destroy_sampler;
    Device c"vkCmdCopyImage": vk::PFN_vkCmdCopyImage => xfer::cmd_copy_image;
    Device c"vkCmdBlitImage": vk::PFN_vkCmdBlitImage => xfer::cmd_blit_image;
    Device c"vkCmdCopyBufferToImage": vk::PFN_vkCmdCopyBufferToImage => xfer::cmd_copy_buffer_to_image;
    Device c"vkCmdCopyImageToBuffer": vk::PFN_vkCmdCopyImageToBuffer => xfer::cmd_copy_image_to_buffer;

    // VK_KHR_copy_commands2 (the buffer copy is commands::cmd_copy_buffer2).
    Device c"vkCmdCopyBuffer2KHR" in c"VK_KHR_copy_commands2": vk::PFN_vkCmdCopyBuffer2 => cmd::cmd_copy_buffer2;
    Device c"vkCmdCopyImage2KHR" in c"VK_KHR_copy_commands2": vk::PFN_vkCmdCopyImage2 => xfer2::cmd_copy_image2;
    Device c"vkCmdCopyBufferToImage2KHR" in c"VK_KHR_copy_commands2": vk::PFN_vkCmdCopyBufferToImage2 => xfer2::cmd_copy_buffer_to_image2;
    Device c"vkCmdCopyImageToBuffer2KHR" in c"VK_KHR_copy_commands2": vk::PFN_vkCmdCopyImageToBuffer2 => xfer2::cmd_copy_image_to_buffer2;
    Device c"vkCmdBlitImage2KHR" in c"VK_KHR_copy_commands2": vk::PFN_vkCmdBlitImage2 => xfer2::cmd_blit_image2;
    Device c"vkCmdResolveImage2KHR" in c"VK_KHR_copy_commands2": vk::PFN_vkCmdResolveImage2 => xfer2::cmd_resolve_image2;
    Device c"vkCmdClearColorImage": vk::PFN_vkCmdClearColorImage => xfer::cmd_clear_color_image;
    Device c"vkCmdClearDepthStencilImage": vk::PFN_vkCmdClearDepthStencilImage => xfer::cmd_clear_depth_stencil_image;

    // Graphics and sparse commands of Vulkan 1.0 not implemented yet (see graphics_pending).
    Device c"vkQueueBindSparse": vk::PFN_vkQueueBindSparse => gfx::queue_bind_sparse;
    Device c"vkCreateRenderPass2KHR" in c"VK_KHR_create_renderpass2": vk::PFN_vkCreateRenderPass2 => g3d::create_render_pass2;
    Device c"vkCmdBeginRenderPass2KHR" in c"VK_KHR_create_renderpass2": vk::PFN_vkCmdBeginRenderPass2 => g3d::cmd_begin_render_pass2;
    Device c"vkCmdNextSubpass2KHR" in c"VK_KHR_create_renderpass2": vk::PFN_vkCmdNextSubpass2 => g3d::cmd_next_subpass2;
    Device c"vkCmdEndRenderPass2KHR" in c"VK_KHR_create_renderpass2": vk::PFN_vkCmdEndRenderPass2 => g3d::cmd_end_render_pass2;
    Device c"vkCmdBeginRenderingKHR" in c"VK_KHR_dynamic_rendering": vk::PFN_vkCmdBeginRendering => g3d::cmd_begin_rendering;
    Device c"vkCmdEndRenderingKHR" in c"VK_KHR_dynamic_rendering": vk::PFN_vkCmdEndRendering => g3d::cmd_end_rendering;
    Device c"vkCreateRenderPass": vk::PFN_vkCreateRenderPass => g3d::create_render_pass;
    Device c"vkDestroyRenderPass": vk::PFN_vkDestroyRenderPass => g3d::destroy_render_pass;
    Device c"vkGetRenderAreaGranularity": vk::PFN_vkGetRenderAreaGranularity => g3d::get_render_area_granularity;
    Device c"vkCreateFramebuffer": vk::PFN_vkCreateFramebuffer => g3d::create_framebuffer;
    Device c"vkDestroyFramebuffer": vk::PFN_vkDestroyFramebuffer => g3d::destroy_framebuffer;
    Device c"vkCreateGraphicsPipelines": vk::PFN_vkCreateGraphicsPipelines => g3d::create_graphics_pipelines;
    Device c"vkCmdSetViewport": vk::PFN_vkCmdSetViewport => g3d::cmd_set_viewport;
    Device c"vkCmdSetScissor": vk::PFN_vkCmdSetScissor => g3d::cmd_set_scissor;
    Device c"vkCmdSetLineWidth": vk::PFN_vkCmdSetLineWidth => gfx::cmd_set_line_width;
    Device c"vkCmdSetDepthBias": vk::PFN_vkCmdSetDepthBias => g3d::cmd_set_depth_bias;
    Device c"vkCmdSetBlendConstants": vk::PFN_vkCmdSetBlendConstants => g3d::cmd_set_blend_constants;
    Device c"vkCmdSetDepthBounds": vk::PFN_vkCmdSetDepthBounds => g3d::cmd_set_depth_bounds;
    Device c"vkCmdSetStencilCompareMask": vk::PFN_vkCmdSetStencilCompareMask => g3d::cmd_set_stencil_compare_mask;
    Device c"vkCmdSetStencilWriteMask": vk::PFN_vkCmdSetStencilWriteMask => g3d::cmd_set_stencil_write_mask;
    Device c"vkCmdSetStencilReference": vk::PFN_vkCmdSetStencilReference => g3d::cmd_set_stencil_reference;
    Device c"vkCmdBindIndexBuffer": vk::PFN_vkCmdBindIndexBuffer => g3d::cmd_bind_index_buffer;
    Device c"vkCmdBindVertexBuffers": vk::PFN_vkCmdBindVertexBuffers => g3d::cmd_bind_vertex_buffers;
    Device c"vkCmdDraw": vk::PFN_vkCmdDraw => g3d::cmd_draw;
    Device c"vkCmdDrawIndexed": vk::PFN_vkCmdDrawIndexed => g3d::cmd_draw_indexed;
    Device c"vkCmdDrawIndirect": vk::PFN_vkCmdDrawIndirect => g3d::cmd_draw_indirect;
    Device c"vkCmdDrawIndexedIndirect": vk::PFN_vkCmdDrawIndexedIndirect => g3d::cmd_draw_indexed_indirect;
    Device c"vkCmdDrawIndirectCountKHR" in c"VK_KHR_draw_indirect_count": vk::PFN_vkCmdDrawIndirectCount => g3d::cmd_draw_indirect_count;
    Device c"vkCmdDrawIndexedIndirectCountKHR" in c"VK_KHR_draw_indirect_count": vk::PFN_vkCmdDrawIndexedIndirectCount => g3d::cmd_draw_indexed_indirect_count;
    Device c"vkCmdDrawMultiEXT" in c"VK_EXT_multi_draw": vk::PFN_vkCmdDrawMultiEXT => multi_draw::cmd_draw_multi_ext;
    Device c"vkCmdDrawMultiIndexedEXT" in c"VK_EXT_multi_draw": vk::PFN_vkCmdDrawMultiIndexedEXT => multi_draw::cmd_draw_multi_indexed_ext;
    Device c"vkCmdClearAttachments": vk::PFN_vkCmdClearAttachments => g3d::cmd_clear_attachments;

    // VK_EXT_extended_dynamic_state and _state2 (gfx::dynamic).
    Device c"vkCmdSetCullModeEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetCullMode => dyn_state::cmd_set_cull_mode;
    Device c"vkCmdSetFrontFaceEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetFrontFace => dyn_state::cmd_set_front_face;
    Device c"vkCmdSetPrimitiveTopologyEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetPrimitiveTopology => dyn_state::cmd_set_primitive_topology;
    Device c"vkCmdSetViewportWithCountEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetViewportWithCount => dyn_state::cmd_set_viewport_with_count;
    Device c"vkCmdSetScissorWithCountEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetScissorWithCount => dyn_state::cmd_set_scissor_with_count;
    Device c"vkCmdBindVertexBuffers2EXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdBindVertexBuffers2 => dyn_state::cmd_bind_vertex_buffers2;
    Device c"vkCmdSetDepthTestEnableEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetDepthTestEnable => dyn_state::cmd_set_depth_test_enable;
    Device c"vkCmdSetDepthWriteEnableEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetDepthWriteEnable => dyn_state::cmd_set_depth_write_enable;
    Device c"vkCmdSetDepthCompareOpEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetDepthCompareOp => dyn_state::cmd_set_depth_compare_op;
    Device c"vkCmdSetDepthBoundsTestEnableEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetDepthBoundsTestEnable => dyn_state::cmd_set_depth_bounds_test_enable;
    Device c"vkCmdSetStencilTestEnableEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetStencilTestEnable => dyn_state::cmd_set_stencil_test_enable;
    Device c"vkCmdSetStencilOpEXT" in c"VK_EXT_extended_dynamic_state": vk::PFN_vkCmdSetStencilOp => dyn_state::cmd_set_stencil_op;
    Device c"vkCmdSetRasterizerDiscardEnableEXT" in c"VK_EXT_extended_dynamic_state2": vk::PFN_vkCmdSetRasterizerDiscardEnable => dyn_state::cmd_set_rasterizer_discard_enable;
    Device c"vkCmdSetDepthBiasEnableEXT" in c"VK_EXT_extended_dynamic_state2": vk::PFN_vkCmdSetDepthBiasEnable => dyn_state::cmd_set_depth_bias_enable;
    Device c"vkCmdSetPrimitiveRestartEnableEXT" in c"VK_EXT_extended_dynamic_state2": vk::PFN_vkCmdSetPrimitiveRestartEnable => dyn_state::cmd_set_primitive_restart_enable;
    Device c"vkCmdSetLogicOpEXT" in c"VK_EXT_extended_dynamic_state2": vk::PFN_vkCmdSetLogicOpEXT => dyn_state::cmd_set_logic_op;
    Device c"vkCmdSetPatchControlPointsEXT" in c"VK_EXT_extended_dynamic_state2": vk::PFN_vkCmdSetPatchControlPointsEXT => dyn_state::cmd_set_patch_control_points;
    Device c"vkCmdResolveImage": vk::PFN_vkCmdResolveImage => xfer::cmd_resolve_image;
    Device c"vkCmdBeginQuery": vk::PFN_vkCmdBeginQuery => cmd::cmd_begin_query;
    Device c"vkCmdEndQuery": vk::PFN_vkCmdEndQuery => cmd::cmd_end_query;
    Device c"vkCmdBeginRenderPass": vk::PFN_vkCmdBeginRenderPass => g3d::cmd_begin_render_pass;
    Device c"vkCmdNextSubpass": vk::PFN_vkCmdNextSubpass => g3d::cmd_next_subpass;
    Device c"vkCmdEndRenderPass": vk::PFN_vkCmdEndRenderPass => g3d::cmd_end_render_pass;

    // VK_KHR_maintenance1, _get_memory_requirements2, _bind_memory2,
    // _descriptor_update_template, _maintenance3.
    Device c"vkTrimCommandPoolKHR" in c"VK_KHR_maintenance1": vk::PFN_vkTrimCommandPool => pool::trim_command_pool;
    Device c"vkGetBufferMemoryRequirements2KHR" in c"VK_KHR_get_memory_requirements2": vk::PFN_vkGetBufferMemoryRequirements2 => buffer::get_buffer_memory_requirements2;
    Device c"vkBindBufferMemory2KHR" in c"VK_KHR_bind_memory2": vk::PFN_vkBindBufferMemory2 => buffer::bind_buffer_memory2;
    Device c"vkGetImageMemoryRequirements2KHR" in c"VK_KHR_get_memory_requirements2": vk::PFN_vkGetImageMemoryRequirements2 => img::get_image_memory_requirements2;
    Device c"vkGetImageSparseMemoryRequirements2KHR" in c"VK_KHR_get_memory_requirements2": vk::PFN_vkGetImageSparseMemoryRequirements2 => img::get_image_sparse_memory_requirements2;
    Device c"vkBindImageMemory2KHR" in c"VK_KHR_bind_memory2": vk::PFN_vkBindImageMemory2 => img::bind_image_memory2;
    Device c"vkCreateDescriptorUpdateTemplateKHR" in c"VK_KHR_descriptor_update_template": vk::PFN_vkCreateDescriptorUpdateTemplate => desc::create_descriptor_update_template;
    Device c"vkDestroyDescriptorUpdateTemplateKHR" in c"VK_KHR_descriptor_update_template": vk::PFN_vkDestroyDescriptorUpdateTemplate => desc::destroy_descriptor_update_template;
    Device c"vkUpdateDescriptorSetWithTemplateKHR" in c"VK_KHR_descriptor_update_template": vk::PFN_vkUpdateDescriptorSetWithTemplate => desc::update_descriptor_set_with_template;
    Device c"vkGetDescriptorSetLayoutSupportKHR" in c"VK_KHR_maintenance3": vk::PFN_vkGetDescriptorSetLayoutSupport => desc::get_descriptor_set_layout_support;

    // The core names of Vulkan 1.1 (the extensions above and VK_KHR_device_group, promoted);
    // vkGetDeviceQueue2, vkBindBufferMemory2 and vkGetBufferMemoryRequirements2 are above.
    Device c"vkTrimCommandPool" since API_VERSION_1_1: vk::PFN_vkTrimCommandPool => pool::trim_command_pool;
    Device c"vkGetImageMemoryRequirements2" since API_VERSION_1_1: vk::PFN_vkGetImageMemoryRequirements2 => img::get_image_memory_requirements2;
    Device c"vkGetImageSparseMemoryRequirements2" since API_VERSION_1_1: vk::PFN_vkGetImageSparseMemoryRequirements2 => img::get_image_sparse_memory_requirements2;
    Device c"vkBindImageMemory2" since API_VERSION_1_1: vk::PFN_vkBindImageMemory2 => img::bind_image_memory2;
    Device c"vkCreateDescriptorUpdateTemplate" since API_VERSION_1_1: vk::PFN_vkCreateDescriptorUpdateTemplate => desc::create_descriptor_update_template;
    Device c"vkDestroyDescriptorUpdateTemplate" since API_VERSION_1_1: vk::PFN_vkDestroyDescriptorUpdateTemplate => desc::destroy_descriptor_update_template;
    Device c"vkUpdateDescriptorSetWithTemplate" since API_VERSION_1_1: vk::PFN_vkUpdateDescriptorSetWithTemplate => desc::update_descriptor_set_with_template;
    Device c"vkGetDescriptorSetLayoutSupport" since API_VERSION_1_1: vk::PFN_vkGetDescriptorSetLayoutSupport => desc::get_descriptor_set_layout_support;
    Device c"vkCmdDispatchBase" since API_VERSION_1_1: vk::PFN_vkCmdDispatchBase => group::cmd_dispatch_base;
    Device c"vkCmdSetDeviceMask" since API_VERSION_1_1: vk::PFN_vkCmdSetDeviceMask => group::cmd_set_device_mask;
    Device c"vkGetDeviceGroupPeerMemoryFeatures" since API_VERSION_1_1: vk::PFN_vkGetDeviceGroupPeerMemoryFeatures => group::get_device_group_peer_memory_features;
    Device c"vkCreateSamplerYcbcrConversion" since API_VERSION_1_1: vk::PFN_vkCreateSamplerYcbcrConversion => ycbcr::create_sampler_ycbcr_conversion;
    Device c"vkDestroySamplerYcbcrConversion" since API_VERSION_1_1: vk::PFN_vkDestroySamplerYcbcrConversion => ycbcr::destroy_sampler_ycbcr_conversion;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, a) in ENTRIES.iter().enumerate() {
            assert!(ENTRIES[i + 1..].iter().all(|b| b.name != a.name), "{:?} listed twice", a.name);
        }
    }

    /// A device command with a vendor suffix belongs to an extension and must say which, so
    /// that `vkGetDeviceProcAddr` hides it on devices that did not enable it; core names never
    /// carry one.
    #[test]
    fn extension_commands_name_their_extension() {
        for e in ENTRIES.iter().filter(|e| e.level == Level::Device) {
            let bytes = e.name.to_bytes();
            let suffixed = bytes.ends_with(b"KHR") || bytes.ends_with(b"EXT");
            assert_eq!(suffixed, e.provider.extension().is_some(), "{:?}", e.name);
        }
    }
}

#[cfg(test)]
mod core_1_0 {
    use super::*;

    /// Every command of Vulkan 1.0 (the spec's command list of the 1.0 core, less the two
    /// layer enumerations the loader answers itself) with the level it is dispatched at.
    const VULKAN_1_0: &[(Level, &str)] = &[
        (Level::Global, "vkCreateInstance"),
        (Level::Global, "vkEnumerateInstanceExtensionProperties"),
        (Level::Global, "vkGetInstanceProcAddr"),
        (Level::Instance, "vkDestroyInstance"),
        (Level::Instance, "vkEnumeratePhysicalDevices"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceFeatures"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceFormatProperties"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceImageFormatProperties"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceProperties"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceQueueFamilyProperties"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceMemoryProperties"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceSparseImageFormatProperties"),
        (Level::PhysicalDevice, "vkEnumerateDeviceExtensionProperties"),
        (Level::PhysicalDevice, "vkCreateDevice"),
    ];

    /// Device-level commands of Vulkan 1.0.
    const DEVICE_1_0: &str = "GetDeviceProcAddr DestroyDevice GetDeviceQueue QueueSubmit \
        QueueWaitIdle DeviceWaitIdle AllocateMemory FreeMemory MapMemory UnmapMemory \
        FlushMappedMemoryRanges InvalidateMappedMemoryRanges GetDeviceMemoryCommitment \
        BindBufferMemory BindImageMemory GetBufferMemoryRequirements GetImageMemoryRequirements \
        GetImageSparseMemoryRequirements QueueBindSparse CreateFence DestroyFence ResetFences \
        GetFenceStatus WaitForFences CreateSemaphore DestroySemaphore CreateEvent DestroyEvent \
        GetEventStatus SetEvent ResetEvent CreateQueryPool DestroyQueryPool GetQueryPoolResults \
        CreateBuffer DestroyBuffer CreateBufferView DestroyBufferView CreateImage DestroyImage \
        GetImageSubresourceLayout CreateImageView DestroyImageView CreateShaderModule \
        DestroyShaderModule CreatePipelineCache DestroyPipelineCache GetPipelineCacheData \
        MergePipelineCaches CreateGraphicsPipelines CreateComputePipelines DestroyPipeline \
        CreatePipelineLayout DestroyPipelineLayout CreateSampler DestroySampler \
        CreateDescriptorSetLayout DestroyDescriptorSetLayout CreateDescriptorPool \
        DestroyDescriptorPool ResetDescriptorPool AllocateDescriptorSets FreeDescriptorSets \
        UpdateDescriptorSets CreateFramebuffer DestroyFramebuffer CreateRenderPass \
        DestroyRenderPass GetRenderAreaGranularity CreateCommandPool DestroyCommandPool \
        ResetCommandPool AllocateCommandBuffers FreeCommandBuffers BeginCommandBuffer \
        EndCommandBuffer ResetCommandBuffer CmdBindPipeline CmdSetViewport CmdSetScissor \
        CmdSetLineWidth CmdSetDepthBias CmdSetBlendConstants CmdSetDepthBounds \
        CmdSetStencilCompareMask CmdSetStencilWriteMask CmdSetStencilReference \
        CmdBindDescriptorSets CmdBindIndexBuffer CmdBindVertexBuffers CmdDraw CmdDrawIndexed \
        CmdDrawIndirect CmdDrawIndexedIndirect CmdDispatch CmdDispatchIndirect CmdCopyBuffer \
        CmdCopyImage CmdBlitImage CmdCopyBufferToImage CmdCopyImageToBuffer CmdUpdateBuffer \
        CmdFillBuffer CmdClearColorImage CmdClearDepthStencilImage CmdClearAttachments \
        CmdResolveImage CmdSetEvent CmdResetEvent CmdWaitEvents CmdPipelineBarrier \
        CmdBeginQuery CmdEndQuery CmdResetQueryPool CmdWriteTimestamp CmdCopyQueryPoolResults \
        CmdPushConstants CmdBeginRenderPass CmdNextSubpass CmdEndRenderPass CmdExecuteCommands";

    fn has(level: Level, name: &str) -> bool {
        ENTRIES.iter().any(|e| e.level == level && e.name.to_str() == Ok(name))
    }

    #[test]
    fn every_vulkan_1_0_command_is_listed_at_its_level() {
        for &(level, name) in VULKAN_1_0 {
            assert!(has(level, name), "{name} missing at {level:?}");
        }
        let device: Vec<String> = DEVICE_1_0.split_whitespace().map(|n| format!("vk{n}")).collect();
        assert_eq!(device.len(), 121, "137 commands in 1.0, 16 above device level");
        for name in &device {
            assert!(has(Level::Device, name), "{name} missing");
        }
    }
}

#[cfg(test)]
mod core_1_1 {
    use super::*;

    /// The commands Vulkan 1.1 added to the core (the spec's `VK_VERSION_1_1` command list),
    /// with their dispatch levels.
    const VULKAN_1_1: &[(Level, &str)] = &[
        (Level::Global, "vkEnumerateInstanceVersion"),
        (Level::Instance, "vkEnumeratePhysicalDeviceGroups"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceFeatures2"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceProperties2"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceFormatProperties2"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceImageFormatProperties2"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceQueueFamilyProperties2"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceMemoryProperties2"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceSparseImageFormatProperties2"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceExternalBufferProperties"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceExternalFenceProperties"),
        (Level::PhysicalDevice, "vkGetPhysicalDeviceExternalSemaphoreProperties"),
        (Level::Device, "vkBindBufferMemory2"),
        (Level::Device, "vkBindImageMemory2"),
        (Level::Device, "vkGetDeviceGroupPeerMemoryFeatures"),
        (Level::Device, "vkCmdSetDeviceMask"),
        (Level::Device, "vkCmdDispatchBase"),
        (Level::Device, "vkGetImageMemoryRequirements2"),
        (Level::Device, "vkGetBufferMemoryRequirements2"),
        (Level::Device, "vkGetImageSparseMemoryRequirements2"),
        (Level::Device, "vkTrimCommandPool"),
        (Level::Device, "vkGetDeviceQueue2"),
        (Level::Device, "vkCreateSamplerYcbcrConversion"),
        (Level::Device, "vkDestroySamplerYcbcrConversion"),
        (Level::Device, "vkCreateDescriptorUpdateTemplate"),
        (Level::Device, "vkDestroyDescriptorUpdateTemplate"),
        (Level::Device, "vkUpdateDescriptorSetWithTemplate"),
        (Level::Device, "vkGetDescriptorSetLayoutSupport"),
    ];

    #[test]
    fn every_vulkan_1_1_command_is_listed_as_core_1_1() {
        assert_eq!(VULKAN_1_1.len(), 28);
        for &(level, name) in VULKAN_1_1 {
            let e = ENTRIES.iter().find(|e| e.name.to_str() == Ok(name));
            let e = e.unwrap_or_else(|| panic!("{name} missing"));
            assert_eq!(e.level, level, "{name}");
            assert_eq!(e.provider, Provider::Core(vk::API_VERSION_1_1), "{name}");
        }
    }

    /// A core row newer than 1.0 is one of the 1.1 list, or vkQueueSubmit2 of 1.3 (which
    /// `vkGetDeviceProcAddr` hides until the device reports 1.3).
    #[test]
    fn newer_core_rows_are_accounted_for() {
        for e in ENTRIES {
            let name = e.name.to_str().unwrap();
            match e.provider {
                Provider::Core(vk::API_VERSION_1_0) | Provider::Extension(_) => {}
                Provider::Core(vk::API_VERSION_1_1) => {
                    assert!(VULKAN_1_1.iter().any(|&(_, n)| n == name), "{name}")
                }
                Provider::Core(v) => {
                    assert_eq!((name, v), ("vkQueueSubmit2", vk::API_VERSION_1_3))
                }
            }
        }
    }
}
