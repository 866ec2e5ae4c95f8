//! `VkPhysicalDeviceLimits` of navi21 (gfx1030).
//!
//! These are properties of the hardware and of the descriptor/shader ABI the driver will use,
//! not of what is implemented today: limits only bound what an application may do with
//! features, and the features themselves are gated in `features`. Values come from the RDNA2
//! ISA guide (LDS size, workgroup size, wave size), the register database (field widths of
//! image/buffer descriptors and viewport registers) and published RDNA2 driver reports.

use ash::vk;

/// Largest single allocation: the amdgpu BO size check, 4 GiB minus one dword.
pub const MAX_MEMORY_ALLOCATION_SIZE: u64 = 0xFFFF_FFFC;

/// A descriptor set must fit in a 2 GiB range with descriptors of up to 256 bytes.
pub const MAX_DESCRIPTORS: u32 = (1 << 31) / 256 - 2;

/// LDS a single workgroup can allocate on GFX10 (64 KiB per workgroup in WGP mode).
pub const MAX_COMPUTE_SHARED_MEMORY: u32 = 64 * 1024;

/// Maximum workgroup size: 1024 invocations (32 wave32 waves) per workgroup.
pub const MAX_WORKGROUP_INVOCATIONS: u32 = 1024;

/// The wave size Ferrum's compiler targets.
pub const WAVE_SIZE: u32 = 32;

const SAMPLE_COUNTS: vk::SampleCountFlags = vk::SampleCountFlags::from_raw(
    vk::SampleCountFlags::TYPE_1.as_raw()
        | vk::SampleCountFlags::TYPE_2.as_raw()
        | vk::SampleCountFlags::TYPE_4.as_raw()
        | vk::SampleCountFlags::TYPE_8.as_raw(),
);

/// The limits of navi21. `timestampPeriod` is left at 0 here: it comes from the kernel's
/// counter frequency (see `Adapter::limits`).
pub fn navi21_limits() -> vk::PhysicalDeviceLimits {
    let image = image_limits(vk::PhysicalDeviceLimits::default());
    let descriptors = descriptor_limits(image);
    let stages = stage_limits(descriptors);
    misc_limits(stages)
}

fn image_limits(l: vk::PhysicalDeviceLimits) -> vk::PhysicalDeviceLimits {
    vk::PhysicalDeviceLimits {
        // Image descriptor width/height fields are 14 bits (+1), depth 13 bits.
        max_image_dimension1_d: 16384,
        max_image_dimension2_d: 16384,
        max_image_dimension3_d: 2048,
        max_image_dimension_cube: 16384,
        max_image_array_layers: 2048,
        max_texel_buffer_elements: u32::MAX,
        max_framebuffer_width: 16384,
        max_framebuffer_height: 16384,
        max_framebuffer_layers: 1024,
        framebuffer_color_sample_counts: SAMPLE_COUNTS,
        framebuffer_depth_sample_counts: SAMPLE_COUNTS,
        framebuffer_stencil_sample_counts: SAMPLE_COUNTS,
        framebuffer_no_attachments_sample_counts: SAMPLE_COUNTS,
        max_color_attachments: 8,
        sampled_image_color_sample_counts: SAMPLE_COUNTS,
        // Integer colour formats offer multisampled attachments (format::properties::
        // proven_msaa: clears, copies, sample-0 resolves), but no test samples them in a
        // shader yet: the spec's minimum, one sample. shaderStorageImageMultisample is off.
        sampled_image_integer_sample_counts: vk::SampleCountFlags::TYPE_1,
        sampled_image_depth_sample_counts: SAMPLE_COUNTS,
        sampled_image_stencil_sample_counts: SAMPLE_COUNTS,
        storage_image_sample_counts: vk::SampleCountFlags::TYPE_1,
        max_sample_mask_words: 1,
        buffer_image_granularity: 1,
        ..l
    }
}

fn descriptor_limits(l: vk::PhysicalDeviceLimits) -> vk::PhysicalDeviceLimits {
    vk::PhysicalDeviceLimits {
        // Buffer descriptors carry a 32-bit NUM_RECORDS.
        max_uniform_buffer_range: u32::MAX,
        max_storage_buffer_range: u32::MAX,
        max_push_constants_size: 256,
        max_memory_allocation_count: u32::MAX,
        max_sampler_allocation_count: 64 * 1024,
        // What a pipeline layout can hold: the ABI's set table (more sets were refused by
        // vkCreatePipelineLayout while 32 were reported).
        max_bound_descriptor_sets: crate::pipeline::layout::MAX_SETS as u32,
        max_per_stage_descriptor_samplers: MAX_DESCRIPTORS,
        max_per_stage_descriptor_uniform_buffers: MAX_DESCRIPTORS,
        max_per_stage_descriptor_storage_buffers: MAX_DESCRIPTORS,
        max_per_stage_descriptor_sampled_images: MAX_DESCRIPTORS,
        max_per_stage_descriptor_storage_images: MAX_DESCRIPTORS,
        max_per_stage_descriptor_input_attachments: MAX_DESCRIPTORS,
        max_per_stage_resources: MAX_DESCRIPTORS,
        max_descriptor_set_samplers: MAX_DESCRIPTORS,
        max_descriptor_set_uniform_buffers: MAX_DESCRIPTORS,
        max_descriptor_set_uniform_buffers_dynamic: 16,
        max_descriptor_set_storage_buffers: MAX_DESCRIPTORS,
        max_descriptor_set_storage_buffers_dynamic: 8,
        max_descriptor_set_sampled_images: MAX_DESCRIPTORS,
        max_descriptor_set_storage_images: MAX_DESCRIPTORS,
        max_descriptor_set_input_attachments: MAX_DESCRIPTORS,
        min_texel_buffer_offset_alignment: 4,
        min_uniform_buffer_offset_alignment: 4,
        min_storage_buffer_offset_alignment: 4,
        ..l
    }
}

fn stage_limits(l: vk::PhysicalDeviceLimits) -> vk::PhysicalDeviceLimits {
    vk::PhysicalDeviceLimits {
        max_vertex_input_attributes: 32,
        max_vertex_input_bindings: 32,
        max_vertex_input_attribute_offset: u32::MAX,
        max_vertex_input_binding_stride: 2048,
        max_vertex_output_components: 128,
        max_tessellation_generation_level: 64,
        max_tessellation_patch_size: 32,
        max_tessellation_control_per_vertex_input_components: 128,
        max_tessellation_control_per_vertex_output_components: 128,
        max_tessellation_control_per_patch_output_components: 120,
        max_tessellation_control_total_output_components: 4096,
        max_tessellation_evaluation_input_components: 128,
        max_tessellation_evaluation_output_components: 128,
        max_geometry_shader_invocations: 127,
        max_geometry_input_components: 64,
        max_geometry_output_components: 128,
        max_geometry_output_vertices: 256,
        max_geometry_total_output_components: 1024,
        max_fragment_input_components: 128,
        max_fragment_output_attachments: 8,
        max_fragment_dual_src_attachments: 1,
        max_fragment_combined_output_resources: MAX_DESCRIPTORS,
        max_compute_shared_memory_size: MAX_COMPUTE_SHARED_MEMORY,
        // COMPUTE_DISPATCH_INITIATOR takes 32-bit group counts; Vulkan tools expect 16 bits.
        max_compute_work_group_count: [65535, 65535, 65535],
        max_compute_work_group_invocations: MAX_WORKGROUP_INVOCATIONS,
        max_compute_work_group_size: [1024, 1024, 1024],
        max_clip_distances: 8,
        max_cull_distances: 8,
        max_combined_clip_and_cull_distances: 8,
        ..l
    }
}

fn misc_limits(l: vk::PhysicalDeviceLimits) -> vk::PhysicalDeviceLimits {
    let features = super::features::supported_features();
    let large_points = features.large_points == vk::TRUE;
    let wide_lines = features.wide_lines == vk::TRUE;
    vk::PhysicalDeviceLimits {
        sub_pixel_precision_bits: 8,
        sub_texel_precision_bits: 8,
        mipmap_precision_bits: 8,
        max_draw_indexed_index_value: u32::MAX,
        max_draw_indirect_count: u32::MAX,
        max_sampler_lod_bias: 16.0,
        max_sampler_anisotropy: 16.0,
        max_viewports: 16,
        max_viewport_dimensions: [16384, 16384],
        viewport_bounds_range: [-32768.0, 32767.0],
        viewport_sub_pixel_bits: 8,
        min_memory_map_alignment: 4096,
        min_texel_offset: -32,
        max_texel_offset: 31,
        min_texel_gather_offset: -32,
        max_texel_gather_offset: 31,
        min_interpolation_offset: -2.0,
        max_interpolation_offset: 2.0,
        sub_pixel_interpolation_offset_bits: 8,
        // Timestamp queries do not exist yet; the queue families report 0 valid bits.
        timestamp_compute_and_graphics: vk::TRUE,
        discrete_queue_priorities: 2,
        // navi21's ranges hold only with largePoints and wideLines; without them Vulkan 1.0
        // (Table "Required Limits", and dEQP-VK.info.device_properties) requires a range of
        // exactly 1.0 and a granularity of 0.
        point_size_range: if large_points { [0.0, 8191.875] } else { [1.0, 1.0] },
        line_width_range: if wide_lines { [0.0, 8.0] } else { [1.0, 1.0] },
        point_size_granularity: if large_points { 0.125 } else { 0.0 },
        line_width_granularity: if wide_lines { 0.125 } else { 0.0 },
        strict_lines: vk::FALSE,
        standard_sample_locations: vk::TRUE,
        optimal_buffer_copy_offset_alignment: 1,
        optimal_buffer_copy_row_pitch_alignment: 1,
        non_coherent_atom_size: 64,
        // Sparse binding is not implemented, so there is no sparse address space.
        sparse_address_space_size: 0,
        ..l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's required minimums (Vulkan 1.0 "Required Limits" table) for a sample.
    #[test]
    fn meets_required_minimums() {
        let l = navi21_limits();
        assert!(l.max_image_dimension2_d >= 4096);
        assert!(l.max_uniform_buffer_range >= 16384);
        assert!(l.max_push_constants_size >= 128);
        assert!(l.max_bound_descriptor_sets >= 4);
        assert_eq!(l.max_bound_descriptor_sets as usize, crate::pipeline::layout::MAX_SETS);
        assert!(l.max_compute_shared_memory_size >= 16384);
        assert!(l.max_compute_work_group_invocations >= 128);
        assert!(l.min_memory_map_alignment >= 64);
        assert!(l.non_coherent_atom_size.is_power_of_two() && l.non_coherent_atom_size <= 256);
        assert!(l.min_uniform_buffer_offset_alignment <= 256);
        assert!(l.max_viewports >= 16);
    }
}
