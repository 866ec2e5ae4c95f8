//! VK_EXT_multi_draw: several direct draws per command, their parameters `stride` bytes
//! apart in application memory, recorded as one state and a draw packet each
//! (`gfx::draw::draw_multi`).

use ash::vk;

use super::graphics::record;
use crate::gfx::draw::{self, Draw};

/// Reads `count` elements of `T` that start `stride` bytes apart at `p`.
///
/// # Safety
/// `p` must point to `count` such elements (valid usage) unless `count` is 0.
unsafe fn strided<T: Copy>(p: *const T, count: u32, stride: u32) -> Vec<T> {
    (0..count as usize)
        .map(|i| {
            // SAFETY: forwarded to the caller; the elements need not be aligned.
            unsafe { (p as *const u8).add(i * stride as usize).cast::<T>().read_unaligned() }
        })
        .collect()
}

pub unsafe extern "system" fn cmd_draw_multi_ext(
    cb: vk::CommandBuffer,
    draw_count: u32,
    p_vertex_info: *const vk::MultiDrawInfoEXT,
    instance_count: u32,
    first_instance: u32,
    stride: u32,
) {
    // VUID-vkCmdDrawMultiEXT-drawCount-04935: pVertexInfo is valid when drawCount is not 0.
    let infos = if draw_count == 0 || p_vertex_info.is_null() {
        Vec::new()
    } else {
        // SAFETY: valid usage.
        unsafe { strided(p_vertex_info, draw_count, stride) }
    };
    let draws: Vec<Draw> = infos
        .iter()
        .map(|v| Draw::Auto {
            count: v.vertex_count,
            first: v.first_vertex,
            instances: instance_count,
            first_instance,
        })
        .collect();
    // SAFETY: a live handle (valid usage).
    unsafe { record("vkCmdDrawMultiEXT", cb, |s, c, g| draw::draw_multi(s, g, &c.push, &draws)) }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_draw_multi_indexed_ext(
    cb: vk::CommandBuffer,
    draw_count: u32,
    p_index_info: *const vk::MultiDrawIndexedInfoEXT,
    instance_count: u32,
    first_instance: u32,
    stride: u32,
    p_vertex_offset: *const i32,
) {
    let infos = if draw_count == 0 || p_index_info.is_null() {
        Vec::new()
    } else {
        // SAFETY: valid usage.
        unsafe { strided(p_index_info, draw_count, stride) }
    };
    // A non-null pVertexOffset replaces every element's vertexOffset.
    // SAFETY: a valid pointer when not null (valid usage).
    let shared = unsafe { p_vertex_offset.as_ref() }.copied();
    let draws: Vec<Draw> = infos
        .iter()
        .map(|v| Draw::Indexed {
            count: v.index_count,
            first: v.first_index,
            offset: shared.unwrap_or(v.vertex_offset),
            instances: instance_count,
            first_instance,
        })
        .collect();
    // SAFETY: a live handle (valid usage).
    unsafe {
        record("vkCmdDrawMultiIndexedEXT", cb, |s, c, g| draw::draw_multi(s, g, &c.push, &draws))
    }
}
