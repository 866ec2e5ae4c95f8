//! Graphics pipelines: the vertex and fragment stages compiled by Ferrum's compiler
//! (`compile_graphics`, legacy VS/PS ABI) with the PS key taken from the colour formats of the
//! subpass or of `VkPipelineRenderingCreateInfo`, code in GPU memory, and the fixed-function
//! state the draw path programs.
//!
//! Vertex input becomes the compiler's `VsKey` (input rate per location) and, per location,
//! what the draw path needs to build the location's V# (binding, format, offset). The stages
//! are linked as RADV links them: the fragment shader is compiled first, and the input
//! components it reads decide which VS outputs are stored at all (`VsKey::unread_outputs`);
//! without multiview (view mask 0) gl_ViewIndex is a constant 0 in both (`GfxKey::single_view`).
//!
//! Colour blending is `state::blend::color_blend`'s register list, emitted by every draw;
//! input assembly, rasterization, depth/stencil state, depth bounds and depth bias are kept as
//! values because draws combine them with the attached aspects and the command buffer's
//! dynamic state (`gfx::dynamic`). State the draw path cannot honour yet is refused at
//! creation with a log line (logic ops, dual-source blending, polygon modes other than fill,
//! dynamic states of extensions Ferrum does not offer), so a pipeline that exists draws what
//! Vulkan says. Compiled stages go through the
//! pipeline cache (`pipeline::gfx_cache`).

use std::ffi::CStr;
use std::sync::Arc;

use ash::vk;
use ferrum_compiler::amd::abi::graphics::{
    self as g, ConstantInputs, GfxKey, InputRate, PsKey, PsMetadata, VsKey, VsMetadata,
    MAX_VERTEX_INPUTS,
};
use ferrum_compiler::amd::{self, GfxMetadata};
use ferrum_compiler::ir::{Shader, Stage};
use ferrum_compiler::passes::link_stages;
use ferrum_regs::gfx103 as r;
use ferrum_regs::gfx103::enums::SPI_SHADER_EX_FORMAT as EX;

use super::dynamic::{self, Dynamic};
use super::render_pass::RenderPass;
use super::{state, Regs};
use crate::core::device::DeviceShared;
use crate::core::gpu_alloc::GpuAlloc;
use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};
use crate::format::Numeric;
use crate::pipeline::compute::{resource_layout, specialization, PREFETCH_SLOP};
use crate::pipeline::{PipelineCache, PipelineLayout, ShaderModule};

/// One vertex input location: where its V# points and how it reads.
#[derive(Debug, Clone, Copy)]
pub struct VertexAttribute {
    pub location: u32,
    pub binding: u32,
    pub offset: u32,
    pub stride: u32,
    pub format: &'static crate::format::FormatInfo,
}

/// What a draw needs from a graphics pipeline.
pub struct GraphicsProgram {
    /// Vertex input locations, in location order.
    pub attributes: Vec<VertexAttribute>,
    vs_code: GpuAlloc,
    ps_code: GpuAlloc,
    /// The scratch ring both stages share (`abi::graphics::gfx_tmpring_size`) and its
    /// SPI_TMPRING_SIZE, when either stage has private memory in it.
    scratch: Option<(GpuAlloc, u32)>,
    pub vs: VsMetadata,
    pub ps: PsMetadata,
    pub ps_input_cntl: Vec<u32>,
    pub stats: [amd::Stats; 2],
    pub isa_text: [String; 2],
    /// The fixed-function state every draw emits that no dynamic state changes, translated
    /// once by `gfx::state`: PA_CL_VTE_CNTL, point size and its clamp, multisample
    /// (PA_SC_MODE_CNTL_0, PA_SC_AA_CONFIG, DB_EQAA, sample mask and locations).
    pub state: Regs,
    /// The input-assembly, rasterization and depth/stencil values dynamic state can replace
    /// (`gfx::dynamic::resolve` combines them with the command buffer's per draw).
    pub fixed: dynamic::Static,
    /// SPI_BARYC_CNTL (gl_FragCoord at the sample when the pixel shader runs per sample).
    pub baryc_cntl: u32,
    /// CB_BLENDn_CONTROL, CB_TARGET_MASK, CB_COLOR_CONTROL and the blend constants
    /// (`state::blend::color_blend`); empty without a colour blend state.
    pub blend: Regs,
    /// logicOpEnable: the command buffer's logic op replaces CB_COLOR_CONTROL.ROP3 when the
    /// op is dynamic.
    pub logic_op_enable: bool,
    /// Which states come from the command buffer.
    pub dynamic: Dynamic,
    /// Static depth bounds (min, max).
    pub depth_bounds: (f32, f32),
    /// Static depth bias values (applied when the resolved state enables the bias).
    pub depth_bias: state::rasterization::DepthBias,
    /// Static viewports and scissors, `viewport_count` of each (`None` when dynamic).
    pub viewports: Option<Vec<vk::Viewport>>,
    pub scissors: Option<Vec<vk::Rect2D>>,
    /// `VkPipelineViewportStateCreateInfo::viewportCount`: the viewports every draw programs
    /// (0 under rasterizer discard without a viewport state, or when the count is dynamic).
    pub viewport_count: u32,
    /// Per set: index of its first dynamic buffer in the push block, and how many it has.
    pub dynamic_sets: Vec<(u32, u32)>,
    pub dynamic_count: u32,
}

impl GraphicsProgram {
    pub fn vs_va(&self) -> u64 {
        self.vs_code.va()
    }

    pub fn ps_va(&self) -> u64 {
        self.ps_code.va()
    }

    /// The scratch ring's address and SPI_TMPRING_SIZE, if a stage uses scratch.
    pub fn scratch(&self) -> Option<(u64, u32)> {
        self.scratch.as_ref().map(|(ring, tmpring)| (ring.va(), *tmpring))
    }
}

/// The scratch ring for a VS and PS with these private sizes per lane, if either has any.
fn scratch_ring(
    shared: &DeviceShared,
    vm: &VsMetadata,
    pm: &PsMetadata,
) -> VkResult<Option<(GpuAlloc, u32)>> {
    let (tmpring, bytes) =
        g::gfx_tmpring_size([vm.scratch_bytes_per_lane, pm.scratch_bytes_per_lane]);
    if bytes == 0 {
        return Ok(None);
    }
    Ok(Some((GpuAlloc::new(shared.winsys(), bytes)?, tmpring)))
}

/// The colour formats per location the pipeline renders to.
fn color_formats(info: &vk::GraphicsPipelineCreateInfo<'_>) -> VkResult<Vec<vk::Format>> {
    // SAFETY: a null or live render pass (valid usage).
    if let Some(rp) = unsafe { RenderPass::from_handle(info.render_pass) } {
        return rp.color_formats(info.subpass);
    }
    // SAFETY: a valid pNext chain (valid usage).
    let rendering =
        unsafe { crate::core::chain::find_in::<vk::PipelineRenderingCreateInfo<'_>>(info.p_next) };
    let Some(r) = rendering else { return Ok(Vec::new()) };
    // Draws pass gl_ViewIndex in user SGPRs; the pipeline only needs to know whether the
    // mask is 0 ([`view_mask`]).
    super::multiview::check_mask(r.view_mask)?;
    Ok(crate::api::array(r.p_color_attachment_formats, r.color_attachment_count).to_vec())
}

/// The view mask the pipeline renders with (0: no multiview).
fn view_mask(info: &vk::GraphicsPipelineCreateInfo<'_>) -> VkResult<u32> {
    // SAFETY: a null or live render pass (valid usage).
    if let Some(rp) = unsafe { RenderPass::from_handle(info.render_pass) } {
        let sp = rp.subpasses.get(info.subpass as usize);
        return sp
            .map(|sp| sp.view_mask)
            .ok_or(VkError::InvalidUsage("subpass index out of range"));
    }
    // SAFETY: a valid pNext chain (valid usage).
    let rendering =
        unsafe { crate::core::chain::find_in::<vk::PipelineRenderingCreateInfo<'_>>(info.p_next) };
    Ok(rendering.map_or(0, |r| r.view_mask))
}

/// Whether the pipeline's rendering has a depth aspect and a stencil aspect.
fn depth_aspects(info: &vk::GraphicsPipelineCreateInfo<'_>) -> VkResult<(bool, bool)> {
    let aspects = |f: vk::Format| {
        crate::format::info(f).map_or(vk::ImageAspectFlags::empty(), |i| i.aspects())
    };
    // SAFETY: a null or live render pass (valid usage).
    if let Some(rp) = unsafe { RenderPass::from_handle(info.render_pass) } {
        let a = aspects(rp.depth_format(info.subpass)?);
        return Ok((
            a.contains(vk::ImageAspectFlags::DEPTH),
            a.contains(vk::ImageAspectFlags::STENCIL),
        ));
    }
    // SAFETY: a valid pNext chain (valid usage).
    let rendering =
        unsafe { crate::core::chain::find_in::<vk::PipelineRenderingCreateInfo<'_>>(info.p_next) };
    Ok(rendering.map_or((false, false), |r| {
        (
            aspects(r.depth_attachment_format).contains(vk::ImageAspectFlags::DEPTH),
            aspects(r.stencil_attachment_format).contains(vk::ImageAspectFlags::STENCIL),
        )
    }))
}

/// The depth/stencil state: tests whose aspect the rendering lacks are left to the draw
/// (`state::depth::depth_control` switches them off), absent state is all off.
fn depth_stencil(
    info: &vk::GraphicsPipelineCreateInfo<'_>,
) -> VkResult<(state::depth::DepthStencil, (f32, f32))> {
    let (has_depth, has_stencil) = depth_aspects(info)?;
    // SAFETY: a null or valid pointer (valid usage).
    let Some(ds) =
        (unsafe { info.p_depth_stencil_state.as_ref() }).filter(|_| has_depth || has_stencil)
    else {
        let off = vk::PipelineDepthStencilStateCreateInfo::default();
        return Ok((state::depth::DepthStencil::from_info(&off), (0.0, 1.0)));
    };
    Ok((state::depth::DepthStencil::from_info(ds), (ds.min_depth_bounds, ds.max_depth_bounds)))
}

/// The stage of `flags`, its module, entry point and specialization.
struct StageInfo<'a> {
    words: &'a [u32],
    entry: &'a str,
    spec: std::collections::HashMap<u32, u64>,
}

fn stage_info<'a>(s: &'a vk::PipelineShaderStageCreateInfo<'_>) -> VkResult<StageInfo<'a>> {
    // SAFETY: the application passes a live module (valid usage).
    let module = unsafe { ShaderModule::from_handle(s.module) }
        .ok_or(VkError::FeatureNotPresent("shader stages without a module".into()))?;
    // SAFETY: pName is a valid C string (valid usage).
    let entry = unsafe { CStr::from_ptr(s.p_name) }
        .to_str()
        .map_err(|_| VkError::InvalidShader("entry point name is not UTF-8".into()))?;
    // SAFETY: a non-null pSpecializationInfo is valid.
    let spec = specialization(unsafe { s.p_specialization_info.as_ref() })?;
    Ok(StageInfo { words: module.spirv()?, entry, spec })
}

/// `void main() {}` as a SPIR-V 1.0 fragment shader: the fragment stage of pipelines created
/// without one (Vulkan allows that: depth/stencil still run, and what colour attachments get
/// is undefined; this shader exports nothing, so they are not written).
const EMPTY_FS: [u32; 32] = [
    0x0723_0203,
    0x0001_0000,
    0,
    5,
    0, // header: magic, 1.0, generator, id bound 5, schema
    0x0002_0011,
    1, // OpCapability Shader
    0x0003_000e,
    0,
    1, // OpMemoryModel Logical GLSL450
    0x0005_000f,
    4,
    1,
    0x6e69_616d,
    0, // OpEntryPoint Fragment %1 "main"
    0x0003_0010,
    1,
    7, // OpExecutionMode %1 OriginUpperLeft
    0x0002_0013,
    2, // %2 = OpTypeVoid
    0x0003_0021,
    3,
    2, // %3 = OpTypeFunction %2
    0x0005_0036,
    2,
    1,
    0,
    3, // %1 = OpFunction %2 None %3
    0x0002_00f8,
    4,           // OpLabel
    0x0001_00fd, // OpReturn
    0x0001_0038, // OpFunctionEnd
];

/// One stage from `cache` or compiled (and added to it); with
/// FAIL_ON_PIPELINE_COMPILE_REQUIRED a stage missing from the cache is an error instead
/// ("the implementation must not attempt to compile the pipeline").
fn cached_stage(
    cache: Option<&PipelineCache>,
    flags: vk::PipelineCreateFlags,
    st: &StageInfo<'_>,
    stage: Stage,
    layout: &amd::ResourceLayout,
    key: GfxKey,
    ir: Option<&Shader>,
) -> VkResult<Arc<amd::GfxBinary>> {
    let k = crate::pipeline::gfx_cache::key(st.words, st.entry, &st.spec, layout, stage, key);
    if let Some(hit) = cache.and_then(|c| c.get_gfx(k)) {
        return Ok(hit);
    }
    if flags.contains(vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED) {
        return Err(VkError::PipelineCompileRequired);
    }
    let bin = Arc::new(match ir {
        Some(ir) => back_end(ir, stage, layout, key)?,
        None => back_end(&front_end(st, stage)?, stage, layout, key)?,
    });
    if let Some(c) = cache {
        c.insert_gfx(k, bin.clone());
    }
    Ok(bin)
}

/// The vertex shader's constant outputs (the pixel shader's key holds them): from `cache`, or
/// from the vertex shader's front end, whose IR is left in `ir` for the shader's own
/// compilation and whose result the cache keeps, so that a pipeline creation finding all it
/// needs in the cache translates no SPIR-V.
fn vs_constant_outputs(
    cache: Option<&PipelineCache>,
    flags: vk::PipelineCreateFlags,
    st: &StageInfo<'_>,
    layout: &amd::ResourceLayout,
    ir: &mut Option<Shader>,
) -> VkResult<ConstantInputs> {
    let k = crate::pipeline::gfx_cache::link_key(st.words, st.entry, &st.spec, layout);
    if let Some(hit) = cache.and_then(|c| c.get_link(k)) {
        return Ok(hit);
    }
    if flags.contains(vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED) {
        return Err(VkError::PipelineCompileRequired);
    }
    let shader = front_end(st, Stage::Vertex)?;
    let outputs = link_stages::constant_outputs(&shader);
    if let Some(c) = cache {
        c.insert_link(k, outputs);
    }
    *ir = Some(shader);
    Ok(outputs)
}

/// SPIR-V → lowered IR of one stage; a compiler panic becomes a creation error.
fn front_end(st: &StageInfo<'_>, stage: Stage) -> VkResult<Shader> {
    let run = || {
        ferrum_compiler::compile_to_ir(st.words, st.entry, stage, &st.spec)
            .map_err(|e| VkError::InvalidShader(e.to_string()))
    };
    std::panic::catch_unwind(run).unwrap_or_else(|_| {
        Err(VkError::InvalidShader(format!("compiler panicked on the {stage:?} stage")))
    })
}

/// IR → the stage's binary for `key`; a compiler panic becomes a creation error.
fn back_end(
    ir: &Shader,
    stage: Stage,
    layout: &amd::ResourceLayout,
    key: GfxKey,
) -> VkResult<amd::GfxBinary> {
    let run = || {
        amd::compile_graphics(ir, layout, key).map_err(|e| VkError::InvalidShader(e.to_string()))
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| {
        Err(VkError::InvalidShader(format!("compiler panicked on the {stage:?} stage")))
    })
}

fn upload(shared: &DeviceShared, code: &[u8]) -> VkResult<GpuAlloc> {
    let mem = GpuAlloc::new(shared.winsys(), code.len() as u64 + PREFETCH_SLOP)?;
    let words: Vec<u32> = code
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect();
    mem.write_u32s(0, &words);
    Ok(mem)
}

/// Checks the fixed-function state against what the draw path does.
fn check_state(info: &vk::GraphicsPipelineCreateInfo<'_>) -> VkResult<()> {
    // SAFETY: a null or valid pointer (valid usage).
    let cb = unsafe { info.p_color_blend_state.as_ref() };
    // Sample counts, masks, locations and alpha to coverage are `state::multisample`'s.
    if let Some(cb) = cb {
        let blends = crate::api::array(cb.p_attachments, cb.attachment_count);
        // maxFragmentDualSrcAttachments is 1: the second source is the MRT1 export.
        if blends.iter().skip(1).any(state::blend::uses_dual_source) {
            return Err(VkError::InvalidUsage("dual-source blending beyond attachment 0"));
        }
    }
    Ok(())
}

/// The static viewports and scissors (`None` where dynamic) and the viewport count.
///
/// "viewportCount must be less than or equal to VkPhysicalDeviceLimits::maxViewports" and
/// "scissorCount and viewportCount must be identical" (VUIDs of
/// VkPipelineViewportStateCreateInfo); every viewport is programmed, though without a
/// viewport-index output (no geometry shader) primitives use viewport 0.
#[allow(clippy::type_complexity)]
fn viewport_state(
    vp: Option<&vk::PipelineViewportStateCreateInfo<'_>>,
    dynamic: &Dynamic,
    discard: bool,
) -> VkResult<(Option<Vec<vk::Viewport>>, Option<Vec<vk::Rect2D>>, u32)> {
    let Some(vp) = vp else {
        return if discard || (dynamic.any_viewport() && dynamic.any_scissor()) {
            Ok((None, None, 1))
        } else {
            Err(VkError::InvalidUsage("no viewport state"))
        };
    };
    let (count, scissor_count) = (vp.viewport_count, vp.scissor_count);
    // With VIEWPORT/SCISSOR_WITH_COUNT the count is the command buffer's and the pipeline's
    // is 0 (VUID-VkPipelineViewportStateCreateInfo-viewportCount-04135, scissorCount-04136);
    // otherwise both counts agree (scissorCount-04134).
    let with_count = dynamic.viewport_with_count || dynamic.scissor_with_count;
    if count.max(scissor_count) as usize > state::viewport::MAX_VIEWPORTS
        || (!with_count && scissor_count != count)
    {
        return Err(VkError::InvalidUsage("viewport and scissor counts differ or exceed 16"));
    }
    // pViewports and pScissors are ignored (and may dangle) when the state is dynamic.
    let viewports =
        (!dynamic.any_viewport()).then(|| crate::api::array(vp.p_viewports, count).to_vec());
    let scissors =
        (!dynamic.any_scissor()).then(|| crate::api::array(vp.p_scissors, scissor_count).to_vec());
    let short = |n: Option<usize>, want: u32| n.is_some_and(|n| n < want as usize);
    if !discard
        && ((count == 0 && !dynamic.viewport_with_count)
            || short(viewports.as_ref().map(Vec::len), count)
            || short(scissors.as_ref().map(Vec::len), scissor_count))
    {
        return Err(VkError::InvalidUsage("no viewport or scissor"));
    }
    Ok((viewports, scissors, count))
}

/// The vertex input state as the VS key and the attributes the draw path fetches.
fn vertex_input(
    vi: Option<&vk::PipelineVertexInputStateCreateInfo<'_>>,
) -> VkResult<(VsKey, Vec<VertexAttribute>)> {
    let mut key = VsKey::default();
    let Some(vi) = vi else { return Ok((key, Vec::new())) };
    let bindings =
        crate::api::array(vi.p_vertex_binding_descriptions, vi.vertex_binding_description_count);
    // VK_EXT/KHR_vertex_attribute_divisor: per-binding instance divisors (1 when unlisted).
    // SAFETY: a valid pNext chain (valid usage).
    let divisors = unsafe {
        crate::core::chain::find_in::<vk::PipelineVertexInputDivisorStateCreateInfoKHR<'_>>(
            vi.p_next,
        )
    }
    .map_or(&[][..], |d| {
        crate::api::array(d.p_vertex_binding_divisors, d.vertex_binding_divisor_count)
    });
    let mut out = Vec::new();
    for a in
        crate::api::array(vi.p_vertex_attribute_descriptions, vi.vertex_attribute_description_count)
    {
        let b = bindings
            .iter()
            .find(|b| b.binding == a.binding)
            .ok_or(VkError::InvalidUsage("vertex attribute of an undescribed binding"))?;
        let rate = match b.input_rate {
            vk::VertexInputRate::INSTANCE => InputRate::Instance {
                divisor: divisors.iter().find(|d| d.binding == b.binding).map_or(1, |d| d.divisor),
            },
            _ => InputRate::Vertex,
        };
        let parts = crate::format::vertex64::parts(a.format);
        let fetches = if parts.is_empty() {
            vec![(a.location, a.offset, a.format)]
        } else {
            parts.iter().map(|p| (a.location + p.location, a.offset + p.offset, p.format)).collect()
        };
        for (location, offset, vk_format) in fetches {
            let format =
                crate::format::info(vk_format).filter(|f| f.buf_format != 0).ok_or_else(|| {
                    VkError::FeatureNotPresent(format!("vertex format {:?}", a.format))
                })?;
            if location as usize >= MAX_VERTEX_INPUTS {
                return Err(VkError::InvalidUsage("vertex input location beyond the limit"));
            }
            key.rates[location as usize] = rate;
            out.push(VertexAttribute {
                location,
                binding: a.binding,
                offset,
                stride: b.stride,
                format,
            });
        }
    }
    out.sort_by_key(|a| a.location);
    Ok((key, out))
}

/// The PS key: the export format of each location's attachment (`mrt0` always with alpha
/// under alpha to coverage), and alpha to one on every non-integer attachment (the spec's
/// "each alpha value"; integer attachments have no alpha to coverage or to one), with the
/// shader's `mrt0` alpha kept for coverage in `mrtz` when both are on.
fn ps_key(
    formats: &[vk::Format],
    blending: &[bool],
    ms: &vk::PipelineMultisampleStateCreateInfo<'_>,
) -> VkResult<PsKey> {
    let alpha_to_coverage = ms.alpha_to_coverage_enable != 0;
    let alpha_to_one = ms.alpha_to_one_enable != 0;
    let mut key = PsKey { color_formats: [EX::SPI_SHADER_ZERO; 8], ..PsKey::default() };
    if formats.len() > 8 {
        return Err(VkError::InvalidUsage("more than 8 colour attachments"));
    }
    for (i, &f) in formats.iter().enumerate() {
        if f == vk::Format::UNDEFINED {
            continue;
        }
        let info = crate::format::info(f)
            .filter(|i| crate::format::cb::cb_format(i).is_some())
            .ok_or_else(|| VkError::FeatureNotPresent(format!("colour attachments of {f:?}")))?;
        key.color_formats[i] = crate::format::cb::export_format(info, blending[i]);
        let integer = matches!(info.numeric, Numeric::Uint | Numeric::Sint);
        key.alpha_to_one |= u8::from(alpha_to_one && !integer) << i;
    }
    if alpha_to_coverage {
        key.color_formats[0] = state::multisample::alpha_export_format(key.color_formats[0]);
        key.alpha_to_coverage_via_mrtz = alpha_to_one;
    }
    Ok(key)
}

/// Whether attachment 0 blends with the second source colour (dual-source blending).
fn dual_source(cb: &vk::PipelineColorBlendStateCreateInfo<'_>) -> bool {
    let blends = crate::api::array(cb.p_attachments, cb.attachment_count);
    blends.first().is_some_and(state::blend::uses_dual_source)
}

/// The largest point size the registers clamp to (PA_SU_POINT_MINMAX.MAX_SIZE all ones, in
/// 12.4 fixed point of the half size): the `pointSizeRange` the device reports.
pub const MAX_POINT_SIZE: f32 = 8191.875;

/// The pipeline's fixed-function registers (see [`GraphicsProgram::state`]).
fn fixed_function(
    ms: &vk::PipelineMultisampleStateCreateInfo<'_>,
    ps_per_sample: bool,
) -> VkResult<Regs> {
    let mut regs = Regs::new();
    regs.push(r::PA_CL_VTE_CNTL, state::viewport::vte_cntl());
    regs.extend(state::rasterization::points(MAX_POINT_SIZE));
    regs.extend(state::multisample::multisample(ms, ps_per_sample)?);
    Ok(regs)
}

/// The pipeline's values of the state dynamic state can replace, checked as far as they are
/// static: a topology Ferrum cannot draw fails creation unless the command buffer sets it.
fn fixed_state(
    ia: &vk::PipelineInputAssemblyStateCreateInfo<'_>,
    rs: &vk::PipelineRasterizationStateCreateInfo<'_>,
    dynamic: &Dynamic,
    depth_stencil: state::depth::DepthStencil,
) -> VkResult<dynamic::Static> {
    if !dynamic.topology {
        state::input_assembly::prim_type(ia.topology)?;
    }
    let mut raster = state::rasterization::Raster::from_info(rs);
    if dynamic.line_width {
        raster.line_width = 1.0;
    }
    // What the registers cannot express fails here rather than at a draw.
    state::rasterization::raster_regs(&raster)?;
    Ok(dynamic::Static {
        raster,
        topology: ia.topology,
        restart: ia.primitive_restart_enable != 0,
        depth_stencil,
    })
}

/// `info` with the state pointers Vulkan says are ignored set to null, since an application
/// may leave anything there (dEQP-VK.api.pipeline.pipeline_invalid_pointers_unused_structs
/// passes `~0`): with rasterization disabled the viewport, multisample, depth/stencil and
/// colour blend states; the depth/stencil state when the rendering has neither aspect, the
/// colour blend state when it has no colour attachment; the tessellation state without
/// tessellation stages.
fn without_ignored_state<'a>(
    info: &vk::GraphicsPipelineCreateInfo<'a>,
) -> VkResult<vk::GraphicsPipelineCreateInfo<'a>> {
    let mut info = *info;
    // SAFETY: null or valid pointers (valid usage).
    let (rs, ds) = unsafe { (info.p_rasterization_state.as_ref(), info.p_dynamic_state.as_ref()) };
    // A dynamic rasterizer discard (VK_EXT_extended_dynamic_state2) keeps every state.
    let discard_dynamic = Dynamic::from_info(ds)?.rasterizer_discard;
    if !discard_dynamic && rs.is_some_and(|rs| rs.rasterizer_discard_enable != 0) {
        info.p_viewport_state = std::ptr::null();
        info.p_multisample_state = std::ptr::null();
        info.p_depth_stencil_state = std::ptr::null();
        info.p_color_blend_state = std::ptr::null();
    }
    if depth_aspects(&info)? == (false, false) {
        info.p_depth_stencil_state = std::ptr::null();
    }
    if color_formats(&info)?.iter().all(|&f| f == vk::Format::UNDEFINED) {
        info.p_color_blend_state = std::ptr::null();
    }
    let tessellation =
        vk::ShaderStageFlags::TESSELLATION_CONTROL | vk::ShaderStageFlags::TESSELLATION_EVALUATION;
    if !crate::api::array(info.p_stages, info.stage_count)
        .iter()
        .any(|s| s.stage.intersects(tessellation))
    {
        info.p_tessellation_state = std::ptr::null();
    }
    Ok(info)
}

/// Creates the program of a graphics pipeline.
pub fn create(
    shared: &DeviceShared,
    cache: Option<&PipelineCache>,
    info: &vk::GraphicsPipelineCreateInfo<'_>,
) -> VkResult<GraphicsProgram> {
    let info = &without_ignored_state(info)?;
    // SAFETY: the application passes a live layout (valid usage).
    let layout = unsafe { PipelineLayout::from_handle(info.layout) }
        .ok_or(VkError::InvalidUsage("null pipeline layout"))?;
    let stages = crate::api::array(info.p_stages, info.stage_count);
    let find = |f: vk::ShaderStageFlags| stages.iter().find(|s| s.stage == f);
    if stages
        .iter()
        .any(|s| !matches!(s.stage, vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT))
    {
        return Err(VkError::FeatureNotPresent("tessellation and geometry stages".into()));
    }
    let vs_stage = find(vk::ShaderStageFlags::VERTEX)
        .ok_or(VkError::InvalidUsage("graphics pipeline without a vertex stage"))?;
    let ps_stage = find(vk::ShaderStageFlags::FRAGMENT);
    check_state(info)?;
    // SAFETY: a null or valid pointer (valid usage).
    let dynamic = Dynamic::from_info(unsafe { info.p_dynamic_state.as_ref() })?;
    let (depth_stencil, depth_bounds) = depth_stencil(info)?;
    let formats = color_formats(info)?;
    // SAFETY: a null or valid pointer (valid usage).
    let cb = unsafe { info.p_color_blend_state.as_ref() };
    // A logic op turns blending off (`state::blend::color_blend`).
    let logic_op = cb.is_some_and(|c| c.logic_op_enable != 0);
    let blending: Vec<bool> = (0..formats.len())
        .map(|i| {
            cb.and_then(|c| crate::api::array(c.p_attachments, c.attachment_count).get(i).copied())
                .is_some_and(|a| a.blend_enable != 0 && !logic_op)
        })
        .collect();
    let present = formats
        .iter()
        .enumerate()
        .filter(|f| *f.1 != vk::Format::UNDEFINED)
        .fold(0u32, |m, (i, _)| m | 1 << i);
    let blend = match cb {
        Some(cb) => state::blend::color_blend(cb, present)?,
        None => Regs::new(),
    };
    // SAFETY: a null or valid pointer (valid usage).
    let (vs_key, attributes) = vertex_input(unsafe { info.p_vertex_input_state.as_ref() })?;
    // Without a multisample state (rasterizer discard) nothing is drawn: one sample.
    let one = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    // SAFETY: a null or valid pointer (valid usage).
    let ms = unsafe { info.p_multisample_state.as_ref() }.unwrap_or(&one);
    let mut ps_key = ps_key(&formats, &blending, ms)?;
    ps_key.samples = ms.rasterization_samples.as_raw().max(1);
    if cb.is_some_and(dual_source) && present & 1 != 0 && !logic_op {
        // The second source (Index 1, compiled as location 1) is exported to MRT1 in
        // target 0's format: the CB reads it as SRC1 (RADV's col_format for dual source).
        ps_key.color_formats[1] = ps_key.color_formats[0];
    }
    let single_view = view_mask(info)? == 0;
    let mut key = GfxKey { vs: vs_key, ps: ps_key, single_view };
    let resources = resource_layout(layout);
    let f = info.flags;
    let ps_info = match ps_stage {
        Some(st) => stage_info(st)?,
        None => StageInfo { words: &EMPTY_FS, entry: "main", spec: Default::default() },
    };
    // The stages are linked both ways. The VS's constant outputs are part of the PS's key:
    // the PS takes them as constants and stops reading them. Then the VS is compiled knowing
    // what the PS reads (its key, so its cache entry, says so) and drops the rest.
    let vs_info = stage_info(vs_stage)?;
    let mut vs_ir = None;
    if ps_stage.is_some() {
        key.ps.constant_inputs = vs_constant_outputs(cache, f, &vs_info, &resources, &mut vs_ir)?;
    }
    let ps = cached_stage(cache, f, &ps_info, Stage::Fragment, &resources, key, None)?;
    let GfxMetadata::Fragment(read) = &ps.metadata else {
        return Err(VkError::InvalidShader("stage metadata does not match its stage".into()));
    };
    let mut vs_key = key;
    vs_key.vs.unread_outputs = !read.input_reads;
    let distances = g::CLIP_DIST_LOCATION..g::CLIP_DIST_LOCATION + 2;
    vs_key.vs.unread_clip_distances = !read.input_locations.iter().any(|l| distances.contains(l));
    let vs = cached_stage(cache, f, &vs_info, Stage::Vertex, &resources, vs_key, vs_ir.as_ref())?;
    let (GfxMetadata::Vertex(vm), GfxMetadata::Fragment(pm)) = (&vs.metadata, &ps.metadata) else {
        return Err(VkError::InvalidShader("stage metadata does not match its stage".into()));
    };
    // SAFETY: null or valid pointers (valid usage).
    let (ia, rs, vp) = unsafe {
        (
            info.p_input_assembly_state.as_ref(),
            info.p_rasterization_state.as_ref(),
            info.p_viewport_state.as_ref(),
        )
    };
    let ia = ia.ok_or(VkError::InvalidUsage("no input assembly state"))?;
    let rs = rs.ok_or(VkError::InvalidUsage("no rasterization state"))?;
    let depth_bias = state::rasterization::DepthBias {
        constant: rs.depth_bias_constant_factor,
        clamp: rs.depth_bias_clamp,
        slope: rs.depth_bias_slope_factor,
    };
    let fixed = fixed_state(ia, rs, &dynamic, depth_stencil)?;
    // Rasterizer discard known at creation: the pipeline needs no viewport.
    let discard = fixed.raster.discard && !dynamic.rasterizer_discard;
    let state = fixed_function(ms, pm.per_sample())?;
    let baryc_cntl = state::multisample::Multisample::from_info(ms, pm.per_sample())?.baryc_cntl();
    let (viewports, scissors, viewport_count) = viewport_state(vp, &dynamic, discard)?;
    let dynamic_sets = layout
        .sets
        .iter()
        .zip(&layout.dynamic_base)
        .map(|(l, &base)| (base, l.as_ref().map_or(0, |l| l.dynamic_count)))
        .collect();
    if crate::debug::flags().shaders {
        eprintln!("ferrum: vertex shader: {}\n{}", vs.stats.to_json(), vs.isa_text);
        eprintln!("ferrum: fragment shader: {}\n{}", ps.stats.to_json(), ps.isa_text);
    }
    Ok(GraphicsProgram {
        attributes,
        vs_code: upload(shared, &vs.code)?,
        ps_code: upload(shared, &ps.code)?,
        scratch: scratch_ring(shared, vm, pm)?,
        ps_input_cntl: g::ps_input_cntl(vm, pm),
        vs: vm.clone(),
        ps: pm.clone(),
        stats: [vs.stats.clone(), ps.stats.clone()],
        isa_text: [vs.isa_text.clone(), ps.isa_text.clone()],
        state,
        fixed,
        baryc_cntl,
        blend,
        logic_op_enable: cb.is_some_and(|c| c.logic_op_enable != 0),
        dynamic,
        depth_bounds,
        depth_bias,
        viewports,
        scissors,
        viewport_count,
        dynamic_sets,
        dynamic_count: layout.dynamic_count,
    })
}

#[cfg(test)]
#[path = "pipeline_tests.rs"]
mod tests;
