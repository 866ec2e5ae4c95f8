//! One owner of a draw's device objects: the render pass, framebuffer, pipeline layout,
//! shader modules and pipelines a graphics test sets up, built from a small description
//! ([`SetupDesc`]) and destroyed together when the [`DrawSetup`] drops.
//!
//! Why an owner that borrows the device: every one of these objects must die before the
//! device does (the validation layer reports a leak only at device destruction, after the
//! test's `assert_clean`), and a `DrawSetup<'d>` holding `&'d Device` cannot outlive the `Gpu`
//! whose device it borrows — the compiler enforces the order a hand-written teardown had to
//! remember. A test drops the `DrawSetup` after its last submission has finished (`Gpu::run`
//! waits), so the GPU no longer uses anything the drop destroys.
//!
//! What a test varies beyond the description (a second render pass that loads instead of
//! clearing, another fragment shader, more pipelines) it gives to the same owner with
//! [`DrawSetup::own_pass`], [`DrawSetup::module`] and [`DrawSetup::pipeline`].

use ash_loaded::{vk, Device};

use crate::pipeline::GraphicsDesc;
use crate::scene::module;

/// What a [`DrawSetup`] builds: a framebuffer of `views` over `extent` x `layers` for `pass`
/// (which the draw takes over), a pipeline layout of `set_layouts` and `push` ranges, and the
/// vertex and fragment shader modules of the GLSL `shaders`.
#[derive(Clone, Copy)]
pub struct SetupDesc<'a> {
    pub pass: vk::RenderPass,
    pub views: &'a [vk::ImageView],
    pub extent: (u32, u32),
    pub layers: u32,
    pub set_layouts: &'a [vk::DescriptorSetLayout],
    pub push: &'a [vk::PushConstantRange],
    /// GLSL of the vertex and the fragment stage.
    pub shaders: [&'a str; 2],
}

impl<'a> SetupDesc<'a> {
    /// A one-layer `extent` framebuffer of `views` for `pass`, an empty pipeline layout, and
    /// the `shaders`' modules.
    pub fn new(
        pass: vk::RenderPass,
        views: &'a [vk::ImageView],
        extent: (u32, u32),
        shaders: [&'a str; 2],
    ) -> Self {
        SetupDesc { pass, views, extent, layers: 1, set_layouts: &[], push: &[], shaders }
    }
}

/// The objects of one draw set-up; see the module comment.
pub struct DrawSetup<'d> {
    d: &'d Device,
    /// The render pass the framebuffer and the default pipeline description are made for.
    pub pass: vk::RenderPass,
    pub framebuffer: vk::Framebuffer,
    pub layout: vk::PipelineLayout,
    /// The vertex and fragment modules of the description's shaders.
    pub modules: [vk::ShaderModule; 2],
    pub extent: vk::Extent2D,
    passes: Vec<vk::RenderPass>,
    more_modules: Vec<vk::ShaderModule>,
    pipelines: Vec<vk::Pipeline>,
}

impl<'d> DrawSetup<'d> {
    /// Builds what `desc` describes on `d` and takes over `desc.pass`.
    pub fn new(d: &'d Device, desc: &SetupDesc<'_>) -> DrawSetup<'d> {
        let (width, height) = desc.extent;
        let fb_info = vk::FramebufferCreateInfo::default()
            .render_pass(desc.pass)
            .attachments(desc.views)
            .width(width)
            .height(height)
            .layers(desc.layers);
        let layout_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(desc.set_layouts)
            .push_constant_ranges(desc.push);
        // SAFETY: valid create infos of live objects of `d`; destroyed in Drop.
        let (framebuffer, layout) = unsafe {
            let fb = d.create_framebuffer(&fb_info, None).expect("vkCreateFramebuffer");
            let layout =
                d.create_pipeline_layout(&layout_info, None).expect("vkCreatePipelineLayout");
            (fb, layout)
        };
        let [vs, fs] = desc.shaders;
        DrawSetup {
            d,
            pass: desc.pass,
            framebuffer,
            layout,
            modules: [module(d, vs, "vert"), module(d, fs, "frag")],
            extent: vk::Extent2D { width, height },
            passes: Vec::new(),
            more_modules: Vec::new(),
            pipelines: Vec::new(),
        }
    }

    /// The default pipeline state for subpass 0 of the draw's pass with its layout and
    /// modules (see `pipeline`'s module comment), for the test to vary.
    pub fn desc<'a>(&self) -> GraphicsDesc<'a> {
        GraphicsDesc::new(self.pass, self.layout, self.modules)
    }

    /// Creates the pipeline `desc` describes; the draw destroys it.
    pub fn pipeline(&mut self, desc: &GraphicsDesc<'_>) -> vk::Pipeline {
        // SAFETY: the description names live objects of the device (the draw's own or the
        // caller's).
        let pipe = unsafe { desc.create(self.d) };
        self.own_pipeline(pipe)
    }

    /// Takes over a pipeline made elsewhere (derivatives created in one call, say).
    pub fn own_pipeline(&mut self, pipe: vk::Pipeline) -> vk::Pipeline {
        self.pipelines.push(pipe);
        pipe
    }

    /// Another shader module from GLSL of `stage`, destroyed with the draw.
    pub fn module(&mut self, src: &str, stage: &str) -> vk::ShaderModule {
        let m = module(self.d, src, stage);
        self.more_modules.push(m);
        m
    }

    /// Takes over another render pass compatible with the framebuffer's (one that loads
    /// where the first clears, say).
    pub fn own_pass(&mut self, pass: vk::RenderPass) -> vk::RenderPass {
        self.passes.push(pass);
        pass
    }

    /// The whole framebuffer.
    pub fn area(&self) -> vk::Rect2D {
        vk::Rect2D { offset: vk::Offset2D::default(), extent: self.extent }
    }

    /// Begins the draw's render pass over the whole framebuffer with inline contents.
    ///
    /// # Safety
    /// `cb` is a command buffer of the device recording outside a render pass.
    pub unsafe fn begin(&self, cb: vk::CommandBuffer, clears: &[vk::ClearValue]) {
        // SAFETY: forwarded to the caller.
        unsafe { self.begin_pass(cb, self.pass, clears, vk::SubpassContents::INLINE) }
    }

    /// Begins `pass` (the draw's or one it owns) on the framebuffer, over all of it.
    ///
    /// # Safety
    /// As [`DrawSetup::begin`]; `pass` is compatible with the framebuffer's.
    pub unsafe fn begin_pass(
        &self,
        cb: vk::CommandBuffer,
        pass: vk::RenderPass,
        clears: &[vk::ClearValue],
        contents: vk::SubpassContents,
    ) {
        let begin = vk::RenderPassBeginInfo::default()
            .render_pass(pass)
            .framebuffer(self.framebuffer)
            .render_area(self.area())
            .clear_values(clears);
        // SAFETY: forwarded to the caller.
        unsafe { self.d.cmd_begin_render_pass(cb, &begin, contents) };
    }
}

impl Drop for DrawSetup<'_> {
    fn drop(&mut self) {
        // SAFETY: the GPU is done with every object (the owner drops after its last wait);
        // each is destroyed once, users before what they were made from.
        unsafe {
            for &p in &self.pipelines {
                self.d.destroy_pipeline(p, None);
            }
            for &m in self.modules.iter().chain(&self.more_modules) {
                self.d.destroy_shader_module(m, None);
            }
            self.d.destroy_pipeline_layout(self.layout, None);
            self.d.destroy_framebuffer(self.framebuffer, None);
            for &p in std::iter::once(&self.pass).chain(&self.passes) {
                self.d.destroy_render_pass(p, None);
            }
        }
    }
}

/// A clear value of RGBA floats.
pub fn clear_color(float32: [f32; 4]) -> vk::ClearValue {
    vk::ClearValue { color: vk::ClearColorValue { float32 } }
}
