//! A small render target for the command-surface tests (queries, secondary command buffers):
//! a W×H R8G8B8A8_UNORM image cleared by a render pass, and a pipeline that draws
//! pixel-aligned rectangles given in pixels by push constants (two triangles, six vertices
//! from gl_VertexIndex), so covered pixels are exact (no pixel centre on an edge). Instances
//! numbered 100 and up are moved outside the target, which makes firstInstance observable.

#![allow(dead_code)]

use ash_loaded::{vk, Device};
use ferrum_tests::draw::{DrawSetup, SetupDesc};
use ferrum_tests::gpu::{Gpu, HostBuffer};
use ferrum_tests::scene::{cleared_pass, copy_layers};
use ferrum_tests::Harness;

pub const W: u32 = 37;
pub const H: u32 = 23;
/// x0, y0, x1, y1 in pixels.
pub type Rect = [i32; 4];

const VS: &str = "#version 450
layout(push_constant) uniform P { ivec4 rect; vec4 color; } pc;
void main() {
    int i = gl_VertexIndex % 6;
    bool right = i == 1 || i == 2 || i == 4;
    bool bottom = i == 2 || i == 4 || i == 5;
    vec2 p = vec2(right ? pc.rect.z : pc.rect.x, bottom ? pc.rect.w : pc.rect.y);
    // Instances from 100 on land outside the target (firstInstance tests).
    p.x += gl_InstanceIndex >= 100 ? 1000.0 : 0.0;
    gl_Position = vec4(p / vec2(37.0, 23.0) * 2.0 - 1.0, 0.0, 1.0);
}
";

const FS: &str = "#version 450
layout(push_constant) uniform P { ivec4 rect; vec4 color; } pc;
layout(location = 0) out vec4 o;
void main() { o = pc.color; }
";

/// The clear colour of every test target.
pub const CLEAR: [f32; 4] = [0.1, 0.2, 0.3, 1.0];

pub struct Target<'d> {
    pub image: vk::Image,
    memory: vk::DeviceMemory,
    pub view: vk::ImageView,
    /// The pass, framebuffer, layout, modules and pipeline (`pass`, `framebuffer`, `layout`
    /// and `pipeline` below name them for the tests).
    setup: DrawSetup<'d>,
    pub pass: vk::RenderPass,
    pub framebuffer: vk::Framebuffer,
    pub layout: vk::PipelineLayout,
    pub pipeline: vk::Pipeline,
}

fn memory_type(h: &Harness, pd: vk::PhysicalDevice, bits: u32) -> u32 {
    // SAFETY: a live physical device.
    let m = unsafe { h.instance.get_physical_device_memory_properties(pd) };
    (0..m.memory_type_count).find(|&i| bits & (1 << i) != 0).expect("memory type")
}

pub fn full() -> vk::Rect2D {
    vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width: W, height: H } }
}

impl<'d> Target<'d> {
    pub fn new(h: &Harness, pd: vk::PhysicalDevice, gpu: &'d Gpu) -> Target<'d> {
        Target::create(h, pd, gpu, false)
    }

    /// A target whose image lists its one view format (VkImageFormatListCreateInfo; the
    /// device must have VK_KHR_image_format_list), as imageless framebuffers require.
    pub fn with_format_list(h: &Harness, pd: vk::PhysicalDevice, gpu: &'d Gpu) -> Target<'d> {
        Target::create(h, pd, gpu, true)
    }

    fn create(h: &Harness, pd: vk::PhysicalDevice, gpu: &'d Gpu, listed: bool) -> Target<'d> {
        let d = &gpu.device;
        let formats = [vk::Format::R8G8B8A8_UNORM];
        let mut list = vk::ImageFormatListCreateInfo::default().view_formats(&formats);
        // SAFETY: valid create infos on live handles.
        unsafe {
            let info = vk::ImageCreateInfo::default()
                .image_type(vk::ImageType::TYPE_2D)
                .format(vk::Format::R8G8B8A8_UNORM)
                .extent(vk::Extent3D { width: W, height: H, depth: 1 })
                .mip_levels(1)
                .array_layers(1)
                .samples(vk::SampleCountFlags::TYPE_1)
                .tiling(vk::ImageTiling::OPTIMAL)
                .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC);
            let info = if listed { info.push_next(&mut list) } else { info };
            let image = d.create_image(&info, None).expect("vkCreateImage");
            let req = d.get_image_memory_requirements(image);
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(memory_type(h, pd, req.memory_type_bits));
            let memory = d.allocate_memory(&alloc, None).unwrap();
            d.bind_image_memory(image, memory, 0).unwrap();
            let range = vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: 1,
            };
            let vinfo = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(vk::Format::R8G8B8A8_UNORM)
                .subresource_range(range);
            let view = d.create_image_view(&vinfo, None).unwrap();
            let pass = cleared_pass(
                d,
                vk::Format::R8G8B8A8_UNORM,
                None,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            );
            let views = [view];
            let push = [vk::PushConstantRange {
                stage_flags: vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
                offset: 0,
                size: 32,
            }];
            let mut desc = SetupDesc::new(pass, &views, (W, H), [VS, FS]);
            desc.push = &push;
            let mut setup = DrawSetup::new(d, &desc);
            let pipeline = setup.pipeline(&setup.desc());
            let (pass, framebuffer, layout) = (setup.pass, setup.framebuffer, setup.layout);
            Target { image, memory, view, setup, pass, framebuffer, layout, pipeline }
        }
    }

    /// Another pipeline like the target's, through `cache`, with `flags`.
    pub fn pipeline_with_cache(
        &self,
        d: &Device,
        cache: vk::PipelineCache,
        flags: vk::PipelineCreateFlags,
    ) -> Result<vk::Pipeline, vk::Result> {
        let mut desc = self.setup.desc();
        desc.cache = cache;
        desc.flags = flags;
        // SAFETY: live handles.
        unsafe { desc.try_create(d) }
    }

    /// Begins the render pass (clearing to `CLEAR`) with `contents`, binds the pipeline and
    /// sets the viewport and scissor to the whole target (inline contents only).
    ///
    /// # Safety
    /// `cb` must be recording, outside a render pass.
    pub unsafe fn begin_with(&self, d: &Device, cb: vk::CommandBuffer, c: vk::SubpassContents) {
        let clear = [vk::ClearValue { color: vk::ClearColorValue { float32: CLEAR } }];
        let begin = vk::RenderPassBeginInfo::default()
            .render_pass(self.pass)
            .framebuffer(self.framebuffer)
            .render_area(full())
            .clear_values(&clear);
        // SAFETY: forwarded to the caller.
        unsafe {
            d.cmd_begin_render_pass(cb, &begin, c);
            if c == vk::SubpassContents::INLINE {
                self.bind(d, cb);
            }
        }
    }

    /// # Safety
    /// As [`Target::begin_with`].
    pub unsafe fn begin(&self, d: &Device, cb: vk::CommandBuffer) {
        // SAFETY: forwarded to the caller.
        unsafe { self.begin_with(d, cb, vk::SubpassContents::INLINE) }
    }

    /// Binds the pipeline, viewport and scissor.
    ///
    /// # Safety
    /// `cb` must be recording inside the target's render pass.
    pub unsafe fn bind(&self, d: &Device, cb: vk::CommandBuffer) {
        let viewport = vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: W as f32,
            height: H as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        };
        // SAFETY: forwarded to the caller.
        unsafe {
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, self.pipeline);
            d.cmd_set_viewport(cb, 0, &[viewport]);
            d.cmd_set_scissor(cb, 0, &[full()]);
        }
    }

    /// Draws `r` in `color` `instances` times.
    ///
    /// # Safety
    /// `cb` must be recording inside the render pass with the pipeline bound.
    pub unsafe fn rect_colored(
        &self,
        d: &Device,
        cb: vk::CommandBuffer,
        r: Rect,
        color: [f32; 4],
        instances: u32,
    ) {
        // SAFETY: forwarded to the caller.
        unsafe {
            self.push_rect(d, cb, r, color);
            d.cmd_draw(cb, 6, instances, 0, 0);
        }
    }

    /// Sets the rectangle and colour the next draws use (their vertices 0..6 of each
    /// instance make the rectangle).
    ///
    /// # Safety
    /// `cb` must be recording.
    pub unsafe fn push_rect(&self, d: &Device, cb: vk::CommandBuffer, r: Rect, color: [f32; 4]) {
        let mut bytes = Vec::with_capacity(32);
        r.iter().for_each(|v| bytes.extend(v.to_le_bytes()));
        color.iter().for_each(|v| bytes.extend(v.to_le_bytes()));
        let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
        // SAFETY: forwarded to the caller.
        unsafe { d.cmd_push_constants(cb, self.layout, stages, 0, &bytes) };
    }

    /// # Safety
    /// As [`Target::rect_colored`].
    pub unsafe fn rect(&self, d: &Device, cb: vk::CommandBuffer, r: Rect, instances: u32) {
        // SAFETY: forwarded to the caller.
        unsafe { self.rect_colored(d, cb, r, [1.0, 0.5, 0.25, 0.75], instances) }
    }

    /// Copies the image (after the render pass) into `out` (W*H*4 bytes), with the barriers
    /// a host read needs.
    ///
    /// # Safety
    /// `cb` must be recording outside a render pass; the image is in TRANSFER_SRC_OPTIMAL
    /// (the render pass's final layout).
    pub unsafe fn read_back(&self, d: &Device, cb: vk::CommandBuffer, out: &HostBuffer) {
        // SAFETY: forwarded to the caller.
        unsafe { copy_layers(d, cb, self.image, (W, H, 1), out.buffer) };
    }

    pub fn destroy(self, d: &Device) {
        let Target { image, memory, view, setup, .. } = self;
        // The framebuffer goes before the view it holds.
        drop(setup);
        // SAFETY: the GPU is done with every object (callers wait first).
        unsafe {
            d.destroy_image_view(view, None);
            d.destroy_image(image, None);
            d.free_memory(memory, None);
        }
    }
}

/// The image `draws` paint over the clear colour, in order (UNORM8 of their colours).
pub fn painted(draws: &[(Rect, [f32; 4])]) -> Vec<u8> {
    let unorm = |v: f32| (v * 255.0).round() as u8;
    let mut img = Vec::with_capacity((W * H * 4) as usize);
    for y in 0..H as i32 {
        for x in 0..W as i32 {
            let mut c = CLEAR;
            for (r, col) in draws {
                if x >= r[0] && x < r[2] && y >= r[1] && y < r[3] {
                    c = *col;
                }
            }
            img.extend(c.map(unorm));
        }
    }
    img
}

/// Whether two images are equal within 1 per channel: the clear colour's 0.3 × 255 = 76.5 may
/// round either way; rectangles of 0/1 colours are exact either way.
pub fn close(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.abs_diff(*q) <= 1)
}
