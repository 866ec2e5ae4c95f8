//! Depth/stencil state: DB_DEPTH_CONTROL, DB_STENCIL_CONTROL, DB_STENCILREFMASK(_BF) and the
//! depth bounds.
//!
//! Facts: the register database (CompareFrag, StencilOp); RADV for the mapping: Vulkan's
//! compare ops have the hardware's numbering, the back-face stencil state is always enabled
//! with the front (Vulkan has separate front/back state), STENCILOPVAL is 1 (the step of the
//! increment/decrement ops), depth writes need the depth test (Vulkan: "if depth testing is
//! disabled, depth writes are also disabled").

use ash::vk;
use ferrum_regs::gfx103 as r;
use r::enums::StencilOp as S;

use super::compare_func;
use crate::gfx::{fui, Regs};

/// A Vulkan stencil op as the DB's StencilOp.
pub fn stencil_op(op: vk::StencilOp) -> u32 {
    use vk::StencilOp as V;
    match op {
        V::ZERO => S::STENCIL_ZERO,
        V::REPLACE => S::STENCIL_REPLACE_TEST,
        V::INCREMENT_AND_CLAMP => S::STENCIL_ADD_CLAMP,
        V::DECREMENT_AND_CLAMP => S::STENCIL_SUB_CLAMP,
        V::INVERT => S::STENCIL_INVERT,
        V::INCREMENT_AND_WRAP => S::STENCIL_ADD_WRAP,
        V::DECREMENT_AND_WRAP => S::STENCIL_SUB_WRAP,
        // KEEP, and nothing else is valid.
        _ => S::STENCIL_KEEP,
    }
}

/// The depth/stencil values the registers depend on (pipeline or extended dynamic state).
#[derive(Debug, Clone, Copy)]
pub struct DepthStencil {
    pub depth_test: bool,
    pub depth_write: bool,
    pub depth_compare: vk::CompareOp,
    pub depth_bounds_test: bool,
    pub stencil_test: bool,
    pub front: vk::StencilOpState,
    pub back: vk::StencilOpState,
}

impl DepthStencil {
    pub fn from_info(i: &vk::PipelineDepthStencilStateCreateInfo<'_>) -> DepthStencil {
        DepthStencil {
            depth_test: i.depth_test_enable != 0,
            depth_write: i.depth_write_enable != 0,
            depth_compare: i.depth_compare_op,
            depth_bounds_test: i.depth_bounds_test_enable != 0,
            stencil_test: i.stencil_test_enable != 0,
            front: i.front,
            back: i.back,
        }
    }
}

/// DB_DEPTH_CONTROL. Tests whose aspect the attachment lacks are off (Vulkan: the depth test
/// "always passes" and writes nothing without a depth aspect; likewise stencil).
pub fn depth_control(s: &DepthStencil, has_depth: bool, has_stencil: bool) -> u32 {
    use r::DB_DEPTH_CONTROL as F;
    let z = s.depth_test && has_depth;
    let st = s.stencil_test && has_stencil;
    F::Z_ENABLE.val(z as u32)
        | F::Z_WRITE_ENABLE.val((z && s.depth_write) as u32)
        | F::ZFUNC.val(if z { compare_func(s.depth_compare) } else { 0 })
        | F::DEPTH_BOUNDS_ENABLE.val((s.depth_bounds_test && has_depth) as u32)
        | F::STENCIL_ENABLE.val(st as u32)
        | F::BACKFACE_ENABLE.val(st as u32)
        | F::STENCILFUNC.val(if st { compare_func(s.front.compare_op) } else { 0 })
        | F::STENCILFUNC_BF.val(if st { compare_func(s.back.compare_op) } else { 0 })
}

/// DB_STENCIL_CONTROL (pipeline or vkCmdSetStencilOp).
pub fn stencil_control(front: &vk::StencilOpState, back: &vk::StencilOpState) -> u32 {
    use r::DB_STENCIL_CONTROL as F;
    F::STENCILFAIL.val(stencil_op(front.fail_op))
        | F::STENCILZPASS.val(stencil_op(front.pass_op))
        | F::STENCILZFAIL.val(stencil_op(front.depth_fail_op))
        | F::STENCILFAIL_BF.val(stencil_op(back.fail_op))
        | F::STENCILZPASS_BF.val(stencil_op(back.pass_op))
        | F::STENCILZFAIL_BF.val(stencil_op(back.depth_fail_op))
}

/// One face's reference, compare mask and write mask (each dynamic on its own in Vulkan; the
/// register holds all three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StencilFace {
    pub reference: u32,
    pub compare_mask: u32,
    pub write_mask: u32,
}

impl From<&vk::StencilOpState> for StencilFace {
    fn from(s: &vk::StencilOpState) -> Self {
        StencilFace {
            reference: s.reference,
            compare_mask: s.compare_mask,
            write_mask: s.write_mask,
        }
    }
}

/// DB_STENCILREFMASK and DB_STENCILREFMASK_BF (8-bit stencil: values are truncated as the
/// spec says only the low s bits count).
pub fn stencil_ref_mask(front: StencilFace, back: StencilFace) -> Regs {
    use r::DB_STENCILREFMASK as F;
    let v = |f: StencilFace| {
        F::STENCILTESTVAL.val(f.reference & 0xff)
            | F::STENCILMASK.val(f.compare_mask & 0xff)
            | F::STENCILWRITEMASK.val(f.write_mask & 0xff)
            | F::STENCILOPVAL.val(1)
    };
    let mut regs = Regs::new();
    regs.push(r::DB_STENCILREFMASK, v(front));
    regs.push(r::DB_STENCILREFMASK_BF, v(back));
    regs
}

/// DB_DEPTH_BOUNDS_MIN/MAX (pipeline or vkCmdSetDepthBounds).
pub fn depth_bounds(min: f32, max: f32) -> Regs {
    let mut regs = Regs::new();
    regs.push(r::DB_DEPTH_BOUNDS_MIN, fui(min));
    regs.push(r::DB_DEPTH_BOUNDS_MAX, fui(max));
    regs
}

/// The depth/stencil state block against an attachment with the given aspects.
pub fn depth_stencil(
    info: &vk::PipelineDepthStencilStateCreateInfo<'_>,
    has_depth: bool,
    has_stencil: bool,
) -> Regs {
    let s = DepthStencil::from_info(info);
    let mut regs = Regs::new();
    regs.push(r::DB_DEPTH_CONTROL, depth_control(&s, has_depth, has_stencil));
    regs.push(r::DB_STENCIL_CONTROL, stencil_control(&s.front, &s.back));
    regs.extend(stencil_ref_mask((&s.front).into(), (&s.back).into()));
    regs.extend(depth_bounds(info.min_depth_bounds, info.max_depth_bounds));
    regs
}

#[cfg(test)]
#[path = "depth_tests.rs"]
mod tests;
