//! The commands of VK_EXT_extended_dynamic_state and VK_EXT_extended_dynamic_state2: each sets
//! one value of the command buffer's graphics state (`gfx::dynamic::Extended`, or the viewport
//! and scissor of `GraphicsState`) that draws read when the bound pipeline made it dynamic.

use ash::vk;

use super::array;
use super::graphics::{bind_vertex_buffers, record};
use crate::error::VkError;
use crate::gfx::draw::GraphicsState;
use crate::gfx::dynamic::StencilOps;

/// Records a command that only changes the graphics state.
///
/// # Safety
/// `cb` must be a live command buffer handle.
unsafe fn set(name: &'static str, cb: vk::CommandBuffer, f: impl FnOnce(&mut GraphicsState)) {
    // SAFETY: forwarded to the caller.
    unsafe {
        record(name, cb, |_, _, g| {
            f(g);
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_set_cull_mode(cb: vk::CommandBuffer, mode: vk::CullModeFlags) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetCullModeEXT", cb, |g| g.extended.cull_mode = mode) }
}

pub unsafe extern "system" fn cmd_set_front_face(cb: vk::CommandBuffer, face: vk::FrontFace) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetFrontFaceEXT", cb, |g| g.extended.front_face = face) }
}

pub unsafe extern "system" fn cmd_set_primitive_topology(
    cb: vk::CommandBuffer,
    topology: vk::PrimitiveTopology,
) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetPrimitiveTopologyEXT", cb, |g| g.extended.topology = topology) }
}

pub unsafe extern "system" fn cmd_set_viewport_with_count(
    cb: vk::CommandBuffer,
    count: u32,
    p_viewports: *const vk::Viewport,
) {
    // SAFETY: a live handle and `count` viewports (valid usage).
    unsafe {
        record("vkCmdSetViewportWithCountEXT", cb, |_, _, g| {
            // VUID-vkCmdSetViewportWithCount-viewportCount-03394: 1 to maxViewports.
            let v = array(p_viewports, count);
            if v.is_empty() || v.len() > g.viewports.len() {
                return Err(VkError::InvalidUsage("viewportCount outside 1..=maxViewports"));
            }
            for (slot, v) in g.viewports.iter_mut().zip(v) {
                *slot = Some(*v);
            }
            g.extended.viewport_count = count;
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_set_scissor_with_count(
    cb: vk::CommandBuffer,
    count: u32,
    p_scissors: *const vk::Rect2D,
) {
    // SAFETY: a live handle and `count` rectangles (valid usage).
    unsafe {
        record("vkCmdSetScissorWithCountEXT", cb, |_, _, g| {
            // VUID-vkCmdSetScissorWithCount-scissorCount-03397: 1 to maxViewports.
            let r = array(p_scissors, count);
            if r.is_empty() || r.len() > g.scissors.len() {
                return Err(VkError::InvalidUsage("scissorCount outside 1..=maxViewports"));
            }
            for (slot, r) in g.scissors.iter_mut().zip(r) {
                *slot = Some(*r);
            }
            g.extended.scissor_count = count;
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_bind_vertex_buffers2(
    cb: vk::CommandBuffer,
    first: u32,
    count: u32,
    p_buffers: *const vk::Buffer,
    p_offsets: *const vk::DeviceSize,
    p_sizes: *const vk::DeviceSize,
    p_strides: *const vk::DeviceSize,
) {
    // SAFETY: live handles and arrays of `count` (or null sizes and strides; valid usage).
    unsafe {
        record("vkCmdBindVertexBuffers2EXT", cb, |_, _, g| {
            let optional = |p: *const vk::DeviceSize| (!p.is_null()).then(|| array(p, count));
            let (buffers, offsets) = (array(p_buffers, count), array(p_offsets, count));
            bind_vertex_buffers(g, first, buffers, offsets, optional(p_sizes), optional(p_strides))
        })
    }
}

pub unsafe extern "system" fn cmd_set_depth_test_enable(cb: vk::CommandBuffer, on: vk::Bool32) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetDepthTestEnableEXT", cb, |g| g.extended.depth_test = on != 0) }
}

pub unsafe extern "system" fn cmd_set_depth_write_enable(cb: vk::CommandBuffer, on: vk::Bool32) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetDepthWriteEnableEXT", cb, |g| g.extended.depth_write = on != 0) }
}

pub unsafe extern "system" fn cmd_set_depth_compare_op(cb: vk::CommandBuffer, op: vk::CompareOp) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetDepthCompareOpEXT", cb, |g| g.extended.depth_compare = op) }
}

pub unsafe extern "system" fn cmd_set_depth_bounds_test_enable(
    cb: vk::CommandBuffer,
    on: vk::Bool32,
) {
    let name = "vkCmdSetDepthBoundsTestEnableEXT";
    // SAFETY: a live handle (valid usage).
    unsafe { set(name, cb, |g| g.extended.depth_bounds_test = on != 0) }
}

pub unsafe extern "system" fn cmd_set_stencil_test_enable(cb: vk::CommandBuffer, on: vk::Bool32) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetStencilTestEnableEXT", cb, |g| g.extended.stencil_test = on != 0) }
}

pub unsafe extern "system" fn cmd_set_stencil_op(
    cb: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    fail: vk::StencilOp,
    pass: vk::StencilOp,
    depth_fail: vk::StencilOp,
    compare: vk::CompareOp,
) {
    let ops = StencilOps { fail, pass, depth_fail, compare };
    // SAFETY: a live handle (valid usage).
    unsafe {
        set("vkCmdSetStencilOpEXT", cb, |g| {
            for (i, face) in
                [vk::StencilFaceFlags::FRONT, vk::StencilFaceFlags::BACK].into_iter().enumerate()
            {
                if faces.contains(face) {
                    g.extended.stencil_ops[i] = ops;
                }
            }
        })
    }
}

pub unsafe extern "system" fn cmd_set_rasterizer_discard_enable(
    cb: vk::CommandBuffer,
    on: vk::Bool32,
) {
    let name = "vkCmdSetRasterizerDiscardEnableEXT";
    // SAFETY: a live handle (valid usage).
    unsafe { set(name, cb, |g| g.extended.rasterizer_discard = on != 0) }
}

pub unsafe extern "system" fn cmd_set_depth_bias_enable(cb: vk::CommandBuffer, on: vk::Bool32) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetDepthBiasEnableEXT", cb, |g| g.extended.depth_bias = on != 0) }
}

pub unsafe extern "system" fn cmd_set_primitive_restart_enable(
    cb: vk::CommandBuffer,
    on: vk::Bool32,
) {
    let name = "vkCmdSetPrimitiveRestartEnableEXT";
    // SAFETY: a live handle (valid usage).
    unsafe { set(name, cb, |g| g.extended.primitive_restart = on != 0) }
}

pub unsafe extern "system" fn cmd_set_logic_op(cb: vk::CommandBuffer, op: vk::LogicOp) {
    // SAFETY: a live handle (valid usage).
    unsafe { set("vkCmdSetLogicOpEXT", cb, |g| g.extended.logic_op = op) }
}

/// vkCmdSetPatchControlPointsEXT: extendedDynamicState2PatchControlPoints is not offered
/// (there is no tessellation), so the command has no valid use and recording it fails the
/// command buffer with a log line.
pub unsafe extern "system" fn cmd_set_patch_control_points(cb: vk::CommandBuffer, _n: u32) {
    let name = "vkCmdSetPatchControlPointsEXT";
    let why = "extendedDynamicState2PatchControlPoints is not supported (no tessellation)";
    // SAFETY: a live handle (valid usage).
    unsafe { record(name, cb, |_, _, _| Err(VkError::FeatureNotPresent(format!("{name}: {why}")))) }
}
