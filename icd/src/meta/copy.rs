//! Copies with swizzled images: `vkCmdCopyBufferToImage`, `vkCmdCopyImageToBuffer` and
//! `vkCmdCopyImage` as compute kernels that move raw texel blocks.
//!
//! Images are addressed through raw unsigned views of one level (`surface`), buffers through
//! a typed texel-buffer V# with the unsigned format of the element size, so 1- and 2-byte
//! elements need no read-modify-write and every format (block-compressed ones as 8- or
//! 16-byte blocks, depth and stencil planes) copies the same way. Region units are texel
//! blocks throughout; the buffer's rows and slices follow `bufferRowLength` and
//! `bufferImageHeight` as the spec's "Copying Data Between Buffers and Images" defines.

use ash::vk;
use ferrum_compiler::amd::abi::BindingLayout;
use ferrum_compiler::amd::{DescriptorKind, ResourceLayout};
use ferrum_compiler::ir::{AluOp, ImageDim, ImageShape, Shader, Value};
use ferrum_compiler::meta::KernelBuilder;

use super::surface::{self, Dim};
use super::Kernel;
use crate::cmd::copy::buffer_address;
use crate::cmd::stream::CmdStream;
use crate::core::buffer::Buffer;
use crate::descriptor::vsharp;
use crate::error::{VkError, VkResult};
use crate::format;
use crate::image::layout::mip_extent;
use crate::image::Image;

const GROUP: [u32; 3] = [8, 8, 1];
const TEXEL_BUFFER: ImageShape = ImageShape { dim: ImageDim::Buffer, arrayed: false, ms: false };

/// Which way a kernel moves texels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Copy {
    BufferToImage(Dim),
    ImageToBuffer(Dim),
    ImageToImage(Dim, Dim),
}

fn coord(k: &mut KernelBuilder, dim: Dim, x: Value, y: Value, z: Value) -> Value {
    match dim {
        Dim::D1 => k.vec(&[x, z]),
        Dim::D2 | Dim::D3 | Dim::D2Ms => k.vec(&[x, y, z]),
    }
}

/// Reads the texel at `at` of `desc`; a multisampled image's sample `sample`.
fn read(k: &mut KernelBuilder, desc: Value, dim: Dim, at: Value, sample: Value) -> Value {
    match dim {
        Dim::D2Ms => k.image_read_sample(desc, dim.shape(), at, sample),
        _ => k.image_read(desc, dim.shape(), at),
    }
}

/// Writes `texel` at `at` of `desc`; a multisampled image's sample `sample`.
fn write(k: &mut KernelBuilder, desc: Value, dim: Dim, at: Value, sample: Value, texel: Value) {
    match dim {
        Dim::D2Ms => k.image_write_sample(desc, dim.shape(), at, sample, texel),
        _ => k.image_write(desc, dim.shape(), at, texel),
    }
}

/// `origin + (x, y, z)` with the origin at push-constant byte `at`.
fn offset(k: &mut KernelBuilder, at: u32, id: [Value; 3], dim: Dim) -> Value {
    let o = k.push_constants(at, 3);
    let c: Vec<Value> = (0..3)
        .map(|i| {
            let oi = k.component(o, i as u32);
            k.op(AluOp::Iadd, &[id[i], oi])
        })
        .collect();
    coord(k, dim, c[0], c[1], c[2])
}

/// The kernels. Push constants (dwords): 0..2 first image origin, 3 the sample of
/// multisampled images, 4..6 second image origin, 8 width, 9 height (blocks), 10 buffer row
/// length, 11 buffer image height (blocks).
/// Binding 0 is the first image (T#, byte 0), binding 1 the buffer (typed V#) or the second
/// image (T#), at byte 32. "First" is the destination for buffer-to-image, the source else.
pub(super) fn kernel(c: Copy) -> (Shader, ResourceLayout) {
    let mut k = KernelBuilder::new("ferrum_meta_copy", GROUP);
    let g = k.global_id();
    let id = [k.component(g, 0), k.component(g, 1), k.component(g, 2)];
    let extent = k.push_constants(32, 2);
    let (w, h) = (k.component(extent, 0), k.component(extent, 1));
    let in_x = k.cmp(AluOp::Ult, id[0], w);
    let in_y = k.cmp(AluOp::Ult, id[1], h);
    let inside = k.alu(AluOp::Iand, 1, 1, &[in_x, in_y]);
    k.if_then(inside, |k| {
        let first = k.descriptor(0, 0, None);
        let second = k.descriptor(0, 1, None);
        let a = |k: &mut KernelBuilder, dim| offset(k, 0, id, dim);
        // Buffer texel index: (z * image_height + y) * row_length + x.
        let index = |k: &mut KernelBuilder| {
            let rows = k.push_constants(40, 2);
            let (row_len, img_h) = (k.component(rows, 0), k.component(rows, 1));
            let slice = k.op(AluOp::Imul, &[id[2], img_h]);
            let row = k.op(AluOp::Iadd, &[slice, id[1]]);
            let row = k.op(AluOp::Imul, &[row, row_len]);
            k.op(AluOp::Iadd, &[row, id[0]])
        };
        match c {
            Copy::BufferToImage(dim) => {
                let i = index(k);
                let t = k.image_read(second, TEXEL_BUFFER, i);
                let at = a(k, dim);
                k.image_write(first, dim.shape(), at, t);
            }
            Copy::ImageToBuffer(dim) => {
                let at = a(k, dim);
                let t = k.image_read(first, dim.shape(), at);
                let i = index(k);
                k.image_write(second, TEXEL_BUFFER, i, t);
            }
            Copy::ImageToImage(src, dst) => {
                let at = a(k, src);
                let sample = k.push_constants(12, 1);
                let t = read(k, first, src, at, sample);
                let to = offset(k, 16, id, dst);
                write(k, second, dst, to, sample, t);
            }
        }
    });
    let second = match c {
        Copy::ImageToImage(..) => DescriptorKind::StorageImage,
        _ => DescriptorKind::StorageTexelBuffer,
    };
    let mut layout = ResourceLayout::default();
    let b = |kind, offset| BindingLayout { kind, offset, array_size: 1 };
    layout.bindings.insert((0, 0), b(DescriptorKind::StorageImage, 0));
    layout.bindings.insert((0, 1), b(second, 32));
    (k.finish(), layout)
}

/// One image side of a region, resolved to blocks: plane aspect, level, origin (x, y, first
/// layer or slice) and the number of layers or slices.
struct Side<'a> {
    image: &'a Image,
    aspect: vk::ImageAspectFlags,
    level: u32,
    origin: [u32; 3],
    count: u32,
}

impl Side<'_> {
    fn bpe(&self) -> VkResult<u32> {
        Ok(surface::plane(self.image, self.aspect)?.0.desc.bpe)
    }
}

/// Checks `sub`, `o`, `e` (texels) against `image` and resolves them to blocks.
fn side<'a>(
    image: &'a Image,
    sub: &vk::ImageSubresourceLayers,
    o: vk::Offset3D,
    e: vk::Extent3D,
) -> VkResult<(Side<'a>, [u32; 2])> {
    let f = image.format;
    let (bw, bh) = (u32::from(f.block.0), u32::from(f.block.1));
    let level = sub.mip_level;
    let fits = |off: i32, ext: u32, size: u32, b: u32| {
        off >= 0
            && off as u32 % b == 0
            && (off as u32).checked_add(ext).is_some_and(|end| {
                // VUID-...-imageExtent-00207..: whole blocks, or reaching the level's edge.
                end <= size && (ext % b == 0 || end == size)
            })
    };
    let aspects = f.aspects();
    // One aspect per region (VUID-vkCmdCopyBufferToImage-aspectMask-00212 and friends).
    let one_aspect =
        sub.aspect_mask.as_raw().count_ones() == 1 && aspects.contains(sub.aspect_mask);
    let is_3d = image.ty == vk::ImageType::TYPE_3D;
    let layers_ok = sub.layer_count != 0
        && sub.base_array_layer.checked_add(sub.layer_count).is_some_and(|end| end <= image.layers);
    if level >= image.levels
        || !layers_ok
        || !one_aspect
        || e.width == 0
        || e.height == 0
        || e.depth == 0
        || !fits(o.x, e.width, mip_extent(image.extent.width, level), bw)
        || !fits(o.y, e.height, mip_extent(image.extent.height, level), bh)
        // 1D/2D: no z offset; the depth is 1, or the layer count of a 2D/3D copy.
        || (is_3d && !fits(o.z, e.depth, mip_extent(image.extent.depth, level), 1))
        || (!is_3d && o.z != 0)
    {
        return Err(VkError::InvalidUsage("image copy region outside the image"));
    }
    let (z, count) =
        if is_3d { (o.z as u32, e.depth) } else { (sub.base_array_layer, sub.layer_count) };
    let s = Side {
        image,
        aspect: sub.aspect_mask,
        level,
        origin: [o.x as u32 / bw, o.y as u32 / bh, z],
        count,
    };
    Ok((s, [e.width.div_ceil(bw), e.height.div_ceil(bh)]))
}

/// The typed V# format for `bpe`-byte elements.
fn buffer_format(bpe: u32) -> VkResult<(u8, [format::Sel; 4])> {
    let f = match bpe {
        1 => vk::Format::R8_UINT,
        2 => vk::Format::R16_UINT,
        4 => vk::Format::R32_UINT,
        8 => vk::Format::R32G32_UINT,
        16 => vk::Format::R32G32B32A32_UINT,
        _ => return Err(VkError::FormatNotSupported),
    };
    let info = format::info(f).expect("raw formats are in the table");
    Ok((info.buf_format, info.swizzle))
}

/// One region of `vkCmdCopyBufferToImage` (`to_image`) or `vkCmdCopyImageToBuffer`. No sync.
pub fn buffer_image(
    s: &mut CmdStream,
    buffer: &Buffer,
    image: &Image,
    r: &vk::BufferImageCopy,
    to_image: bool,
) -> VkResult<()> {
    // VUID-vkCmdCopyBufferToImage-dstImage-07973 / vkCmdCopyImageToBuffer-srcImage-07973.
    if image.samples != 1 {
        return Err(VkError::InvalidUsage("buffer/image copy with a multisampled image"));
    }
    let (side, [w, h]) = side(image, &r.image_subresource, r.image_offset, r.image_extent)?;
    // VUID-vkCmdCopyBufferToImage-srcImage-00201: 1D/2D images copy one slice.
    if image.ty != vk::ImageType::TYPE_3D && r.image_extent.depth != 1 {
        return Err(VkError::InvalidUsage("buffer/image copy depth of a 1D/2D image"));
    }
    let f = image.format;
    let (bw, bh) = (u32::from(f.block.0), u32::from(f.block.1));
    let row_len = if r.buffer_row_length == 0 { w } else { r.buffer_row_length.div_ceil(bw) };
    let img_h = if r.buffer_image_height == 0 { h } else { r.buffer_image_height.div_ceil(bh) };
    // VUID-vkCmdCopyBufferToImage-bufferRowLength-09101/09102: at least the extent.
    if row_len < w || img_h < h {
        return Err(VkError::InvalidUsage("bufferRowLength or bufferImageHeight below the extent"));
    }
    let bpe = side.bpe()?;
    // VUID-vkCmdCopyBufferToImage-bufferOffset-07737/07978: element (depth/stencil: 4) aligned.
    let align = if f.is_depth_stencil() { 4 } else { u64::from(bpe) };
    let elements = (u64::from(side.count) - 1) * u64::from(img_h) * u64::from(row_len)
        + u64::from(h - 1) * u64::from(row_len)
        + u64::from(w);
    let end = r.buffer_offset.checked_add(elements * u64::from(bpe));
    if r.buffer_offset % align != 0 || end.is_none_or(|e| e > buffer.size) {
        return Err(VkError::InvalidUsage("buffer/image copy region outside the buffer"));
    }
    let (buf_format, sel) = buffer_format(bpe)?;
    let va = buffer_address(buffer, r.buffer_offset)?;
    let records = u32::try_from(elements).map_err(|_| VkError::OutOfDeviceMemory)?;
    let mut set = surface::level_descriptor(image, side.aspect, side.level)?.words().to_vec();
    set.extend(vsharp::typed(va, records, bpe, buf_format, sel));
    let o = side.origin;
    let push = [o[0], o[1], o[2], 0, 0, 0, 0, 0, w, h, row_len, img_h];
    let dim = Dim::of(image);
    let kernel = if to_image { Copy::BufferToImage(dim) } else { Copy::ImageToBuffer(dim) };
    let groups = [w.div_ceil(GROUP[0]), h.div_ceil(GROUP[1]), side.count];
    super::run(s, Kernel::Copy(kernel), &set, &push, groups)
}

/// One region of `vkCmdCopyImage`. No sync.
pub fn image_image(s: &mut CmdStream, src: &Image, dst: &Image, r: &vk::ImageCopy) -> VkResult<()> {
    let (a, [w, h]) = side(src, &r.src_subresource, r.src_offset, r.extent)?;
    // The destination extent is in its own texels: blocks of the source scaled back
    // (VUID-vkCmdCopyImage-srcImage-01548 size-compatible formats, e.g. BC1 and R32G32).
    let (dbw, dbh) = (u32::from(dst.format.block.0), u32::from(dst.format.block.1));
    let dst_extent = vk::Extent3D {
        width: (w * dbw).min(mip_extent(dst.extent.width, r.dst_subresource.mip_level)),
        height: (h * dbh).min(mip_extent(dst.extent.height, r.dst_subresource.mip_level)),
        depth: r.extent.depth,
    };
    let (b, _) = side(dst, &r.dst_subresource, r.dst_offset, dst_extent)?;
    if a.bpe()? != b.bpe()? {
        return Err(VkError::InvalidUsage("vkCmdCopyImage between formats of different sizes"));
    }
    // VUID-vkCmdCopyImage-srcImage-08793 and friends: the same number of layers or slices.
    if a.count != b.count {
        return Err(VkError::InvalidUsage("vkCmdCopyImage layer/slice counts differ"));
    }
    // VUID-vkCmdCopyImage-srcImage-00136: the same sample count.
    if src.samples != dst.samples {
        return Err(VkError::InvalidUsage("vkCmdCopyImage between different sample counts"));
    }
    let mut set = surface::level_descriptor(src, a.aspect, a.level)?.words().to_vec();
    set.extend(surface::level_descriptor(dst, b.aspect, b.level)?.words());
    let (p, q) = (a.origin, b.origin);
    let kernel = Copy::ImageToImage(Dim::of(src), Dim::of(dst));
    let groups = [w.div_ceil(GROUP[0]), h.div_ceil(GROUP[1]), a.count];
    // Multisampled images: one dispatch per sample (dword 3 names it).
    for sample in 0..src.samples {
        let push = [p[0], p[1], p[2], sample, q[0], q[1], q[2], 0, w, h, 0, 0];
        super::run(s, Kernel::Copy(kernel), &set, &push, groups)?;
    }
    Ok(())
}
