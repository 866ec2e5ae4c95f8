//! Resolves: `vkCmdResolveImage` and the render-pass / dynamic-rendering resolve attachments,
//! as compute kernels.
//!
//! Averaging formats (float, UNORM, SNORM) fetch every sample of a pixel through a typed
//! multisampled T# of the source's format (the texture unit converts to f32), add them, scale
//! by 1/samples (exact: a power of two) and store through a typed storage T# of the
//! destination's format, which converts back (`Kernel::Resolve`). Integer formats take sample
//! 0 (`VK_RESOLVE_MODE_SAMPLE_ZERO_BIT`, which is also what the spec requires of
//! `vkCmdResolveImage` for them: "a single sample is selected"): that is a raw copy of sample
//! 0 into the single-sampled image, the copy kernel with a multisampled source.
//!
//! sRGB formats average the linear values the sRGB T# decodes, encode the mean with the spec's
//! curve in the kernel and store it through the UNORM twin (a typed store to an sRGB format
//! does not exist on GFX10), as blits to sRGB destinations do.

use ash::vk;
use ferrum_compiler::amd::abi::BindingLayout;
use ferrum_compiler::amd::{DescriptorKind, ResourceLayout};
use ferrum_compiler::ir::{AluOp, Shader};
use ferrum_compiler::meta::KernelBuilder;

use super::copy::Copy;
use super::surface::{self, Dim};
use super::Kernel;
use crate::cmd::stream::CmdStream;
use crate::error::{VkError, VkResult};
use crate::format::{FormatInfo, Numeric};
use crate::image::Image;

const GROUP: [u32; 3] = [8, 8, 1];

/// How the samples of a pixel become one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The mean of the samples (float and normalised formats).
    Average,
    /// Sample 0 (any format; the only choice for integer formats).
    SampleZero,
    /// The least and the greatest sample (depth and stencil resolves,
    /// VK_KHR_depth_stencil_resolve).
    Min,
    Max,
}

/// How the resolve kernel combines the samples it fetched: the float mean through typed
/// T#s, or a minimum/maximum of raw texels (float for 32-bit depth, unsigned for D16's UNORM
/// and S8's integers, whose raw order is their value order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Combine {
    Average,
    /// The mean of linear values, sRGB-encoded (stored through the UNORM twin).
    AverageSrgb,
    Fmin,
    Fmax,
    Umin,
    Umax,
}

impl Mode {
    /// The mode `vkCmdResolveImage` uses for `format`.
    pub fn for_format(format: &FormatInfo) -> Mode {
        if matches!(format.numeric, Numeric::Uint | Numeric::Sint) {
            Mode::SampleZero
        } else {
            Mode::Average
        }
    }

    /// A `VkResolveModeFlagBits` value for the depth or stencil aspect (`NONE`: `None`).
    /// The modes of `supportedDepthResolveModes` / `supportedStencilResolveModes`.
    pub fn from_vk_depth_stencil(mode: vk::ResolveModeFlags) -> VkResult<Option<Mode>> {
        match mode {
            vk::ResolveModeFlags::NONE => Ok(None),
            vk::ResolveModeFlags::SAMPLE_ZERO => Ok(Some(Mode::SampleZero)),
            vk::ResolveModeFlags::MIN => Ok(Some(Mode::Min)),
            vk::ResolveModeFlags::MAX => Ok(Some(Mode::Max)),
            _ => {
                log::warn!("depth/stencil resolve mode {mode:?} is not supported");
                Err(VkError::FeatureNotPresent(format!("depth/stencil resolve mode {mode:?}")))
            }
        }
    }

    /// A `VkResolveModeFlagBits` value for a colour attachment of `format`.
    pub fn from_vk(mode: vk::ResolveModeFlags, format: &FormatInfo) -> VkResult<Mode> {
        let integer = matches!(format.numeric, Numeric::Uint | Numeric::Sint);
        match mode {
            vk::ResolveModeFlags::SAMPLE_ZERO => Ok(Mode::SampleZero),
            // VUID-VkRenderingAttachmentInfo-imageView-06129: AVERAGE only for non-integer.
            vk::ResolveModeFlags::AVERAGE if !integer => Ok(Mode::Average),
            _ => {
                log::warn!("resolve mode {mode:?} of {:?} is not supported", format.format);
                Err(VkError::FeatureNotPresent(format!("resolve mode {mode:?}")))
            }
        }
    }
}

/// The kernel combining `samples` samples with `combine`. Push constants (dwords): 0..3
/// source origin (x, y, first layer), 4..7 destination origin, 8..9 width and height.
/// Binding 0 is the multisampled source (sampled T#, byte 0), binding 1 the destination
/// (storage T#, byte 32).
pub(super) fn kernel(samples: u32, combine: Combine) -> (Shader, ResourceLayout) {
    let mut k = KernelBuilder::new("ferrum_meta_resolve", GROUP);
    let g = k.global_id();
    let id = [k.component(g, 0), k.component(g, 1), k.component(g, 2)];
    let extent = k.push_constants(32, 2);
    let (w, h) = (k.component(extent, 0), k.component(extent, 1));
    let in_x = k.cmp(AluOp::Ult, id[0], w);
    let in_y = k.cmp(AluOp::Ult, id[1], h);
    let inside = k.alu(AluOp::Iand, 1, 1, &[in_x, in_y]);
    k.if_then(inside, |k| {
        let at = |k: &mut KernelBuilder, byte: u32| {
            let o = k.push_constants(byte, 3);
            let c: Vec<_> = (0..3)
                .map(|i| {
                    let oi = k.component(o, i as u32);
                    k.op(AluOp::Iadd, &[id[i], oi])
                })
                .collect();
            k.vec(&c)
        };
        let src = k.descriptor(0, 0, None);
        let from = at(k, 0);
        let op = match combine {
            Combine::Average | Combine::AverageSrgb => AluOp::Fadd,
            Combine::Fmin => AluOp::Fmin,
            Combine::Fmax => AluOp::Fmax,
            Combine::Umin => AluOp::Umin,
            Combine::Umax => AluOp::Umax,
        };
        let mut acc = None;
        for s in 0..samples {
            let index = k.imm(s);
            let t = k.image_fetch_sample(src, Dim::D2Ms.shape(), from, index);
            acc = Some(match acc {
                None => t,
                Some(a) => k.op(op, &[a, t]),
            });
        }
        let mut value = acc.expect("at least one sample");
        if matches!(combine, Combine::Average | Combine::AverageSrgb) {
            let scale = k.imm_vec(&[(1.0 / samples as f32).to_bits(); 4]);
            value = k.op(AluOp::Fmul, &[value, scale]);
        }
        if combine == Combine::AverageSrgb {
            value = super::blit::srgb_encode(k, value);
        }
        let dst = k.descriptor(0, 1, None);
        let to = at(k, 16);
        k.image_write(dst, Dim::D2.shape(), to, value);
    });
    let mut layout = ResourceLayout::default();
    let b = |kind, offset| BindingLayout { kind, offset, array_size: 1 };
    layout.bindings.insert((0, 0), b(DescriptorKind::SampledImage, 0));
    layout.bindings.insert((0, 1), b(DescriptorKind::StorageImage, 32));
    (k.finish(), layout)
}

/// A resolve region in texels: source and destination origins (x, y, first layer), the
/// size and the number of layers.
#[derive(Debug, Clone, Copy)]
pub struct Region {
    pub src_level: u32,
    pub src: [u32; 3],
    pub dst_level: u32,
    pub dst: [u32; 3],
    pub extent: [u32; 2],
    pub layers: u32,
}

/// Checks `r` against the images: origins and extents inside the levels, layers present.
fn check(src: &Image, dst: &Image, r: &Region) -> VkResult<()> {
    let inside = |image: &Image, level: u32, o: [u32; 3]| {
        let e = image.extent;
        let (w, h) = (e.width >> level, e.height >> level);
        level < image.levels
            && o[0].checked_add(r.extent[0]).is_some_and(|x| x <= w.max(1))
            && o[1].checked_add(r.extent[1]).is_some_and(|y| y <= h.max(1))
            && o[2].checked_add(r.layers).is_some_and(|l| l <= image.layers)
    };
    if !inside(src, r.src_level, r.src) || !inside(dst, r.dst_level, r.dst) {
        return Err(VkError::InvalidUsage("resolve region outside the images"));
    }
    Ok(())
}

/// Resolves one region of the multisampled `src` into the single-sampled `dst` (colour
/// aspect) with `mode`. `format` is the format both are read and written in (a view's; the
/// images' own for `vkCmdResolveImage`). No sync.
pub fn resolve_region(
    s: &mut CmdStream,
    src: &Image,
    dst: &Image,
    format: &FormatInfo,
    r: &Region,
    mode: Mode,
) -> VkResult<()> {
    // VUID-vkCmdResolveImage-srcImage-00257/00259: multisampled source, single-sampled
    // destination (of the same element size, which the same format guarantees).
    if src.samples < 2 || dst.samples != 1 || src.format.block_bytes != dst.format.block_bytes {
        return Err(VkError::InvalidUsage("resolve needs a multisampled source, one-sample dst"));
    }
    if dst.ty != vk::ImageType::TYPE_2D || format.is_depth_stencil() {
        return Err(VkError::FeatureNotPresent("resolve of a non-2D or depth image".into()));
    }
    check(src, dst, r)?;
    if r.extent.contains(&0) || r.layers == 0 {
        return Ok(());
    }
    let groups = [r.extent[0].div_ceil(GROUP[0]), r.extent[1].div_ceil(GROUP[1]), r.layers];
    match mode {
        Mode::SampleZero => {
            let color = vk::ImageAspectFlags::COLOR;
            let mut set = surface::level_descriptor(src, color, r.src_level)?.words().to_vec();
            set.extend(surface::level_descriptor(dst, color, r.dst_level)?.words());
            let (p, q) = (r.src, r.dst);
            // Dword 3 is the sample the copy kernel reads from a multisampled source.
            let push = [p[0], p[1], p[2], 0, q[0], q[1], q[2], 0, r.extent[0], r.extent[1]];
            let kernel = Kernel::Copy(Copy::ImageToImage(Dim::D2Ms, Dim::D2));
            super::run(s, kernel, &set, &push, groups)
        }
        Mode::Average => {
            if matches!(format.numeric, Numeric::Uint | Numeric::Sint) {
                log::warn!("averaging resolve of {:?} is not supported", format.format);
                return Err(VkError::FormatNotSupported);
            }
            let (store, combine) = if format.numeric == Numeric::Srgb {
                let twin = format.unorm_twin().ok_or_else(|| {
                    log::warn!("averaging resolve of {:?}: no UNORM twin", format.format);
                    VkError::FormatNotSupported
                })?;
                (twin, Combine::AverageSrgb)
            } else {
                (format, Combine::Average)
            };
            let mut set = super::blit::typed_level(src, format, r.src_level)?.words().to_vec();
            set.extend(super::blit::typed_level(dst, store, r.dst_level)?.words());
            let (p, q) = (r.src, r.dst);
            let push = [p[0], p[1], p[2], 0, q[0], q[1], q[2], 0, r.extent[0], r.extent[1]];
            super::run(s, Kernel::Resolve(src.samples, combine), &set, &push, groups)
        }
        Mode::Min | Mode::Max => {
            Err(VkError::FeatureNotPresent("minimum/maximum resolve of colour".into()))
        }
    }
}

/// Resolves one region of the `aspect` (depth or stencil) plane of the multisampled `src`
/// into the same aspect of the single-sampled `dst` with `mode` (VK_KHR_depth_stencil_resolve),
/// reading and writing raw texels of the plane. No sync.
pub fn resolve_depth_stencil_region(
    s: &mut CmdStream,
    (src, dst): (&Image, &Image),
    aspect: vk::ImageAspectFlags,
    r: &Region,
    mode: Mode,
) -> VkResult<()> {
    let (sp, dp) = (surface::plane(src, aspect)?.0, surface::plane(dst, aspect)?.0);
    // VUID-VkSubpassDescriptionDepthStencilResolve-pDepthStencilResolveAttachment-03181/03182:
    // the resolved aspect's component is the same in both formats.
    if src.samples < 2 || dst.samples != 1 || sp.desc.bpe != dp.desc.bpe {
        return Err(VkError::InvalidUsage("depth/stencil resolve between unlike images"));
    }
    check(src, dst, r)?;
    if r.extent.contains(&0) || r.layers == 0 {
        return Ok(());
    }
    let combine = match (mode, aspect == vk::ImageAspectFlags::DEPTH && sp.desc.bpe == 4) {
        (Mode::SampleZero, _) => None,
        // 32-bit depth is a float; NaN cannot arise (depth is clamped to [0, 1]).
        (Mode::Min, true) => Some(Combine::Fmin),
        (Mode::Max, true) => Some(Combine::Fmax),
        (Mode::Min, false) => Some(Combine::Umin),
        (Mode::Max, false) => Some(Combine::Umax),
        (Mode::Average, _) => {
            return Err(VkError::FeatureNotPresent("average depth/stencil resolve".into()))
        }
    };
    let mut set = surface::level_descriptor(src, aspect, r.src_level)?.words().to_vec();
    set.extend(surface::level_descriptor(dst, aspect, r.dst_level)?.words());
    let (p, q) = (r.src, r.dst);
    let groups = [r.extent[0].div_ceil(GROUP[0]), r.extent[1].div_ceil(GROUP[1]), r.layers];
    // Dword 3 is the sample the copy kernel reads from a multisampled source.
    let push = [p[0], p[1], p[2], 0, q[0], q[1], q[2], 0, r.extent[0], r.extent[1]];
    let kernel = match combine {
        None => Kernel::Copy(Copy::ImageToImage(Dim::D2Ms, Dim::D2)),
        Some(c) => Kernel::Resolve(src.samples, c),
    };
    super::run(s, kernel, &set, &push, groups)
}

/// One region of `vkCmdResolveImage`. No sync.
pub fn resolve_image(
    s: &mut CmdStream,
    src: &Image,
    dst: &Image,
    r: &vk::ImageResolve,
) -> VkResult<()> {
    let (a, b) = (&r.src_subresource, &r.dst_subresource);
    let color = vk::ImageAspectFlags::COLOR;
    // VUID-vkCmdResolveImage-srcImage-01386: the same format.
    if src.format.format != dst.format.format {
        return Err(VkError::InvalidUsage("vkCmdResolveImage between different formats"));
    }
    // VUID-VkImageResolve-aspectMask-00266, -layerCount-08803; 2D images: z offsets 0.
    if a.aspect_mask != color
        || b.aspect_mask != color
        || a.layer_count != b.layer_count
        || r.src_offset.z != 0
        || r.dst_offset.z != 0
        || r.extent.depth != 1
    {
        return Err(VkError::InvalidUsage("resolve region aspects, layers or depth"));
    }
    let origin = |o: vk::Offset3D, layer: u32| {
        if o.x < 0 || o.y < 0 {
            Err(VkError::InvalidUsage("negative resolve offset"))
        } else {
            Ok([o.x as u32, o.y as u32, layer])
        }
    };
    let region = Region {
        src_level: a.mip_level,
        src: origin(r.src_offset, a.base_array_layer)?,
        dst_level: b.mip_level,
        dst: origin(r.dst_offset, b.base_array_layer)?,
        extent: [r.extent.width, r.extent.height],
        layers: a.layer_count,
    };
    resolve_region(s, src, dst, src.format, &region, Mode::for_format(src.format))
}
