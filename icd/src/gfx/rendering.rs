//! The one internal description of a render pass instance's current subpass or of a
//! `vkCmdBeginRendering` scope: render area, layer count, view mask, per-location colour
//! targets with their load operation, depth/stencil target. Render passes (per subpass) and
//! dynamic rendering both lower to it, so the draw path has one input.

use ash::vk;

use super::render_pass::{Framebuffer, RenderPass};
use super::resolve::{self, DepthResolve, ResolveTarget};
use super::target::{self, TargetView};
use super::Regs;
use crate::core::object::VkObject;
use crate::error::{VkError, VkResult};
use crate::image::view::ImageView;

/// What happens to a target's contents when rendering to it begins.
#[derive(Clone, Copy)]
pub enum Load {
    Keep,
    Clear(vk::ClearColorValue),
}

impl std::fmt::Debug for Load {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Load::Keep => write!(f, "Keep"),
            // SAFETY: any bit pattern is a valid u32 array.
            Load::Clear(c) => write!(f, "Clear({:08x?})", unsafe { c.uint32 }),
        }
    }
}

/// A colour target.
#[derive(Debug, Clone)]
pub struct ColorTarget {
    pub view: vk::ImageView,
    /// What the CB registers need of the view (`gfx::target`).
    pub target: TargetView,
    /// Its CB_COLORn_* registers at its location (`target::color_target`).
    pub regs: Regs,
    pub load: Load,
    /// The views the load op applies to (`None`: the scope's view mask; a multiview subpass
    /// loads only the views no earlier subpass rendered, `RenderPass::load_views`).
    pub load_views: Option<u32>,
    /// The single-sampled view this multisampled target is resolved into when the subpass
    /// or rendering scope ends.
    pub resolve: Option<ResolveTarget>,
}

/// The depth/stencil target: the aspects attached (a D32S8 view may be attached for depth
/// only or stencil only under dynamic rendering) and what clears them when rendering begins.
#[derive(Debug, Clone)]
pub struct DepthTarget {
    pub view: vk::ImageView,
    /// The view with only the attached aspects' planes (`main` for depth, `stencil`).
    pub target: TargetView,
    /// Its DB_* registers (`target::depth_target`).
    pub regs: Regs,
    /// LOAD_OP_CLEAR values of the depth and the stencil aspect.
    pub clear_depth: Option<f32>,
    pub clear_stencil: Option<u32>,
    /// The views the clears apply to (as `ColorTarget::load_views`).
    pub load_views: Option<u32>,
    /// The single-sampled view the attached aspects are resolved into when the subpass or
    /// rendering scope ends (VK_KHR_depth_stencil_resolve).
    pub resolve: Option<DepthResolve>,
}

impl DepthTarget {
    pub fn has_depth(&self) -> bool {
        self.target.main.is_some()
    }

    pub fn has_stencil(&self) -> bool {
        self.target.stencil.is_some()
    }

    /// The format whose depth aspect is attached (for the depth-bias units), if any.
    pub fn depth_format(&self) -> Option<vk::Format> {
        self.has_depth().then_some(self.target.format.format)
    }
}

/// A rendering scope.
#[derive(Debug, Clone)]
pub struct Rendering {
    pub area: vk::Rect2D,
    pub layers: u32,
    pub view_mask: u32,
    /// Per colour location (`None`: no attachment there).
    pub colors: Vec<Option<ColorTarget>>,
    pub depth: Option<DepthTarget>,
    /// Set in a secondary command buffer that continues a render pass: the primary that
    /// executes it programs the targets and the render area (`draw::scope_targets` at
    /// vkCmdExecuteCommands), so its draws program neither.
    pub inherited: Option<Inherited>,
}

/// What a secondary command buffer's draws know of the scope they continue: which
/// depth/stencil aspects are attached (depth/stencil state is programmed against them) and
/// the depth format (depth bias units).
#[derive(Debug, Clone, Copy, Default)]
pub struct Inherited {
    pub depth: bool,
    pub stencil: bool,
    pub depth_format: Option<vk::Format>,
    /// The inheritance info named no framebuffer: the scope's views are unknown.
    pub no_views: bool,
}

/// The scope of a secondary command buffer begun with RENDER_PASS_CONTINUE: the subpass's
/// targets when the inheritance info names a framebuffer with views (so that
/// vkCmdClearAttachments can address them), none otherwise; loads never apply again.
pub fn inherited(info: &vk::CommandBufferInheritanceInfo<'_>) -> VkResult<Rendering> {
    // SAFETY: the render pass is null or live (valid usage).
    let Some(rp) = (unsafe { RenderPass::from_handle(info.render_pass) }) else {
        // SAFETY: a valid pNext chain (valid usage).
        let dynamic = unsafe {
            crate::core::chain::find_in::<vk::CommandBufferInheritanceRenderingInfo<'_>>(
                info.p_next,
            )
        };
        let dynamic = dynamic.ok_or(VkError::InvalidUsage(
            "RENDER_PASS_CONTINUE without a render pass or VkCommandBufferInheritanceRenderingInfo",
        ))?;
        return inherited_dynamic(dynamic);
    };
    let sp = rp
        .subpasses
        .get(info.subpass as usize)
        .ok_or(VkError::InvalidUsage("inherited subpass out of range"))?;
    let depth_format = sp.depth.map(|a| rp.attachments[a as usize].format);
    let aspects = depth_format
        .and_then(crate::format::info)
        .map_or(vk::ImageAspectFlags::empty(), |f| f.aspects());
    let mut scope = Inherited {
        no_views: false,
        depth: aspects.contains(vk::ImageAspectFlags::DEPTH),
        stencil: aspects.contains(vk::ImageAspectFlags::STENCIL),
        depth_format: depth_format.filter(|_| aspects.contains(vk::ImageAspectFlags::DEPTH)),
    };
    // SAFETY: a null or live framebuffer (valid usage).
    let fb = unsafe { Framebuffer::from_handle(info.framebuffer) }.filter(|f| !f.imageless);
    let mut r = match fb {
        Some(fb) => {
            let pass = PassInstance {
                pass: info.render_pass,
                views: fb.attachments.clone(),
                area: vk::Rect2D {
                    offset: vk::Offset2D::default(),
                    extent: vk::Extent2D { width: fb.width, height: fb.height },
                },
                layers: fb.layers,
                clears: vec![vk::ClearValue::default(); fb.attachments.len()],
                subpass: info.subpass,
            };
            let mut r = pass.rendering()?;
            r.colors.iter_mut().flatten().for_each(|c| c.load = Load::Keep);
            if let Some(d) = &mut r.depth {
                d.clear_depth = None;
                d.clear_stencil = None;
            }
            r
        }
        None => {
            // Clears and a multiview draw's per-view target slices need the views: they are
            // deferred to the executing primary (`gfx::clear_attachments`).
            scope.no_views = true;
            Rendering {
                area: vk::Rect2D::default(),
                layers: 1,
                view_mask: sp.view_mask,
                colors: Vec::new(),
                depth: None,
                inherited: None,
            }
        }
    };
    r.inherited = Some(scope);
    Ok(r)
}

/// The scope of a secondary command buffer that continues a `vkCmdBeginRendering` scope
/// (VkCommandBufferInheritanceRenderingInfo): the attached depth/stencil aspects from the
/// formats; the views belong to the primary, which programs them at vkCmdExecuteCommands.
fn inherited_dynamic(info: &vk::CommandBufferInheritanceRenderingInfo<'_>) -> VkResult<Rendering> {
    super::multiview::check_mask(info.view_mask)?;
    let has = |f: vk::Format, a: vk::ImageAspectFlags| {
        crate::format::info(f).is_some_and(|i| i.aspects().contains(a))
    };
    let depth = has(info.depth_attachment_format, vk::ImageAspectFlags::DEPTH);
    let scope = Inherited {
        depth,
        stencil: has(info.stencil_attachment_format, vk::ImageAspectFlags::STENCIL),
        depth_format: depth.then_some(info.depth_attachment_format),
        no_views: true,
    };
    Ok(Rendering {
        area: vk::Rect2D::default(),
        layers: 1,
        view_mask: info.view_mask,
        colors: Vec::new(),
        depth: None,
        inherited: Some(scope),
    })
}

/// The depth/stencil target showing `h` with the aspects `depth` and `stencil` attached
/// (each only if the format has it) and their clear values.
pub(super) fn depth_target(
    h: vk::ImageView,
    (depth, stencil): (bool, bool),
    clear_depth: Option<f32>,
    clear_stencil: Option<u32>,
) -> VkResult<DepthTarget> {
    let v = view(h)?;
    if !v.format.is_depth_stencil() {
        return Err(VkError::InvalidUsage("depth/stencil attachment of a colour format"));
    }
    let aspects = v.format.aspects();
    let mut t = v.target;
    if !(depth && aspects.contains(vk::ImageAspectFlags::DEPTH)) {
        t.main = None;
    }
    if !(stencil && aspects.contains(vk::ImageAspectFlags::STENCIL)) {
        t.stencil = None;
    }
    // Writes follow the pipeline's state; read-only layouts only promise there are none.
    let regs = target::depth_target(&t, (false, false))?;
    let clear_depth = clear_depth.filter(|_| t.main.is_some());
    let clear_stencil = clear_stencil.filter(|_| t.stencil.is_some());
    let load_views = None;
    Ok(DepthTarget {
        view: h,
        target: t,
        regs,
        clear_depth,
        clear_stencil,
        load_views,
        resolve: None,
    })
}

/// The colour target at `location` showing `h` with load operation `load`, resolved into
/// `resolve` at the end of the scope.
pub(super) fn color_target(
    location: usize,
    h: vk::ImageView,
    load: Load,
    resolve: Option<ResolveTarget>,
) -> VkResult<ColorTarget> {
    let v = view(h)?;
    if v.range.aspect_mask != vk::ImageAspectFlags::COLOR {
        return Err(VkError::InvalidUsage("colour attachment view without the colour aspect"));
    }
    let regs = target::color_target(location as u32, &v.target)?;
    Ok(ColorTarget { view: h, target: v.target, regs, load, load_views: None, resolve })
}

fn view<'a>(h: vk::ImageView) -> VkResult<&'a ImageView> {
    // SAFETY: the application passes live views (valid usage).
    unsafe { ImageView::from_handle(h) }.ok_or(VkError::InvalidUsage("null attachment view"))
}

/// A render pass instance: what `vkCmdNextSubpass` needs to lower the next subpass.
pub struct PassInstance {
    pub pass: vk::RenderPass,
    pub views: Vec<vk::ImageView>,
    pub area: vk::Rect2D,
    pub layers: u32,
    pub clears: Vec<vk::ClearValue>,
    pub subpass: u32,
}

impl PassInstance {
    /// From `vkCmdBeginRenderPass(2)`'s begin info.
    pub fn begin(info: &vk::RenderPassBeginInfo<'_>) -> VkResult<Self> {
        // SAFETY: live handles (valid usage).
        let fb = unsafe { Framebuffer::from_handle(info.framebuffer) }
            .ok_or(VkError::InvalidUsage("null framebuffer"))?;
        let views = if fb.imageless {
            // SAFETY: a valid pNext chain (valid usage).
            let a = unsafe {
                crate::core::chain::find_in::<vk::RenderPassAttachmentBeginInfo<'_>>(info.p_next)
            }
            .ok_or(VkError::InvalidUsage("imageless framebuffer without attachment views"))?;
            crate::api::array(a.p_attachments, a.attachment_count).to_vec()
        } else {
            fb.attachments.clone()
        };
        Ok(PassInstance {
            pass: info.render_pass,
            views,
            area: info.render_area,
            layers: fb.layers,
            clears: crate::api::array(info.p_clear_values, info.clear_value_count).to_vec(),
            subpass: 0,
        })
    }

    /// The rendering scope of the current subpass.
    pub fn rendering(&self) -> VkResult<Rendering> {
        // SAFETY: the render pass outlives its instances (valid usage).
        let rp = unsafe { RenderPass::from_handle(self.pass) }
            .ok_or(VkError::InvalidUsage("null render pass"))?;
        let sp = rp
            .subpasses
            .get(self.subpass as usize)
            .ok_or(VkError::InvalidUsage("no subpass left"))?;
        let mut colors = Vec::with_capacity(sp.colors.len());
        for (i, &a) in sp.colors.iter().enumerate() {
            let Some(a) = a else {
                colors.push(None);
                continue;
            };
            let h = *self.views.get(a as usize).ok_or(VkError::InvalidUsage("missing view"))?;
            let desc = &rp.attachments[a as usize];
            let load_views = rp.load_views(a, self.subpass);
            let load = if load_views.is_some() && desc.load_op == vk::AttachmentLoadOp::CLEAR {
                let c = self.clears.get(a as usize).ok_or(VkError::InvalidUsage("clear value"))?;
                // SAFETY: a colour attachment's clear value is the colour member.
                Load::Clear(unsafe { c.color })
            } else {
                Load::Keep
            };
            let resolve = match sp.resolves.get(i).copied().flatten() {
                Some(r) => {
                    let view =
                        *self.views.get(r as usize).ok_or(VkError::InvalidUsage("missing view"))?;
                    Some(ResolveTarget { view, mode: resolve::pass_mode(view)? })
                }
                None => None,
            };
            let mut t = color_target(colors.len(), h, load, resolve)?;
            t.load_views = load_views;
            colors.push(Some(t));
        }
        let depth = match sp.depth {
            Some(a) => {
                let h = *self.views.get(a as usize).ok_or(VkError::InvalidUsage("missing view"))?;
                let desc = &rp.attachments[a as usize];
                let load_views = rp.load_views(a, self.subpass);
                let clear =
                    |op: vk::AttachmentLoadOp| -> VkResult<Option<vk::ClearDepthStencilValue>> {
                        if load_views.is_none() || op != vk::AttachmentLoadOp::CLEAR {
                            return Ok(None);
                        }
                        let c = self
                            .clears
                            .get(a as usize)
                            .ok_or(VkError::InvalidUsage("clear value"))?;
                        // SAFETY: a depth/stencil attachment's clear value is that member.
                        Ok(Some(unsafe { c.depth_stencil }))
                    };
                let d = clear(desc.load_op)?.map(|c| c.depth);
                let st = clear(desc.stencil_load_op)?.map(|c| c.stencil);
                let mut t = depth_target(h, (true, true), d, st)?;
                t.load_views = load_views;
                if let Some(r) = sp.depth_resolve {
                    let view = *self
                        .views
                        .get(r.attachment as usize)
                        .ok_or(VkError::InvalidUsage("missing view"))?;
                    t.resolve = DepthResolve::new(&t, view, (r.depth, r.stencil))?;
                    if let Some(resolve) = &mut t.resolve {
                        resolve.load_clear = self.resolve_load_clear(rp, r.attachment)?;
                    }
                }
                Some(t)
            }
            None => None,
        };
        Ok(Rendering {
            area: self.area,
            layers: self.layers,
            view_mask: sp.view_mask,
            colors,
            depth,
            inherited: None,
        })
    }
}

impl PassInstance {
    /// The load-op clear of depth/stencil resolve attachment `a` in the current subpass: the
    /// aspects of its format whose load op (depth) or stencil load op is CLEAR, if this
    /// subpass uses it first ("Load operations" apply at an attachment's first use, a
    /// resolve attachment's included).
    fn resolve_load_clear(&self, rp: &RenderPass, a: u32) -> VkResult<Option<resolve::LoadClear>> {
        let desc = &rp.attachments[a as usize];
        let Some(views) = rp.load_views(a, self.subpass) else { return Ok(None) };
        let aspects =
            crate::format::info(desc.format).map_or(vk::ImageAspectFlags::empty(), |f| f.aspects());
        let mut clear = vk::ImageAspectFlags::empty();
        if desc.load_op == vk::AttachmentLoadOp::CLEAR {
            clear |= aspects & vk::ImageAspectFlags::DEPTH;
        }
        if desc.stencil_load_op == vk::AttachmentLoadOp::CLEAR {
            clear |= aspects & vk::ImageAspectFlags::STENCIL;
        }
        if clear.is_empty() {
            return Ok(None);
        }
        let c = self.clears.get(a as usize).ok_or(VkError::InvalidUsage("clear value"))?;
        // SAFETY: a depth/stencil attachment's clear value is that member.
        Ok(Some((clear, unsafe { c.depth_stencil }, views)))
    }
}

/// From `vkCmdBeginRendering`'s info.
pub fn dynamic(info: &vk::RenderingInfo<'_>) -> VkResult<Rendering> {
    super::multiview::check_mask(info.view_mask)?;
    let resuming = info.flags.contains(vk::RenderingFlags::RESUMING);
    let mut colors = Vec::new();
    for a in crate::api::array(info.p_color_attachments, info.color_attachment_count) {
        if a.image_view == vk::ImageView::null() {
            colors.push(None);
            continue;
        }
        let v = view(a.image_view)?;
        // A suspended scope resolves when it finally ends (the resuming scope carries the
        // same attachments), as "Rendering ... suspend" defines.
        let suspending = info.flags.contains(vk::RenderingFlags::SUSPENDING);
        let resolve = if a.resolve_mode != vk::ResolveModeFlags::NONE
            && a.resolve_image_view != vk::ImageView::null()
            && !suspending
        {
            let mode = crate::meta::resolve::Mode::from_vk(a.resolve_mode, v.format)?;
            Some(ResolveTarget { view: a.resolve_image_view, mode })
        } else {
            None
        };
        // A resumed scope continues the suspended one: its load ops do not apply again.
        let load = if a.load_op == vk::AttachmentLoadOp::CLEAR && !resuming {
            // SAFETY: a colour attachment's clear value is the colour member.
            Load::Clear(unsafe { a.clear_value.color })
        } else {
            Load::Keep
        };
        colors.push(Some(color_target(colors.len(), a.image_view, load, resolve)?));
    }
    Ok(Rendering {
        area: info.render_area,
        layers: info.layer_count,
        // Multiview renders the layers of the mask's bits (gfx::multiview), as for a subpass.
        view_mask: info.view_mask,
        colors,
        depth: dynamic_depth(info, resuming)?,
        inherited: None,
    })
}

/// The depth/stencil target of `vkCmdBeginRendering`: pDepthAttachment and
/// pStencilAttachment name the same view when both are used
/// (VUID-VkRenderingInfo-pDepthAttachment-06085); each attaches its aspect.
fn dynamic_depth(info: &vk::RenderingInfo<'_>, resuming: bool) -> VkResult<Option<DepthTarget>> {
    let suspending = info.flags.contains(vk::RenderingFlags::SUSPENDING);
    // SAFETY: null or valid pointers (valid usage).
    let (d, s) = unsafe { (info.p_depth_attachment.as_ref(), info.p_stencil_attachment.as_ref()) };
    let d = d.filter(|a| a.image_view != vk::ImageView::null());
    let s = s.filter(|a| a.image_view != vk::ImageView::null());
    let Some(h) = d.or(s).map(|a| a.image_view) else { return Ok(None) };
    let clear = |a: Option<&vk::RenderingAttachmentInfo<'_>>| {
        // SAFETY: a depth/stencil attachment's clear value is that member.
        a.filter(|a| a.load_op == vk::AttachmentLoadOp::CLEAR && !resuming)
            .map(|a| unsafe { a.clear_value.depth_stencil })
    };
    let (cd, cs) = (clear(d).map(|c| c.depth), clear(s).map(|c| c.stencil));
    let mut t = depth_target(h, (d.is_some(), s.is_some()), cd, cs)?;
    // The resolve view of whichever aspect resolves (VUID-VkRenderingInfo-pDepthAttachment-06105:
    // the same view when both do). A suspended scope resolves when it finally ends.
    let mode = |a: Option<&vk::RenderingAttachmentInfo<'_>>| {
        a.filter(|a| a.resolve_image_view != vk::ImageView::null())
            .map_or(vk::ResolveModeFlags::NONE, |a| a.resolve_mode)
    };
    let target = d.into_iter().chain(s).find(|a| {
        a.resolve_mode != vk::ResolveModeFlags::NONE
            && a.resolve_image_view != vk::ImageView::null()
    });
    if let Some(a) = target.filter(|_| !suspending) {
        t.resolve = DepthResolve::new(&t, a.resolve_image_view, (mode(d), mode(s)))?;
    }
    Ok(Some(t))
}
