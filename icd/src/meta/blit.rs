//! `vkCmdBlitImage` as a compute kernel: each destination texel samples the source through a
//! typed T# of the source format and an S# with the blit's filter (CLAMP_TO_EDGE, level 0 of a
//! one-level view), then stores through a typed storage T# of the destination format, so the
//! texture unit converts on both sides (the spec's "Image Copies with Scaling").
//!
//! Per axis the spec maps a destination texel centre `d + 0.5` in the destination region
//! `[d0, d1)` to the source coordinate `s0 + (d + 0.5 - d0) * (s1 - s0) / (d1 - d0)`; reversed
//! offsets (d1 < d0 or s1 < s0) mirror with the same formula. The host folds it into
//! `a + (d + 0.5) * b` in normalised coordinates. Array layers are not filtered: destination
//! layer `i` of the region reads source layer `i` (3D slices are filtered like x and y).
//! Colour formats, and depth-only formats (D16, D32) into the same format with NEAREST: the
//! depth plane is sampled and stored like a one-channel colour image (Ferrum's depth images
//! carry no HTILE). Destinations without typed stores of their own go through another format
//! of the same memory (`FormatInfo::blit_store`): sRGB through its UNORM twin, the kernel
//! encoding R, G and B with the spec's sRGB curve; BGRA through RGBA, R and B swapped;
//! packed 16-bit UNORM formats (navi21 has no typed stores for them) through R16_UINT, the
//! kernel converting each channel to UNORM (the spec's float -> normalized fixed-point
//! conversion: clamp to [0, 1], scale by 2^b - 1, round to nearest even) and packing the
//! bits itself. Integer destinations saturate to their channel range in the kernel (the
//! typed store would keep the low bits). Stencil and D32S8 are refused (not advertised).

use ash::vk;
use ferrum_compiler::amd::abi::BindingLayout;
use ferrum_compiler::amd::{DescriptorKind, ResourceLayout};
use ferrum_compiler::ir::{AluOp, Shader, Value};
use ferrum_compiler::meta::KernelBuilder;

use super::surface::Dim;
use super::Kernel;
use crate::cmd::stream::CmdStream;
use crate::descriptor::ssharp;
use crate::descriptor::tsharp::{ImageDescriptor, ImgType};
use crate::error::{VkError, VkResult};
use crate::format::{BlitStore, FormatInfo, Numeric};
use crate::image::layout::mip_extent;
use crate::image::Image;

const GROUP: [u32; 3] = [8, 8, 1];

/// The kernel for `dim` (source and destination have the same type, VUID-vkCmdBlitImage-srcImage-00240
/// allows 2D arrays, 1D and 3D; a 2D↔3D blit is not valid). Push constants (dwords): 0..3 the
/// destination region's low corner (x, y, first layer or slice), 4..7 `a` (x, y, z), 8..11
/// `b`, 12 width, 13 height of the region, 14 the source's first layer (arrays).
/// Binding 0: source T# (byte 0), binding 1: S# (byte 32), binding 2: destination T# (byte 48).
/// The texel is converted as `encode` says before the store.
pub(super) fn kernel(dim: Dim, encode: Encode) -> (Shader, ResourceLayout) {
    let mut k = KernelBuilder::new("ferrum_meta_blit", GROUP);
    let g = k.global_id();
    let id = [k.component(g, 0), k.component(g, 1), k.component(g, 2)];
    let extent = k.push_constants(48, 2);
    let (w, h) = (k.component(extent, 0), k.component(extent, 1));
    let in_x = k.cmp(AluOp::Ult, id[0], w);
    let in_y = k.cmp(AluOp::Ult, id[1], h);
    let inside = k.alu(AluOp::Iand, 1, 1, &[in_x, in_y]);
    k.if_then(inside, |k| {
        let o = k.push_constants(0, 3);
        let a = k.push_constants(16, 3);
        let b = k.push_constants(32, 3);
        let dst: Vec<Value> = (0..3)
            .map(|i| {
                let oi = k.component(o, i);
                k.op(AluOp::Iadd, &[id[i as usize], oi])
            })
            .collect();
        let half = k.imm(0.5f32.to_bits());
        // Source coordinate along axis i: a + (dst + 0.5) * b, dst in the level's texels.
        let along = |k: &mut KernelBuilder, i: u32| {
            let d = k.op(AluOp::U2f, &[dst[i as usize]]);
            let c = k.op(AluOp::Fadd, &[d, half]);
            let (ai, bi) = (k.component(a, i), k.component(b, i));
            k.op(AluOp::Ffma, &[c, bi, ai])
        };
        let u = along(k, 0);
        let src_layer = |k: &mut KernelBuilder| {
            let base = k.push_constants(56, 1);
            let l = k.op(AluOp::Iadd, &[id[2], base]);
            k.op(AluOp::U2f, &[l])
        };
        let coord = match dim {
            Dim::D1 => {
                let l = src_layer(k);
                k.vec(&[u, l])
            }
            Dim::D2 | Dim::D2Ms => {
                let v = along(k, 1);
                let l = src_layer(k);
                k.vec(&[u, v, l])
            }
            Dim::D3 => {
                let v = along(k, 1);
                let r = along(k, 2);
                k.vec(&[u, v, r])
            }
        };
        let image = k.descriptor(0, 0, None);
        let sampler = k.descriptor(0, 1, None);
        let lod = k.imm(0);
        let texel = k.image_sample_lod(image, Some(sampler), dim.shape(), coord, lod);
        let texel = encode_texel(k, texel, encode);
        let out = k.descriptor(0, 2, None);
        let at = match dim {
            Dim::D1 => k.vec(&[dst[0], dst[2]]),
            _ => k.vec(&[dst[0], dst[1], dst[2]]),
        };
        k.image_write(out, dim.shape(), at, texel);
    });
    let mut layout = ResourceLayout::default();
    let b = |kind, offset| BindingLayout { kind, offset, array_size: 1 };
    layout.bindings.insert((0, 0), b(DescriptorKind::SampledImage, 0));
    layout.bindings.insert((0, 1), b(DescriptorKind::Sampler, 32));
    layout.bindings.insert((0, 2), b(DescriptorKind::StorageImage, 48));
    (k.finish(), layout)
}

/// The conversions the kernel applies to a texel (API channels R, G, B, A) before its typed
/// store, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Encode {
    /// Saturate integer channels to the destination's range: per API channel its width (0,
    /// or 32: left alone), and whether signed. The CTS' reference converts integer blits
    /// with saturation (`intNearestBlitCompare`: "clamped to max. representable value");
    /// the typed store of an out-of-range integer would keep its low bits.
    saturate: Option<([u8; 4], bool)>,
    /// Encode R, G and B with the sRGB curve.
    srgb: bool,
    /// Swap R and B (BGRA memory through an RGBA T#).
    swap_rb: bool,
    /// Convert to UNORM and pack into one 16-bit word (an R16_UINT store): per API channel
    /// its lowest bit and width (0: absent).
    pack16: Option<[(u8, u8); 4]>,
}

impl Encode {
    /// The conversions for storing colour format `df` as `store` plans, the channel layouts
    /// from the spec's format definitions (`pack::channels`). `None` if a layout is unknown.
    pub(super) fn of(df: &FormatInfo, store: &BlitStore) -> Option<Encode> {
        let layout = || {
            let mut fields = [(0u8, 0u8); 4];
            for (c, low, width) in super::pack::channels(df.format)? {
                fields[c] = (u8::try_from(low).ok()?, u8::try_from(width).ok()?);
            }
            Some(fields)
        };
        let saturate = match df.numeric {
            Numeric::Uint | Numeric::Sint => {
                Some((layout()?.map(|(_, w)| w), df.numeric == Numeric::Sint))
            }
            _ => None,
        };
        let pack16 = if store.pack16 { Some(layout()?) } else { None };
        Some(Encode { saturate, srgb: store.srgb, swap_rb: store.swap_rb, pack16 })
    }
}

/// Applies `encode`'s conversions to `texel`, in [`Encode`]'s order.
fn encode_texel(k: &mut KernelBuilder, mut texel: Value, encode: Encode) -> Value {
    if let Some((bits, signed)) = encode.saturate {
        texel = saturate_int(k, texel, bits, signed);
    }
    if encode.srgb {
        texel = srgb_encode(k, texel);
    }
    if encode.swap_rb {
        let c: Vec<Value> = [2, 1, 0, 3].iter().map(|&i| k.component(texel, i)).collect();
        texel = k.vec(&c);
    }
    if let Some(fields) = encode.pack16 {
        texel = pack16(k, texel, fields);
    }
    texel
}

/// Clamps each integer channel of `texel` to the range of a `bits[c]`-bit integer (signed
/// or not); channels of width 0 or 32 are left alone.
fn saturate_int(k: &mut KernelBuilder, texel: Value, bits: [u8; 4], signed: bool) -> Value {
    let out: Vec<Value> = (0..4)
        .map(|c| {
            let v = k.component(texel, c);
            let n = u32::from(bits[c as usize]);
            if n == 0 || n >= 32 {
                return v;
            }
            if signed {
                let hi = k.imm((1u32 << (n - 1)) - 1);
                let lo = k.imm((-(1i32 << (n - 1))) as u32);
                let v = k.op(AluOp::Imin, &[v, hi]);
                k.op(AluOp::Imax, &[v, lo])
            } else {
                let hi = k.imm((1u32 << n) - 1);
                k.op(AluOp::Umin, &[v, hi])
            }
        })
        .collect();
    k.vec(&out)
}

/// Converts R, G, B and A of `texel` to UNORM of the widths in `fields` and packs them at
/// their offsets into the low 16 bits of the first component (the others 0), for an
/// R16_UINT store. The spec's conversion: clamp to [0, 1] (a NaN becomes 0: the max against
/// 0 comes first and returns the number), multiply by 2^b - 1, round to nearest even.
fn pack16(k: &mut KernelBuilder, texel: Value, fields: [(u8, u8); 4]) -> Value {
    let f = |k: &mut KernelBuilder, x: f32| k.imm(x.to_bits());
    let (zero, one) = (f(k, 0.0), f(k, 1.0));
    let mut packed = k.imm(0);
    for (c, &(offset, width)) in fields.iter().enumerate() {
        if width == 0 {
            continue;
        }
        let v = k.component(texel, c as u32);
        let v = k.op(AluOp::Fmax, &[v, zero]);
        let v = k.op(AluOp::Fmin, &[v, one]);
        let scale = f(k, ((1u32 << width) - 1) as f32);
        let v = k.op(AluOp::Fmul, &[v, scale]);
        let v = k.op(AluOp::FroundEven, &[v]);
        let v = k.op(AluOp::F2u, &[v]);
        let shift = k.imm(u32::from(offset));
        let v = k.op(AluOp::Ishl, &[v, shift]);
        packed = k.op(AluOp::Ior, &[packed, v]);
    }
    let zero = k.imm(0);
    k.vec(&[packed, zero, zero, zero])
}

/// The spec's linear-to-sRGB encoding ("sRGB EOTF" inverse) of R, G and B of `texel`, alpha
/// unchanged: 12.92 c below 0.0031308, else 1.055 c^(1/2.4) - 0.055, c clamped to [0, 1].
pub(super) fn srgb_encode(k: &mut KernelBuilder, texel: Value) -> Value {
    let f = |k: &mut KernelBuilder, x: f32| k.imm(x.to_bits());
    let (zero, one) = (f(k, 0.0), f(k, 1.0));
    let mut out = Vec::with_capacity(4);
    for i in 0..3 {
        let c = k.component(texel, i);
        let c = k.op(AluOp::Fmax, &[c, zero]);
        let c = k.op(AluOp::Fmin, &[c, one]);
        let slope = f(k, 12.92);
        let low = k.op(AluOp::Fmul, &[c, slope]);
        let exponent = f(k, 1.0 / 2.4);
        let p = k.op(AluOp::Fpow, &[c, exponent]);
        let (scale, offset) = (f(k, 1.055), f(k, -0.055));
        let high = k.op(AluOp::Ffma, &[p, scale, offset]);
        let knee = f(k, 0.003_130_8);
        let is_low = k.cmp(AluOp::Flt, c, knee);
        out.push(k.alu(AluOp::Bcsel, 32, 1, &[is_low, low, high]));
    }
    out.push(k.component(texel, 3));
    k.vec(&out)
}

/// A typed T# of format `f` (the image's or one of its class) over `level`, every layer
/// (and of a multisampled image every sample) reachable.
pub(super) fn typed_level(image: &Image, f: &FormatInfo, level: u32) -> VkResult<ImageDescriptor> {
    if f.img_format == 0 {
        return Err(VkError::FormatNotSupported);
    }
    let d = &image.surface.desc;
    let dim = Dim::of(image);
    let ty = match dim {
        Dim::D1 => ImgType::D1Array,
        Dim::D2 | Dim::D2Ms => ImgType::D2Array,
        Dim::D3 => ImgType::D3,
    };
    // A block-compressed T# is sized in texels (the texture unit finds the blocks), like an
    // image view's; the surface counts elements (blocks).
    let (width, height) = if f.is_compressed() {
        (image.extent.width, image.extent.height)
    } else {
        (d.width, d.height)
    };
    let t = ImageDescriptor {
        va: image.address()?,
        format: f.img_format,
        width,
        height,
        depth: d.depth,
        swizzle: f.swizzle,
        format_swizzle: f.swizzle,
        base_level: level,
        last_level: level,
        levels: d.levels,
        sw_mode: d.mode as u8,
        ty,
        base_array: 0,
        last_array: if dim == Dim::D3 { 0 } else { d.layers - 1 },
    };
    if dim == Dim::D2Ms {
        return t.multisampled(image.samples).ok_or(VkError::FormatNotSupported);
    }
    Ok(t)
}

/// Whether the formats may be blitted into each other (VUID-vkCmdBlitImage-srcImage-00229/00230:
/// integer only to the same signedness; colour only here).
fn compatible(src: Numeric, dst: Numeric) -> bool {
    use Numeric::*;
    matches!(
        (src, dst),
        (Uint, Uint) | (Sint, Sint) | (Unorm | Snorm | Float | Srgb, Unorm | Snorm | Float | Srgb)
    )
}

/// The aspect a blit of `image` reads or writes: colour, or the depth of a depth-only format
/// (the kernel moves one plane; stencil blits are not implemented).
fn blit_aspect(image: &Image) -> Option<vk::ImageAspectFlags> {
    let a = image.format.aspects();
    (a == vk::ImageAspectFlags::COLOR || a == vk::ImageAspectFlags::DEPTH).then_some(a)
}

/// One side of a blit region: the level's extent, low corner and size per axis, and the
/// layer range for arrays.
struct Region {
    lo: [u32; 3],
    size: [u32; 3],
    level_extent: [u32; 3],
    base_layer: u32,
}

fn region(
    image: &Image,
    sub: &vk::ImageSubresourceLayers,
    o: &[vk::Offset3D; 2],
) -> VkResult<Region> {
    let bad = VkError::InvalidUsage("blit region outside the image");
    let level = sub.mip_level;
    let layers_ok = sub.layer_count != 0
        && sub.base_array_layer.checked_add(sub.layer_count).is_some_and(|e| e <= image.layers);
    if level >= image.levels || !layers_ok || Some(sub.aspect_mask) != blit_aspect(image) {
        return Err(bad);
    }
    let e = image.extent;
    let ext = [e.width, e.height, e.depth].map(|x| mip_extent(x, level));
    let (p, q) = ([o[0].x, o[0].y, o[0].z], [o[1].x, o[1].y, o[1].z]);
    let mut lo = [0; 3];
    let mut size = [0; 3];
    for i in 0..3 {
        let (a, b) = (p[i].min(q[i]), p[i].max(q[i]));
        if a < 0 || b as u32 > ext[i] {
            return Err(bad);
        }
        lo[i] = a as u32;
        size[i] = (b - a) as u32;
    }
    Ok(Region { lo, size, level_extent: ext, base_layer: sub.base_array_layer })
}

/// The S# of a blit: `filter`, clamp to edge, normalised coordinates, level 0 of the view.
fn sampler_words(filter: vk::Filter) -> VkResult<[u32; 4]> {
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .max_lod(0.0);
    ssharp::sampler(&info)
}

/// One region of `vkCmdBlitImage`. No sync.
pub fn blit(
    s: &mut CmdStream,
    src: &Image,
    dst: &Image,
    r: &vk::ImageBlit,
    filter: vk::Filter,
) -> VkResult<()> {
    // VUID-vkCmdBlitImage-srcImage-00233 / dstImage-00234: single-sampled images only.
    if src.samples != 1 || dst.samples != 1 {
        return Err(VkError::InvalidUsage("vkCmdBlitImage of a multisampled image"));
    }
    let (sf, df) = (src.format, dst.format);
    if sf.is_depth_stencil() || df.is_depth_stencil() {
        // VUID-vkCmdBlitImage-srcImage-00231: "If either of srcImage or dstImage was created
        // with a depth/stencil format, the other must have exactly the same format";
        // -00232: "... filter must be VK_FILTER_NEAREST".
        if sf.format != df.format || filter != vk::Filter::NEAREST {
            return Err(VkError::FormatNotSupported);
        }
    } else if !compatible(sf.numeric, df.numeric) || df.is_compressed() {
        // A compressed source is sampled like any other (its T# decodes the blocks); a
        // compressed destination has no BLIT_DST (VUID-vkCmdBlitImage-dstImage-02000).
        return Err(VkError::FormatNotSupported);
    }
    if filter != vk::Filter::NEAREST && filter != vk::Filter::LINEAR {
        return Err(VkError::FeatureNotPresent("cubic blit filter".into()));
    }
    let (dim, ddim) = (Dim::of(src), Dim::of(dst));
    if dim != ddim || r.src_subresource.layer_count != r.dst_subresource.layer_count {
        return Err(VkError::InvalidUsage("vkCmdBlitImage between different image shapes"));
    }
    let a = region(src, &r.src_subresource, &r.src_offsets)?;
    let b = region(dst, &r.dst_subresource, &r.dst_offsets)?;
    let count = if dim == Dim::D3 { b.size[2] } else { r.dst_subresource.layer_count };
    if b.size[0] == 0 || b.size[1] == 0 || count == 0 || a.size.contains(&0) {
        return Ok(());
    }
    let (so, doff) = (&r.src_offsets, &r.dst_offsets);
    let s0 = [so[0].x, so[0].y, so[0].z];
    let s1 = [so[1].x, so[1].y, so[1].z];
    let d0 = [doff[0].x, doff[0].y, doff[0].z];
    let d1 = [doff[1].x, doff[1].y, doff[1].z];
    // u_norm = (s0 + (d + 0.5 - d0) * scale) / W = a + (d + 0.5) * b.
    let mut av = [0f32; 3];
    let mut bv = [0f32; 3];
    for i in 0..3 {
        let scale = f64::from(s1[i] - s0[i]) / f64::from(d1[i] - d0[i]);
        let w = f64::from(a.level_extent[i]);
        bv[i] = (scale / w) as f32;
        av[i] = ((f64::from(s0[i]) - f64::from(d0[i]) * scale) / w) as f32;
    }
    let z = if dim == Dim::D3 { b.lo[2] } else { b.base_layer };
    let mut set = typed_level(src, src.format, r.src_subresource.mip_level)?.words().to_vec();
    set.extend(sampler_words(filter)?);
    // Depth planes are stored as themselves (their table rows have no storage caps).
    let store = if df.is_depth_stencil() {
        BlitStore { via: df, srgb: false, swap_rb: false, pack16: false }
    } else {
        df.blit_store().ok_or(VkError::FormatNotSupported)?
    };
    let encode = if df.is_depth_stencil() {
        Encode::default()
    } else {
        Encode::of(df, &store).ok_or(VkError::FormatNotSupported)?
    };
    set.extend(typed_level(dst, store.via, r.dst_subresource.mip_level)?.words());
    let f = |x: f32| x.to_bits();
    let push = [
        b.lo[0],
        b.lo[1],
        z,
        0,
        f(av[0]),
        f(av[1]),
        f(av[2]),
        0,
        f(bv[0]),
        f(bv[1]),
        f(bv[2]),
        0,
        b.size[0],
        b.size[1],
        a.base_layer,
    ];
    let groups = [b.size[0].div_ceil(GROUP[0]), b.size[1].div_ceil(GROUP[1]), count];
    super::run(s, Kernel::Blit(dim, encode), &set, &push, groups)
}
