//! Subpass input attachments in render pass instances.
//!
//! Shaders read input attachments through INPUT_ATTACHMENT descriptors (a 2D-array T# of the
//! view, `descriptor::update`), so the render pass itself has two jobs left: the load op of an
//! attachment a subpass first uses only as an input (no target is bound to it, so the target
//! set-up of `draw::begin` does not clear it), and the ordering between a subpass's attachment
//! writes and a later subpass's reads (`barrier_between_subpasses`).

use ash::vk;

use super::render_pass::RenderPass;
use super::rendering::{self, Load, PassInstance, Rendering};
use crate::cmd::barrier::{self, Dependency};
use crate::cmd::stream::CmdStream;
use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};

/// The load-op clears of the attachments the current subpass first uses only as input
/// attachments, as rendering scopes whose targets `draw::apply_loads` clears (one scope for
/// the colour ones, one per depth/stencil one).
pub fn input_loads(pass: &PassInstance) -> VkResult<Vec<Rendering>> {
    // SAFETY: the render pass outlives its instances (valid usage).
    let rp = unsafe { RenderPass::from_handle(pass.pass) }
        .ok_or(VkError::InvalidUsage("null render pass"))?;
    let sp =
        rp.subpasses.get(pass.subpass as usize).ok_or(VkError::InvalidUsage("no subpass left"))?;
    let scope = |colors, depth| Rendering {
        area: pass.area,
        layers: pass.layers,
        view_mask: sp.view_mask,
        colors,
        depth,
        inherited: None,
    };
    let (mut colors, mut out, mut seen) = (Vec::new(), Vec::new(), Vec::new());
    for &a in sp.inputs.iter().flatten() {
        let bound = sp.colors.contains(&Some(a)) || sp.depth == Some(a);
        let Some(load_views) = rp.load_views(a, pass.subpass) else { continue };
        if bound || seen.contains(&a) {
            continue;
        }
        seen.push(a);
        let desc = &rp.attachments[a as usize];
        let h = *pass.views.get(a as usize).ok_or(VkError::InvalidUsage("missing view"))?;
        let clear = |op: vk::AttachmentLoadOp| -> VkResult<Option<vk::ClearValue>> {
            if op != vk::AttachmentLoadOp::CLEAR {
                return Ok(None);
            }
            pass.clears
                .get(a as usize)
                .copied()
                .map(Some)
                .ok_or(VkError::InvalidUsage("clear value"))
        };
        let depth_stencil = crate::format::info(desc.format).is_some_and(|f| f.is_depth_stencil());
        if depth_stencil {
            // SAFETY: a depth/stencil attachment's clear value is that member.
            let d = clear(desc.load_op)?.map(|c| unsafe { c.depth_stencil.depth });
            // SAFETY: as above.
            let st = clear(desc.stencil_load_op)?.map(|c| unsafe { c.depth_stencil.stencil });
            if d.is_some() || st.is_some() {
                let mut t = rendering::depth_target(h, (true, true), d, st)?;
                t.load_views = Some(load_views);
                out.push(scope(Vec::new(), Some(t)));
            }
        } else if let Some(c) = clear(desc.load_op)? {
            // SAFETY: a colour attachment's clear value is the colour member.
            let load = Load::Clear(unsafe { c.color });
            let mut t = rendering::color_target(0, h, load, None)?;
            t.load_views = Some(load_views);
            colors.push(Some(t));
        }
    }
    if !colors.is_empty() {
        out.push(scope(colors, None));
    }
    Ok(out)
}

/// What `vkCmdNextSubpass` waits for: the finished subpass's colour and depth/stencil writes
/// become visible to the next subpass's input attachment (and other shader) reads. Vulkan
/// lets the application say this with subpass dependencies; one queue runs the draws in
/// order, so the only work is the attachment-cache flush and the shader-cache invalidation,
/// which are cheap enough to do at every subpass boundary rather than per dependency.
pub fn barrier_between_subpasses(s: &mut CmdStream) -> VkResult<()> {
    type S = vk::PipelineStageFlags2;
    type A = vk::AccessFlags2;
    let dep = Dependency {
        src_stages: S::COLOR_ATTACHMENT_OUTPUT | S::LATE_FRAGMENT_TESTS,
        src_access: A::COLOR_ATTACHMENT_WRITE | A::DEPTH_STENCIL_ATTACHMENT_WRITE,
        dst_stages: S::FRAGMENT_SHADER,
        dst_access: A::INPUT_ATTACHMENT_READ,
    };
    barrier::emit_dependency(s, &dep)
}
