//! One graphics pipeline builder for every end-to-end graphics test, so that a test states
//! only the state its scene varies. What a test leaves alone: a vertex and a fragment stage
//! named `main`, no vertex input, a triangle list, filled polygons with no culling and
//! counter-clockwise front faces, single-sampled, no depth/stencil state, one RGBA attachment
//! without blending, and dynamic viewport and scissor (unless a static viewport is given, or
//! `dynamic` names VIEWPORT_WITH_COUNT: then their counts are dynamic too).

use ash_loaded::{vk, Device};

/// A vertex attribute description (the field order of the Vulkan struct).
pub fn attribute(
    location: u32,
    binding: u32,
    format: vk::Format,
    offset: u32,
) -> vk::VertexInputAttributeDescription {
    vk::VertexInputAttributeDescription { location, binding, format, offset }
}

/// A vertex buffer binding of `stride` bytes, per vertex or per instance.
pub fn binding(binding: u32, stride: u32, per_instance: bool) -> vk::VertexInputBindingDescription {
    let input_rate =
        if per_instance { vk::VertexInputRate::INSTANCE } else { vk::VertexInputRate::VERTEX };
    vk::VertexInputBindingDescription { binding, stride, input_rate }
}

/// The state of one graphics pipeline; see the module comment for the defaults.
#[derive(Clone)]
pub struct GraphicsDesc<'a> {
    pub pass: vk::RenderPass,
    pub subpass: u32,
    pub layout: vk::PipelineLayout,
    pub vs: vk::ShaderModule,
    /// None: a pipeline without a fragment stage.
    pub fs: Option<vk::ShaderModule>,
    /// Specialization of the vertex and the fragment stage.
    pub specialization: [Option<&'a vk::SpecializationInfo<'a>>; 2],
    pub bindings: &'a [vk::VertexInputBindingDescription],
    pub attributes: &'a [vk::VertexInputAttributeDescription],
    /// Instance-rate divisors (VK_KHR_vertex_attribute_divisor); none when empty.
    pub divisors: &'a [vk::VertexInputBindingDivisorDescriptionKHR],
    pub topology: vk::PrimitiveTopology,
    pub restart: bool,
    /// A static viewport (its scissor covers it); None: both are dynamic state.
    pub viewport: Option<vk::Viewport>,
    /// Viewports after the first (multiViewport): static like `viewport`, or only counted
    /// in viewportCount/scissorCount when the viewport is dynamic.
    pub more_viewports: Vec<vk::Viewport>,
    pub rasterization: vk::PipelineRasterizationStateCreateInfo<'static>,
    pub samples: vk::SampleCountFlags,
    pub sample_mask: Option<u32>,
    /// alphaToCoverageEnable and alphaToOneEnable (the alphaToOne feature).
    pub alpha_to_coverage: bool,
    pub alpha_to_one: bool,
    pub depth_stencil: Option<vk::PipelineDepthStencilStateCreateInfo<'static>>,
    pub blend: Vec<vk::PipelineColorBlendAttachmentState>,
    pub blend_constants: [f32; 4],
    /// logicOpEnable with this op (the logicOp feature).
    pub logic_op: Option<vk::LogicOp>,
    /// Dynamic state beyond the viewport and scissor.
    pub dynamic: Vec<vk::DynamicState>,
    pub flags: vk::PipelineCreateFlags,
    pub cache: vk::PipelineCache,
}

/// The attachment state of an opaque RGBA attachment.
pub fn opaque() -> vk::PipelineColorBlendAttachmentState {
    vk::PipelineColorBlendAttachmentState::default().color_write_mask(vk::ColorComponentFlags::RGBA)
}

/// A static viewport over `width` x `height`, depth 0..1.
pub fn viewport(width: u32, height: u32) -> vk::Viewport {
    vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: width as f32,
        height: height as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    }
}

impl<'a> GraphicsDesc<'a> {
    /// The defaults for subpass 0 of `pass`, with shader stages `modules` (vertex, fragment).
    pub fn new(
        pass: vk::RenderPass,
        layout: vk::PipelineLayout,
        modules: [vk::ShaderModule; 2],
    ) -> GraphicsDesc<'a> {
        GraphicsDesc {
            pass,
            subpass: 0,
            layout,
            vs: modules[0],
            fs: Some(modules[1]),
            specialization: [None; 2],
            bindings: &[],
            attributes: &[],
            divisors: &[],
            topology: vk::PrimitiveTopology::TRIANGLE_LIST,
            restart: false,
            viewport: None,
            more_viewports: Vec::new(),
            rasterization: vk::PipelineRasterizationStateCreateInfo::default()
                .polygon_mode(vk::PolygonMode::FILL)
                .cull_mode(vk::CullModeFlags::NONE)
                .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
                .line_width(1.0),
            samples: vk::SampleCountFlags::TYPE_1,
            sample_mask: None,
            alpha_to_coverage: false,
            alpha_to_one: false,
            depth_stencil: None,
            blend: vec![opaque()],
            blend_constants: [0.0; 4],
            logic_op: None,
            dynamic: Vec::new(),
            flags: vk::PipelineCreateFlags::empty(),
            cache: vk::PipelineCache::null(),
        }
    }

    /// Creates the pipeline; panics on failure.
    ///
    /// # Safety
    /// The handles are live objects of `d`.
    pub unsafe fn create(&self, d: &Device) -> vk::Pipeline {
        // SAFETY: forwarded to the caller.
        unsafe { self.try_create(d) }.expect("vkCreateGraphicsPipelines")
    }

    /// Creates the pipeline, returning the driver's error.
    ///
    /// # Safety
    /// The handles are live objects of `d`.
    pub unsafe fn try_create(&self, d: &Device) -> Result<vk::Pipeline, vk::Result> {
        // SAFETY: forwarded to the caller.
        self.with_info(|info| unsafe { d.create_graphics_pipelines(self.cache, &[info], None) })
            .map_err(|(_, e)| e)
            .map(|p| p[0])
    }

    /// Calls `f` with the create info this description makes (valid while `f` runs), so
    /// several descriptions can go into one vkCreateGraphicsPipelines call (derivatives by
    /// index, for example).
    pub fn with_info<R>(&self, f: impl FnOnce(vk::GraphicsPipelineCreateInfo<'_>) -> R) -> R {
        let stage = |stage, module, spec: Option<&'a vk::SpecializationInfo<'a>>| {
            let s = vk::PipelineShaderStageCreateInfo::default()
                .stage(stage)
                .module(module)
                .name(c"main");
            match spec {
                Some(spec) => s.specialization_info(spec),
                None => s,
            }
        };
        let mut stages = vec![stage(vk::ShaderStageFlags::VERTEX, self.vs, self.specialization[0])];
        if let Some(fs) = self.fs {
            stages.push(stage(vk::ShaderStageFlags::FRAGMENT, fs, self.specialization[1]));
        }
        let mut divisors = vk::PipelineVertexInputDivisorStateCreateInfoKHR::default()
            .vertex_binding_divisors(self.divisors);
        let mut vi = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(self.bindings)
            .vertex_attribute_descriptions(self.attributes);
        if !self.divisors.is_empty() {
            vi = vi.push_next(&mut divisors);
        }
        let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(self.topology)
            .primitive_restart_enable(self.restart);
        let viewports: Vec<vk::Viewport> =
            self.viewport.into_iter().chain(self.more_viewports.iter().copied()).collect();
        let scissors: Vec<vk::Rect2D> = viewports
            .iter()
            .map(|v| vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent: vk::Extent2D { width: v.width as u32, height: v.height as u32 },
            })
            .collect();
        let mut dynamic = self.dynamic.clone();
        let with_count = dynamic.contains(&vk::DynamicState::VIEWPORT_WITH_COUNT);
        let vp = if with_count {
            // Extended dynamic state: the counts come from the command buffer too.
            vk::PipelineViewportStateCreateInfo::default()
        } else if self.viewport.is_some() {
            vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors)
        } else {
            dynamic.extend([vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR]);
            let count = 1 + self.more_viewports.len() as u32;
            vk::PipelineViewportStateCreateInfo::default()
                .viewport_count(count)
                .scissor_count(count)
        };
        let mask = [self.sample_mask.unwrap_or(u32::MAX)];
        let mut ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(self.samples)
            .alpha_to_coverage_enable(self.alpha_to_coverage)
            .alpha_to_one_enable(self.alpha_to_one);
        if self.sample_mask.is_some() {
            ms = ms.sample_mask(&mask);
        }
        let cb = vk::PipelineColorBlendStateCreateInfo::default()
            .attachments(&self.blend)
            .blend_constants(self.blend_constants)
            .logic_op_enable(self.logic_op.is_some())
            .logic_op(self.logic_op.unwrap_or(vk::LogicOp::COPY));
        let ds = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic);
        let mut info = vk::GraphicsPipelineCreateInfo::default()
            .flags(self.flags)
            .stages(&stages)
            .vertex_input_state(&vi)
            .input_assembly_state(&ia)
            .viewport_state(&vp)
            .rasterization_state(&self.rasterization)
            .multisample_state(&ms)
            .color_blend_state(&cb)
            .dynamic_state(&ds)
            .layout(self.layout)
            .render_pass(self.pass)
            .subpass(self.subpass);
        if let Some(dss) = &self.depth_stencil {
            info = info.depth_stencil_state(dss);
        }
        f(info)
    }
}
