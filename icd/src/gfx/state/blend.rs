//! Colour blend state: CB_BLENDn_CONTROL, CB_COLOR_CONTROL (mode and logic op), CB_TARGET_MASK
//! and the blend constants.
//!
//! Facts: the register database (BlendOp, CombFunc, ROP3 enums); RADV (`radv_pipeline_graphics.c`
//! blend state) for the mapping: MIN/MAX ignore the factors, so they are programmed as ONE
//! (the CB would otherwise apply them); alpha is always blended separately; a logic op is the
//! ROP3 code whose bits are the op's truth table over (source = 0xCC, destination = 0xAA).

use ash::vk;
use ferrum_regs::gfx103 as r;
use r::enums::BlendOp as B;
use r::enums::CombFunc as Comb;

use crate::error::VkResult;
use crate::gfx::{fui, refuse, Regs};

/// Colour attachments the CB has.
pub const MAX_TARGETS: usize = 8;

/// A Vulkan blend factor as the CB's BlendOp.
pub fn blend_factor(f: vk::BlendFactor) -> VkResult<u32> {
    use vk::BlendFactor as V;
    Ok(match f {
        V::ZERO => B::BLEND_ZERO,
        V::ONE => B::BLEND_ONE,
        V::SRC_COLOR => B::BLEND_SRC_COLOR,
        V::ONE_MINUS_SRC_COLOR => B::BLEND_ONE_MINUS_SRC_COLOR,
        V::DST_COLOR => B::BLEND_DST_COLOR,
        V::ONE_MINUS_DST_COLOR => B::BLEND_ONE_MINUS_DST_COLOR,
        V::SRC_ALPHA => B::BLEND_SRC_ALPHA,
        V::ONE_MINUS_SRC_ALPHA => B::BLEND_ONE_MINUS_SRC_ALPHA,
        V::DST_ALPHA => B::BLEND_DST_ALPHA,
        V::ONE_MINUS_DST_ALPHA => B::BLEND_ONE_MINUS_DST_ALPHA,
        V::CONSTANT_COLOR => B::BLEND_CONSTANT_COLOR,
        V::ONE_MINUS_CONSTANT_COLOR => B::BLEND_ONE_MINUS_CONSTANT_COLOR,
        V::CONSTANT_ALPHA => B::BLEND_CONSTANT_ALPHA,
        V::ONE_MINUS_CONSTANT_ALPHA => B::BLEND_ONE_MINUS_CONSTANT_ALPHA,
        V::SRC_ALPHA_SATURATE => B::BLEND_SRC_ALPHA_SATURATE,
        V::SRC1_COLOR => B::BLEND_SRC1_COLOR,
        V::ONE_MINUS_SRC1_COLOR => B::BLEND_INV_SRC1_COLOR,
        V::SRC1_ALPHA => B::BLEND_SRC1_ALPHA,
        V::ONE_MINUS_SRC1_ALPHA => B::BLEND_INV_SRC1_ALPHA,
        _ => return Err(refuse("unknown blend factor")),
    })
}

/// A Vulkan blend op as the CB's CombFunc (advanced blend ops are not supported).
pub fn blend_op(op: vk::BlendOp) -> VkResult<u32> {
    use vk::BlendOp as V;
    Ok(match op {
        V::ADD => Comb::COMB_DST_PLUS_SRC,
        V::SUBTRACT => Comb::COMB_SRC_MINUS_DST,
        V::REVERSE_SUBTRACT => Comb::COMB_DST_MINUS_SRC,
        V::MIN => Comb::COMB_MIN_DST_SRC,
        V::MAX => Comb::COMB_MAX_DST_SRC,
        _ => return Err(refuse("advanced blend operations (VK_EXT_blend_operation_advanced)")),
    })
}

/// A Vulkan logic op as a ROP3 code.
pub fn rop3(op: vk::LogicOp) -> VkResult<u32> {
    use r::enums::ROP3 as R;
    use vk::LogicOp as V;
    Ok(match op {
        V::CLEAR => R::ROP3_CLEAR,
        V::AND => R::ROP3_AND,
        V::AND_REVERSE => R::ROP3_AND_REVERSE,
        V::COPY => R::ROP3_COPY,
        V::AND_INVERTED => R::ROP3_AND_INVERTED,
        V::NO_OP => R::ROP3_NO_OP,
        V::XOR => R::ROP3_XOR,
        V::OR => R::ROP3_OR,
        V::NOR => R::ROP3_NOR,
        V::EQUIVALENT => R::ROP3_EQUIVALENT,
        V::INVERT => R::ROP3_INVERT,
        V::OR_REVERSE => R::ROP3_OR_REVERSE,
        V::COPY_INVERTED => R::ROP3_COPY_INVERTED,
        V::OR_INVERTED => R::ROP3_OR_INVERTED,
        V::NAND => R::ROP3_NAND,
        V::SET => R::ROP3_SET,
        _ => return Err(refuse("unknown logic op")),
    })
}

/// One equation's CombFunc and source/destination BlendOps. MIN and MAX ignore the factors
/// in Vulkan but not in the CB, so they are programmed as ONE.
fn factors(
    op: vk::BlendOp,
    src: vk::BlendFactor,
    dst: vk::BlendFactor,
) -> VkResult<(u32, u32, u32)> {
    let comb = blend_op(op)?;
    if matches!(op, vk::BlendOp::MIN | vk::BlendOp::MAX) {
        return Ok((comb, B::BLEND_ONE, B::BLEND_ONE));
    }
    Ok((comb, blend_factor(src)?, blend_factor(dst)?))
}

/// CB_BLENDn_CONTROL for one attachment's blend state (0 when blending is off).
pub fn blend_control(a: &vk::PipelineColorBlendAttachmentState) -> VkResult<u32> {
    use r::CB_BLEND0_CONTROL as F;
    if a.blend_enable == 0 {
        return Ok(0);
    }
    let (c_op, c_src, c_dst) =
        factors(a.color_blend_op, a.src_color_blend_factor, a.dst_color_blend_factor)?;
    let (a_op, a_src, a_dst) =
        factors(a.alpha_blend_op, a.src_alpha_blend_factor, a.dst_alpha_blend_factor)?;
    Ok(F::ENABLE.val(1)
        | F::SEPARATE_ALPHA_BLEND.val(1)
        | F::COLOR_SRCBLEND.val(c_src)
        | F::COLOR_COMB_FCN.val(c_op)
        | F::COLOR_DESTBLEND.val(c_dst)
        | F::ALPHA_SRCBLEND.val(a_src)
        | F::ALPHA_COMB_FCN.val(a_op)
        | F::ALPHA_DESTBLEND.val(a_dst))
}

/// Whether a blend state reads the second colour output (dual-source blending).
pub fn uses_dual_source(a: &vk::PipelineColorBlendAttachmentState) -> bool {
    use vk::BlendFactor as V;
    let dual = |f: V| {
        matches!(
            f,
            V::SRC1_COLOR | V::ONE_MINUS_SRC1_COLOR | V::SRC1_ALPHA | V::ONE_MINUS_SRC1_ALPHA
        )
    };
    a.blend_enable != 0
        && [
            a.src_color_blend_factor,
            a.dst_color_blend_factor,
            a.src_alpha_blend_factor,
            a.dst_alpha_blend_factor,
        ]
        .into_iter()
        .any(dual)
}

/// CB_TARGET_MASK: attachment i's colorWriteMask in bits 4i..4i+3 (R, G, B, A), for the
/// attachments that exist (`present` bit i; VK_ATTACHMENT_UNUSED and UNDEFINED formats not).
pub fn target_mask(masks: &[vk::ColorComponentFlags], present: u32) -> u32 {
    masks.iter().take(MAX_TARGETS).enumerate().fold(0, |m, (i, w)| {
        let on = present >> i & 1 != 0;
        m | if on { (w.as_raw() & 0xf) << (4 * i) } else { 0 }
    })
}

/// `cc` (a CB_COLOR_CONTROL of a pipeline with logicOpEnable) with the logic op `op`
/// (vkCmdSetLogicOpEXT).
pub fn with_logic_op(cc: u32, op: vk::LogicOp) -> VkResult<u32> {
    Ok(r::CB_COLOR_CONTROL::ROP3.set(cc, rop3(op)?))
}

/// CB_COLOR_CONTROL: normal rendering when any colour target is written (the CB is disabled
/// otherwise), with the logic op as ROP3 (COPY when off). navi21's RB+ dual-quad mode does not
/// work with a logic op or dual-source blending on target 0 (RADV), so those disable it.
pub fn color_control(
    any_target: bool,
    logic_op: Option<vk::LogicOp>,
    dual_source: bool,
) -> VkResult<u32> {
    use r::enums::CBMode as M;
    use r::CB_COLOR_CONTROL as F;
    let rop = match logic_op {
        Some(op) => rop3(op)?,
        None => r::enums::ROP3::ROP3_COPY,
    };
    let mode = if any_target { M::CB_NORMAL } else { M::CB_DISABLE };
    let no_dual_quad = logic_op.is_some() || dual_source;
    Ok(F::MODE.val(mode) | F::ROP3.val(rop) | F::DISABLE_DUAL_QUAD.val(no_dual_quad as u32))
}

/// CB_BLEND_RED..ALPHA (pipeline or vkCmdSetBlendConstants).
pub fn blend_constants(c: [f32; 4]) -> Regs {
    let mut regs = Regs::new();
    for (i, v) in c.into_iter().enumerate() {
        regs.push(r::CB_BLEND_RED + 4 * i as u32, fui(v));
    }
    regs
}

/// The whole colour blend state for attachments whose presence is `present` (bit i: colour
/// attachment i exists): every CB_BLENDn_CONTROL, the target mask, CB_COLOR_CONTROL and the
/// constants.
pub fn color_blend(
    info: &vk::PipelineColorBlendStateCreateInfo<'_>,
    present: u32,
) -> VkResult<Regs> {
    let attachments = if info.attachment_count == 0 || info.p_attachments.is_null() {
        &[][..]
    } else {
        // SAFETY: valid usage: p_attachments points at attachment_count states.
        unsafe { std::slice::from_raw_parts(info.p_attachments, info.attachment_count as usize) }
    };
    if attachments.len() > MAX_TARGETS {
        return Err(refuse("more than 8 colour attachments"));
    }
    let mut regs = Regs::new();
    // With a logic op blending is off on every attachment, also on float and sRGB ones
    // where the op itself does not apply (the colour is written as is): the CTS's
    // logic_op_na_formats "_blend" cases expect exactly that ("with logicOp enabled,
    // blendEnable is ignored").
    let logic_op = info.logic_op_enable != 0;
    for i in 0..MAX_TARGETS {
        let control = match attachments.get(i) {
            Some(a) if present >> i & 1 != 0 && !logic_op => blend_control(a)?,
            _ => 0,
        };
        regs.push(r::CB_BLEND0_CONTROL + 4 * i as u32, control);
    }
    let masks: Vec<_> = attachments.iter().map(|a| a.color_write_mask).collect();
    regs.push(r::CB_TARGET_MASK, target_mask(&masks, present));
    let logic = (info.logic_op_enable != 0).then_some(info.logic_op);
    let dual = !logic_op && present & 1 != 0 && attachments.first().is_some_and(uses_dual_source);
    let mask = regs.get(r::CB_TARGET_MASK).unwrap_or(0);
    regs.push(r::CB_COLOR_CONTROL, color_control(mask != 0, logic, dual)?);
    regs.extend(blend_constants(info.blend_constants));
    Ok(regs)
}

#[cfg(test)]
#[path = "blend_tests.rs"]
mod tests;
