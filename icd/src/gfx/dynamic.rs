//! Dynamic state: which pipeline state a graphics pipeline leaves to the command buffer
//! (Vulkan 1.0's dynamic states, VK_EXT_extended_dynamic_state and _state2), the command
//! buffer's values of the extended states, and the values a draw programs: each one the
//! pipeline's or the command buffer's, as the pipeline says.
//!
//! Pipelines keep the state that dynamic state can replace as values (`Raster`, the topology,
//! primitive restart, `DepthStencil`) instead of registers; every draw resolves them here and
//! the `state` translators turn the resolved values into registers (the draw path programs the
//! whole state per draw, so there is nothing to mark dirty). The 1.0 values (viewport,
//! scissor, blend constants, depth bias, depth bounds, stencil faces) sit in `GraphicsState`
//! beside `Extended`; the `_WITH_COUNT` viewport and scissor commands set the same viewports
//! and scissors as vkCmdSetViewport/Scissor, and their counts here.

use ash::vk;

use super::state::depth::DepthStencil;
use super::state::input_assembly;
use super::state::rasterization::{self, Raster};
use super::Regs;
use crate::error::{VkError, VkResult};

/// Which states a pipeline takes from the command buffer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dynamic {
    pub viewport: bool,
    pub scissor: bool,
    pub blend_constants: bool,
    pub depth_bias: bool,
    pub depth_bounds: bool,
    pub stencil_compare_mask: bool,
    pub stencil_write_mask: bool,
    pub stencil_reference: bool,
    /// Lines are drawn 1 wide whatever the pipeline says (wideLines is not supported, so
    /// vkCmdSetLineWidth's value must be 1.0).
    pub line_width: bool,
    // VK_EXT_extended_dynamic_state.
    pub cull_mode: bool,
    pub front_face: bool,
    pub topology: bool,
    pub viewport_with_count: bool,
    pub scissor_with_count: bool,
    pub vertex_stride: bool,
    pub depth_test: bool,
    pub depth_write: bool,
    pub depth_compare: bool,
    pub depth_bounds_test: bool,
    pub stencil_test: bool,
    pub stencil_op: bool,
    // VK_EXT_extended_dynamic_state2.
    pub rasterizer_discard: bool,
    pub depth_bias_enable: bool,
    pub primitive_restart: bool,
    /// extendedDynamicState2LogicOp: the logic op of a pipeline with logicOpEnable.
    pub logic_op: bool,
}

impl Dynamic {
    /// The dynamic states of `info`; states whose feature Ferrum does not offer (patch control
    /// points of extended dynamic state 2, the states of later extensions) are refused.
    pub fn from_info(info: Option<&vk::PipelineDynamicStateCreateInfo<'_>>) -> VkResult<Dynamic> {
        use vk::DynamicState as S;
        let mut d = Dynamic::default();
        let Some(info) = info else { return Ok(d) };
        for &s in crate::api::array(info.p_dynamic_states, info.dynamic_state_count) {
            let flag = match s {
                S::VIEWPORT => &mut d.viewport,
                S::SCISSOR => &mut d.scissor,
                S::BLEND_CONSTANTS => &mut d.blend_constants,
                S::DEPTH_BIAS => &mut d.depth_bias,
                S::DEPTH_BOUNDS => &mut d.depth_bounds,
                S::STENCIL_COMPARE_MASK => &mut d.stencil_compare_mask,
                S::STENCIL_WRITE_MASK => &mut d.stencil_write_mask,
                S::STENCIL_REFERENCE => &mut d.stencil_reference,
                S::CULL_MODE => &mut d.cull_mode,
                S::FRONT_FACE => &mut d.front_face,
                S::PRIMITIVE_TOPOLOGY => &mut d.topology,
                S::VIEWPORT_WITH_COUNT => &mut d.viewport_with_count,
                S::SCISSOR_WITH_COUNT => &mut d.scissor_with_count,
                S::VERTEX_INPUT_BINDING_STRIDE => &mut d.vertex_stride,
                S::DEPTH_TEST_ENABLE => &mut d.depth_test,
                S::DEPTH_WRITE_ENABLE => &mut d.depth_write,
                S::DEPTH_COMPARE_OP => &mut d.depth_compare,
                S::DEPTH_BOUNDS_TEST_ENABLE => &mut d.depth_bounds_test,
                S::STENCIL_TEST_ENABLE => &mut d.stencil_test,
                S::STENCIL_OP => &mut d.stencil_op,
                S::RASTERIZER_DISCARD_ENABLE => &mut d.rasterizer_discard,
                S::DEPTH_BIAS_ENABLE => &mut d.depth_bias_enable,
                S::PRIMITIVE_RESTART_ENABLE => &mut d.primitive_restart,
                S::LOGIC_OP_EXT => &mut d.logic_op,
                S::LINE_WIDTH => &mut d.line_width,
                other => {
                    log::warn!("graphics pipeline with dynamic state {other:?}: refused");
                    return Err(VkError::FeatureNotPresent(format!("dynamic state {other:?}")));
                }
            };
            *flag = true;
        }
        Ok(d)
    }

    /// Whether the viewport comes from the command buffer (either command sets it).
    pub fn any_viewport(&self) -> bool {
        self.viewport || self.viewport_with_count
    }

    /// Whether the scissor comes from the command buffer.
    pub fn any_scissor(&self) -> bool {
        self.scissor || self.scissor_with_count
    }
}

/// One face's stencil operations and compare op (vkCmdSetStencilOpEXT).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StencilOps {
    pub fail: vk::StencilOp,
    pub pass: vk::StencilOp,
    pub depth_fail: vk::StencilOp,
    pub compare: vk::CompareOp,
}

/// The command buffer's values of the extended dynamic states (vkCmdSet*EXT), read only for
/// the states the bound pipeline made dynamic (valid usage: they are set before the draw).
#[derive(Debug, Clone, Copy, Default)]
pub struct Extended {
    /// vkCmdSetViewportWithCountEXT and vkCmdSetScissorWithCountEXT: how many of the
    /// command buffer's viewports and scissors a draw programs (the values themselves are
    /// `GraphicsState::viewports` and `scissors`, which vkCmdSetViewport/Scissor also set).
    pub viewport_count: u32,
    pub scissor_count: u32,
    pub cull_mode: vk::CullModeFlags,
    pub front_face: vk::FrontFace,
    pub topology: vk::PrimitiveTopology,
    pub depth_test: bool,
    pub depth_write: bool,
    pub depth_compare: vk::CompareOp,
    pub depth_bounds_test: bool,
    pub stencil_test: bool,
    /// Front, back.
    pub stencil_ops: [StencilOps; 2],
    pub rasterizer_discard: bool,
    pub depth_bias: bool,
    pub primitive_restart: bool,
    /// vkCmdSetLogicOpEXT.
    pub logic_op: vk::LogicOp,
}

/// The pipeline's values of the states `Dynamic` can take from the command buffer.
#[derive(Debug, Clone, Copy)]
pub struct Static {
    pub raster: Raster,
    pub topology: vk::PrimitiveTopology,
    pub restart: bool,
    pub depth_stencil: DepthStencil,
}

/// What a draw programs: each value the pipeline's or the command buffer's.
#[derive(Debug, Clone, Copy)]
pub struct Resolved {
    /// Depth bias already off for point and line topologies (Vulkan biases polygons only).
    pub raster: Raster,
    pub topology: vk::PrimitiveTopology,
    pub restart: bool,
    pub depth_stencil: DepthStencil,
}

impl Resolved {
    /// The input-assembly and rasterization registers: VGT_PRIMITIVE_TYPE,
    /// GE_MULTI_PRIM_IB_RESET_EN, PA_SU_SC_MODE_CNTL (with MULTI_PRIM_IB_ENA under primitive
    /// restart), PA_CL_CLIP_CNTL, PA_SU_LINE_CNTL and PA_SU_VTX_CNTL.
    pub fn regs(&self) -> VkResult<Regs> {
        use ferrum_regs::gfx103 as r;
        let mut regs = input_assembly::topology(self.topology)?;
        regs.extend(input_assembly::primitive_restart(self.restart));
        for (reg, mut value) in rasterization::raster_regs(&self.raster)? {
            if reg == r::PA_SU_SC_MODE_CNTL && self.restart {
                value |= r::PA_SU_SC_MODE_CNTL::MULTI_PRIM_IB_ENA.val(1);
            }
            regs.push(reg, value);
        }
        Ok(regs)
    }
}

/// `pick(dynamic, command buffer value, pipeline value)`.
fn pick<T>(dynamic: bool, cmd: T, pipe: T) -> T {
    if dynamic {
        cmd
    } else {
        pipe
    }
}

/// The state a draw programs.
pub fn resolve(d: &Dynamic, p: &Static, v: &Extended) -> Resolved {
    let topology = pick(d.topology, v.topology, p.topology);
    let mut raster = p.raster;
    raster.cull_mode = pick(d.cull_mode, v.cull_mode, raster.cull_mode);
    raster.front_face = pick(d.front_face, v.front_face, raster.front_face);
    raster.discard = pick(d.rasterizer_discard, v.rasterizer_discard, raster.discard);
    raster.depth_bias = pick(d.depth_bias_enable, v.depth_bias, raster.depth_bias)
        && input_assembly::is_polygon(topology);
    let mut ds = p.depth_stencil;
    ds.depth_test = pick(d.depth_test, v.depth_test, ds.depth_test);
    ds.depth_write = pick(d.depth_write, v.depth_write, ds.depth_write);
    ds.depth_compare = pick(d.depth_compare, v.depth_compare, ds.depth_compare);
    ds.depth_bounds_test = pick(d.depth_bounds_test, v.depth_bounds_test, ds.depth_bounds_test);
    ds.stencil_test = pick(d.stencil_test, v.stencil_test, ds.stencil_test);
    if d.stencil_op {
        for (face, ops) in [&mut ds.front, &mut ds.back].into_iter().zip(v.stencil_ops) {
            face.fail_op = ops.fail;
            face.pass_op = ops.pass;
            face.depth_fail_op = ops.depth_fail;
            face.compare_op = ops.compare;
        }
    }
    Resolved {
        raster,
        topology,
        restart: pick(d.primitive_restart, v.primitive_restart, p.restart),
        depth_stencil: ds,
    }
}

#[cfg(test)]
#[path = "dynamic_tests.rs"]
mod tests;
