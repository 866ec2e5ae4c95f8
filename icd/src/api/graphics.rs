//! Graphics objects and commands: render passes, framebuffers, graphics pipelines, rendering
//! scopes (render pass instances and dynamic rendering), dynamic state, vertex/index buffers
//! and draws. The work is in `crate::gfx`; this file checks handles and forwards.

use ash::vk;

use super::{array, obj, output, reference};
use crate::cmd::CommandBuffer;
use crate::core::buffer::Buffer;
use crate::core::object::VkObject;
use crate::entry::{guard, guard_value, guard_void};
use crate::error::{VkError, VkResult};
use crate::gfx::draw::{self, Draw, GraphicsState};
use crate::gfx::render_pass::{Framebuffer, RenderPass};
use crate::gfx::rendering::{self, PassInstance};
use crate::gfx::state::depth::StencilFace;
use crate::gfx::state::rasterization::DepthBias;
use crate::pipeline::Pipeline;

/// Creates an object from its create info.
///
/// # Safety
/// Valid device, create info, allocator and output pointer (valid usage).
unsafe fn create<T: VkObject, I>(
    name: &'static str,
    device: vk::Device,
    p_info: *const I,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_out: *mut T::Handle,
    make: impl FnOnce(&I) -> VkResult<Box<T>>,
) -> vk::Result {
    guard(name, || {
        // SAFETY: forwarded to the caller.
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: as above.
        let info = unsafe { reference(p_info)? };
        // SAFETY: as above.
        let out = unsafe { output(p_out)? };
        *out = make(info)?.into_handle_in(host)?;
        Ok(())
    })
}

pub unsafe extern "system" fn create_render_pass(
    device: vk::Device,
    p_info: *const vk::RenderPassCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_out: *mut vk::RenderPass,
) -> vk::Result {
    // SAFETY: forwarded (valid usage).
    unsafe { create("vkCreateRenderPass", device, p_info, p_allocator, p_out, RenderPass::create) }
}

pub unsafe extern "system" fn create_render_pass2(
    device: vk::Device,
    p_info: *const vk::RenderPassCreateInfo2<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_out: *mut vk::RenderPass,
) -> vk::Result {
    // SAFETY: forwarded (valid usage).
    unsafe {
        create("vkCreateRenderPass2", device, p_info, p_allocator, p_out, RenderPass::create2)
    }
}

pub unsafe extern "system" fn destroy_render_pass(
    _device: vk::Device,
    handle: vk::RenderPass,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyRenderPass", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { RenderPass::take_handle(handle) });
    })
}

pub unsafe extern "system" fn create_framebuffer(
    device: vk::Device,
    p_info: *const vk::FramebufferCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_out: *mut vk::Framebuffer,
) -> vk::Result {
    // SAFETY: forwarded (valid usage).
    unsafe {
        create("vkCreateFramebuffer", device, p_info, p_allocator, p_out, Framebuffer::create)
    }
}

pub unsafe extern "system" fn destroy_framebuffer(
    _device: vk::Device,
    handle: vk::Framebuffer,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
) {
    guard_value("vkDestroyFramebuffer", (), || {
        // SAFETY: a null or live handle, not used afterwards.
        drop(unsafe { Framebuffer::take_handle(handle) });
    })
}

pub unsafe extern "system" fn get_render_area_granularity(
    _device: vk::Device,
    _render_pass: vk::RenderPass,
    p_granularity: *mut vk::Extent2D,
) {
    guard_void("vkGetRenderAreaGranularity", || {
        // Any render area is as fast as any other: targets have no tile alignment to keep.
        // SAFETY: the application passes a writable output pointer.
        *unsafe { output(p_granularity)? } = vk::Extent2D { width: 1, height: 1 };
        Ok(())
    })
}

pub unsafe extern "system" fn create_graphics_pipelines(
    device: vk::Device,
    cache: vk::PipelineCache,
    count: u32,
    p_infos: *const vk::GraphicsPipelineCreateInfo<'_>,
    p_allocator: *const vk::AllocationCallbacks<'_>,
    p_pipelines: *mut vk::Pipeline,
) -> vk::Result {
    guard("vkCreateGraphicsPipelines", || {
        // SAFETY: a live device and null or valid callbacks (valid usage).
        let host = unsafe { super::child_host(device, p_allocator)? };
        // SAFETY: as above.
        let device = unsafe { obj::<crate::core::device::Device>(device)? };
        // SAFETY: a null or live pipeline cache (valid usage).
        let cache = unsafe { crate::pipeline::PipelineCache::from_handle(cache) };
        let infos = array(p_infos, count);
        // "If creation of any of the pipelines fails, that pipeline will be set to
        // VK_NULL_HANDLE."
        for i in 0..infos.len() {
            // SAFETY: the application passes `count` writable handles.
            *unsafe { output(p_pipelines.add(i))? } = vk::Pipeline::null();
        }
        let mut first_error = None;
        for (i, info) in infos.iter().enumerate() {
            let made = crate::gfx::pipeline::create(&device.shared, cache, info)
                .and_then(|p| Pipeline::graphics(p).into_handle_in(host))
                .map_err(VkError::in_pipeline_creation);
            match made {
                // SAFETY: as above.
                Ok(h) => *unsafe { output(p_pipelines.add(i))? } = h,
                Err(e) => {
                    log::warn!("vkCreateGraphicsPipelines: pipeline {i}: {e}");
                    first_error.get_or_insert(e);
                    if info.flags.contains(vk::PipelineCreateFlags::EARLY_RETURN_ON_FAILURE) {
                        break;
                    }
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    })
}

/// Runs a graphics command on a live command buffer.
///
/// # Safety
/// `cb` must be a live command buffer handle.
pub(crate) unsafe fn record(
    name: &'static str,
    cb: vk::CommandBuffer,
    f: impl FnOnce(
        &mut crate::cmd::stream::CmdStream,
        &mut crate::cmd::dispatch::ComputeState,
        &mut GraphicsState,
    ) -> VkResult<()>,
) {
    guard_void(name, || {
        // SAFETY: forwarded to the caller.
        let cb = unsafe { obj::<CommandBuffer>(cb)? };
        cb.record_graphics(|s, c, g| f(s, c, g).inspect_err(|e| log::warn!("{name}: {e}")));
        Ok(())
    })
}

fn begin_pass(
    s: &mut crate::cmd::stream::CmdStream,
    g: &mut GraphicsState,
    pass: PassInstance,
) -> VkResult<()> {
    let r = pass.rendering()?;
    for loads in crate::gfx::input_attachment::input_loads(&pass)? {
        draw::apply_loads(s, &loads)?;
    }
    g.pass = Some(pass);
    draw::begin(s, g, r)
}

pub unsafe extern "system" fn cmd_begin_render_pass(
    cb: vk::CommandBuffer,
    p_info: *const vk::RenderPassBeginInfo<'_>,
    _contents: vk::SubpassContents,
) {
    // SAFETY: a live handle and a valid begin info (valid usage).
    unsafe {
        record("vkCmdBeginRenderPass", cb, |s, _, g| {
            begin_pass(s, g, PassInstance::begin(reference(p_info)?)?)
        })
    }
}

pub unsafe extern "system" fn cmd_begin_render_pass2(
    cb: vk::CommandBuffer,
    p_info: *const vk::RenderPassBeginInfo<'_>,
    _p_subpass: *const vk::SubpassBeginInfo<'_>,
) {
    // SAFETY: a live handle and a valid begin info (valid usage).
    unsafe {
        record("vkCmdBeginRenderPass2", cb, |s, _, g| {
            begin_pass(s, g, PassInstance::begin(reference(p_info)?)?)
        })
    }
}

fn next_subpass(s: &mut crate::cmd::stream::CmdStream, g: &mut GraphicsState) -> VkResult<()> {
    // The subpass's resolve attachments are written at its end.
    if let Some(r) = &g.rendering {
        crate::gfx::resolve::resolve_attachments(s, r)?;
    }
    let mut pass = g.pass.take().ok_or(VkError::InvalidUsage("no render pass instance"))?;
    crate::gfx::input_attachment::barrier_between_subpasses(s)?;
    pass.subpass += 1;
    begin_pass(s, g, pass)
}

pub unsafe extern "system" fn cmd_next_subpass(cb: vk::CommandBuffer, _c: vk::SubpassContents) {
    // SAFETY: a live handle (valid usage).
    unsafe { record("vkCmdNextSubpass", cb, |s, _, g| next_subpass(s, g)) }
}

pub unsafe extern "system" fn cmd_next_subpass2(
    cb: vk::CommandBuffer,
    _b: *const vk::SubpassBeginInfo<'_>,
    _e: *const vk::SubpassEndInfo<'_>,
) {
    // SAFETY: a live handle (valid usage).
    unsafe { record("vkCmdNextSubpass2", cb, |s, _, g| next_subpass(s, g)) }
}

/// Ends a render pass instance or rendering scope: resolves its resolve attachments.
fn end_rendering(s: &mut crate::cmd::stream::CmdStream, g: &mut GraphicsState) -> VkResult<()> {
    let r = g.rendering.take().ok_or(VkError::InvalidUsage("no rendering scope to end"))?;
    g.pass = None;
    crate::gfx::resolve::resolve_attachments(s, &r)
}

pub unsafe extern "system" fn cmd_end_render_pass(cb: vk::CommandBuffer) {
    // SAFETY: a live handle (valid usage).
    unsafe { record("vkCmdEndRenderPass", cb, |s, _, g| end_rendering(s, g)) }
}

pub unsafe extern "system" fn cmd_end_render_pass2(
    cb: vk::CommandBuffer,
    _e: *const vk::SubpassEndInfo<'_>,
) {
    // SAFETY: a live handle (valid usage).
    unsafe { record("vkCmdEndRenderPass2", cb, |s, _, g| end_rendering(s, g)) }
}

pub unsafe extern "system" fn cmd_begin_rendering(
    cb: vk::CommandBuffer,
    p_info: *const vk::RenderingInfo<'_>,
) {
    // SAFETY: a live handle and a valid rendering info (valid usage).
    unsafe {
        record("vkCmdBeginRendering", cb, |s, _, g| {
            let r = rendering::dynamic(reference(p_info)?)?;
            draw::begin(s, g, r)
        })
    }
}

pub unsafe extern "system" fn cmd_end_rendering(cb: vk::CommandBuffer) {
    // SAFETY: a live handle (valid usage).
    unsafe { record("vkCmdEndRendering", cb, |s, _, g| end_rendering(s, g)) }
}

pub unsafe extern "system" fn cmd_set_viewport(
    cb: vk::CommandBuffer,
    first: u32,
    count: u32,
    p_viewports: *const vk::Viewport,
) {
    // SAFETY: a live handle and `count` viewports (valid usage).
    unsafe {
        record("vkCmdSetViewport", cb, |_, _, g| {
            // "The sum of firstViewport and viewportCount must be between 1 and
            // VkPhysicalDeviceLimits::maxViewports, inclusive."
            let slots = g.viewports.iter_mut().skip(first as usize);
            for (slot, v) in slots.zip(array(p_viewports, count)) {
                *slot = Some(*v);
            }
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_set_scissor(
    cb: vk::CommandBuffer,
    first: u32,
    count: u32,
    p_scissors: *const vk::Rect2D,
) {
    // SAFETY: a live handle and `count` rectangles (valid usage).
    unsafe {
        record("vkCmdSetScissor", cb, |_, _, g| {
            // "The sum of firstScissor and scissorCount must be between 1 and
            // VkPhysicalDeviceLimits::maxViewports, inclusive."
            let slots = g.scissors.iter_mut().skip(first as usize);
            for (slot, r) in slots.zip(array(p_scissors, count)) {
                *slot = Some(*r);
            }
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_set_blend_constants(cb: vk::CommandBuffer, c: *const [f32; 4]) {
    // SAFETY: a live handle and four floats (valid usage).
    unsafe {
        record("vkCmdSetBlendConstants", cb, |_, _, g| {
            g.blend_constants = *c.as_ref().ok_or(VkError::InvalidUsage("null blend constants"))?;
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_set_depth_bias(
    cb: vk::CommandBuffer,
    constant: f32,
    clamp: f32,
    slope: f32,
) {
    // SAFETY: a live handle (valid usage).
    unsafe {
        record("vkCmdSetDepthBias", cb, |_, _, g| {
            g.depth_bias = DepthBias { constant, clamp, slope };
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_set_depth_bounds(cb: vk::CommandBuffer, min: f32, max: f32) {
    // SAFETY: a live handle (valid usage).
    unsafe {
        record("vkCmdSetDepthBounds", cb, |_, _, g| {
            g.depth_bounds = (min, max);
            Ok(())
        })
    }
}

/// Sets one field of the stencil state of the faces in `faces`.
///
/// # Safety
/// `cb` must be a live command buffer handle.
unsafe fn set_stencil(
    name: &'static str,
    cb: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    f: impl Fn(&mut StencilFace),
) {
    // SAFETY: forwarded to the caller.
    unsafe {
        record(name, cb, |_, _, g| {
            for (i, face) in
                [vk::StencilFaceFlags::FRONT, vk::StencilFaceFlags::BACK].into_iter().enumerate()
            {
                if faces.contains(face) {
                    f(&mut g.stencil[i]);
                }
            }
            Ok(())
        })
    }
}

pub unsafe extern "system" fn cmd_set_stencil_compare_mask(
    cb: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    mask: u32,
) {
    // SAFETY: a live handle (valid usage).
    unsafe { set_stencil("vkCmdSetStencilCompareMask", cb, faces, |s| s.compare_mask = mask) }
}

pub unsafe extern "system" fn cmd_set_stencil_write_mask(
    cb: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    mask: u32,
) {
    // SAFETY: a live handle (valid usage).
    unsafe { set_stencil("vkCmdSetStencilWriteMask", cb, faces, |s| s.write_mask = mask) }
}

pub unsafe extern "system" fn cmd_set_stencil_reference(
    cb: vk::CommandBuffer,
    faces: vk::StencilFaceFlags,
    reference: u32,
) {
    // SAFETY: a live handle (valid usage).
    unsafe { set_stencil("vkCmdSetStencilReference", cb, faces, |s| s.reference = reference) }
}

pub unsafe extern "system" fn cmd_bind_index_buffer(
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    index_type: vk::IndexType,
) {
    // SAFETY: live handles (valid usage).
    unsafe {
        record("vkCmdBindIndexBuffer", cb, |_, _, g| {
            if !matches!(index_type, vk::IndexType::UINT16 | vk::IndexType::UINT32) {
                return Err(VkError::FeatureNotPresent(format!("index type {index_type:?}")));
            }
            let b = obj::<Buffer>(buffer)?;
            let va = crate::cmd::copy::buffer_address(b, offset)?;
            g.index = Some((va, b.size.saturating_sub(offset), index_type));
            Ok(())
        })
    }
}

/// Binds `buffers` from binding `first` at `offsets`, each `sizes[i]` bytes (to the buffer's
/// end without sizes, or for VK_WHOLE_SIZE), with `strides` when given
/// (vkCmdBindVertexBuffers2EXT; a pipeline with a dynamic stride reads them).
pub(crate) fn bind_vertex_buffers(
    g: &mut GraphicsState,
    first: u32,
    buffers: &[vk::Buffer],
    offsets: &[vk::DeviceSize],
    sizes: Option<&[vk::DeviceSize]>,
    strides: Option<&[vk::DeviceSize]>,
) -> VkResult<()> {
    for (i, &h) in buffers.iter().enumerate() {
        let slot = first as usize + i;
        if slot >= g.vertex_buffers.len() {
            return Err(VkError::InvalidUsage("vertex binding beyond maxVertexInputBindings"));
        }
        // SAFETY: a null or live buffer (valid usage; null needs the nullDescriptor feature,
        // and binds nothing).
        g.vertex_buffers[slot] = match unsafe { Buffer::from_handle(h) } {
            Some(b) => {
                let avail = b.size.saturating_sub(offsets[i]);
                let size = match sizes.map(|s| s[i]) {
                    None | Some(vk::WHOLE_SIZE) => avail,
                    Some(n) => n.min(avail),
                };
                (crate::cmd::copy::buffer_address(b, offsets[i])?, size)
            }
            None => (0, 0),
        };
        if let Some(strides) = strides {
            // VUID-vkCmdBindVertexBuffers2-pStrides-03362: at most maxVertexInputBindingStride.
            g.vertex_strides[slot] = u32::try_from(strides[i])
                .map_err(|_| VkError::InvalidUsage("vertex stride beyond the limit"))?;
        }
    }
    Ok(())
}

pub unsafe extern "system" fn cmd_bind_vertex_buffers(
    cb: vk::CommandBuffer,
    first: u32,
    count: u32,
    p_buffers: *const vk::Buffer,
    p_offsets: *const vk::DeviceSize,
) {
    // SAFETY: live handles and arrays of `count` (valid usage).
    unsafe {
        record("vkCmdBindVertexBuffers", cb, |_, _, g| {
            let (buffers, offsets) = (array(p_buffers, count), array(p_offsets, count));
            bind_vertex_buffers(g, first, buffers, offsets, None, None)
        })
    }
}

pub unsafe extern "system" fn cmd_draw(
    cb: vk::CommandBuffer,
    vertices: u32,
    instances: u32,
    first_vertex: u32,
    first_instance: u32,
) {
    // SAFETY: a live handle (valid usage).
    unsafe {
        record("vkCmdDraw", cb, |s, c, g| {
            let d = Draw::Auto { count: vertices, first: first_vertex, instances, first_instance };
            draw::draw(s, g, &c.push, d)
        })
    }
}

pub unsafe extern "system" fn cmd_draw_indexed(
    cb: vk::CommandBuffer,
    indices: u32,
    instances: u32,
    first_index: u32,
    vertex_offset: i32,
    first_instance: u32,
) {
    // SAFETY: a live handle (valid usage).
    unsafe {
        record("vkCmdDrawIndexed", cb, |s, c, g| {
            let d = Draw::Indexed {
                count: indices,
                first: first_index,
                offset: vertex_offset,
                instances,
                first_instance,
            };
            draw::draw(s, g, &c.push, d)
        })
    }
}

/// Records `draws` indirect draws from `buffer` at `offset`.
///
/// # Safety
/// `cb` and `buffer` must be live handles.
unsafe fn indirect(
    name: &'static str,
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    draws: u32,
    stride: u32,
    indexed: bool,
) {
    // SAFETY: forwarded to the caller.
    unsafe {
        record(name, cb, |s, c, g| {
            let b = obj::<Buffer>(buffer)?;
            let size: u64 = if indexed { 20 } else { 16 };
            // VUID-vkCmdDrawIndirect-drawCount-00487/00488 and offset-02710: the commands lie
            // inside the buffer, 4-byte aligned.
            let last = u64::from(draws.saturating_sub(1)) * u64::from(stride);
            if offset % 4 != 0 || (draws > 0 && offset + last + size > b.size) {
                return Err(VkError::InvalidUsage("indirect draw arguments outside the buffer"));
            }
            let va = crate::cmd::copy::buffer_address(b, offset)?;
            draw::draw(s, g, &c.push, Draw::Indirect { va, draws, stride, indexed })
        })
    }
}

pub unsafe extern "system" fn cmd_draw_indirect(
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    draws: u32,
    stride: u32,
) {
    // SAFETY: live handles (valid usage).
    unsafe { indirect("vkCmdDrawIndirect", cb, buffer, offset, draws, stride, false) }
}

pub unsafe extern "system" fn cmd_draw_indexed_indirect(
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    draws: u32,
    stride: u32,
) {
    // SAFETY: live handles (valid usage).
    unsafe { indirect("vkCmdDrawIndexedIndirect", cb, buffer, offset, draws, stride, true) }
}

/// `vkCmdDraw(Indexed)IndirectCount`: the arguments as for the indirect draws, the count a
/// 4-byte aligned u32 in `count_buffer`.
///
/// # Safety
/// `cb`, `buffer` and `count_buffer` must be live handles.
#[allow(clippy::too_many_arguments)]
unsafe fn indirect_count(
    name: &'static str,
    cb: vk::CommandBuffer,
    (buffer, offset): (vk::Buffer, vk::DeviceSize),
    (count_buffer, count_offset): (vk::Buffer, vk::DeviceSize),
    max_draws: u32,
    stride: u32,
    indexed: bool,
) {
    // SAFETY: forwarded to the caller.
    unsafe {
        record(name, cb, |s, c, g| {
            let (b, cbuf) = (obj::<Buffer>(buffer)?, obj::<Buffer>(count_buffer)?);
            // VUID-vkCmdDrawIndirectCount-countBufferOffset-02716/04129 and offset-02710: the
            // count and the commands are 4-byte aligned inside their buffers. (Commands past
            // the buffer end for counts up to maxDrawCount are the application's promise,
            // VUID-vkCmdDrawIndirectCount-countBuffer-03121: only checked for the first.)
            let size: u64 = if indexed { 20 } else { 16 };
            if offset % 4 != 0 || count_offset % 4 != 0 || count_offset + 4 > cbuf.size {
                return Err(VkError::InvalidUsage("indirect count or arguments misplaced"));
            }
            if max_draws > 0 && offset + size > b.size {
                return Err(VkError::InvalidUsage("indirect draw arguments outside the buffer"));
            }
            let va = crate::cmd::copy::buffer_address(b, offset)?;
            let count_va = crate::cmd::copy::buffer_address(cbuf, count_offset)?;
            let d = Draw::IndirectCount { va, count_va, max_draws, stride, indexed };
            draw::draw(s, g, &c.push, d)
        })
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_draw_indirect_count(
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    count_buffer: vk::Buffer,
    count_offset: vk::DeviceSize,
    max_draws: u32,
    stride: u32,
) {
    let (args, count) = ((buffer, offset), (count_buffer, count_offset));
    // SAFETY: live handles (valid usage).
    unsafe { indirect_count("vkCmdDrawIndirectCount", cb, args, count, max_draws, stride, false) }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_draw_indexed_indirect_count(
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    offset: vk::DeviceSize,
    count_buffer: vk::Buffer,
    count_offset: vk::DeviceSize,
    max_draws: u32,
    stride: u32,
) {
    let (args, count) = ((buffer, offset), (count_buffer, count_offset));
    let name = "vkCmdDrawIndexedIndirectCount";
    // SAFETY: live handles (valid usage).
    unsafe { indirect_count(name, cb, args, count, max_draws, stride, true) }
}

pub unsafe extern "system" fn cmd_clear_attachments(
    cb: vk::CommandBuffer,
    count: u32,
    p_attachments: *const vk::ClearAttachment,
    rect_count: u32,
    p_rects: *const vk::ClearRect,
) {
    // SAFETY: a live handle and arrays of the stated counts (valid usage).
    unsafe {
        record("vkCmdClearAttachments", cb, |s, _, g| {
            let r = g.rendering.as_ref().ok_or(VkError::InvalidUsage("clear outside rendering"))?;
            let (attachments, rects) = (array(p_attachments, count), array(p_rects, rect_count));
            crate::gfx::clear_attachments::clear_attachments(s, r, attachments, rects)
        })
    }
}
