//! `VkRenderPass` (from both create-info versions) and `VkFramebuffer` (imageless included).
//!
//! A render pass keeps, per subpass, which attachment feeds each colour location and the
//! depth/stencil slot, plus the subpass in which each attachment is first used: its load op
//! applies there (Vulkan: "the load operation ... occurs in the first subpass that uses the
//! attachment"). Layout transitions need no work (no compression metadata), and subpass
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
}

/// A `VkRenderPass`.
#[repr(C)]
pub struct RenderPass {
    base: ObjectBase,
    pub attachments: Vec<Attachment>,
    pub subpasses: Vec<Subpass>,
    /// The first subpass using each attachment (`None`: never used).
    pub first_use: Vec<Option<u32>>,
}
vk_object!(RenderPass, vk::RenderPass, vk::ObjectType::RENDER_PASS);

fn index(a: u32) -> Option<u32> {
    (a != vk::ATTACHMENT_UNUSED).then_some(a)
}

/// Checks a subpass's attachment references.
fn check_subpass(sp: &Subpass, count: usize) -> VkResult<()> {
    // VUID-VkSubpassDescription2-viewMask-06706: bits below maxMultiviewViewCount.
    if sp.view_mask >> super::multiview::MAX_VIEWS != 0 {
        return Err(VkError::InvalidUsage("view mask beyond maxMultiviewViewCount"));
    }
    let used = sp.colors.iter().chain(&sp.resolves).chain(&sp.inputs).flatten();
    let mut used = used.chain(sp.depth.iter());
    if used.any(|&a| a as usize >= count) {
        return Err(VkError::InvalidUsage("subpass attachment index out of range"));
    }
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
        let mut first_use = vec![None; attachments.len()];
        for (i, sp) in subpasses.iter().enumerate() {
            let used = sp.colors.iter().chain(&sp.resolves).chain(&sp.inputs).flatten();
            for &a in used.chain(sp.depth.iter()) {
                first_use[a as usize].get_or_insert(i as u32);
            }
        }
        Ok(Box::new(RenderPass {
            base: ObjectBase::new(vk::ObjectType::RENDER_PASS),
            attachments,
            subpasses,
            first_use,
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
            };
            check_subpass(&sp, attachments.len())?;
            subpasses.push(sp);
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
            let ds_target =
                ds_resolve.map_or(std::ptr::null(), |r| r.p_depth_stencil_resolve_attachment);
            // SAFETY: a null or valid pointer (valid usage).
            if unsafe { ds_target.as_ref() }.is_some_and(|r| r.attachment != vk::ATTACHMENT_UNUSED)
            {
                return Err(super::refuse("depth/stencil resolve"));
            }
            let sp = Subpass {
                colors: refs.iter().map(|r| index(r.attachment)).collect(),
                resolves: resolves.iter().map(|r| index(r.attachment)).collect(),
                // SAFETY: a null or valid pointer (valid usage).
                depth: unsafe { s.p_depth_stencil_attachment.as_ref() }
                    .and_then(|r| index(r.attachment)),
                view_mask: s.view_mask,
                inputs: inputs.iter().map(|r| index(r.attachment)).collect(),
            };
            check_subpass(&sp, attachments.len())?;
            subpasses.push(sp);
        }
        Self::new(attachments, subpasses)
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
