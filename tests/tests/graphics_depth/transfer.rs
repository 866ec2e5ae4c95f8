//! The transfers around a scene's render pass: clears written by transfer commands before it,
//! and colour, depth and stencil copied back to a host buffer after it.

use ash_loaded::{vk, Device};

use super::*;

/// The scene's clear values written by transfer clears, left in the attachment layouts.
pub unsafe fn transfer_clear(
    d: &Device,
    cb: vk::CommandBuffer,
    color: &Target,
    depth: &Target,
    aspects: vk::ImageAspectFlags,
    clears: &[vk::ClearValue; 2],
) {
    let range = |aspect_mask| vk::ImageSubresourceRange {
        aspect_mask,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    };
    let barrier = |image, aspect, (old, new), (src, dst)| {
        vk::ImageMemoryBarrier::default()
            .src_access_mask(src)
            .dst_access_mask(dst)
            .old_layout(old)
            .new_layout(new)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image)
            .subresource_range(range(aspect))
    };
    let dst = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
    let write = vk::AccessFlags::TRANSFER_WRITE;
    let color_aspect = vk::ImageAspectFlags::COLOR;
    let to_dst = [
        barrier(
            color.image,
            color_aspect,
            (vk::ImageLayout::UNDEFINED, dst),
            (vk::AccessFlags::empty(), write),
        ),
        barrier(
            depth.image,
            aspects,
            (vk::ImageLayout::UNDEFINED, dst),
            (vk::AccessFlags::empty(), write),
        ),
    ];
    let ds_access = vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ
        | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE;
    let color_access =
        vk::AccessFlags::COLOR_ATTACHMENT_READ | vk::AccessFlags::COLOR_ATTACHMENT_WRITE;
    let to_attachment = [
        barrier(
            color.image,
            color_aspect,
            (dst, vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL),
            (write, color_access),
        ),
        barrier(
            depth.image,
            aspects,
            (dst, vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
            (write, ds_access),
        ),
    ];
    // SAFETY: forwarded to the caller.
    unsafe {
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_dst,
        );
        d.cmd_clear_color_image(cb, color.image, dst, &clears[0].color, &[range(color_aspect)]);
        d.cmd_clear_depth_stencil_image(
            cb,
            depth.image,
            dst,
            &clears[1].depth_stencil,
            &[range(aspects)],
        );
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS
                | vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &to_attachment,
        );
    }
}

/// Copies colour, depth and stencil to `out` (after the render pass's external dependency).
pub unsafe fn read_back(
    d: &Device,
    cb: vk::CommandBuffer,
    color: &Target,
    depth: &Target,
    aspects: vk::ImageAspectFlags,
    format: vk::Format,
    out: vk::Buffer,
) {
    let range = |aspect_mask| vk::ImageSubresourceRange {
        aspect_mask,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    };
    let barrier = |image, aspect, old, access| {
        vk::ImageMemoryBarrier::default()
            .src_access_mask(access)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
            .old_layout(old)
            .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(image)
            .subresource_range(range(aspect))
    };
    let barriers = [
        barrier(
            color.image,
            vk::ImageAspectFlags::COLOR,
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
        ),
        barrier(
            depth.image,
            aspects,
            vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
        ),
    ];
    let copy = |offset: u64, aspect| vk::BufferImageCopy {
        buffer_offset: offset,
        buffer_row_length: 0,
        buffer_image_height: 0,
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: aspect,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        },
        image_offset: vk::Offset3D::default(),
        image_extent: vk::Extent3D { width: W, height: H, depth: 1 },
    };
    let src = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
    // SAFETY: forwarded to the caller.
    unsafe {
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT
                | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &barriers,
        );
        d.cmd_copy_image_to_buffer(
            cb,
            color.image,
            src,
            out,
            &[copy(COLOR_AT, vk::ImageAspectFlags::COLOR)],
        );
        if has_depth(format) {
            d.cmd_copy_image_to_buffer(
                cb,
                depth.image,
                src,
                out,
                &[copy(DEPTH_AT, vk::ImageAspectFlags::DEPTH)],
            );
        }
        if has_stencil(format) {
            d.cmd_copy_image_to_buffer(
                cb,
                depth.image,
                src,
                out,
                &[copy(STENCIL_AT, vk::ImageAspectFlags::STENCIL)],
            );
        }
        ferrum_tests::gpu::transfer_to_host(d, cb);
    }
}
