//! Supported features, and the check `vkCreateDevice` runs against them.
//!
//! Every feature structure is a header followed only by `VkBool32` members, so supported and
//! requested features are compared generically, word by word, for every structure in the table
//! below. Turning a feature on is one line in the `supported_*` functions once it works; nothing
//! else needs to change.

use std::ffi::c_void;
use std::mem::size_of;

use ash::vk::{self, TaggedStructure};

use crate::core::chain;
use crate::error::{VkError, VkResult};

/// Size of `sType` + padding + `pNext` in front of every extensible structure.
const HEADER_SIZE: usize = size_of::<vk::BaseOutStructure<'static>>();

/// Each structure with its number of `VkBool32` members (from the spec). The count, not
/// `size_of`, bounds what is read and written: a structure with an odd number of members ends
/// in 4 bytes of padding, which an application need not initialise.
macro_rules! feature_structs {
    ($($ty:ident = $count:expr),* $(,)?) => {
        /// `(sType, header + members bytes, name)` of each feature structure Ferrum recognises.
        const FEATURE_STRUCTS: &[(vk::StructureType, usize, &str)] = &[
            $((<vk::$ty<'static> as TaggedStructure>::STRUCTURE_TYPE,
               HEADER_SIZE + 4 * $count,
               stringify!($ty)),)*
        ];

        /// `(name, size_of, header + members bytes)`, to check the counts in tests.
        #[cfg(test)]
        const FEATURE_SIZES: &[(&str, usize, usize)] = &[
            $((stringify!($ty), size_of::<vk::$ty<'static>>(), HEADER_SIZE + 4 * $count),)*
        ];
    };
}

feature_structs!(
    PhysicalDeviceFeatures2 = 55,
    PhysicalDeviceVulkan11Features = 12,
    PhysicalDeviceVulkan12Features = 47,
    PhysicalDeviceVulkan13Features = 15,
    PhysicalDevice16BitStorageFeatures = 4,
    PhysicalDeviceMultiviewFeatures = 3,
    PhysicalDeviceVariablePointersFeatures = 2,
    PhysicalDeviceProtectedMemoryFeatures = 1,
    PhysicalDeviceSamplerYcbcrConversionFeatures = 1,
    PhysicalDeviceShaderDrawParametersFeatures = 1,
    PhysicalDevice8BitStorageFeatures = 3,
    PhysicalDeviceShaderAtomicInt64Features = 2,
    PhysicalDeviceShaderFloat16Int8Features = 2,
    PhysicalDeviceDescriptorIndexingFeatures = 20,
    PhysicalDeviceScalarBlockLayoutFeatures = 1,
    PhysicalDeviceImagelessFramebufferFeatures = 1,
    PhysicalDeviceUniformBufferStandardLayoutFeatures = 1,
    PhysicalDeviceShaderSubgroupExtendedTypesFeatures = 1,
    PhysicalDeviceSeparateDepthStencilLayoutsFeatures = 1,
    PhysicalDeviceHostQueryResetFeatures = 1,
    PhysicalDeviceTimelineSemaphoreFeatures = 1,
    PhysicalDeviceBufferDeviceAddressFeatures = 3,
    PhysicalDeviceVulkanMemoryModelFeatures = 3,
    PhysicalDeviceImageRobustnessFeatures = 1,
    PhysicalDeviceInlineUniformBlockFeatures = 2,
    PhysicalDevicePipelineCreationCacheControlFeatures = 1,
    PhysicalDevicePrivateDataFeatures = 1,
    PhysicalDeviceShaderDemoteToHelperInvocationFeatures = 1,
    PhysicalDeviceShaderTerminateInvocationFeatures = 1,
    PhysicalDeviceSubgroupSizeControlFeatures = 2,
    PhysicalDeviceSynchronization2Features = 1,
    PhysicalDeviceTextureCompressionASTCHDRFeatures = 1,
    PhysicalDeviceZeroInitializeWorkgroupMemoryFeatures = 1,
    PhysicalDeviceDynamicRenderingFeatures = 1,
    PhysicalDeviceShaderIntegerDotProductFeatures = 1,
    PhysicalDeviceMaintenance4Features = 1,
    PhysicalDevicePipelineExecutablePropertiesFeaturesKHR = 1,
    PhysicalDeviceMultiDrawFeaturesEXT = 1,
    PhysicalDeviceVertexAttributeDivisorFeaturesKHR = 2,
    PhysicalDeviceNonSeamlessCubeMapFeaturesEXT = 1,
    PhysicalDeviceExtendedDynamicStateFeaturesEXT = 1,
    PhysicalDeviceExtendedDynamicState2FeaturesEXT = 3,
);

fn lookup(s_type: vk::StructureType) -> Option<(usize, &'static str)> {
    FEATURE_STRUCTS.iter().find(|(t, _, _)| *t == s_type).map(|&(_, size, name)| (size, name))
}

/// The Vulkan 1.0 features Ferrum supports: dynamically uniform indexing of uniform and
/// storage buffer arrays (the compiler loads the indexed V# from set memory), 64-bit integers
/// and doubles in shaders (the compiler's 64-bit lowering; the corpus's int64/float64 shaders
/// match lavapipe) and 16-bit integers (ubo_std140_misc, storage_16bit). Everything else needs
/// images, graphics or compiler work not done yet.
pub fn supported_features() -> vk::PhysicalDeviceFeatures {
    vk::PhysicalDeviceFeatures {
        // Buffer V#s bound the access to the descriptor's range (OOB_SELECT raw): reads past
        // it return 0 and writes are dropped.
        robust_buffer_access: vk::TRUE,
        // Every target has its own CB_BLENDn_CONTROL (gfx/state/blend.rs); the scene corpus's
        // "MRT blended three ways" draws three blend states at once against lavapipe.
        independent_blend: vk::TRUE,
        // Index values up to 2^32 - 2 (GE_MAX_VTX_INDX is 0xffffffff, restart at 0xffffffff):
        // the scene corpus draws indices from 0x7ffffff0 brought back by vertexOffset.
        full_draw_index_uint32: vk::TRUE,
        shader_uniform_buffer_array_dynamic_indexing: vk::TRUE,
        shader_storage_buffer_array_dynamic_indexing: vk::TRUE,
        // The T#/S# of the indexed array slot is loaded from set memory (per distinct index
        // in a waterfall loop, so even divergent indices work): compiler/tests/images_sim.rs
        // runs sim_descriptor_arrays (uniform, loop-counter and per-lane indices into
        // sampled and storage image arrays) on the simulator against the interpreter.
        shader_sampled_image_array_dynamic_indexing: vk::TRUE,
        shader_storage_image_array_dynamic_indexing: vk::TRUE,
        // Gathers with run-time offsets (the MIMG offset dword from ALU ops) and
        // textureGatherOffsets (four gathers): image corpus sim_gather_extended on the
        // simulator against the interpreter.
        shader_image_gather_extended: vk::TRUE,
        // Storage images and texel buffers without a format qualifier: MIMG and typed buffer
        // instructions take the format from the T#/V#, never from the shader, so the compiler
        // ignores the declared format (tests/tests/image_shaders.rs `unformatted_*`: every
        // storage format's round trip declared without a format, against lavapipe).
        // Storage images of every format of the feature's list
        // (`format::properties::PROVEN_STORAGE_EXTENDED`, proven by image_shaders.rs).
        shader_storage_image_extended_formats: vk::TRUE,
        shader_storage_image_read_without_format: vk::TRUE,
        shader_storage_image_write_without_format: vk::TRUE,
        // CUBE_ARRAY views (T# type CUBE with the cube index in the layer coordinate, scaled
        // by 8 in the face id as the hardware expects): tests/tests/cube_array.rs samples
        // every face of two cubes, with rounded and clamped cube indices, against the spec's
        // face selection on Ferrum and lavapipe.
        image_cube_array: vk::TRUE,
        // BC1–BC7: the texture unit decodes the blocks (sim/src/tex/bc*.rs, hand-computed
        // blocks in sim/tests/formats.rs); tests/tests/bc_sampling.rs samples (texelFetch,
        // nearest, linear, trilinear) and blits every BC format against lavapipe, and
        // meta_transfer.rs copies them byte-exact (format/properties.rs `PROVEN_BC`).
        texture_compression_bc: vk::TRUE,
        // The MinLod image operand: the `_cl` MIMG forms (explicit levels take max(lod, min)
        // in the ALU); sim tests sampling::lod_clamp_raises_the_gradient_level, the image
        // corpus's sample_grad_offset (textureGradClampARB) through every pass.
        shader_resource_min_lod: vk::TRUE,
        shader_int64: vk::TRUE,
        shader_float64: vk::TRUE,
        shader_int16: vk::TRUE,
        // Depth clamp (PA_CL_CLIP_CNTL near/far clipping off, the DB clamps to the viewport's
        // depth range), the depth-bias clamp (PA_SU_POLY_OFFSET_CLAMP) and the depth bounds
        // test (DB_DEPTH_BOUNDS_*): tests/tests/graphics_depth.rs against lavapipe.
        depth_clamp: vk::TRUE,
        depth_bias_clamp: vk::TRUE,
        depth_bounds: vk::TRUE,
        // Occlusion queries count exactly (ZPASS_DONE from every RB, DB_COUNT_CONTROL
        // perfect counts); statistics from SAMPLE_PIPELINESTAT. tests/tests/graphics_queries.rs.
        occlusion_query_precise: vk::TRUE,
        // Several indirect draws per call, each one's firstInstance passed to the VS by the CP
        // (tests/tests/graphics_indirect_count.rs, multi_draw_indirect_honours_first_instance).
        multi_draw_indirect: vk::TRUE,
        draw_indirect_first_instance: vk::TRUE,
        pipeline_statistics_query: vk::TRUE,
        // gl_ClipDistance / gl_CullDistance: the CCDIST position exports and
        // PA_CL_VS_OUT_CNTL from the compiler's VsMetadata (compiler/tests/gfx_clip.rs,
        // tests/tests/graphics_shaders.rs `clip_cull` against lavapipe).
        shader_clip_distance: vk::TRUE,
        shader_cull_distance: vk::TRUE,
        // Queries stay active across vkCmdExecuteCommands: the counters are CP and DB state
        // secondaries do not touch (graphics_secondary.rs, secondaries_count_in_inherited_queries).
        inherited_queries: vk::TRUE,
        // Sample shading (DB_EQAA.PS_ITER_SAMPLES: one invocation per covered sample),
        // gl_SampleID / gl_SamplePosition, `sample` and `centroid` inputs, interpolateAt*
        // (the SampleRateShading and InterpolationFunction capabilities): compiler
        // abi/graphics.rs, tests/tests/msaa_shading.rs against hand-computed values.
        sample_rate_shading: vk::TRUE,
        // Buffer and image stores and atomics in vertex and fragment shaders: helper lanes
        // store nothing (exact mode around each store), the PS keeps running where depth
        // fails unless it declares early fragment tests (DB_SHADER_CONTROL from PsUses).
        // tests/tests/graphics_side_effects.rs against hand-computed counts, on lavapipe too.
        vertex_pipeline_stores_and_atomics: vk::TRUE,
        fragment_stores_and_atomics: vk::TRUE,
        // CB_COLOR_CONTROL.ROP3 from the op's truth table; the CB applies it to integer and
        // normalized targets only (float and sRGB pass the colour through, as the spec
        // says). Dual-source blending: the Index 1 output is exported as MRT1 in target 0's
        // format and the CB reads it for the SRC1 factors. tests/tests/graphics_state.rs
        // against lavapipe.
        logic_op: vk::TRUE,
        dual_src_blend: vk::TRUE,
        // Polygon modes LINE and POINT: PA_SU_SC_MODE_CNTL.POLY_MODE dual mode with the
        // per-face primitive type; the setup unit draws the culled polygon's edges or
        // vertices (graphics_state.rs). Depth bias with them is still refused.
        fill_mode_non_solid: vk::TRUE,
        // All viewportCount viewports and scissors are programmed (PA_CL_VPORT_*_n,
        // PA_SC_VPORT_SCISSOR_n, PA_SC_VPORT_ZMIN/ZMAX_n); without a viewport-index output
        // every primitive uses viewport 0 (graphics_state.rs).
        multi_viewport: vk::TRUE,
        // Alpha to one: the pixel shader exports 1.0 as every non-integer target's alpha;
        // with alpha to coverage the shader's own mrt0 alpha goes to mrtz for the DB (as
        // RADV orders them). tests/tests/graphics_alpha_to_one.rs against lavapipe.
        alpha_to_one: vk::TRUE,
        ..Default::default()
    }
}

/// `VkPhysicalDeviceVulkan11Features` in member order, the single source of the 1.1
/// per-topic structures (16-bit storage, multiview, variable pointers, protected memory,
/// Y'CbCr conversion, draw parameters) that [`write_supported`] slices out of it.
const VULKAN_1_1: [u32; 12] = {
    const T: u32 = vk::TRUE;
    const F: u32 = vk::FALSE;
    [
        // storageBuffer16BitAccess, uniformAndStorageBuffer16BitAccess, storagePushConstant16
        // (the corpus exercises each); storageInputOutput16: 16-bit inputs and outputs in
        // whole 32-bit components (compiler passes/lower_io.rs `narrow16`; the half.vert/.frag
        // corpus pair, drawn on the simulator against the interpreter in gfx_interp_sim).
        T, T, T, T,
        // multiview (tests/tests/graphics_multiview.rs, required by 1.1); no geometry or
        // tessellation shaders to combine it with.
        T, F, F,
        // variablePointersStorageBuffer (variable_pointers.spvasm); variablePointers
        // (pointers to workgroup memory and more) is untested.
        T, F, // protectedMemory: no protected queues or memory.
        F, // samplerYcbcrConversion: no multi-planar formats (api/ycbcr.rs).
        F,
        // shaderDrawParameters: gl_BaseVertex/BaseInstance/DrawIndex from the VS's user
        // SGPRs (tests/tests/graphics_draw_parameters.rs against lavapipe; the conformance
        // cases index local arrays, which vertex shaders keep in the scratch ring).
        T,
    ]
};

/// Writes the supported value of every `VkBool32` member of one known feature structure
/// (excluding `VkPhysicalDeviceFeatures2`'s embedded 1.0 features, handled by the caller).
///
/// Only the structures of the device extensions Ferrum exposes and of Vulkan 1.1 report
/// anything; the 1.2/1.3 aggregate structures belong to API versions the device does not
/// claim. (`VkPhysicalDeviceVulkan11Features` itself comes with 1.2, but it describes 1.1's
/// features, so it reports what its per-topic structures report.)
fn write_supported(body: &mut [u32], s_type: vk::StructureType) {
    const T: u32 = vk::TRUE;
    const F: u32 = vk::FALSE;
    let members: &[u32] = match s_type {
        // VK_KHR_timeline_semaphore: timelineSemaphore.
        vk::StructureType::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES
        // VK_KHR_synchronization2: synchronization2.
        | vk::StructureType::PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES
        // VK_KHR_pipeline_executable_properties: pipelineExecutableInfo.
        | vk::StructureType::PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR
        // VK_EXT_pipeline_creation_cache_control: pipelineCreationCacheControl.
        | vk::StructureType::PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES
        // VK_EXT_scalar_block_layout: scalarBlockLayout.
        | vk::StructureType::PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES
        // VK_KHR_uniform_buffer_standard_layout: uniformBufferStandardLayout.
        | vk::StructureType::PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES
        // VK_EXT_host_query_reset: hostQueryReset (tests/tests/graphics_queries.rs).
        | vk::StructureType::PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES
        // VK_KHR_dynamic_rendering: dynamicRendering (tests/tests/graphics_rendering.rs).
        | vk::StructureType::PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES
        // VK_EXT_shader_demote_to_helper_invocation: shaderDemoteToHelperInvocation
        // (compiler/tests/gfx_fragment.rs; graphics_shaders.rs `discard_demote`).
        | vk::StructureType::PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES
        // VK_KHR_imageless_framebuffer: imagelessFramebuffer (graphics_imageless.rs).
        | vk::StructureType::PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES
        // VK_EXT_multi_draw: multiDraw (tests/tests/graphics_multi_draw.rs).
        | vk::StructureType::PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT
        // VK_EXT_non_seamless_cube_map: the S#'s DISABLE_CUBE_WRAP (sim sampling
        // seamless_cube_filtering_at_a_face_edge).
        | vk::StructureType::PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT
        // VK_EXT_extended_dynamic_state: extendedDynamicState (gfx::dynamic;
        // tests/tests/graphics_dynamic_state.rs, graphics_depth.rs against lavapipe).
        | vk::StructureType::PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT
        // VK_KHR_separate_depth_stencil_layouts: separateDepthStencilLayouts (layouts change
        // nothing in Ferrum; graphics_resolve_ds.rs with per-aspect layouts).
        | vk::StructureType::PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES => &[T],
        // VK_EXT_extended_dynamic_state2: extendedDynamicState2 (rasterizer discard, depth
        // bias and primitive restart enables) and extendedDynamicState2LogicOp (the ROP3 of
        // CB_COLOR_CONTROL); no patch control points (no tessellation).
        vk::StructureType::PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT => &[T, T, F],
        // The Vulkan 1.1 features, and the per-topic structures that hold parts of them.
        vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_FEATURES => &VULKAN_1_1[..],
        vk::StructureType::PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES => &VULKAN_1_1[0..4],
        vk::StructureType::PHYSICAL_DEVICE_MULTIVIEW_FEATURES => &VULKAN_1_1[4..7],
        vk::StructureType::PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES => &VULKAN_1_1[7..9],
        vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES => &VULKAN_1_1[9..10],
        vk::StructureType::PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES => &VULKAN_1_1[10..11],
        vk::StructureType::PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES => &VULKAN_1_1[11..12],
        // VK_EXT/KHR_vertex_attribute_divisor (one structure type): instance-rate divisors,
        // zero included (firstInstance's element for every instance), as the VS key's
        // InputRate (tests/tests/graphics_divisor.rs against lavapipe).
        vk::StructureType::PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_KHR => &[T, T],
        // VK_KHR_8bit_storage: storage and uniform buffers and push constants (the corpus's
        // storage_8bit and narrow_vectors).
        vk::StructureType::PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES => &[T, T, T],
        // VK_KHR_shader_atomic_int64: buffer and shared-memory atomics (int64_atomics,
        // tests/corpus/shared_int64_atomics).
        vk::StructureType::PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES => &[T, T],
        // VK_KHR_shader_float16_int8: shaderFloat16, shaderInt8.
        vk::StructureType::PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES => &[T, T],
        // VK_KHR_buffer_device_address: bufferDeviceAddress (the corpus's buffer_reference
        // shaders); no capture/replay and no multi-device addresses.
        vk::StructureType::PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES => &[T, F, F],
        // VK_KHR_shader_subgroup_extended_types: every advertised subgroup class on 8/16/64-bit
        // integers and f16, scalars and vectors, as the compiler says it implements
        // (`ferrum_compiler::amd::SUBGROUP_FEATURES.extended_types`: the compiler's subgroup
        // corpus against its interpreter; tests/tests/subgroup_extended_types.rs against the
        // spec's definitions on Ferrum and lavapipe; CTS subgroups.* on those types).
        vk::StructureType::PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES => &[T],
        _ => &[],
    };
    for (i, word) in body.iter_mut().enumerate() {
        *word = members.get(i).copied().unwrap_or(F);
    }
}

fn bool_body<'a>(s: *mut vk::BaseOutStructure<'static>, size: usize) -> &'a mut [u32] {
    let words = (size - HEADER_SIZE) / size_of::<u32>();
    // SAFETY: `s` is a feature structure of `size` bytes whose members after the header are
    // all VkBool32 (checked for the whole table in the tests below).
    unsafe { std::slice::from_raw_parts_mut((s as *mut u8).add(HEADER_SIZE) as *mut u32, words) }
}

fn bool_body_in<'a>(s: *const vk::BaseInStructure<'static>, size: usize) -> &'a [u32] {
    let words = (size - HEADER_SIZE) / size_of::<u32>();
    // SAFETY: as for `bool_body`, read-only.
    unsafe { std::slice::from_raw_parts((s as *const u8).add(HEADER_SIZE) as *const u32, words) }
}

/// Fills every known feature structure in an output chain (`vkGetPhysicalDeviceFeatures2`).
///
/// # Safety
/// `p_next` must be a valid, writable output chain.
pub unsafe fn fill_chain(p_next: *mut c_void) {
    // SAFETY: forwarded to the caller.
    for s in unsafe { chain::iter_out(p_next) } {
        // SAFETY: every link is a valid structure.
        let s_type = unsafe { (*s).s_type };
        if s_type == vk::StructureType::PHYSICAL_DEVICE_FEATURES_2 {
            continue;
        }
        if let Some((size, _)) = lookup(s_type) {
            write_supported(bool_body(s, size), s_type);
        }
    }
}

/// Checks a `vkCreateDevice` request: `pEnabledFeatures` and every feature structure in `pNext`.
///
/// # Safety
/// `create_info` must be a valid `VkDeviceCreateInfo`.
pub unsafe fn check_requested(create_info: &vk::DeviceCreateInfo<'_>) -> VkResult<()> {
    let supported = supported_features();
    // SAFETY: a non-null pEnabledFeatures points to a valid structure.
    if let Some(requested) = unsafe { create_info.p_enabled_features.as_ref() } {
        check_core(requested, &supported)?;
    }
    // SAFETY: the create info's chain is valid.
    for s in unsafe { chain::iter_in(create_info.p_next) } {
        // SAFETY: every link is a valid structure.
        let s_type = unsafe { (*s).s_type };
        if s_type == vk::StructureType::PHYSICAL_DEVICE_FEATURES_2 {
            // SAFETY: the sType identifies the structure.
            let f2 = unsafe { &*(s as *const vk::PhysicalDeviceFeatures2<'static>) };
            check_core(&f2.features, &supported)?;
            continue;
        }
        let Some((size, name)) = lookup(s_type) else { continue };
        let requested = bool_body_in(s, size);
        let mut have = vec![vk::FALSE; requested.len()];
        write_supported(&mut have, s_type);
        if let Some(i) =
            requested.iter().zip(&have).position(|(&r, &h)| r != vk::FALSE && h == vk::FALSE)
        {
            return Err(VkError::FeatureNotPresent(format!("{name} member #{i}")));
        }
    }
    Ok(())
}

fn core_words(f: &vk::PhysicalDeviceFeatures) -> &[u32] {
    let words = size_of::<vk::PhysicalDeviceFeatures>() / size_of::<u32>();
    // SAFETY: VkPhysicalDeviceFeatures consists only of VkBool32 members.
    unsafe { std::slice::from_raw_parts(f as *const _ as *const u32, words) }
}

fn check_core(
    requested: &vk::PhysicalDeviceFeatures,
    supported: &vk::PhysicalDeviceFeatures,
) -> VkResult<()> {
    let (r, s) = (core_words(requested), core_words(supported));
    match r.iter().zip(s).position(|(&r, &s)| r != vk::FALSE && s == vk::FALSE) {
        Some(i) => Err(VkError::FeatureNotPresent(format!("VkPhysicalDeviceFeatures member #{i}"))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each count fills its structure up to (at most 4 bytes of) trailing padding.
    #[test]
    fn member_counts_match_the_structure_sizes() {
        for &(name, size, members) in FEATURE_SIZES {
            if name == "PhysicalDeviceFeatures2" {
                continue;
            }
            assert_eq!(size, members.next_multiple_of(8), "{name}");
        }
    }

    #[test]
    fn table_structs_are_all_bool32() {
        for &(_, size, name) in FEATURE_STRUCTS {
            assert_eq!((size - HEADER_SIZE) % 4, 0, "{name}");
        }
        assert_eq!(size_of::<vk::PhysicalDeviceFeatures>() % 4, 0);
    }

    #[test]
    fn requesting_an_unsupported_feature_fails() {
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default().timeline_semaphore(true);
        let info = vk::DeviceCreateInfo::default().push_next(&mut v12);
        // SAFETY: `info` is a valid structure chain.
        let err = unsafe { check_requested(&info) }.unwrap_err();
        assert!(matches!(err, VkError::FeatureNotPresent(_)));

        let core = vk::PhysicalDeviceFeatures::default().sparse_binding(true);
        let info = vk::DeviceCreateInfo::default().enabled_features(&core);
        // SAFETY: as above.
        assert!(unsafe { check_requested(&info) }.is_err());

        let mut none = vk::PhysicalDeviceVulkan13Features::default();
        let info = vk::DeviceCreateInfo::default().push_next(&mut none);
        // SAFETY: as above.
        let r = unsafe { check_requested(&info) };
        assert!(r.is_ok(), "{r:?}");
    }

    /// Partly supported structures accept their tested members and refuse the others.
    #[test]
    fn members_are_supported_one_by_one() {
        let mut ok = vk::PhysicalDevice16BitStorageFeatures::default()
            .storage_buffer16_bit_access(true)
            .storage_push_constant16(true);
        let info = vk::DeviceCreateInfo::default().push_next(&mut ok);
        // SAFETY: a valid structure chain.
        assert!(unsafe { check_requested(&info) }.is_ok());
        let mut io = vk::PhysicalDevice16BitStorageFeatures::default().storage_input_output16(true);
        let info = vk::DeviceCreateInfo::default().push_next(&mut io);
        // SAFETY: as above.
        assert!(unsafe { check_requested(&info) }.is_ok());
        let mut vp = vk::PhysicalDeviceVariablePointersFeatures::default().variable_pointers(true);
        let info = vk::DeviceCreateInfo::default().push_next(&mut vp);
        // SAFETY: as above.
        assert!(unsafe { check_requested(&info) }.is_err());
        let mut push8 =
            vk::PhysicalDevice8BitStorageFeatures::default().storage_push_constant8(true);
        let info = vk::DeviceCreateInfo::default().push_next(&mut push8);
        // SAFETY: as above.
        assert!(unsafe { check_requested(&info) }.is_ok());
    }

    /// The 1.1 aggregate and its per-topic structures report the same, multiview (required
    /// by Vulkan 1.1) among it.
    #[test]
    fn vulkan_1_1_aggregate_and_topic_structs_agree() {
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut s16 = vk::PhysicalDevice16BitStorageFeatures::default();
        let mut mv = vk::PhysicalDeviceMultiviewFeatures::default();
        let mut vp = vk::PhysicalDeviceVariablePointersFeatures::default();
        let mut pm = vk::PhysicalDeviceProtectedMemoryFeatures::default();
        let mut yc = vk::PhysicalDeviceSamplerYcbcrConversionFeatures::default();
        let mut dp = vk::PhysicalDeviceShaderDrawParametersFeatures::default();
        let f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut v11)
            .push_next(&mut s16)
            .push_next(&mut mv)
            .push_next(&mut vp)
            .push_next(&mut pm)
            .push_next(&mut yc)
            .push_next(&mut dp);
        // SAFETY: a valid output chain.
        unsafe { fill_chain(f2.p_next) };
        assert_eq!(v11.multiview, vk::TRUE);
        let topic = [
            s16.storage_buffer16_bit_access,
            s16.uniform_and_storage_buffer16_bit_access,
            s16.storage_push_constant16,
            s16.storage_input_output16,
            mv.multiview,
            mv.multiview_geometry_shader,
            mv.multiview_tessellation_shader,
            vp.variable_pointers_storage_buffer,
            vp.variable_pointers,
            pm.protected_memory,
            yc.sampler_ycbcr_conversion,
            dp.shader_draw_parameters,
        ];
        let aggregate = [
            v11.storage_buffer16_bit_access,
            v11.uniform_and_storage_buffer16_bit_access,
            v11.storage_push_constant16,
            v11.storage_input_output16,
            v11.multiview,
            v11.multiview_geometry_shader,
            v11.multiview_tessellation_shader,
            v11.variable_pointers_storage_buffer,
            v11.variable_pointers,
            v11.protected_memory,
            v11.sampler_ycbcr_conversion,
            v11.shader_draw_parameters,
        ];
        assert_eq!(topic, aggregate);
        assert_eq!(aggregate, VULKAN_1_1);
    }

    #[test]
    fn fill_chain_reports_what_check_accepts() {
        let mut v11 =
            vk::PhysicalDeviceVulkan11Features { multiview: vk::TRUE, ..Default::default() };
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut v11);
        // SAFETY: a valid output chain.
        unsafe { fill_chain(f2.p_next) };
        let info = vk::DeviceCreateInfo::default().push_next(&mut f2);
        // SAFETY: a valid chain; everything reported supported must be accepted.
        assert!(unsafe { check_requested(&info) }.is_ok());
    }
}
