//! `VkPhysicalDeviceProperties` and the property structures reachable through
//! `vkGetPhysicalDeviceProperties2`.
//!
//! The Vulkan 1.1/1.2/1.3 aggregate structures are the single source; the older per-topic
//! structures (ID, driver, subgroup, ...) are copied out of them, so the two ways of asking can
//! never disagree. Properties describing shader capabilities report what Ferrum's compiler
//! implements today, not what the hardware could do: the subgroup properties are derived from
//! the compiler's own list ([`ferrum_compiler::amd::SUBGROUP_FEATURES`]), whose every class the compiler tests
//! run on the simulator.

use std::ffi::c_void;

use ash::vk;
use ferrum_compiler::amd::{SubgroupClass, SUBGROUP_FEATURES};
use ferrum_compiler::ir::Stage;

use super::limits::{self, MAX_MEMORY_ALLOCATION_SIZE, WAVE_SIZE};
use super::Adapter;
use crate::core::{build_id, chain};
use crate::version::{device_api_version, driver_version};

/// Ferrum has no Khronos-registered `VkDriverId`; this value ('Ferr') lies far outside the
/// registered range so that no tool mistakes Ferrum for another driver.
pub const DRIVER_ID: vk::DriverId = vk::DriverId::from_raw(0x4665_7272);
pub const DRIVER_NAME: &str = "Ferrum";
/// VkPhysicalDeviceMultiDrawPropertiesEXT::maxMultiDrawCount (RADV's value).
pub const MAX_MULTI_DRAW_COUNT: u32 = 2048;

/// 128-bit FNV-1a, enough to derive stable UUIDs from short identifying strings.
fn uuid_of(parts: &[&[u8]]) -> [u8; vk::UUID_SIZE] {
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013B;
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for part in parts {
        for &b in part.iter().chain(std::iter::once(&0xFFu8)) {
            h ^= u128::from(b);
            h = h.wrapping_mul(PRIME);
        }
    }
    h.to_le_bytes()
}

/// What identifies this build of the driver.
fn build_identity() -> &'static [u8] {
    build_id::build_id().unwrap_or(env!("CARGO_PKG_VERSION").as_bytes())
}

fn fixed_str<const N: usize>(s: &str) -> [std::ffi::c_char; N] {
    let mut out = [0 as std::ffi::c_char; N];
    for (dst, &b) in out.iter_mut().zip(s.as_bytes().iter().take(N - 1)) {
        *dst = b as std::ffi::c_char;
    }
    out
}

impl Adapter {
    pub fn device_name(&self) -> String {
        format!("Ferrum on {} {} ({})", self.kind.describe(), self.chip.family, self.chip.gfx)
    }

    /// Changes whenever compiled shaders could change: with every build of the driver (its
    /// linker build ID; the crate version if there is none) and with the chip.
    pub fn pipeline_cache_uuid(&self) -> [u8; vk::UUID_SIZE] {
        uuid_of(&[b"ferrum-pipeline-cache", build_identity(), self.chip.gfx.as_bytes()])
    }

    fn driver_uuid(&self) -> [u8; vk::UUID_SIZE] {
        uuid_of(&[b"ferrum-driver", build_identity()])
    }

    fn device_uuid(&self) -> [u8; vk::UUID_SIZE] {
        uuid_of(&[b"ferrum-device", self.chip.gfx.as_bytes(), self.kind.describe().as_bytes()])
    }

    /// The chip's limits with the timestamp period of the kernel's GPU counter.
    pub fn limits(&self) -> vk::PhysicalDeviceLimits {
        let khz = self.winsys.info().gpu_counter_freq_khz;
        vk::PhysicalDeviceLimits {
            timestamp_period: if khz == 0 { 1.0 } else { 1.0e6 / khz as f32 },
            ..limits::navi21_limits()
        }
    }

    pub fn properties(&self) -> vk::PhysicalDeviceProperties {
        vk::PhysicalDeviceProperties {
            api_version: device_api_version(),
            driver_version: driver_version(),
            vendor_id: super::chip::AMD_VENDOR_ID,
            device_id: self.chip.pci_device_id,
            // The simulator models a discrete card (dedicated VRAM heaps); applications that
            // prefer discrete GPUs should pick it as they would pick the real one.
            device_type: vk::PhysicalDeviceType::DISCRETE_GPU,
            device_name: fixed_str(&self.device_name()),
            pipeline_cache_uuid: self.pipeline_cache_uuid(),
            limits: self.limits(),
            sparse_properties: vk::PhysicalDeviceSparseProperties::default(),
        }
    }

    pub fn vulkan11_properties(&self) -> vk::PhysicalDeviceVulkan11Properties<'static> {
        vk::PhysicalDeviceVulkan11Properties {
            device_uuid: self.device_uuid(),
            driver_uuid: self.driver_uuid(),
            device_luid_valid: vk::FALSE,
            subgroup_size: WAVE_SIZE,
            subgroup_supported_stages: subgroup_stages(),
            subgroup_supported_operations: subgroup_operations(),
            // Quad operations exist only where subgroups do (compute), not in every stage.
            subgroup_quad_operations_in_all_stages: vk::FALSE,
            point_clipping_behavior: vk::PointClippingBehavior::ALL_CLIP_PLANES,
            // Multiview (gfx::multiview): views 0..7 as RADV on navi21; instance indices are
            // not narrowed by multiview (each view re-runs the draw), so the limit is RADV's.
            // Protected memory is unsupported.
            max_multiview_view_count: crate::gfx::multiview::MAX_VIEWS,
            max_multiview_instance_index: i32::MAX as u32,
            protected_no_fault: vk::FALSE,
            max_per_set_descriptors: limits::MAX_DESCRIPTORS,
            max_memory_allocation_size: MAX_MEMORY_ALLOCATION_SIZE,
            ..Default::default()
        }
    }

    pub fn vulkan12_properties(&self) -> vk::PhysicalDeviceVulkan12Properties<'static> {
        let d = limits::MAX_DESCRIPTORS;
        vk::PhysicalDeviceVulkan12Properties {
            driver_id: DRIVER_ID,
            driver_name: fixed_str(DRIVER_NAME),
            driver_info: fixed_str(&format!(
                "Ferrum {} ({})",
                env!("CARGO_PKG_VERSION"),
                self.kind.describe()
            )),
            // Not conformant: the conformance version stays 0.0.0.0.
            conformance_version: vk::ConformanceVersion::default(),
            // GFX10.3 has one mode field for fp16 and fp64, separate from fp32. Shaders run
            // with nearest-even rounding and denormals preserved unless they ask otherwise;
            // f32 can ask for flush-to-zero and round-toward-zero (RSRC1 FLOAT_MODE per
            // shader, compiler/src/spirv/float_controls.rs). f16/f64 cannot: their shared
            // field stays at the default. SignedZeroInfNanPreserve is not claimed.
            denorm_behavior_independence: vk::ShaderFloatControlsIndependence::TYPE_32_ONLY,
            rounding_mode_independence: vk::ShaderFloatControlsIndependence::TYPE_32_ONLY,
            shader_denorm_preserve_float16: vk::TRUE,
            shader_denorm_preserve_float32: vk::TRUE,
            shader_denorm_preserve_float64: vk::TRUE,
            shader_denorm_flush_to_zero_float32: vk::TRUE,
            shader_rounding_mode_rte_float16: vk::TRUE,
            shader_rounding_mode_rte_float32: vk::TRUE,
            shader_rounding_mode_rte_float64: vk::TRUE,
            shader_rounding_mode_rtz_float32: vk::TRUE,
            max_update_after_bind_descriptors_in_all_pools: 0,
            max_per_stage_descriptor_update_after_bind_samplers: d,
            max_per_stage_descriptor_update_after_bind_uniform_buffers: d,
            max_per_stage_descriptor_update_after_bind_storage_buffers: d,
            max_per_stage_descriptor_update_after_bind_sampled_images: d,
            max_per_stage_descriptor_update_after_bind_storage_images: d,
            max_per_stage_descriptor_update_after_bind_input_attachments: d,
            max_per_stage_update_after_bind_resources: d,
            max_descriptor_set_update_after_bind_samplers: d,
            max_descriptor_set_update_after_bind_uniform_buffers: d,
            max_descriptor_set_update_after_bind_uniform_buffers_dynamic: 16,
            max_descriptor_set_update_after_bind_storage_buffers: d,
            max_descriptor_set_update_after_bind_storage_buffers_dynamic: 8,
            max_descriptor_set_update_after_bind_sampled_images: d,
            max_descriptor_set_update_after_bind_storage_images: d,
            max_descriptor_set_update_after_bind_input_attachments: d,
            // meta::resolve: sample 0 is a copy, MIN/MAX a raw minimum/maximum per aspect;
            // each aspect is resolved on its own, so any pair of modes (NONE included) works.
            supported_depth_resolve_modes: DEPTH_STENCIL_RESOLVE_MODES,
            supported_stencil_resolve_modes: DEPTH_STENCIL_RESOLVE_MODES,
            independent_resolve_none: vk::TRUE,
            independent_resolve: vk::TRUE,
            // Timeline syncobj points are 64-bit with no window (as on RADV).
            max_timeline_semaphore_value_difference: u64::MAX,
            framebuffer_integer_color_sample_counts: vk::SampleCountFlags::TYPE_1,
            ..Default::default()
        }
    }

    pub fn vulkan13_properties(&self) -> vk::PhysicalDeviceVulkan13Properties<'static> {
        vk::PhysicalDeviceVulkan13Properties {
            min_subgroup_size: WAVE_SIZE,
            max_subgroup_size: WAVE_SIZE,
            max_compute_workgroup_subgroups: limits::MAX_WORKGROUP_INVOCATIONS / WAVE_SIZE,
            required_subgroup_size_stages: vk::ShaderStageFlags::empty(),
            storage_texel_buffer_offset_alignment_bytes: 4,
            storage_texel_buffer_offset_single_texel_alignment: vk::TRUE,
            uniform_texel_buffer_offset_alignment_bytes: 4,
            uniform_texel_buffer_offset_single_texel_alignment: vk::TRUE,
            max_buffer_size: MAX_MEMORY_ALLOCATION_SIZE,
            ..Default::default()
        }
    }

    /// Fills every known property structure of an output chain.
    ///
    /// # Safety
    /// `p_next` must be a valid, writable output chain.
    pub unsafe fn fill_properties_chain(&self, p_next: *mut c_void) {
        let (v11, v12, v13) =
            (self.vulkan11_properties(), self.vulkan12_properties(), self.vulkan13_properties());
        // SAFETY: forwarded to the caller; each write matches the structure's sType.
        for s in unsafe { chain::iter_out(p_next) } {
            // SAFETY: `s` is a link of the caller's writable chain.
            unsafe { fill_one(s, &v11, &v12, &v13) };
        }
    }
}

/// # Safety
/// `s` must be a valid, writable structure.
unsafe fn fill_one(
    s: *mut vk::BaseOutStructure<'static>,
    v11: &vk::PhysicalDeviceVulkan11Properties<'static>,
    v12: &vk::PhysicalDeviceVulkan12Properties<'static>,
    v13: &vk::PhysicalDeviceVulkan13Properties<'static>,
) {
    use vk::StructureType as S;
    // SAFETY: the caller guarantees `s` is writable; in every arm `write_body` is called with
    // the type named by the structure's own sType.
    unsafe {
        match (*s).s_type {
            S::PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES => chain::write_body(s, *v11),
            S::PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES => chain::write_body(s, *v12),
            S::PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES => chain::write_body(s, *v13),
            S::PHYSICAL_DEVICE_ID_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceIDProperties {
                    device_uuid: v11.device_uuid,
                    driver_uuid: v11.driver_uuid,
                    device_luid: v11.device_luid,
                    device_node_mask: v11.device_node_mask,
                    device_luid_valid: v11.device_luid_valid,
                    ..Default::default()
                },
            ),
            // Any 32-bit divisor: the VS divides the instance id by a constant.
            S::PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT => chain::write_body(
                s,
                vk::PhysicalDeviceVertexAttributeDivisorPropertiesEXT {
                    max_vertex_attrib_divisor: u32::MAX,
                    ..Default::default()
                },
            ),
            // firstInstance + instance / divisor holds for any firstInstance.
            S::PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_KHR => chain::write_body(
                s,
                vk::PhysicalDeviceVertexAttributeDivisorPropertiesKHR {
                    max_vertex_attrib_divisor: u32::MAX,
                    supports_non_zero_first_instance: vk::TRUE,
                    ..Default::default()
                },
            ),
            // As RADV: one draw packet per element, no hardware limit below this.
            S::PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT => chain::write_body(
                s,
                vk::PhysicalDeviceMultiDrawPropertiesEXT {
                    max_multi_draw_count: MAX_MULTI_DRAW_COUNT,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceMultiviewProperties {
                    max_multiview_view_count: v11.max_multiview_view_count,
                    max_multiview_instance_index: v11.max_multiview_instance_index,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES => {
                chain::write_body(s, float_controls_properties(v12))
            }
            S::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceTimelineSemaphoreProperties {
                    max_timeline_semaphore_value_difference: v12
                        .max_timeline_semaphore_value_difference,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_DRIVER_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceDriverProperties {
                    driver_id: v12.driver_id,
                    driver_name: v12.driver_name,
                    driver_info: v12.driver_info,
                    conformance_version: v12.conformance_version,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_SUBGROUP_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceSubgroupProperties {
                    subgroup_size: v11.subgroup_size,
                    supported_stages: v11.subgroup_supported_stages,
                    supported_operations: v11.subgroup_supported_operations,
                    quad_operations_in_all_stages: v11.subgroup_quad_operations_in_all_stages,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceMaintenance3Properties {
                    max_per_set_descriptors: v11.max_per_set_descriptors,
                    max_memory_allocation_size: v11.max_memory_allocation_size,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDevicePointClippingProperties {
                    point_clipping_behavior: v11.point_clipping_behavior,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceDepthStencilResolveProperties {
                    supported_depth_resolve_modes: v12.supported_depth_resolve_modes,
                    supported_stencil_resolve_modes: v12.supported_stencil_resolve_modes,
                    independent_resolve_none: v12.independent_resolve_none,
                    independent_resolve: v12.independent_resolve,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceProtectedMemoryProperties {
                    protected_no_fault: v11.protected_no_fault,
                    ..Default::default()
                },
            ),
            S::PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES => chain::write_body(
                s,
                vk::PhysicalDeviceMaintenance4Properties {
                    max_buffer_size: v13.max_buffer_size,
                    ..Default::default()
                },
            ),
            _ => {}
        }
    }
}

/// The depth and stencil resolve modes (VK_KHR_depth_stencil_resolve).
const DEPTH_STENCIL_RESOLVE_MODES: vk::ResolveModeFlags = vk::ResolveModeFlags::from_raw(
    vk::ResolveModeFlags::SAMPLE_ZERO.as_raw()
        | vk::ResolveModeFlags::MIN.as_raw()
        | vk::ResolveModeFlags::MAX.as_raw(),
);

/// The stages in which the compiler lowers subgroup operations.
fn subgroup_stages() -> vk::ShaderStageFlags {
    SUBGROUP_FEATURES.stages.iter().fold(vk::ShaderStageFlags::empty(), |f, s| {
        f | match s {
            Stage::Compute => vk::ShaderStageFlags::COMPUTE,
            Stage::Vertex => vk::ShaderStageFlags::VERTEX,
            Stage::Fragment => vk::ShaderStageFlags::FRAGMENT,
        }
    })
}

/// The subgroup operation classes the compiler implements.
fn subgroup_operations() -> vk::SubgroupFeatureFlags {
    SUBGROUP_FEATURES.classes.iter().fold(vk::SubgroupFeatureFlags::empty(), |f, c| {
        f | match c {
            SubgroupClass::Basic => vk::SubgroupFeatureFlags::BASIC,
            SubgroupClass::Vote => vk::SubgroupFeatureFlags::VOTE,
            SubgroupClass::Arithmetic => vk::SubgroupFeatureFlags::ARITHMETIC,
            SubgroupClass::Ballot => vk::SubgroupFeatureFlags::BALLOT,
            SubgroupClass::Shuffle => vk::SubgroupFeatureFlags::SHUFFLE,
            SubgroupClass::ShuffleRelative => vk::SubgroupFeatureFlags::SHUFFLE_RELATIVE,
            SubgroupClass::Clustered => vk::SubgroupFeatureFlags::CLUSTERED,
            SubgroupClass::Quad => vk::SubgroupFeatureFlags::QUAD,
        }
    })
}

/// VK_KHR_shader_float_controls' structure: the Vulkan 1.2 fields of the same name.
fn float_controls_properties(
    v12: &vk::PhysicalDeviceVulkan12Properties<'static>,
) -> vk::PhysicalDeviceFloatControlsProperties<'static> {
    vk::PhysicalDeviceFloatControlsProperties {
        denorm_behavior_independence: v12.denorm_behavior_independence,
        rounding_mode_independence: v12.rounding_mode_independence,
        shader_signed_zero_inf_nan_preserve_float16: v12
            .shader_signed_zero_inf_nan_preserve_float16,
        shader_signed_zero_inf_nan_preserve_float32: v12
            .shader_signed_zero_inf_nan_preserve_float32,
        shader_signed_zero_inf_nan_preserve_float64: v12
            .shader_signed_zero_inf_nan_preserve_float64,
        shader_denorm_preserve_float16: v12.shader_denorm_preserve_float16,
        shader_denorm_preserve_float32: v12.shader_denorm_preserve_float32,
        shader_denorm_preserve_float64: v12.shader_denorm_preserve_float64,
        shader_denorm_flush_to_zero_float16: v12.shader_denorm_flush_to_zero_float16,
        shader_denorm_flush_to_zero_float32: v12.shader_denorm_flush_to_zero_float32,
        shader_denorm_flush_to_zero_float64: v12.shader_denorm_flush_to_zero_float64,
        shader_rounding_mode_rte_float16: v12.shader_rounding_mode_rte_float16,
        shader_rounding_mode_rte_float32: v12.shader_rounding_mode_rte_float32,
        shader_rounding_mode_rte_float64: v12.shader_rounding_mode_rte_float64,
        shader_rounding_mode_rtz_float16: v12.shader_rounding_mode_rtz_float16,
        shader_rounding_mode_rtz_float32: v12.shader_rounding_mode_rtz_float32,
        shader_rounding_mode_rtz_float64: v12.shader_rounding_mode_rtz_float64,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Vulkan 1.1 topic structure is written even where the aggregate is not chained
    /// (dEQP-VK.api.info.get_physical_device_properties2.properties.basic fills the caller's
    /// structures with garbage and compares two queries).
    #[test]
    fn protected_memory_properties_are_written() {
        let a = Adapter::open_simulated().unwrap();
        let mut pm = vk::PhysicalDeviceProtectedMemoryProperties {
            protected_no_fault: vk::TRUE,
            ..Default::default()
        };
        let mut v11 = vk::PhysicalDeviceVulkan11Properties::default();
        let p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut pm);
        // SAFETY: a valid output chain built by ash.
        unsafe { a.fill_properties_chain(p2.p_next) };
        let p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut v11);
        // SAFETY: as above.
        unsafe { a.fill_properties_chain(p2.p_next) };
        assert_eq!(pm.protected_no_fault, v11.protected_no_fault);
        assert_eq!(pm.protected_no_fault, vk::FALSE, "protectedMemory is not offered");
    }

    #[test]
    fn aggregate_and_topic_structs_agree() {
        let a = Adapter::open_simulated().unwrap();
        let mut id = vk::PhysicalDeviceIDProperties::default();
        let mut drv = vk::PhysicalDeviceDriverProperties::default();
        let mut v11 = vk::PhysicalDeviceVulkan11Properties::default();
        let mut sg = vk::PhysicalDeviceSubgroupProperties::default();
        let head = {
            let p2 = vk::PhysicalDeviceProperties2::default()
                .push_next(&mut sg)
                .push_next(&mut id)
                .push_next(&mut drv)
                .push_next(&mut v11);
            // SAFETY: a valid output chain built by ash.
            unsafe { a.fill_properties_chain(p2.p_next) };
            p2.p_next
        };
        assert_eq!(id.device_uuid, v11.device_uuid);
        assert_eq!(drv.driver_id, DRIVER_ID);
        assert_eq!(v11.subgroup_size, 32);
        // The compiler's list, class by class (a class it does not list is not reported).
        assert_eq!(v11.subgroup_supported_stages, vk::ShaderStageFlags::COMPUTE);
        assert_eq!(
            v11.subgroup_supported_operations.as_raw().count_ones() as usize,
            SUBGROUP_FEATURES.classes.len()
        );
        assert!(v11
            .subgroup_supported_operations
            .contains(vk::SubgroupFeatureFlags::BASIC | vk::SubgroupFeatureFlags::ARITHMETIC));
        assert_eq!(sg.supported_stages, v11.subgroup_supported_stages);
        assert_eq!(sg.supported_operations, v11.subgroup_supported_operations);
        assert_eq!(sg.subgroup_size, 32);
        // The chain links must survive the writes.
        assert_eq!(head as *const c_void, &v11 as *const _ as *const c_void);
        assert!(!v11.p_next.is_null());
    }

    #[test]
    fn name_says_ferrum_and_fits() {
        let p = Adapter::open_simulated().unwrap().properties();
        // SAFETY: fixed_str always NUL-terminates.
        let name = unsafe { std::ffi::CStr::from_ptr(p.device_name.as_ptr()) }.to_str().unwrap();
        assert!(name.starts_with("Ferrum") && name.contains("NAVI21"), "{name}");
        assert_eq!((p.vendor_id, p.device_id), (0x1002, 0x73BF));
        // navi21's timestamp counter runs at the 100 MHz reference clock.
        assert_eq!(p.limits.timestamp_period, 10.0);
    }
}
