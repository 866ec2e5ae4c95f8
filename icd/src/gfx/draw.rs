//! Graphics recording: the command buffer's graphics state, beginning a rendering scope
//! (colour-target registers and load-op clears) and draws.
//!
//! Every draw programs the whole legacy VS → PS state (pm4-gfx103.md §5.3, RADV's register
//! recipe for a non-NGG draw): nothing is inherited from an earlier draw, a dispatch or
//! another command buffer, at the price of ~150 dwords per draw. The set table, push block and
//! vertex-input table (a V# per input location) of each draw are embedded in the stream, as
//! for dispatches. User SGPRs follow `abi::graphics`: the VS gets the base vertex, base
//! instance and draw index in s6..s8 (`GE_INDX_OFFSET` stays 0), written by SET_SH_REG for
//! direct draws and by the CP from the arguments for indirect ones.

use std::sync::Arc;

use ash::vk;
use ferrum_compiler::amd::abi;
use ferrum_compiler::amd::abi::graphics as g;
use ferrum_regs::gfx103::{self as r, enums};

use super::dynamic::{self, Extended, Resolved};
use super::pipeline::GraphicsProgram;
use super::rendering::{DepthTarget, Load, Rendering};
use super::state::depth::{self, StencilFace};
use super::state::rasterization::{self as raster, DepthBias};
use super::state::viewport::{self as vp, RastPrim};
use super::{multiview, state, target, Regs};
use crate::cmd::dispatch::BoundSet;
use crate::cmd::pm4;
use crate::cmd::stream::CmdStream;
use crate::core::object::VkObject;
use crate::descriptor::vsharp;
use crate::error::{VkError, VkResult};
use crate::image::view::ImageView;
use crate::meta::clear::{clear_view_region, ClearValue};

const SET_CONTEXT_REG: u32 = 0x69;
const SET_SH_REG: u32 = 0x76;
const SET_UCONFIG_REG: u32 = 0x79;
const SET_UCONFIG_REG_INDEX: u32 = 0x7a;
const NUM_INSTANCES: u32 = 0x2f;
const DRAW_INDEX_AUTO: u32 = 0x2d;
const DRAW_INDEX_2: u32 = 0x27;
const SET_BASE: u32 = 0x11;
const INDEX_BASE: u32 = 0x26;
const INDEX_BUFFER_SIZE: u32 = 0x13;
const DRAW_INDIRECT: u32 = 0x24;
const DRAW_INDEX_INDIRECT: u32 = 0x25;
const DRAW_INDIRECT_MULTI: u32 = 0x2c;
const DRAW_INDEX_INDIRECT_MULTI: u32 = 0x38;
/// DRAW_(INDEX_)INDIRECT_MULTI dword 3: write the draw index, read the count from memory.
const DRAW_INDEX_ENABLE: u32 = 1 << 31;
const COUNT_INDIRECT_ENABLE: u32 = 1 << 30;
/// VGT_DRAW_INITIATOR.SOURCE_SELECT: indices from memory (DMA) or generated (auto).
const SOURCE_DMA: u32 = 0;
const SOURCE_AUTO: u32 = 2;

/// Graphics state of a command buffer.
#[derive(Default)]
pub struct GraphicsState {
    pub pipeline: Option<Arc<GraphicsProgram>>,
    pub sets: [BoundSet; abi::MAX_SETS as usize],
    /// vkCmdSetViewport, per viewport index.
    pub viewports: [Option<vk::Viewport>; vp::MAX_VIEWPORTS],
    /// vkCmdSetBlendConstants.
    pub blend_constants: [f32; 4],
    /// vkCmdSetDepthBias.
    pub depth_bias: DepthBias,
    /// vkCmdSetDepthBounds (min, max).
    pub depth_bounds: (f32, f32),
    /// vkCmdSetStencilReference/CompareMask/WriteMask, front and back face.
    pub stencil: [StencilFace; 2],
    /// vkCmdSetScissor, per viewport index.
    pub scissors: [Option<vk::Rect2D>; vp::MAX_VIEWPORTS],
    /// Index buffer address, bytes available from it, index type.
    pub index: Option<(u64, u64, vk::IndexType)>,
    /// Vertex buffer address and bytes from it, per binding.
    pub vertex_buffers: [(u64, u64); 32],
    /// Per binding, the stride vkCmdBindVertexBuffers2EXT gave (read when the pipeline's
    /// stride is dynamic).
    pub vertex_strides: [u32; 32],
    /// vkCmdSet*EXT of extended dynamic state 1 and 2.
    pub extended: Extended,
    pub rendering: Option<Rendering>,
    pub pass: Option<super::rendering::PassInstance>,
}

/// Writes `values` to consecutive registers from `addr` with the packet its range needs.
fn set(s: &mut CmdStream, addr: u32, values: &[u32]) -> VkResult<()> {
    let (op, base) = match addr {
        0xb000..=0xbfff => (SET_SH_REG, 0xb000),
        0x28000..=0x2ffff => (SET_CONTEXT_REG, 0x28000),
        0x30000..=0x3ffff => (SET_UCONFIG_REG, 0x30000),
        _ => return Err(VkError::InvalidUsage("register outside the SET_*_REG ranges")),
    };
    // Inside a draw: what the previous draw left in place needs no packet.
    if s.regs_hold(addr, values) {
        return Ok(());
    }
    s.emit2(&[pm4::header(op, 1 + values.len()), (addr - base) / 4], values)?;
    s.regs_written(addr, values);
    Ok(())
}

/// Begins a rendering scope: clears the targets whose load op is CLEAR (see [`apply_loads`]).
pub fn begin(s: &mut CmdStream, st: &mut GraphicsState, rendering: Rendering) -> VkResult<()> {
    apply_loads(s, &rendering)?;
    st.rendering = Some(rendering);
    Ok(())
}

/// Clears the targets of `rendering` whose load op is CLEAR over the render area and the
/// scope's layers with the meta clear kernel.
pub fn apply_loads(s: &mut CmdStream, rendering: &Rendering) -> VkResult<()> {
    for t in rendering.colors.iter().flatten() {
        let Load::Clear(c) = t.load else { continue };
        // SAFETY: attachment views outlive the commands that use them (valid usage).
        let view = unsafe { ImageView::from_handle(t.view) }
            .ok_or(VkError::InvalidUsage("null attachment view"))?;
        let rect = clip(rendering.area, t.target.extent());
        if rect.extent.width == 0 || rect.extent.height == 0 {
            continue;
        }
        let layers = rendering.layers.min(t.target.layers);
        let value = ClearValue::Color(c);
        let views = t.load_views.unwrap_or(rendering.view_mask);
        for (base, n) in multiview::clear_layers(views, 0, layers) {
            clear_view_region(s, view, vk::ImageAspectFlags::COLOR, base, n, rect, &value)?;
        }
    }
    if let Some(t) = &rendering.depth {
        let mut aspect = vk::ImageAspectFlags::empty();
        if t.clear_depth.is_some() {
            aspect |= vk::ImageAspectFlags::DEPTH;
        }
        if t.clear_stencil.is_some() {
            aspect |= vk::ImageAspectFlags::STENCIL;
        }
        let value = vk::ClearDepthStencilValue {
            depth: t.clear_depth.unwrap_or(0.0),
            stencil: t.clear_stencil.unwrap_or(0),
        };
        let layers = rendering.layers.min(t.target.layers);
        let views = t.load_views.unwrap_or(rendering.view_mask);
        for (base, n) in multiview::clear_layers(views, 0, layers) {
            clear_depth_region(s, t, aspect, base, n, rendering.area, value)?;
        }
        if let Some((view, clear)) = t.resolve.and_then(|r| r.load_clear.map(|c| (r.view, c))) {
            clear_resolve_target(s, rendering, view, clear)?;
        }
    }
    Ok(())
}

/// The load-op clear of the depth/stencil resolve attachment `view` over the render area
/// and the views it loads (`aspects`, value, views).
fn clear_resolve_target(
    s: &mut CmdStream,
    rendering: &Rendering,
    view: vk::ImageView,
    (aspects, value, views): super::resolve::LoadClear,
) -> VkResult<()> {
    // SAFETY: attachment views outlive the commands that use them (valid usage).
    let v = unsafe { ImageView::from_handle(view) }
        .ok_or(VkError::InvalidUsage("null attachment view"))?;
    let rect = clip(rendering.area, v.target.extent());
    if rect.extent.width == 0 || rect.extent.height == 0 {
        return Ok(());
    }
    let layers = rendering.layers.min(v.target.layers);
    let value = ClearValue::DepthStencil(value);
    for (base, n) in multiview::clear_layers(views, 0, layers) {
        clear_view_region(s, v, aspects, base, n, rect, &value)?;
    }
    Ok(())
}

/// Clears `aspect` (a subset of the attached aspects; nothing if empty) of the depth/stencil
/// target over `area` (clipped to the view) and `layers` layers from `base_layer`.
pub fn clear_depth_region(
    s: &mut CmdStream,
    t: &DepthTarget,
    aspect: vk::ImageAspectFlags,
    base_layer: u32,
    layers: u32,
    area: vk::Rect2D,
    value: vk::ClearDepthStencilValue,
) -> VkResult<()> {
    let mut attached = vk::ImageAspectFlags::empty();
    if t.has_depth() {
        attached |= vk::ImageAspectFlags::DEPTH;
    }
    if t.has_stencil() {
        attached |= vk::ImageAspectFlags::STENCIL;
    }
    let aspect = aspect & attached;
    let rect = clip(area, t.target.extent());
    if aspect.is_empty() || rect.extent.width == 0 || rect.extent.height == 0 || layers == 0 {
        return Ok(());
    }
    // SAFETY: attachment views outlive the commands that use them (valid usage).
    let view = unsafe { ImageView::from_handle(t.view) }
        .ok_or(VkError::InvalidUsage("null attachment view"))?;
    let value = ClearValue::DepthStencil(value);
    clear_view_region(s, view, aspect, base_layer, layers, rect, &value)
}

/// `r` clipped to an `extent` at the origin.
pub fn clip(r: vk::Rect2D, extent: vk::Extent2D) -> vk::Rect2D {
    let x0 = r.offset.x.max(0) as u32;
    let y0 = r.offset.y.max(0) as u32;
    let x1 = (r.offset.x.max(0) as u64 + u64::from(r.extent.width)).min(u64::from(extent.width));
    let y1 = (r.offset.y.max(0) as u64 + u64::from(r.extent.height)).min(u64::from(extent.height));
    vk::Rect2D {
        offset: vk::Offset2D { x: x0 as i32, y: y0 as i32 },
        extent: vk::Extent2D {
            width: (x1 as u32).saturating_sub(x0),
            height: (y1 as u32).saturating_sub(y0),
        },
    }
}

/// The push block: push constants, then the dynamic buffers' V#s (compute ABI layout).
fn push_block(push: &[u8], sets: &[BoundSet], p: &GraphicsProgram) -> Vec<u32> {
    let mut words: Vec<u32> =
        push.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    words.resize((abi::DYNAMIC_DESCRIPTOR_OFFSET / 4) as usize, 0);
    let mut dynamic = vec![[0u32; 4]; p.dynamic_count as usize];
    for (set, &(base, count)) in p.dynamic_sets.iter().enumerate() {
        for (i, d) in sets[set].dynamic.iter().take(count as usize).enumerate() {
            dynamic[base as usize + i] = vsharp::buffer(d.va, d.range);
        }
    }
    words.extend(dynamic.iter().flatten());
    words
}

/// A draw.
#[derive(Debug, Clone, Copy)]
pub enum Draw {
    /// vertexCount, firstVertex, instanceCount, firstInstance.
    Auto { count: u32, first: u32, instances: u32, first_instance: u32 },
    /// indexCount, firstIndex, vertexOffset, instanceCount, firstInstance.
    Indexed { count: u32, first: u32, offset: i32, instances: u32, first_instance: u32 },
    /// `draws` Vk(Indexed)DrawIndirectCommands at `va`, `stride` bytes apart.
    Indirect { va: u64, draws: u32, stride: u32, indexed: bool },
    /// As `Indirect`, with the number of draws read from `count_va` at execution, at most
    /// `max_draws`.
    IndirectCount { va: u64, count_va: u64, max_draws: u32, stride: u32, indexed: bool },
}

/// The vertex-input table: a V# per location up to the highest the pipeline reads.
fn vertex_table(st: &GraphicsState, p: &GraphicsProgram) -> Vec<u32> {
    let n = p.attributes.last().map_or(0, |a| a.location as usize + 1);
    let mut words = vec![0u32; 4 * n];
    for a in &p.attributes {
        let (va, size) = st.vertex_buffers.get(a.binding as usize).copied().unwrap_or((0, 0));
        let stride = match p.dynamic.vertex_stride {
            true => st.vertex_strides.get(a.binding as usize).copied().unwrap_or(0),
            false => a.stride,
        };
        let bytes = u64::from(a.format.block_bytes);
        let avail = size.saturating_sub(u64::from(a.offset));
        // Whole elements inside the bound range; a zero stride reads element 0 every time.
        let records = match (stride, avail >= bytes && va != 0) {
            (_, false) => 0,
            (0, true) => u32::MAX,
            (s, true) => ((avail - bytes) / u64::from(s) + 1).min(u64::from(u32::MAX)) as u32,
        };
        let mut v = vsharp::typed(
            va + u64::from(a.offset),
            records,
            stride,
            a.format.buf_format,
            a.format.swizzle,
        );
        // OOB_SELECT = 1 (index only): the ABI's structured fetch checks the index alone.
        v[3] = (v[3] & !(3 << 28)) | 1 << 28;
        let at = 4 * a.location as usize;
        words[at..at + 4].copy_from_slice(&v);
    }
    words
}

/// SPI_TMPRING_SIZE and the ring address after the user SGPRs of each stage with scratch.
fn scratch_state(s: &mut CmdStream, p: &GraphicsProgram) -> VkResult<()> {
    let Some((ring, tmpring)) = p.scratch() else { return Ok(()) };
    set(s, r::SPI_TMPRING_SIZE, &[tmpring])?;
    let addr = [ring as u32, (ring >> 32) as u32];
    if let Some(at) = p.vs.user_sgprs().scratch_ring() {
        set(s, r::SPI_SHADER_USER_DATA_VS_0 + 4 * u32::from(at), &addr)?;
    }
    if let Some(at) = p.ps.user_sgprs().scratch_ring() {
        set(s, r::SPI_SHADER_USER_DATA_PS_0 + 4 * u32::from(at), &addr)?;
    }
    Ok(())
}

fn vs_state(s: &mut CmdStream, p: &GraphicsProgram, user: &[u32]) -> VkResult<()> {
    let vm = &p.vs;
    use r::VGT_SHADER_STAGES_EN as S;
    set(s, r::VGT_SHADER_STAGES_EN, &[S::VS_W32_EN.val(1) | S::MAX_PRIMGRP_IN_WAVE.val(2)])?;
    set(s, r::VGT_GS_MODE, &[0])?;
    let code = p.vs_va();
    set(
        s,
        r::SPI_SHADER_PGM_LO_VS,
        &[(code >> 8) as u32, (code >> 40) as u32, vm.rsrc1, vm.rsrc2],
    )?;
    set(s, r::SPI_SHADER_USER_DATA_VS_0, user)?;
    set(s, r::SPI_SHADER_POS_FORMAT, &[vm.pos_format])?;
    set(s, r::SPI_VS_OUT_CONFIG, &[vm.vs_out_config])?;
    set(s, r::PA_CL_VS_OUT_CNTL, &[vm.pa_cl_vs_out_cntl])?;
    set(s, r::PA_CL_UCP_0_X, &[0; 24])
}

/// The pipeline's `viewportCount` viewports and scissors, static or from the command buffer.
/// Viewport and scissor 0 must be set; later ones the application left unset are not
/// programmed (no primitive selects them without a viewport-index output).
fn viewports(
    p: &GraphicsProgram,
    st: &GraphicsState,
) -> VkResult<(Vec<vk::Viewport>, Vec<vk::Rect2D>)> {
    fn pick<T: Copy>(n: usize, fixed: Option<&Vec<T>>, set: &[Option<T>]) -> Vec<T> {
        match fixed {
            Some(v) => v.iter().take(n).copied().collect(),
            None => set.iter().take(n).map_while(|v| *v).collect(),
        }
    }
    // With VIEWPORT/SCISSOR_WITH_COUNT the counts are the command buffer's.
    let d = &p.dynamic;
    let nv = if d.viewport_with_count { st.extended.viewport_count } else { p.viewport_count };
    let ns = match (d.scissor_with_count, &p.scissors) {
        (true, _) => st.extended.scissor_count,
        (false, Some(fixed)) => fixed.len() as u32,
        (false, None) => nv,
    };
    let clamp = |n: u32| (n as usize).clamp(1, vp::MAX_VIEWPORTS);
    let vps = pick(clamp(nv), p.viewports.as_ref(), &st.viewports);
    let scs = pick(clamp(ns), p.scissors.as_ref(), &st.scissors);
    if vps.is_empty() {
        return Err(VkError::InvalidUsage("no viewport set"));
    }
    if scs.is_empty() {
        return Err(VkError::InvalidUsage("no scissor set"));
    }
    let k = vps.len().min(scs.len());
    Ok((vps[..k].to_vec(), scs[..k].to_vec()))
}

fn viewport_state(
    s: &mut CmdStream,
    resolved: &Resolved,
    v: &[vk::Viewport],
    sc: &[vk::Rect2D],
    area: Option<&vk::Rect2D>,
) -> VkResult<()> {
    use enums::VGT_DI_PRIM_TYPE as P;
    use vk::PolygonMode as Mode;
    // Polygon modes draw triangles as their edges or vertices, which reach as far as
    // lines and points do.
    let prim = match (
        state::input_assembly::prim_type(resolved.topology)?,
        resolved.raster.polygon_mode,
    ) {
        // Points up to the largest size PA_SU_POINT_MINMAX lets through.
        (P::DI_PT_POINTLIST, _) | (_, Mode::POINT) => {
            RastPrim::Points(super::pipeline::MAX_POINT_SIZE)
        }
        (P::DI_PT_LINELIST | P::DI_PT_LINESTRIP, _) | (_, Mode::LINE) => RastPrim::Lines(1.0),
        _ => RastPrim::Triangles,
    };
    let mut regs = vp::viewports(v);
    regs.extend(vp::scissors(v, sc));
    if let Some(area) = area {
        regs.extend(vp::render_area(area));
    }
    regs.extend(vp::guard_band(v, prim));
    emit(s, regs)
}

/// Writes a register list, one packet per register.
pub(super) fn emit(s: &mut CmdStream, regs: Regs) -> VkResult<()> {
    for (reg, value) in regs {
        if reg == r::VGT_PRIMITIVE_TYPE {
            // RADV writes it with SET_UCONFIG_REG_INDEX, index 1 (the CP tracks the type).
            s.emit(&[pm4::header(SET_UCONFIG_REG_INDEX, 2), uconfig_index(reg, 1), value])?;
        } else {
            set(s, reg, &[value])?;
        }
    }
    Ok(())
}

/// The register operand of SET_UCONFIG_REG_INDEX: the index in bits 28..31.
fn uconfig_index(reg: u32, index: u32) -> u32 {
    (index << 28) | ((reg - 0x30000) / 4)
}

fn ps_state(
    s: &mut CmdStream,
    p: &GraphicsProgram,
    user: &[u32],
    rendering: &Rendering,
    (blend_constants, logic_op): ([f32; 4], vk::LogicOp),
) -> VkResult<()> {
    let pm = &p.ps;
    set(s, r::SPI_BARYC_CNTL, &[p.baryc_cntl])?;
    let code = p.ps_va();
    set(
        s,
        r::SPI_SHADER_PGM_LO_PS,
        &[(code >> 8) as u32, (code >> 40) as u32, pm.rsrc1, pm.rsrc2],
    )?;
    set(s, r::SPI_SHADER_USER_DATA_PS_0, user)?;
    set(s, r::SPI_PS_INPUT_ENA, &[pm.input_ena, pm.input_ena])?;
    set(s, r::SPI_PS_IN_CONTROL, &[pm.ps_in_control])?;
    if !p.ps_input_cntl.is_empty() {
        set(s, r::SPI_PS_INPUT_CNTL_0, &p.ps_input_cntl)?;
    }
    set(s, r::DB_SHADER_CONTROL, &[pm.db_shader_control])?;
    set(s, r::SPI_SHADER_COL_FORMAT, &[pm.col_format])?;
    set(s, r::SPI_SHADER_Z_FORMAT, &[pm.z_format])?;
    set(s, r::CB_SHADER_MASK, &[pm.cb_shader_mask])?;
    if rendering.inherited.is_none() {
        emit(s, color_targets(rendering))?;
    }
    if p.blend.is_empty() {
        // No colour blend state (no colour attachments): nothing is written.
        set(s, r::CB_BLEND0_CONTROL, &[0; 8])?;
        set(s, r::CB_TARGET_MASK, &[0])?;
        use r::CB_COLOR_CONTROL as C;
        return set(s, r::CB_COLOR_CONTROL, &[C::MODE.val(1) | C::ROP3.val(0xcc)]);
    }
    emit(s, p.blend.clone())?;
    if p.dynamic.logic_op && p.logic_op_enable {
        let cc = p.blend.get(r::CB_COLOR_CONTROL).unwrap_or(0);
        set(s, r::CB_COLOR_CONTROL, &[state::blend::with_logic_op(cc, logic_op)?])?;
    }
    if p.dynamic.blend_constants {
        emit(s, state::blend::blend_constants(blend_constants))?;
    }
    Ok(())
}

/// CB_COLOR0..7 of a scope (unattached locations invalid).
fn color_targets(rendering: &Rendering) -> Regs {
    let mut regs = Regs::new();
    for slot in 0..8u32 {
        match rendering.colors.get(slot as usize).and_then(Option::as_ref) {
            Some(t) => regs.extend(t.regs.clone()),
            None => regs.extend(target::no_color_target(slot)),
        }
    }
    regs
}

/// The depth/stencil target registers of a scope.
fn depth_target_regs(rendering: &Rendering) -> Regs {
    rendering.depth.as_ref().map_or_else(target::no_depth_target, |t| t.regs.clone())
}

/// What a primary programs before it executes secondary command buffers inside its scope:
/// the targets and the render area, which the secondaries' draws leave alone (they may not
/// know the framebuffer).
pub fn scope_targets(s: &mut CmdStream, rendering: &Rendering) -> VkResult<()> {
    let mut regs = color_targets(rendering);
    regs.extend(depth_target_regs(rendering));
    regs.extend(vp::render_area(&rendering.area));
    emit(s, regs)
}

/// The depth/stencil target and the DB state of a draw: the pipeline's depth/stencil state
/// against the aspects the scope attaches, with the command buffer's values for the states
/// the pipeline made dynamic, and the depth bias in units of the attached depth format.
fn depth_state(
    p: &GraphicsProgram,
    st: &GraphicsState,
    rendering: &Rendering,
    resolved: &Resolved,
) -> Regs {
    let t = rendering.depth.as_ref();
    let (has_depth, has_stencil, depth_format, mut regs) = match rendering.inherited {
        Some(i) => (i.depth, i.stencil, i.depth_format, Regs::new()),
        None => (
            t.is_some_and(|t| t.has_depth()),
            t.is_some_and(|t| t.has_stencil()),
            t.and_then(|t| t.depth_format()),
            depth_target_regs(rendering),
        ),
    };
    let ds = &resolved.depth_stencil;
    regs.push(r::DB_DEPTH_CONTROL, depth::depth_control(ds, has_depth, has_stencil));
    regs.push(r::DB_STENCIL_CONTROL, depth::stencil_control(&ds.front, &ds.back));
    let d = &p.dynamic;
    let face = |op: &vk::StencilOpState, cmd: StencilFace| {
        let pipe = StencilFace::from(op);
        StencilFace {
            reference: if d.stencil_reference { cmd.reference } else { pipe.reference },
            compare_mask: if d.stencil_compare_mask { cmd.compare_mask } else { pipe.compare_mask },
            write_mask: if d.stencil_write_mask { cmd.write_mask } else { pipe.write_mask },
        }
    };
    regs.extend(depth::stencil_ref_mask(
        face(&ds.front, st.stencil[0]),
        face(&ds.back, st.stencil[1]),
    ));
    let (lo, hi) = if d.depth_bounds { st.depth_bounds } else { p.depth_bounds };
    regs.extend(depth::depth_bounds(lo, hi));
    if resolved.raster.depth_bias {
        let bias = if d.depth_bias { st.depth_bias } else { p.depth_bias };
        regs.extend(raster::depth_bias(bias, depth_format));
    }
    regs
}

/// Programs everything a draw needs but its parameters. Under rasterizer discard the draw
/// still runs (the vertex shader's stores and the vertex and primitive statistics happen):
/// PA_CL_CLIP_CNTL.DX_RASTERIZATION_KILL stops the primitives after the vertex shader.
fn draw_state(s: &mut CmdStream, st: &GraphicsState, push: &[u8]) -> VkResult<()> {
    let p = st.pipeline.clone().ok_or(VkError::InvalidUsage("draw without a graphics pipeline"))?;
    let rendering =
        st.rendering.as_ref().ok_or(VkError::InvalidUsage("draw outside a render pass"))?;
    let resolved = dynamic::resolve(&p.dynamic, &p.fixed, &st.extended);
    let (viewport, scissor) = match viewports(&p, st) {
        Ok(v) => v,
        // A discarding pipeline may have no viewport state: nothing reaches the viewport
        // transform, so any valid viewport and scissor do.
        Err(_) if resolved.raster.discard => {
            let one = vk::Extent2D { width: 1, height: 1 };
            let vp = vk::Viewport { width: 1.0, height: 1.0, max_depth: 1.0, ..Default::default() };
            (vec![vp], vec![vk::Rect2D { extent: one, ..Default::default() }])
        }
        Err(e) => return Err(e),
    };
    let table: Vec<u32> = st.sets.iter().flat_map(|b| [b.va as u32, (b.va >> 32) as u32]).collect();
    let table_va = s.embed_again(0, &table)?;
    let push_va = s.embed_again(1, &push_block(push, &st.sets, &p))?;
    let inputs_va = s.embed_again(2, &vertex_table(st, &p))?;
    let user = [table_va as u32, (table_va >> 32) as u32, push_va as u32, (push_va >> 32) as u32];
    vs_state(s, &p, &user)?;
    emit(s, resolved.regs()?)?;
    emit(s, p.state.clone())?;
    set(
        s,
        r::SPI_SHADER_USER_DATA_VS_0 + 4 * g::VS_USER_DATA_VERTEX_INPUTS,
        &[inputs_va as u32, (inputs_va >> 32) as u32],
    )?;
    let area = rendering.inherited.is_none().then_some(&rendering.area);
    viewport_state(s, &resolved, &viewport, &scissor, area)?;
    ps_state(s, &p, &user, rendering, (st.blend_constants, st.extended.logic_op))?;
    scratch_state(s, &p)?;
    emit(s, depth_state(&p, st, rendering, &resolved))?;
    set(s, r::GE_INDX_OFFSET, &[0])?;
    set(s, r::GE_MIN_VTX_INDX, &[0])?;
    set(s, r::GE_MAX_VTX_INDX, &[u32::MAX])?;
    let index_type = st.index.map_or(vk::IndexType::UINT32, |i| i.2);
    emit(s, state::input_assembly::restart_index(index_type)?)?;
    let hw_type = match index_type {
        vk::IndexType::UINT16 => enums::VGT_INDEX_TYPE_MODE::VGT_INDEX_16,
        _ => enums::VGT_INDEX_TYPE_MODE::VGT_INDEX_32,
    };
    // VGT_INDEX_TYPE with SET_UCONFIG_REG_INDEX, index 2, as RADV writes it.
    s.emit(&[pm4::header(SET_UCONFIG_REG_INDEX, 2), uconfig_index(r::VGT_INDEX_TYPE, 2), hw_type])?;
    Ok(())
}

/// Bytes per index of the bound index type.
fn index_size(st: &GraphicsState) -> VkResult<(u64, u64, u64)> {
    let (va, bytes, t) = st.index.ok_or(VkError::InvalidUsage("no index buffer bound"))?;
    Ok((va, bytes, if t == vk::IndexType::UINT16 { 2 } else { 4 }))
}

/// The index buffer (indexed draws) and the argument base of an indirect draw; returns the
/// draw initiator's source.
fn indirect_prefix(s: &mut CmdStream, st: &GraphicsState, va: u64, indexed: bool) -> VkResult<u32> {
    if indexed {
        let (iva, bytes, size) = index_size(st)?;
        s.emit(&[pm4::header(INDEX_BASE, 2), iva as u32, (iva >> 32) as u32])?;
        let n = (bytes / size).min(u64::from(u32::MAX)) as u32;
        s.emit(&[pm4::header(INDEX_BUFFER_SIZE, 1), n])?;
    }
    s.emit(&[pm4::header(SET_BASE, 3), 1, va as u32, (va >> 32) as u32])?;
    Ok(if indexed { SOURCE_DMA } else { SOURCE_AUTO })
}

/// The SH register dword index (from 0xB000) of VS user SGPR `n`, for indirect packets.
fn vs_user_loc(n: u32) -> u32 {
    (r::SPI_SHADER_USER_DATA_VS_0 + 4 * n - 0xb000) / 4
}

/// `vkCmdDraw`, `vkCmdDrawIndexed` and their indirect forms.
pub fn draw(s: &mut CmdStream, st: &GraphicsState, push: &[u8], d: Draw) -> VkResult<()> {
    let empty = match d {
        Draw::Auto { count, instances, .. } | Draw::Indexed { count, instances, .. } => {
            count == 0 || instances == 0
        }
        Draw::Indirect { draws, .. } => draws == 0,
        Draw::IndirectCount { max_draws, .. } => max_draws == 0,
    };
    if empty {
        return Ok(());
    }
    // Direct draws leave the registers as they wrote them; indirect ones have the CP write
    // the base vertex and instance.
    let direct = matches!(d, Draw::Auto { .. } | Draw::Indexed { .. });
    s.draw_begin();
    let r = draw_state(s, st, push).and_then(|()| each_view(s, st, |s| draw_packets(s, st, d, 0)));
    s.draw_end(direct && r.is_ok());
    r
}

/// `vkCmdDrawMultiEXT` and `vkCmdDrawMultiIndexedEXT`: direct draws (`Draw::Auto` or
/// `Draw::Indexed`) sharing one state, draw `i` seeing gl_DrawIndex `i`.
pub fn draw_multi(
    s: &mut CmdStream,
    st: &GraphicsState,
    push: &[u8],
    draws: &[Draw],
) -> VkResult<()> {
    if draws.iter().any(|d| matches!(d, Draw::Indirect { .. } | Draw::IndirectCount { .. })) {
        return Err(VkError::InvalidUsage("an indirect draw in a multi-draw"));
    }
    if draws.is_empty() {
        return Ok(());
    }
    s.draw_begin();
    let r = draw_state(s, st, push).and_then(|()| multi_packets(s, st, draws));
    s.draw_end(r.is_ok());
    r
}

/// The draw packets of a multi-draw, per view.
fn multi_packets(s: &mut CmdStream, st: &GraphicsState, draws: &[Draw]) -> VkResult<()> {
    each_view(s, st, |s| {
        for (i, d) in draws.iter().enumerate() {
            let empty = match *d {
                Draw::Auto { count, instances, .. } | Draw::Indexed { count, instances, .. } => {
                    count == 0 || instances == 0
                }
                _ => true,
            };
            if !empty {
                draw_packets(s, st, *d, i as u32)?;
            }
        }
        Ok(())
    })
}

/// Runs `f` once per view of the current subpass's view mask (once without multiview), with
/// the view's targets and view-index user SGPRs programmed.
fn each_view(
    s: &mut CmdStream,
    st: &GraphicsState,
    mut f: impl FnMut(&mut CmdStream) -> VkResult<()>,
) -> VkResult<()> {
    let view_mask = st.rendering.as_ref().map_or(0, |r| r.view_mask);
    for view in multiview::views(view_mask) {
        if let Some(r) = st.rendering.as_ref().filter(|_| view_mask != 0) {
            super::clear_attachments::view_targets(s, r, view)?;
        }
        set(s, r::SPI_SHADER_USER_DATA_VS_0 + 4 * g::VS_USER_DATA_VIEW_INDEX, &[view])?;
        set(s, r::SPI_SHADER_USER_DATA_PS_0 + 4 * g::PS_USER_DATA_VIEW_INDEX, &[view])?;
        f(s)?;
    }
    Ok(())
}

/// The draw packets of `d` (the state is programmed); a direct draw's gl_DrawIndex is
/// `draw_index`.
fn draw_packets(s: &mut CmdStream, st: &GraphicsState, d: Draw, draw_index: u32) -> VkResult<()> {
    let params = r::SPI_SHADER_USER_DATA_VS_0 + 4 * g::VS_USER_DATA_BASE_VERTEX;
    match d {
        Draw::Auto { count, first, instances, first_instance } => {
            set(s, params, &[first, first_instance, draw_index])?;
            s.emit(&[pm4::header(NUM_INSTANCES, 1), instances])?;
            s.emit(&[pm4::header(DRAW_INDEX_AUTO, 2), count, SOURCE_AUTO])
        }
        Draw::Indexed { count, first, offset, instances, first_instance } => {
            let (va, bytes, size) = index_size(st)?;
            set(s, params, &[offset as u32, first_instance, draw_index])?;
            s.emit(&[pm4::header(NUM_INSTANCES, 1), instances])?;
            let at = va + u64::from(first) * size;
            // Indices past the buffer read as 0 (VGT_DMA_MAX_SIZE), as robust fetch would.
            let avail = (bytes / size).saturating_sub(u64::from(first)).min(u64::from(u32::MAX));
            s.emit(&[
                pm4::header(DRAW_INDEX_2, 5),
                avail as u32,
                at as u32,
                (at >> 32) as u32,
                count,
                SOURCE_DMA,
            ])
        }
        Draw::IndirectCount { va, count_va, max_draws, stride, indexed } => {
            let source = indirect_prefix(s, st, va, indexed)?;
            let op = if indexed { DRAW_INDEX_INDIRECT_MULTI } else { DRAW_INDIRECT_MULTI };
            // The CP reads the count at `count_va` and draws min(count, max_draws) commands,
            // writing each one's index into the draw-index user SGPR (gl_DrawIndex).
            let flags =
                DRAW_INDEX_ENABLE | COUNT_INDIRECT_ENABLE | vs_user_loc(g::VS_USER_DATA_DRAW_INDEX);
            s.emit(&[
                pm4::header(op, 9),
                0,
                vs_user_loc(g::VS_USER_DATA_BASE_VERTEX),
                vs_user_loc(g::VS_USER_DATA_BASE_INSTANCE),
                flags,
                max_draws,
                count_va as u32,
                (count_va >> 32) as u32,
                stride,
                source,
            ])
        }
        Draw::Indirect { va, draws, stride, indexed } => {
            let source = indirect_prefix(s, st, va, indexed)?;
            let op = if indexed { DRAW_INDEX_INDIRECT } else { DRAW_INDIRECT };
            for i in 0..draws {
                // gl_DrawIndex of draw i; the CP writes base vertex and instance itself.
                set(s, params + 8, &[i])?;
                s.emit(&[
                    pm4::header(op, 4),
                    i * stride,
                    vs_user_loc(g::VS_USER_DATA_BASE_VERTEX),
                    vs_user_loc(g::VS_USER_DATA_BASE_INSTANCE),
                    source,
                ])?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cmd::stream::Deferred;
    use crate::core::device::DeviceShared;
    use crate::core::physical_device::Adapter;

    fn stream() -> CmdStream {
        let adapter = Arc::new(Adapter::open_simulated().unwrap());
        CmdStream::new(Arc::new(DeviceShared::new(adapter).unwrap()))
    }

    /// Dwords a "draw" of register writes adds to the stream.
    fn draw(s: &mut CmdStream, writes: &[(u32, &[u32])], known: bool) -> usize {
        let before = s.len_dw();
        s.draw_begin();
        for (addr, values) in writes {
            set(s, *addr, values).unwrap();
        }
        s.draw_end(known);
        s.len_dw() - before
    }

    /// A draw skips the writes the previous draw left in place, register by register
    /// (overlapping writes stay exact), and only while nothing else was recorded since.
    #[test]
    fn draws_skip_only_registers_known_to_hold_their_values() {
        let a = r::SPI_SHADER_USER_DATA_VS_0;
        let (ctx, sh) = (r::PA_SC_VPORT_SCISSOR_0_TL, a + 4 * 8);
        let same: &[(u32, &[u32])] = &[(ctx, &[1, 2]), (sh, &[3])];
        let mut s = stream();
        let full = draw(&mut s, same, true);
        assert_eq!(full, (2 + 2) + (2 + 1), "two packets: header, offset, values");
        assert_eq!(draw(&mut s, same, true), 0, "nothing changed");
        assert_eq!(draw(&mut s, &[(ctx, &[1, 5]), (sh, &[3])], true), 4, "one run changed");
        // Overlapping runs: a..a+2, then a+1 rewritten; the first run must be written again
        // whenever a+1 no longer holds its value.
        let overlap: &[(u32, &[u32])] = &[(a, &[7, 8, 9]), (a + 4, &[0])];
        assert_eq!(draw(&mut s, overlap, true), 5 + 3);
        assert_eq!(draw(&mut s, overlap, true), 5 + 3, "a+1 holds 0, not 8");
        // Anything recorded between draws, a deferral, a draw that leaves registers
        // unknown (indirect) or a reset: everything is written again.
        let nop = [pm4::header(pm4::op::NOP, 1), 0];
        let breaks: [&dyn Fn(&mut CmdStream); 4] = [
            &|s| s.emit(&nop).unwrap(),
            &|s| s.defer(Deferred::ViewTargets(0)).unwrap(),
            &|s| _ = draw(s, &[], false),
            &|s| s.reset(),
        ];
        // A deferral inside a draw (a secondary's multiview draw): the primary's work there
        // may rewrite what the draw wrote before it, not what it wrote after.
        draw(&mut s, same, true);
        s.draw_begin();
        set(&mut s, ctx, &[1, 2]).unwrap();
        s.defer(Deferred::ViewTargets(1)).unwrap();
        set(&mut s, sh, &[3]).unwrap();
        s.draw_end(true);
        assert_eq!(draw(&mut s, same, true), 4, "the run before the deferral is written again");
        for (k, interrupt) in breaks.iter().enumerate() {
            draw(&mut s, same, true);
            assert_eq!(draw(&mut s, same, true), 0, "{k}");
            interrupt(&mut s);
            assert_eq!(draw(&mut s, same, true), full, "after interruption {k}");
        }
    }
}
