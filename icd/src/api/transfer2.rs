//! `VK_KHR_copy_commands2`: the `2` forms of the image transfers and resolve. Their region
//! structs carry the same fields as the 1.0 ones plus a pNext chain (no extension Ferrum
//! offers extends them), so each converts its regions and records through the 1.0 command.

use ash::vk;

use super::transfer;

/// The regions of a `2` command as their 1.0 structs.
fn regions<T: Copy, U>(p: *const T, n: u32, f: impl Fn(&T) -> U) -> Vec<U> {
    super::array(p, n).iter().map(f).collect()
}

/// `*p_info`, or `None` for a null pointer (invalid usage, ignored as the 1.0 commands ignore
/// null region arrays).
///
/// # Safety
/// `p` is null or points to a live struct.
unsafe fn info<'a, T>(p: *const T) -> Option<&'a T> {
    // SAFETY: forwarded to the caller.
    unsafe { p.as_ref() }
}

fn len<T>(v: &[T]) -> u32 {
    v.len() as u32
}

pub unsafe extern "system" fn cmd_copy_image2(
    cb: vk::CommandBuffer,
    p_info: *const vk::CopyImageInfo2<'_>,
) {
    // SAFETY: a valid info (valid usage).
    let Some(i) = (unsafe { info(p_info) }) else { return };
    let r = regions(i.p_regions, i.region_count, |r: &vk::ImageCopy2<'_>| vk::ImageCopy {
        src_subresource: r.src_subresource,
        src_offset: r.src_offset,
        dst_subresource: r.dst_subresource,
        dst_offset: r.dst_offset,
        extent: r.extent,
    });
    let (s, sl, d, dl) = (i.src_image, i.src_image_layout, i.dst_image, i.dst_image_layout);
    // SAFETY: the converted regions live across the call.
    unsafe { transfer::cmd_copy_image(cb, s, sl, d, dl, len(&r), r.as_ptr()) }
}

fn buffer_image(r: &vk::BufferImageCopy2<'_>) -> vk::BufferImageCopy {
    vk::BufferImageCopy {
        buffer_offset: r.buffer_offset,
        buffer_row_length: r.buffer_row_length,
        buffer_image_height: r.buffer_image_height,
        image_subresource: r.image_subresource,
        image_offset: r.image_offset,
        image_extent: r.image_extent,
    }
}

pub unsafe extern "system" fn cmd_copy_buffer_to_image2(
    cb: vk::CommandBuffer,
    p_info: *const vk::CopyBufferToImageInfo2<'_>,
) {
    // SAFETY: a valid info (valid usage).
    let Some(i) = (unsafe { info(p_info) }) else { return };
    let r = regions(i.p_regions, i.region_count, buffer_image);
    let (b, img, l) = (i.src_buffer, i.dst_image, i.dst_image_layout);
    // SAFETY: the converted regions live across the call.
    unsafe { transfer::cmd_copy_buffer_to_image(cb, b, img, l, len(&r), r.as_ptr()) }
}

pub unsafe extern "system" fn cmd_copy_image_to_buffer2(
    cb: vk::CommandBuffer,
    p_info: *const vk::CopyImageToBufferInfo2<'_>,
) {
    // SAFETY: a valid info (valid usage).
    let Some(i) = (unsafe { info(p_info) }) else { return };
    let r = regions(i.p_regions, i.region_count, buffer_image);
    let (img, l, b) = (i.src_image, i.src_image_layout, i.dst_buffer);
    // SAFETY: the converted regions live across the call.
    unsafe { transfer::cmd_copy_image_to_buffer(cb, img, l, b, len(&r), r.as_ptr()) }
}

pub unsafe extern "system" fn cmd_blit_image2(
    cb: vk::CommandBuffer,
    p_info: *const vk::BlitImageInfo2<'_>,
) {
    // SAFETY: a valid info (valid usage).
    let Some(i) = (unsafe { info(p_info) }) else { return };
    let r = regions(i.p_regions, i.region_count, |r: &vk::ImageBlit2<'_>| vk::ImageBlit {
        src_subresource: r.src_subresource,
        src_offsets: r.src_offsets,
        dst_subresource: r.dst_subresource,
        dst_offsets: r.dst_offsets,
    });
    let (s, sl, d, dl) = (i.src_image, i.src_image_layout, i.dst_image, i.dst_image_layout);
    // SAFETY: the converted regions live across the call.
    unsafe { transfer::cmd_blit_image(cb, s, sl, d, dl, len(&r), r.as_ptr(), i.filter) }
}

pub unsafe extern "system" fn cmd_resolve_image2(
    cb: vk::CommandBuffer,
    p_info: *const vk::ResolveImageInfo2<'_>,
) {
    // SAFETY: a valid info (valid usage).
    let Some(i) = (unsafe { info(p_info) }) else { return };
    let r = regions(i.p_regions, i.region_count, |r: &vk::ImageResolve2<'_>| vk::ImageResolve {
        src_subresource: r.src_subresource,
        src_offset: r.src_offset,
        dst_subresource: r.dst_subresource,
        dst_offset: r.dst_offset,
        extent: r.extent,
    });
    let (s, sl, d, dl) = (i.src_image, i.src_image_layout, i.dst_image, i.dst_image_layout);
    // SAFETY: the converted regions live across the call.
    unsafe { transfer::cmd_resolve_image(cb, s, sl, d, dl, len(&r), r.as_ptr()) }
}
