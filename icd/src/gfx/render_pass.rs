//! `VkRenderPass` (from both create-info versions) and `VkFramebuffer` (imageless included).
//!
//! A render pass keeps, per subpass, which attachment feeds each colour location and the
//! depth/stencil slot. An attachment's load op applies in the first subpass that uses it
//! (Vulkan: "the load operation ... occurs in the first subpass that uses the attachment");
//! with multiview, per view: each view of it is loaded in the first subpass whose view mask
//! has that view ("Multiview ... load and store operations" in VkRenderPassMultiviewCreateInfo),
//! so a pass whose subpasses render views 0 and 1 in turn clears layer 1 in the second one
//! (`RenderPass::load_views`). Layout transitions need no work (no compression metadata), and subpass
//! dependencies are met by the order in which one queue runs the draws plus the barrier at the
//! end of each subpass (see `gfx::draw`).

use ash::vk;

use crate::core::object::{vk_object, ObjectBase};
use crate::error::{VkError, VkResult};

/// An attachment description (both versions of the API struct carry the same fields).
#[derive(Debug, Clone, Copy)]
pub struct Attachment {
    pub format: vk::Format,
    pub samples: vk::SampleCountFlags,
    pub load_op: vk::AttachmentLoadOp,
    pub store_op: vk::AttachmentStoreOp,
    pub stencil_load_op: vk::AttachmentLoadOp,
}

/// A subpass: attachment indices per colour location (`None` = VK_ATTACHMENT_UNUSED), and the
/// resolve attachment of each colour location (empty without `pResolveAttachments`).
#[derive(Debug, Clone, Default)]
pub struct Subpass {
    pub colors: Vec<Option<u32>>,
    pub resolves: Vec<Option<u32>>,
    pub depth: Option<u32>,
    pub view_mask: u32,
    /// Attachment indices per input attachment index (`None` = VK_ATTACHMENT_UNUSED).
    pub inputs: Vec<Option<u32>>,
    /// The aspect each input attachment index reads: `VkAttachmentReference2::aspectMask`,
    /// or `VkRenderPassInputAttachmentAspectCreateInfo` (VK_KHR_maintenance2) in render pass
    /// 1, else every aspect of the attachment's format.
    pub input_aspects: Vec<vk::ImageAspectFlags>,
    /// The depth/stencil resolve attachment (VkSubpassDescriptionDepthStencilResolve).
    pub depth_resolve: Option<DepthResolveRef>,
}

impl Subpass {
    /// Every attachment the subpass uses: colour, resolve, input, depth/stencil and
    /// depth/stencil resolve references (with repeats).
    pub fn attachments(&self) -> impl Iterator<Item = u32> + '_ {
        let resolve = self.depth_resolve.map(|r| r.attachment);
        let used = self.colors.iter().chain(&self.resolves).chain(&self.inputs).flatten();
        used.copied().chain(self.depth).chain(resolve)
    }
}

/// Where and how a subpass resolves its depth/stencil attachment (render pass 2).
#[derive(Debug, Clone, Copy)]
pub struct DepthResolveRef {
    pub attachment: u32,
    pub depth: vk::ResolveModeFlags,
    pub stencil: vk::ResolveModeFlags,
}

/// A `VkRenderPass`.
#[repr(C)]
pub struct RenderPass {
    base: ObjectBase,
    pub attachments: Vec<Attachment>,
    pub subpasses: Vec<Subpass>,
}
vk_object!(RenderPass, vk::RenderPass, vk::ObjectType::RENDER_PASS);

fn index(a: u32) -> Option<u32> {
    (a != vk::ATTACHMENT_UNUSED).then_some(a)
}

/// Every aspect of attachment `a`'s format (empty for an unused reference).
fn format_aspects(attachments: &[Attachment], a: Option<u32>) -> vk::ImageAspectFlags {
    a.and_then(|a| attachments.get(a as usize))
        .and_then(|d| crate::format::info(d.format))
        .map_or(vk::ImageAspectFlags::empty(), |f| f.aspects())
}

/// Records `VkRenderPassInputAttachmentAspectCreateInfo`'s aspects per input attachment
/// (VUID-VkRenderPassCreateInfo-pNext-01926/01927/01963: subpass and index in range, the
/// aspects present in the attachment's format).
fn set_input_aspects(
    subpasses: &mut [Subpass],
    attachments: &[Attachment],
    refs: &[vk::InputAttachmentAspectReference],
) -> VkResult<()> {
    for r in refs {
        let sp = subpasses
            .get_mut(r.subpass as usize)
            .ok_or(VkError::InvalidUsage("input aspect reference: subpass out of range"))?;
        let i = r.input_attachment_index as usize;
        let a = *sp
            .inputs
            .get(i)
            .ok_or(VkError::InvalidUsage("input aspect reference: index out of range"))?;
        if r.aspect_mask.is_empty() || !format_aspects(attachments, a).contains(r.aspect_mask) {
            return Err(VkError::InvalidUsage("input aspect not in the attachment's format"));
        }
        sp.input_aspects[i] = r.aspect_mask;
    }
    Ok(())
}

/// Checks a subpass's attachment references.
fn check_subpass(sp: &Subpass, count: usize) -> VkResult<()> {
    super::multiview::check_mask(sp.view_mask)?;
    let mut used = sp.colors.iter().chain(&sp.resolves).chain(&sp.inputs).flatten();
    let resolve = sp.depth_resolve.map(|r| r.attachment);
    if used.any(|&a| a as usize >= count)
        || sp.depth.iter().chain(&resolve).any(|&a| a as usize >= count)
    {
        return Err(VkError::InvalidUsage("subpass attachment index out of range"));
    }
    Ok(())
}

/// Checks a depth/stencil resolve: a multisampled depth/stencil attachment resolved into a
/// single-sampled one (VUID-VkSubpassDescriptionDepthStencilResolve-pDepthStencilResolveAttachment-03177/03179),
/// with modes Ferrum offers for the aspects the resolve attachment has.
fn check_depth_resolve(sp: &Subpass, attachments: &[Attachment]) -> VkResult<()> {
    let Some(r) = sp.depth_resolve else { return Ok(()) };
    let Some(d) = sp.depth else {
        return Err(VkError::InvalidUsage(
            "depth/stencil resolve without a depth/stencil attachment",
        ));
    };
    let (d, t) = (&attachments[d as usize], &attachments[r.attachment as usize]);
    if d.samples == vk::SampleCountFlags::TYPE_1 || t.samples != vk::SampleCountFlags::TYPE_1 {
        return Err(VkError::InvalidUsage("depth/stencil resolve attachment sample counts"));
    }
    crate::meta::resolve::Mode::from_vk_depth_stencil(r.depth)?;
    crate::meta::resolve::Mode::from_vk_depth_stencil(r.stencil)?;
    Ok(())
}

impl RenderPass {
    fn new(attachments: Vec<Attachment>, subpasses: Vec<Subpass>) -> VkResult<Box<Self>> {
        // VUID-VkAttachmentDescription-samples-parameter: one bit; the images decide what
        // exists (vkCreateImage offers 2, 4 and 8 samples for the formats that work).
        for a in &attachments {
            if !matches!(a.samples.as_raw(), 1 | 2 | 4 | 8) {
                return Err(super::refuse(&format!("{:?} samples", a.samples)));
            }
        }
        for sp in &subpasses {
            check_depth_resolve(sp, &attachments)?;
            // VUID-VkSubpassDescription-pResolveAttachments-00847/00848: a multisampled
            // colour attachment resolved into a single-sampled one.
            for (c, r) in sp.colors.iter().zip(&sp.resolves) {
                if let (Some(c), Some(r)) = (c, r) {
                    let (c, r) = (&attachments[*c as usize], &attachments[*r as usize]);
                    if c.samples == vk::SampleCountFlags::TYPE_1
                        || r.samples != vk::SampleCountFlags::TYPE_1
                    {
                        return Err(VkError::InvalidUsage("resolve attachment sample counts"));
                    }
                }
            }
        }
        Ok(Box::new(RenderPass {
            base: ObjectBase::new(vk::ObjectType::RENDER_PASS),
            attachments,
            subpasses,
        }))
    }

    /// `vkCreateRenderPass`.
    pub fn create(info: &vk::RenderPassCreateInfo<'_>) -> VkResult<Box<Self>> {
        let attachments: Vec<Attachment> =
            crate::api::array(info.p_attachments, info.attachment_count)
                .iter()
                .map(|a| Attachment {
                    format: a.format,
                    samples: a.samples,
                    load_op: a.load_op,
                    store_op: a.store_op,
                    stencil_load_op: a.stencil_load_op,
                })
                .collect();
        // SAFETY: a valid pNext chain (valid usage).
        let multiview = unsafe {
            crate::core::chain::find_in::<vk::RenderPassMultiviewCreateInfo<'_>>(info.p_next)
        };
        let masks =
            multiview.map_or(&[][..], |m| crate::api::array(m.p_view_masks, m.subpass_count));
        let mut subpasses = Vec::new();
        for (i, s) in crate::api::array(info.p_subpasses, info.subpass_count).iter().enumerate() {
            let refs = crate::api::array(s.p_color_attachments, s.color_attachment_count);
            let inputs = crate::api::array(s.p_input_attachments, s.input_attachment_count);
            let resolves = crate::api::array(s.p_resolve_attachments, s.color_attachment_count);
            let sp = Subpass {
                colors: refs.iter().map(|r| index(r.attachment)).collect(),
                resolves: resolves.iter().map(|r| index(r.attachment)).collect(),
                // SAFETY: a null or valid pointer (valid usage).
                depth: unsafe { s.p_depth_stencil_attachment.as_ref() }
                    .and_then(|r| index(r.attachment)),
                view_mask: masks.get(i).copied().unwrap_or(0),
                inputs: inputs.iter().map(|r| index(r.attachment)).collect(),
                input_aspects: inputs
                    .iter()
                    .map(|r| format_aspects(&attachments, index(r.attachment)))
                    .collect(),
                depth_resolve: None,
            };
            subpasses.push(sp);
        }
        // SAFETY: a valid pNext chain (valid usage).
        let aspects = unsafe {
            crate::core::chain::find_in::<vk::RenderPassInputAttachmentAspectCreateInfo<'_>>(
                info.p_next,
            )
        };
        if let Some(a) = aspects {
            let refs = crate::api::array(a.p_aspect_references, a.aspect_reference_count);
            set_input_aspects(&mut subpasses, &attachments, refs)?;
        }
        for sp in &subpasses {
            check_subpass(sp, attachments.len())?;
        }
        Self::new(attachments, subpasses)
    }

    /// `vkCreateRenderPass2`.
    pub fn create2(info: &vk::RenderPassCreateInfo2<'_>) -> VkResult<Box<Self>> {
        let attachments: Vec<Attachment> =
            crate::api::array(info.p_attachments, info.attachment_count)
                .iter()
                .map(|a| Attachment {
                    format: a.format,
                    samples: a.samples,
                    load_op: a.load_op,
                    store_op: a.store_op,
                    stencil_load_op: a.stencil_load_op,
                })
                .collect();
        let mut subpasses = Vec::new();
        for s in crate::api::array(info.p_subpasses, info.subpass_count) {
            let refs = crate::api::array(s.p_color_attachments, s.color_attachment_count);
            let inputs = crate::api::array(s.p_input_attachments, s.input_attachment_count);
            let resolves = crate::api::array(s.p_resolve_attachments, s.color_attachment_count);
            // SAFETY: a valid pNext chain (valid usage).
            let ds_resolve = unsafe {
                crate::core::chain::find_in::<vk::SubpassDescriptionDepthStencilResolve<'_>>(
                    s.p_next,
                )
            };
            let depth_resolve = match ds_resolve {
                // SAFETY: a null or valid pointer (valid usage).
                Some(r) => unsafe { r.p_depth_stencil_resolve_attachment.as_ref() }
                    .and_then(|a| index(a.attachment))
                    .map(|attachment| DepthResolveRef {
                        attachment,
                        depth: r.depth_resolve_mode,
                        stencil: r.stencil_resolve_mode,
                    }),
                None => None,
            };
            let sp = Subpass {
                colors: refs.iter().map(|r| index(r.attachment)).collect(),
                resolves: resolves.iter().map(|r| index(r.attachment)).collect(),
                // SAFETY: a null or valid pointer (valid usage).
                depth: unsafe { s.p_depth_stencil_attachment.as_ref() }
                    .and_then(|r| index(r.attachment)),
                view_mask: s.view_mask,
                inputs: inputs.iter().map(|r| index(r.attachment)).collect(),
                input_aspects: inputs.iter().map(|r| r.aspect_mask).collect(),
                depth_resolve,
            };
            check_subpass(&sp, attachments.len())?;
            subpasses.push(sp);
        }
        Self::new(attachments, subpasses)
    }

    /// Whether attachment `a`'s load op applies in `subpass`, and to which views: `None` if
    /// it does not (the subpass does not use `a`, or an earlier one loaded it, or, with
    /// multiview, earlier subpasses loaded every view of its view mask); otherwise the
    /// views this subpass loads (those of its view mask no earlier subpass using `a` had;
    /// 0 without multiview, where the whole attachment loads in its first subpass).
    pub fn load_views(&self, a: u32, subpass: u32) -> Option<u32> {
        let mut loaded = 0;
        for (i, sp) in self.subpasses.iter().enumerate() {
            if !sp.attachments().any(|u| u == a) {
                continue;
            }
            if i == subpass as usize {
                let views = sp.view_mask & !loaded;
                return (views != 0 || (sp.view_mask == 0 && loaded == 0)).then_some(views);
            }
            // A subpass without multiview loads all of it (all views, as `loaded` says).
            loaded |= if sp.view_mask == 0 { u32::MAX } else { sp.view_mask };
            if i >= subpass as usize {
                break;
            }
        }
        None
    }

    /// The format of `subpass`'s depth/stencil attachment (UNDEFINED without one).
    pub fn depth_format(&self, subpass: u32) -> VkResult<vk::Format> {
        let sp = self
            .subpasses
            .get(subpass as usize)
            .ok_or(VkError::InvalidUsage("subpass index out of range"))?;
        Ok(sp.depth.map_or(vk::Format::UNDEFINED, |a| self.attachments[a as usize].format))
    }

    /// The colour formats of `subpass` per location (UNDEFINED for unused locations).
    pub fn color_formats(&self, subpass: u32) -> VkResult<Vec<vk::Format>> {
        let sp = self
            .subpasses
            .get(subpass as usize)
            .ok_or(VkError::InvalidUsage("subpass index out of range"))?;
        Ok(sp
            .colors
            .iter()
            .map(|a| a.map_or(vk::Format::UNDEFINED, |a| self.attachments[a as usize].format))
            .collect())
    }
}

/// A `VkFramebuffer`.
#[repr(C)]
pub struct Framebuffer {
    base: ObjectBase,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    /// The views (empty for an imageless framebuffer: they come with the begin info).
    pub attachments: Vec<vk::ImageView>,
    pub imageless: bool,
}
vk_object!(Framebuffer, vk::Framebuffer, vk::ObjectType::FRAMEBUFFER);

impl Framebuffer {
    pub fn create(info: &vk::FramebufferCreateInfo<'_>) -> VkResult<Box<Self>> {
        let imageless = info.flags.contains(vk::FramebufferCreateFlags::IMAGELESS);
        let attachments = if imageless {
            Vec::new()
        } else {
            crate::api::array(info.p_attachments, info.attachment_count).to_vec()
        };
        // VUID-VkFramebufferCreateInfo-width-00885 / height-00887 / layers-00889.
        if info.width == 0 || info.height == 0 || info.layers == 0 {
            return Err(VkError::InvalidUsage("framebuffer of zero size"));
        }
        Ok(Box::new(Framebuffer {
            base: ObjectBase::new(vk::ObjectType::FRAMEBUFFER),
            width: info.width,
            height: info.height,
            layers: info.layers,
            attachments,
            imageless,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attachment(format: vk::Format) -> Attachment {
        Attachment {
            format,
            samples: vk::SampleCountFlags::TYPE_1,
            load_op: vk::AttachmentLoadOp::LOAD,
            store_op: vk::AttachmentStoreOp::STORE,
            stencil_load_op: vk::AttachmentLoadOp::LOAD,
        }
    }

    #[test]
    fn input_attachment_aspects_are_recorded_and_checked() {
        use vk::ImageAspectFlags as A;
        let attachments = [attachment(vk::Format::D32_SFLOAT_S8_UINT)];
        let sp = Subpass {
            inputs: vec![Some(0), None],
            input_aspects: vec![A::DEPTH | A::STENCIL, A::empty()],
            ..Default::default()
        };
        let reference = |index, aspect_mask| vk::InputAttachmentAspectReference {
            subpass: 0,
            input_attachment_index: index,
            aspect_mask,
        };
        let mut subpasses = vec![sp];
        set_input_aspects(&mut subpasses, &attachments, &[reference(0, A::STENCIL)]).unwrap();
        assert_eq!(subpasses[0].input_aspects, vec![A::STENCIL, A::empty()]);
        // An aspect the format lacks, an unused input, an index or subpass out of range.
        for bad in [reference(0, A::COLOR), reference(1, A::DEPTH), reference(2, A::DEPTH)] {
            assert!(set_input_aspects(&mut subpasses, &attachments, &[bad]).is_err());
        }
        let other = vk::InputAttachmentAspectReference { subpass: 1, ..reference(0, A::DEPTH) };
        assert!(set_input_aspects(&mut subpasses, &attachments, &[other]).is_err());
    }

    fn multiview_pass(masks: &[u32], uses: &[&[u32]]) -> RenderPass {
        let subpasses = masks
            .iter()
            .zip(uses)
            .map(|(&view_mask, used)| Subpass {
                colors: used.iter().map(|&a| Some(a)).collect(),
                view_mask,
                ..Default::default()
            })
            .collect();
        let attachments = vec![attachment(vk::Format::R8G8B8A8_UNORM); 2];
        *RenderPass::new(attachments, subpasses).unwrap()
    }

    #[test]
    fn each_view_loads_in_the_first_subpass_that_renders_it() {
        // Subpasses render views 0, 1, then both; attachment 1 is first used in the second.
        let rp = multiview_pass(&[0b01, 0b10, 0b11], &[&[0], &[0, 1], &[0, 1]]);
        assert_eq!(rp.load_views(0, 0), Some(0b01));
        assert_eq!(rp.load_views(0, 1), Some(0b10));
        assert_eq!(rp.load_views(0, 2), None);
        assert_eq!(rp.load_views(1, 0), None);
        assert_eq!(rp.load_views(1, 1), Some(0b10));
        assert_eq!(rp.load_views(1, 2), Some(0b01));
    }

    #[test]
    fn without_multiview_an_attachment_loads_once_in_its_first_subpass() {
        let rp = multiview_pass(&[0, 0, 0], &[&[1], &[0, 1], &[0]]);
        assert_eq!(rp.load_views(1, 0), Some(0));
        assert_eq!(rp.load_views(1, 1), None);
        assert_eq!(rp.load_views(0, 0), None);
        assert_eq!(rp.load_views(0, 1), Some(0));
        assert_eq!(rp.load_views(0, 2), None);
    }
}
