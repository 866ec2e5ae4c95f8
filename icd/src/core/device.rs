//! `VkDevice`, the state its children share, and device loss.
//!
//! Every `VkDevice` owns one kernel GPU context: the unit the kernel blames for a fault or a
//! hang. Once the context is lost the device is lost for good, and every command that must
//! report `VK_ERROR_DEVICE_LOST` checks [`DeviceShared::check_lost`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ash::vk::{self, Handle};
use ferrum_winsys as winsys;

use crate::core::gpu_alloc::{winsys_error, GpuAlloc};
use crate::core::instance::check_extensions;
use crate::core::object::{vk_object, ObjectBase};
use crate::core::physical_device::{features, Adapter};
use crate::core::queue::Queue;
use crate::error::{VkError, VkResult};

// The compiler must implement every subgroup class on the extended types for the device to
// list VK_KHR_shader_subgroup_extended_types.
const _: () = assert!(ferrum_compiler::amd::SUBGROUP_FEATURES.extended_types);

/// Device extensions Ferrum implements. An extension is listed only once every command and
/// feature it brings works.
pub const DEVICE_EXTENSIONS: &[(&std::ffi::CStr, u32)] = &[
    (c"VK_KHR_timeline_semaphore", 2),
    (c"VK_KHR_synchronization2", 1),
    // vkResetQueryPoolEXT for every pool type (tests/tests/graphics_queries.rs).
    (c"VK_EXT_host_query_reset", 1),
    // DRAW_(INDEX_)INDIRECT_MULTI with the count from memory (tests/tests/graphics_indirect_count.rs).
    (c"VK_KHR_draw_indirect_count", 1),
    // Every draw and clear once per view into the view's layer, gl_ViewIndex in both stages
    // (gfx::multiview; tests/tests/graphics_multiview.rs against lavapipe).
    (c"VK_KHR_multiview", 1),
    // Image view usage, extended-usage images (MUTABLE_FORMAT views of a compatible format
    // with usage the image's format lacks), input attachment aspects recorded per subpass,
    // point clipping properties, the read-only depth/stencil layouts (no layout needs work).
    // Block-texel-view-compatible images are not offered (no compressed views of blocks).
    (c"VK_KHR_maintenance2", 1),
    // All four commands lower to the render pass 1 path (gfx::render_pass, gfx::rendering);
    // tests/tests/graphics_rendering.rs.
    (c"VK_KHR_create_renderpass2", 1),
    // SAMPLE_ZERO, MIN and MAX for depth and stencil, independently (meta::resolve);
    // tests/tests/graphics_rendering.rs against values computed at the sample locations.
    (c"VK_KHR_depth_stencil_resolve", 1),
    // vkCmdBeginRendering: the same scopes as render passes, suspend/resume, multiview,
    // secondaries inheriting a scope; tests/tests/graphics_rendering.rs against lavapipe.
    (c"VK_KHR_dynamic_rendering", 1),
    (c"VK_KHR_pipeline_executable_properties", 1),
    // The small-type extensions below are checked by the corpus differential (storage_16bit,
    // storage_8bit, ubo_std140_misc, and tests/corpus/ubo_small_types) against lavapipe.
    (c"VK_KHR_storage_buffer_storage_class", 1),
    (c"VK_KHR_16bit_storage", 1),
    (c"VK_KHR_8bit_storage", 1),
    (c"VK_KHR_shader_float16_int8", 1),
    // Checked by the corpus's scalar_layout (packed vec3 members and arrays): the compiler
    // takes member offsets and strides from the SPIR-V decorations.
    (c"VK_EXT_scalar_block_layout", 1),
    // Checked by tests/corpus/standard_layout against lavapipe (std430 uniform blocks).
    (c"VK_KHR_uniform_buffer_standard_layout", 1),
    // Checked by the corpus's int64_atomics (add, max, min, xor on a storage buffer).
    (c"VK_KHR_shader_atomic_int64", 1),
    // Groups of one; dispatch base checked against lavapipe in tests/tests/device_group.rs.
    (c"VK_KHR_device_group", 4),
    // bufferDeviceAddress only; the corpus's buffer_reference shaders match lavapipe.
    (c"VK_KHR_buffer_device_address", 1),
    // variablePointersStorageBuffer only: the corpus's variable_pointers.spvasm (OpSelect and
    // OpPhi of storage-buffer pointers) matches lavapipe; nothing tests the general feature.
    (c"VK_KHR_variable_pointers", 1),
    // Compute pipelines honour FAIL_ON_PIPELINE_COMPILE_REQUIRED and EARLY_RETURN_ON_FAILURE
    // (tests/tests/extensions.rs); caches are always internally synchronized.
    (c"VK_EXT_pipeline_creation_cache_control", 3),
    // Demoted fragments keep running as helpers for derivatives and write nothing
    // (compiler/tests/gfx_fragment.rs; tests/tests/graphics_shaders.rs against lavapipe).
    (c"VK_EXT_shader_demote_to_helper_invocation", 1),
    // vkTrimCommandPool; the copy, pool and format rules it changes hold for buffers (images
    // and viewports come with the image and graphics work). tests/tests/extensions.rs.
    (c"VK_KHR_maintenance1", 2),
    // Buffer queries and binds (the `2` commands, dedicated-allocation requirements: buffers
    // never need one); the image variants come with images.
    (c"VK_KHR_get_memory_requirements2", 1),
    (c"VK_KHR_bind_memory2", 1),
    (c"VK_KHR_dedicated_allocation", 3),
    // Buffer descriptors through templates; vkGetDescriptorSetLayoutSupport and the
    // maintenance3 limits.
    (c"VK_KHR_descriptor_update_template", 1),
    (c"VK_KHR_maintenance3", 1),
    // MIRROR_CLAMP_TO_EDGE as the S#'s MIRROR_ONCE_LAST_TEXEL (tests/tests/graphics_scenes.rs
    // against lavapipe).
    (c"VK_KHR_sampler_mirror_clamp_to_edge", 3),
    // Direct draws in a batch, each one's index in the VS's draw-index user SGPR
    // (tests/tests/graphics_multi_draw.rs against lavapipe).
    (c"VK_EXT_multi_draw", 1),
    // gl_BaseVertex, gl_BaseInstance and gl_DrawIndex (shaderDrawParameters;
    // tests/tests/graphics_draw_parameters.rs against lavapipe).
    (c"VK_KHR_shader_draw_parameters", 1),
    // Instance-rate divisors (zero included) from the VS key (tests/tests/graphics_divisor.rs
    // against lavapipe).
    (c"VK_EXT_vertex_attribute_divisor", 3),
    (c"VK_KHR_vertex_attribute_divisor", 1),
    // Samplers with NON_SEAMLESS_CUBE_MAP set DISABLE_CUBE_WRAP (sim sampling tests; CTS
    // texture.filtering.cube.*non_seamless*).
    (c"VK_EXT_non_seamless_cube_map", 1),
    // The `2` transfers convert their regions to the 1.0 commands' (api/transfer2.rs);
    // tests/tests/msaa.rs resolves through vkCmdResolveImage2KHR and CTS
    // api.copy_and_blit.copy_commands2 cases run them all.
    (c"VK_KHR_copy_commands2", 1),
    // f32 flush-to-zero and round-toward-zero per shader, everything else at the defaults
    // (properties.rs says which); tests/tests/float_controls.rs.
    (c"VK_KHR_shader_float_controls", 4),
    // Subgroup operations on 8/16/64-bit integers and f16 (shaderSubgroupExtendedTypes;
    // tests/tests/subgroup_extended_types.rs on Ferrum and lavapipe against the spec).
    (c"VK_KHR_shader_subgroup_extended_types", 1),
    // VkFormatProperties3 derived from the legacy flags (format/flags2.rs): storage without a
    // format and depth comparison, as the device features and 1.0 rules already imply.
    (c"VK_KHR_format_feature_flags2", 2),
    // View format lists are hints Ferrum does not need (every view of a MUTABLE_FORMAT image
    // reads the same swizzle mode); imageless framebuffers take their views at
    // vkCmdBeginRenderPass (gfx/rendering.rs; tests/tests/graphics_imageless.rs).
    (c"VK_KHR_image_format_list", 1),
    (c"VK_KHR_imageless_framebuffer", 1),
    // Cull mode, front face, topology, viewport and scissor with count, vertex strides, the
    // depth/stencil enables, compare and stencil ops from the command buffer (gfx::dynamic);
    // tests/tests/graphics_dynamic_state.rs and graphics_depth.rs's dynamic variant against
    // lavapipe and against the same state baked into pipelines.
    (c"VK_EXT_extended_dynamic_state", 1),
    // Rasterizer discard, depth bias and primitive restart enables, the logic op; no patch
    // control points (feature off: no tessellation). Same tests.
    (c"VK_EXT_extended_dynamic_state2", 1),
    // gl_FragStencilRefEXT exported in MRTZ's second register (SPI_SHADER_Z_FORMAT 32_GR,
    // DB_SHADER_CONTROL.STENCIL_TEST_VAL_EXPORT_ENABLE; the DB tests and REPLACEs with it):
    // tests/tests/graphics_depth.rs's stencil-export scenes against lavapipe.
    (c"VK_EXT_shader_stencil_export", 1),
    // DEPTH_/STENCIL_ATTACHMENT_OPTIMAL and the read-only variants in render passes 2, barriers
    // and dynamic rendering: no layout changes what Ferrum does (no compression or metadata
    // follows layouts; render passes and barriers read none), so the per-aspect layouts need
    // nothing. tests/tests/graphics_resolve_ds.rs runs every case with them on Ferrum and
    // lavapipe.
    (c"VK_KHR_separate_depth_stencil_layouts", 1),
];

/// What a device's children (queues, pools, command buffers) need from it.
pub struct DeviceShared {
    pub adapter: Arc<Adapter>,
    pub ctx: winsys::Context,
    lost: AtomicBool,
    /// A one-packet IB for submissions without command buffers (they still signal).
    pub empty_ib: GpuAlloc,
    /// Compiled internal kernels (clears, copies, blits).
    pub meta: crate::meta::MetaCache,
}

impl DeviceShared {
    pub fn new(adapter: Arc<Adapter>) -> VkResult<Self> {
        let ctx = adapter
            .winsys
            .create_context(winsys::Priority::Normal)
            .map_err(|e| VkError::InitializationFailed(format!("GPU context: {e}")))?;
        let empty_ib = GpuAlloc::new(&adapter.winsys, 64)?;
        empty_ib.write_u32s(0, &[crate::cmd::pm4::NOP_HEADER_ONLY; 8]);
        Ok(DeviceShared {
            adapter,
            ctx,
            lost: AtomicBool::new(false),
            empty_ib,
            meta: Default::default(),
        })
    }

    pub fn winsys(&self) -> &winsys::Device {
        &self.adapter.winsys
    }

    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }

    /// `Err(DeviceLost)` once the device is lost.
    pub fn check_lost(&self) -> VkResult<()> {
        if self.is_lost() {
            return Err(VkError::DeviceLost("an earlier fault or hang lost the device".into()));
        }
        Ok(())
    }

    pub fn mark_lost(&self, why: &str) {
        if !self.lost.swap(true, Ordering::AcqRel) {
            log::error!("device lost: {why}");
        }
    }

    /// Asks the kernel whether the context was reset; a lost context loses the device. Called
    /// after waits, because a faulting job still signals its fences.
    pub fn refresh_lost(&self) -> VkResult<()> {
        self.check_lost()?;
        let state = self.ctx.query_state().map_err(winsys_error)?;
        if let Some(reason) = state.lost() {
            self.mark_lost(&format!("GPU context lost ({reason:?})"));
        }
        self.check_lost()
    }

    /// Translates a winsys error, recording device loss when that is what it means.
    pub fn error(&self, err: winsys::Error) -> VkError {
        if let winsys::Error::ContextLost(reason) = err {
            self.mark_lost(&format!("GPU context lost ({reason:?})"));
        }
        winsys_error(err)
    }
}

/// A `VkDevice`.
#[repr(C)]
pub struct Device {
    base: ObjectBase,
    pub adapter: Arc<Adapter>,
    pub shared: Arc<DeviceShared>,
    // Boxed: queue handles are the queues' addresses, which must not move.
    #[allow(clippy::vec_box)]
    queues: Vec<Box<Queue>>,
    /// The device extensions the application enabled (names from [`DEVICE_EXTENSIONS`]).
    extensions: Vec<&'static std::ffi::CStr>,
}
vk_object!(Device, vk::Device, vk::ObjectType::DEVICE);

/// Validates one `VkDeviceQueueCreateInfo` against the adapter's families.
fn check_queue_info(adapter: &Adapter, q: &vk::DeviceQueueCreateInfo<'_>) -> VkResult<()> {
    let families = adapter.queue_families();
    // VUID-VkDeviceQueueCreateInfo-queueFamilyIndex-00381: "queueFamilyIndex must be less than
    // pQueueFamilyPropertyCount returned by vkGetPhysicalDeviceQueueFamilyProperties".
    let family = families
        .get(q.queue_family_index as usize)
        .ok_or(VkError::InvalidUsage("queueFamilyIndex out of range"))?;
    // VUID-VkDeviceQueueCreateInfo-queueCount-00382: "queueCount must be less than or equal to
    // the queueCount member of the VkQueueFamilyProperties structure".
    if q.queue_count == 0 || q.queue_count > family.queue_count {
        return Err(VkError::InvalidUsage("queueCount out of range"));
    }
    if !q.flags.is_empty() {
        // The only flag, PROTECTED, needs the protectedMemory feature, which is unsupported.
        return Err(VkError::FeatureNotPresent("protected queues".into()));
    }
    Ok(())
}

impl Device {
    /// # Safety
    /// `info` must be a valid `VkDeviceCreateInfo`.
    pub unsafe fn create(
        adapter: Arc<Adapter>,
        info: &vk::DeviceCreateInfo<'_>,
    ) -> VkResult<Box<Self>> {
        // SAFETY: forwarded to the caller.
        let extensions = unsafe {
            let enabled = check_extensions(
                info.pp_enabled_extension_names,
                info.enabled_extension_count,
                DEVICE_EXTENSIONS,
            )?;
            features::check_requested(info)?;
            enabled
        };
        let queue_infos: &[vk::DeviceQueueCreateInfo<'_>] = if info.queue_create_info_count == 0 {
            &[]
        } else {
            // SAFETY: the create info holds `queue_create_info_count` valid entries.
            unsafe {
                std::slice::from_raw_parts(
                    info.p_queue_create_infos,
                    info.queue_create_info_count as usize,
                )
            }
        };
        let shared = Arc::new(DeviceShared::new(adapter.clone())?);
        let mut queues: Vec<Box<Queue>> = Vec::new();
        for q in queue_infos {
            check_queue_info(&adapter, q)?;
            // VUID-VkDeviceCreateInfo-queueFamilyIndex-02802: families must be unique.
            if queues.iter().any(|e| e.family == q.queue_family_index) {
                return Err(VkError::InvalidUsage("queue family requested twice"));
            }
            for index in 0..q.queue_count {
                queues.push(Box::new(Queue::new(
                    shared.clone(),
                    q.queue_family_index,
                    index,
                    q.flags,
                )));
            }
        }
        Ok(Box::new(Device {
            base: ObjectBase::new(vk::ObjectType::DEVICE),
            adapter,
            shared,
            queues,
            extensions,
        }))
    }

    /// Whether the application enabled device extension `name` on this device.
    pub fn has_extension(&self, name: &std::ffi::CStr) -> bool {
        self.extensions.contains(&name)
    }

    /// The queue created for `(family, index)` with exactly `flags`; null if there is none.
    pub fn queue(&self, family: u32, index: u32, flags: vk::DeviceQueueCreateFlags) -> vk::Queue {
        self.queues
            .iter()
            .find(|q| q.family == family && q.index == index && q.flags == flags)
            .map_or(vk::Queue::null(), |q| vk::Queue::from_raw(&**q as *const Queue as u64))
    }

    /// Blocks until all work submitted to the device is done.
    pub fn wait_idle(&self) -> VkResult<()> {
        self.queues.iter().try_for_each(|q| q.wait_idle())
    }
}
