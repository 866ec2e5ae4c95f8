//! Vulkan 1.0 graphics and sparse commands that Ferrum does not implement yet.
//!
//! Every core command must be reachable through `vkGetDeviceProcAddr` (an application or the
//! conformance suite that finds NULL calls it anyway and crashes). Until the graphics path
//! exists, these entry points keep the contract for the uses that can be valid today and
//! refuse the rest loudly:
//!
//! - creating render passes, framebuffers and graphics pipelines fails with an error and a log
//!   line, so no draw, render pass instance or resolve can be validly recorded; recording one
//!   anyway makes `vkEndCommandBuffer` fail;
//! - dynamic-state and vertex/index-buffer bindings are valid outside a render pass and with
//!   no graphics pipeline bound; nothing can consume them yet, so recording them changes
//!   nothing observable and they are accepted;
//! - `vkCmdBeginQuery`/`vkCmdEndQuery` need an occlusion or statistics pool, which
//!   `vkCreateQueryPool` refuses;
//! - sparse binding is not advertised (no queue family has `SPARSE_BINDING`), so
//!   `vkQueueBindSparse` has no valid use; images created without sparse flags have no sparse
//!   requirements.
//!
//! This file is meant to shrink to nothing as the graphics path lands.

use ash::vk;

use super::{obj, output};
use crate::cmd::CommandBuffer;
use crate::entry::{guard, guard_value, guard_void};
use crate::error::VkError;

/// Logs and returns the error for a command whose feature does not exist yet.
fn absent(what: &'static str) -> VkError {
    VkError::NotImplemented(what)
}

/// Records a command that cannot be valid today: the command buffer keeps the error.
///
/// # Safety
/// `cb` must be a live command buffer handle.
unsafe fn refuse_recording(name: &'static str, cb: vk::CommandBuffer) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        log::warn!("{name}: graphics commands are not implemented yet");
        cb.record(|_| Err(absent(name)));
        Ok(())
    })
}

/// Accepts a state-setting command that nothing can consume yet (see the module docs).
///
/// # Safety
/// `cb` must be a live command buffer handle.
unsafe fn accept_state(name: &'static str, cb: vk::CommandBuffer) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        unsafe { obj::<CommandBuffer>(cb)? };
        log::trace!("{name}: no graphics pipeline can consume this state yet");
        Ok(())
    })
}

pub unsafe extern "system" fn create_render_pass(
    _device: vk::Device,
    _p_create_info: *const vk::RenderPassCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    _p_render_pass: *mut vk::RenderPass,
) -> vk::Result {
    guard("vkCreateRenderPass", || Err(absent("render passes")))
}

pub unsafe extern "system" fn destroy_render_pass(
    _device: vk::Device,
    render_pass: vk::RenderPass,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    use ash::vk::Handle;
    // Only null can be passed: creation never succeeds.
    guard_value("vkDestroyRenderPass", (), || debug_assert!(render_pass.is_null()))
}

pub unsafe extern "system" fn create_framebuffer(
    _device: vk::Device,
    _p_create_info: *const vk::FramebufferCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    _p_framebuffer: *mut vk::Framebuffer,
) -> vk::Result {
    guard("vkCreateFramebuffer", || Err(absent("framebuffers")))
}

pub unsafe extern "system" fn destroy_framebuffer(
    _device: vk::Device,
    framebuffer: vk::Framebuffer,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    use ash::vk::Handle;
    // Only null can be passed: creation never succeeds.
    guard_value("vkDestroyFramebuffer", (), || debug_assert!(framebuffer.is_null()))
}

pub unsafe extern "system" fn create_graphics_pipelines(
    _device: vk::Device,
    _cache: vk::PipelineCache,
    count: u32,
    _p_create_infos: *const vk::GraphicsPipelineCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pipelines: *mut vk::Pipeline,
) -> vk::Result {
    guard("vkCreateGraphicsPipelines", || {
        // "If creation of any of the pipelines fails, that pipeline will be set to
        // VK_NULL_HANDLE" — every one here.
        for i in 0..count as usize {
            // SAFETY: the application passes `count` writable handles.
            *unsafe { output(p_pipelines.add(i))? } = vk::Pipeline::null();
        }
        Err(absent("graphics pipelines"))
    })
}

pub unsafe extern "system" fn get_render_area_granularity(
    _device: vk::Device,
    _render_pass: vk::RenderPass,
    p_granularity: *mut vk::Extent2D,
) {
    guard_void("vkGetRenderAreaGranularity", || {
        // No render pass can exist; answer the neutral granularity rather than nothing.
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_granularity)? } = vk::Extent2D { width: 1, height: 1 };
        Ok(())
    })
}

pub unsafe extern "system" fn queue_bind_sparse(
    _queue: vk::Queue,
    _count: u32,
    _p_info: *const vk::BindSparseInfo<'_>,
    _fence: vk::Fence,
) -> vk::Result {
    guard("vkQueueBindSparse", || Err(absent("sparse binding (no queue has SPARSE_BINDING)")))
}

/// Generates `vkCmd*` entry points that only hand the command buffer to a policy function.
macro_rules! cmd_entries {
    ($policy:ident: $($f:ident $name:literal ($($arg:ident: $ty:ty),*);)*) => {$(
        pub unsafe extern "system" fn $f(cb: vk::CommandBuffer, $(_: $ty),*) {
            // SAFETY: the application passes a live command buffer (valid usage).
            unsafe { $policy($name, cb) }
        }
    )*};
}

cmd_entries! { accept_state:
    cmd_set_viewport "vkCmdSetViewport" (first: u32, count: u32, v: *const vk::Viewport);
    cmd_set_scissor "vkCmdSetScissor" (first: u32, count: u32, r: *const vk::Rect2D);
    cmd_set_line_width "vkCmdSetLineWidth" (w: f32);
    cmd_set_depth_bias "vkCmdSetDepthBias" (c: f32, clamp: f32, slope: f32);
    cmd_set_blend_constants "vkCmdSetBlendConstants" (c: *const [f32; 4]);
    cmd_set_depth_bounds "vkCmdSetDepthBounds" (min: f32, max: f32);
    cmd_set_stencil_compare_mask "vkCmdSetStencilCompareMask" (f: vk::StencilFaceFlags, m: u32);
    cmd_set_stencil_write_mask "vkCmdSetStencilWriteMask" (f: vk::StencilFaceFlags, m: u32);
    cmd_set_stencil_reference "vkCmdSetStencilReference" (f: vk::StencilFaceFlags, r: u32);
    cmd_bind_index_buffer "vkCmdBindIndexBuffer" (b: vk::Buffer, o: vk::DeviceSize, t: vk::IndexType);
    cmd_bind_vertex_buffers "vkCmdBindVertexBuffers" (first: u32, n: u32, b: *const vk::Buffer, o: *const vk::DeviceSize);
}

cmd_entries! { refuse_recording:
    cmd_draw "vkCmdDraw" (v: u32, i: u32, fv: u32, fi: u32);
    cmd_draw_indexed "vkCmdDrawIndexed" (n: u32, i: u32, fi: u32, vo: i32, fin: u32);
    cmd_draw_indirect "vkCmdDrawIndirect" (b: vk::Buffer, o: vk::DeviceSize, n: u32, s: u32);
    cmd_draw_indexed_indirect "vkCmdDrawIndexedIndirect" (b: vk::Buffer, o: vk::DeviceSize, n: u32, s: u32);
    cmd_clear_attachments "vkCmdClearAttachments" (n: u32, a: *const vk::ClearAttachment, r: u32, rr: *const vk::ClearRect);
    cmd_resolve_image "vkCmdResolveImage" (s: vk::Image, sl: vk::ImageLayout, d: vk::Image, dl: vk::ImageLayout, n: u32, r: *const vk::ImageResolve);
    cmd_begin_query "vkCmdBeginQuery" (p: vk::QueryPool, q: u32, f: vk::QueryControlFlags);
    cmd_end_query "vkCmdEndQuery" (p: vk::QueryPool, q: u32);
    cmd_begin_render_pass "vkCmdBeginRenderPass" (b: *const vk::RenderPassBeginInfo<'_>, c: vk::SubpassContents);
    cmd_next_subpass "vkCmdNextSubpass" (c: vk::SubpassContents);
    cmd_end_render_pass "vkCmdEndRenderPass" ();
}
