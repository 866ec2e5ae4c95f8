//! The graphics demo workload: a textured, lit, spinning cube drawn the way vkcube draws it
//! (a procedural texture uploaded by a buffer-to-image copy, per-vertex normals, a
//! directional light, the model-view-projection matrix in a uniform buffer), offscreen into
//! an RGBA8 image that is copied back to the host. Shared by `ferrum-cube` (scripts/demo),
//! `ferrum-bench graphics` and the differential test against lavapipe.
//!
//! The cube is depth-tested when the device offers a depth attachment format (D32_SFLOAT or
//! D16_UNORM); it is always drawn with back faces culled, as vkcube does, so the frame is the
//! same either way (a convex solid hides nothing that culling keeps).

use ash_loaded::{vk, Device, Instance};

use crate::draw::{DrawSetup, SetupDesc};
use crate::gpu::{Gpu, HostBuffer};
use crate::pipeline::{attribute, binding, viewport};
use crate::scene::{copy_layers, Texture};

const VS: &str = "#version 450
layout(set = 0, binding = 0) uniform Frame { mat4 mvp; mat4 model; vec4 light; } f;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec3 v_normal;
void main() {
    gl_Position = f.mvp * vec4(pos, 1.0);
    v_normal = mat3(f.model) * normal;
    v_uv = uv;
}
";

const FS: &str = "#version 450
layout(set = 0, binding = 0) uniform Frame { mat4 mvp; mat4 model; vec4 light; } f;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec3 v_normal;
layout(location = 0) out vec4 o;
void main() {
    float diffuse = max(dot(normalize(v_normal), f.light.xyz), 0.0);
    o = vec4(texture(tex, v_uv).rgb * (0.25 + 0.75 * diffuse), 1.0);
}
";

/// Texture size (a full mip chain down to 1 x 1 is uploaded).
const TEX: u32 = 64;
const TEX_LEVELS: u32 = 7;
/// Bytes per vertex: position, normal (vec3 each), uv (vec2).
const STRIDE: u32 = 32;
const COLOR: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// The clear colour (a dark blue-grey background).
pub const CLEAR: [f32; 4] = [0.1, 0.12, 0.16, 1.0];

type Mat4 = [[f32; 4]; 4];

/// Column-major product a * b.
fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut r = [[0.0; 4]; 4];
    for (c, col) in r.iter_mut().enumerate() {
        for (row, v) in col.iter_mut().enumerate() {
            *v = (0..4).map(|k| a[k][row] * b[c][k]).sum();
        }
    }
    r
}

/// Rotation by `angle` radians about the unit axis `(x, y, z)`, column-major.
fn rotation(angle: f32, [x, y, z]: [f32; 3]) -> Mat4 {
    let (s, c) = angle.sin_cos();
    let t = 1.0 - c;
    [
        [t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0.0],
        [t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0.0],
        [t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// The camera at (0, 2.2, 4.2) looking at the origin, and a Vulkan perspective projection
/// (y down, depth 0..1) with a 45° vertical field of view.
fn view_projection(aspect: f32) -> Mat4 {
    let eye = [0.0f32, 2.2, 4.2];
    let len = (eye[1] * eye[1] + eye[2] * eye[2]).sqrt();
    // Forward is -eye/len; with up (0, 1, 0) the camera basis is a rotation about x.
    let (fy, fz) = (-eye[1] / len, -eye[2] / len);
    // up = right x forward with right = (1, 0, 0).
    let (uy, uz) = (-fz, fy);
    let view: Mat4 = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, uy, -fy, 0.0],
        [0.0, uz, -fz, 0.0],
        [0.0, -(uy * eye[1] + uz * eye[2]), fy * eye[1] + fz * eye[2], 1.0],
    ];
    let f = 1.0 / (std::f32::consts::FRAC_PI_8).tan();
    let (near, far) = (0.1f32, 20.0f32);
    let proj: Mat4 = [
        [f / aspect, 0.0, 0.0, 0.0],
        [0.0, -f, 0.0, 0.0],
        [0.0, 0.0, far / (near - far), -1.0],
        [0.0, 0.0, near * far / (near - far), 0.0],
    ];
    mul(&proj, &view)
}

/// The uniform block of frame `angle`: mvp, model, light direction (unit, world space).
fn uniforms(angle: f32, aspect: f32) -> Vec<u8> {
    let model = mul(&rotation(angle, [0.0, 1.0, 0.0]), &rotation(0.35, [1.0, 0.0, 0.0]));
    let mvp = mul(&view_projection(aspect), &model);
    let l = [0.4f32, 0.8, 0.6];
    let n = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
    let light = [l[0] / n, l[1] / n, l[2] / n, 0.0];
    let floats = mvp.iter().chain(&model).flatten().chain(&light);
    floats.flat_map(|v| v.to_le_bytes()).collect()
}

/// 36 vertices: per face two counter-clockwise triangles (seen from outside), its outward
/// normal and uvs covering the texture.
fn vertices() -> Vec<u8> {
    let mut out = Vec::new();
    // Per face: normal axis and sign; the face's u and v directions follow from it.
    for (axis, sign) in [(0, 1.0f32), (0, -1.0), (1, 1.0), (1, -1.0), (2, 1.0), (2, -1.0)] {
        let mut n = [0.0f32; 3];
        n[axis] = sign;
        let (ua, va) = ((axis + 1) % 3, (axis + 2) % 3);
        let corner = |u: f32, v: f32| {
            let mut p = [0.0f32; 3];
            p[axis] = sign;
            // Swapping u on negative faces keeps every face counter-clockwise from outside.
            p[ua] = u * sign;
            p[va] = v;
            (p, [(u + 1.0) / 2.0, (1.0 - v) / 2.0])
        };
        let quad = [corner(-1.0, -1.0), corner(1.0, -1.0), corner(1.0, 1.0), corner(-1.0, 1.0)];
        for i in [0, 1, 2, 0, 2, 3] {
            let (p, uv) = quad[i];
            for v in p.iter().chain(&n).chain(&uv) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    out
}

/// Level 0 of the procedural texture: an 8 x 8 checkerboard of warm and cool tiles with a
/// diagonal gradient and a light border, RGBA8.
fn texture_level0() -> Vec<u8> {
    let mut t = Vec::with_capacity((TEX * TEX * 4) as usize);
    for y in 0..TEX {
        for x in 0..TEX {
            let border = x < 2 || y < 2 || x >= TEX - 2 || y >= TEX - 2;
            let g = ((x + y) * 255 / (2 * TEX - 2)) as u8;
            let px = if border {
                [235, 235, 220, 255]
            } else if (x / 8 + y / 8) % 2 == 0 {
                [230, 120 + g / 4, 40, 255]
            } else {
                [40, 90 + g / 3, 200, 255]
            };
            t.extend_from_slice(&px);
        }
    }
    t
}

/// Every mip level, each a 2 x 2 box filter of the one above.
fn texture_levels() -> Vec<Vec<u8>> {
    let mut levels = vec![texture_level0()];
    for k in 1..TEX_LEVELS {
        let (prev, half) = (&levels[k as usize - 1], TEX >> k);
        let size = 2 * half;
        let mut level = Vec::with_capacity((half * half * 4) as usize);
        for y in 0..half {
            for x in 0..half {
                for c in 0..4 {
                    let at = |dx: u32, dy: u32| {
                        u32::from(prev[(((2 * y + dy) * size + 2 * x + dx) * 4 + c) as usize])
                    };
                    let sum = at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1);
                    level.push(((sum + 2) / 4) as u8);
                }
            }
        }
        levels.push(level);
    }
    levels
}

/// The first depth format that `pd` can use as a depth attachment, if any.
fn depth_format(instance: &Instance, pd: vk::PhysicalDevice) -> Option<vk::Format> {
    [vk::Format::D32_SFLOAT, vk::Format::D16_UNORM].into_iter().find(|&f| {
        // SAFETY: a live physical device.
        let p = unsafe { instance.get_physical_device_format_properties(pd, f) };
        p.optimal_tiling_features.contains(vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT)
    })
}

/// An image with its memory and one view of all its levels.
struct Image {
    image: vk::Image,
    memory: vk::DeviceMemory,
    view: vk::ImageView,
}

impl Image {
    fn new(gpu: &Gpu, info: &vk::ImageCreateInfo<'_>, aspect: vk::ImageAspectFlags) -> Image {
        let d = &gpu.device;
        // SAFETY: valid create infos; destroyed in `destroy`.
        unsafe {
            let image = d.create_image(info, None).expect("vkCreateImage");
            let memory = gpu.bind_image_memory(image);
            let view = d
                .create_image_view(
                    &vk::ImageViewCreateInfo::default()
                        .image(image)
                        .view_type(vk::ImageViewType::TYPE_2D)
                        .format(info.format)
                        .subresource_range(range(aspect, info.mip_levels)),
                    None,
                )
                .expect("vkCreateImageView");
            Image { image, memory, view }
        }
    }

    fn destroy(&self, d: &Device) {
        // SAFETY: the GPU is done with the image.
        unsafe {
            d.destroy_image_view(self.view, None);
            d.destroy_image(self.image, None);
            d.free_memory(self.memory, None);
        }
    }
}

fn range(aspect: vk::ImageAspectFlags, levels: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: aspect,
        base_mip_level: 0,
        level_count: levels,
        base_array_layer: 0,
        layer_count: 1,
    }
}

fn image_info(
    format: vk::Format,
    w: u32,
    h: u32,
    levels: u32,
    usage: vk::ImageUsageFlags,
) -> vk::ImageCreateInfo<'static> {
    vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: w, height: h, depth: 1 })
        .mip_levels(levels)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
}

/// Everything a frame needs, created once.
pub struct Cube<'g> {
    gpu: &'g Gpu,
    pub width: u32,
    pub height: u32,
    /// The depth format in use; `None` when the device has no depth attachment format.
    pub depth: Option<vk::Format>,
    target: Image,
    depth_image: Option<Image>,
    texture: Option<Texture>,
    sampler: vk::Sampler,
    vertex: HostBuffer,
    uniform: HostBuffer,
    readback: HostBuffer,
    set_layout: vk::DescriptorSetLayout,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    /// The pass, framebuffer, layout, modules and pipeline; `None` only while dropping (they
    /// go before the images their framebuffer views).
    setup: Option<DrawSetup<'g>>,
    pipeline: vk::Pipeline,
}

impl<'g> Cube<'g> {
    /// Creates the resources on `gpu` and uploads the texture (one submission).
    pub fn new(
        instance: &Instance,
        pd: vk::PhysicalDevice,
        gpu: &'g Gpu,
        width: u32,
        height: u32,
    ) -> Cube<'g> {
        let d = &gpu.device;
        let depth = depth_format(instance, pd);
        let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
        let target = Image::new(
            gpu,
            &image_info(COLOR, width, height, 1, usage),
            vk::ImageAspectFlags::COLOR,
        );
        let depth_image = depth.map(|f| {
            let usage = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
            Image::new(gpu, &image_info(f, width, height, 1, usage), vk::ImageAspectFlags::DEPTH)
        });
        let texture = Texture::new(gpu, TEX, &texture_levels());
        let verts = vertices();
        let vertex = gpu.host_buffer(verts.len() as u64);
        vertex.write(0, &verts);
        let uniform = gpu.host_buffer(256);
        let readback = gpu.host_buffer(u64::from(width * height * 4));
        // SAFETY: valid create infos on a live device; everything is destroyed in Drop.
        unsafe {
            let sampler = d
                .create_sampler(
                    &vk::SamplerCreateInfo::default()
                        .mag_filter(vk::Filter::LINEAR)
                        .min_filter(vk::Filter::LINEAR)
                        .mipmap_mode(vk::SamplerMipmapMode::LINEAR)
                        .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                        .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                        .max_lod(TEX_LEVELS as f32),
                    None,
                )
                .expect("vkCreateSampler");
            let bindings = [
                vk::DescriptorSetLayoutBinding::default()
                    .binding(0)
                    .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT),
                vk::DescriptorSetLayoutBinding::default()
                    .binding(1)
                    .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::FRAGMENT),
            ];
            let set_layout = d
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                    None,
                )
                .expect("vkCreateDescriptorSetLayout");
            let sizes = bindings
                .map(|b| vk::DescriptorPoolSize { ty: b.descriptor_type, descriptor_count: 1 });
            let pool = d
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes),
                    None,
                )
                .expect("vkCreateDescriptorPool");
            let layouts = [set_layout];
            let set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(pool)
                        .set_layouts(&layouts),
                )
                .expect("vkAllocateDescriptorSets")[0];
            let ubo = [vk::DescriptorBufferInfo { buffer: uniform.buffer, offset: 0, range: 144 }];
            let img = [vk::DescriptorImageInfo {
                sampler,
                image_view: texture.view,
                image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            }];
            let writes = [
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(0)
                    .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                    .buffer_info(&ubo),
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(1)
                    .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .image_info(&img),
            ];
            d.update_descriptor_sets(&writes, &[]);
            let mut views = vec![target.view];
            views.extend(depth_image.as_ref().map(|i| i.view));
            let mut desc = SetupDesc::new(render_pass(d, depth), &views, (width, height), [VS, FS]);
            desc.set_layouts = &layouts;
            let mut setup = DrawSetup::new(d, &desc);
            let pipeline = pipeline(&mut setup, depth.is_some(), [width, height]);
            Cube {
                gpu,
                width,
                height,
                depth,
                target,
                depth_image,
                texture: Some(texture),
                sampler,
                vertex,
                uniform,
                readback,
                set_layout,
                pool,
                set,
                setup: Some(setup),
                pipeline,
            }
        }
    }

    /// Records the frame's render pass (one draw of the cube) and the copy of the image into
    /// the readback buffer; the uniforms must have been written by [`Cube::set_angle`].
    pub fn record(&self, d: &Device, cb: vk::CommandBuffer) {
        self.record_pass(d, cb, 1);
        let extent = (self.width, self.height, 1);
        // SAFETY: a recording command buffer; the pass left the image in TRANSFER_SRC_OPTIMAL.
        unsafe { copy_layers(d, cb, self.target.image, extent, self.readback.buffer) };
    }

    /// Records the render pass with `draws` draws of the cube (the benchmark records many).
    pub fn record_pass(&self, d: &Device, cb: vk::CommandBuffer, draws: u32) {
        let clear = [
            vk::ClearValue { color: vk::ClearColorValue { float32: CLEAR } },
            vk::ClearValue { depth_stencil: vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 } },
        ];
        let n = if self.depth.is_some() { 2 } else { 1 };
        let gfx = vk::PipelineBindPoint::GRAPHICS;
        // SAFETY: a recording command buffer and live objects.
        unsafe {
            self.setup().begin(cb, &clear[..n]);
            for _ in 0..draws {
                self.record_draw(d, cb, gfx);
            }
            d.cmd_end_render_pass(cb);
        }
    }

    /// Bind pipeline, descriptor set and vertex buffer, then draw 36 vertices.
    ///
    /// # Safety
    /// `cb` records inside this cube's render pass.
    unsafe fn record_draw(&self, d: &Device, cb: vk::CommandBuffer, gfx: vk::PipelineBindPoint) {
        // SAFETY: as the caller promises.
        unsafe {
            d.cmd_bind_pipeline(cb, gfx, self.pipeline);
            d.cmd_bind_descriptor_sets(cb, gfx, self.setup().layout, 0, &[self.set], &[]);
            d.cmd_bind_vertex_buffers(cb, 0, &[self.vertex.buffer], &[0]);
            d.cmd_draw(cb, 36, 1, 0, 0);
        }
    }

    fn setup(&self) -> &DrawSetup<'g> {
        self.setup.as_ref().expect("the cube's set-up lives until it drops")
    }

    /// Writes the uniforms of the frame at `angle` radians about the vertical axis.
    pub fn set_angle(&self, angle: f32) {
        self.uniform.write(0, &uniforms(angle, self.width as f32 / self.height as f32));
    }

    /// Renders the frame at `angle`; RGBA8 pixels, row by row.
    pub fn frame(&self, angle: f32) -> Vec<u8> {
        self.set_angle(angle);
        self.gpu.run(|d, cb| self.record(d, cb));
        self.readback.bytes().to_vec()
    }
}

impl Drop for Cube<'_> {
    fn drop(&mut self) {
        let d = &self.gpu.device;
        // SAFETY: children before parents, after the GPU is idle.
        unsafe {
            let _ = d.device_wait_idle();
            drop(self.setup.take());
            d.destroy_descriptor_pool(self.pool, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
            d.destroy_sampler(self.sampler, None);
        }
        self.target.destroy(d);
        if let Some(i) = &self.depth_image {
            i.destroy(d);
        }
        if let Some(t) = self.texture.take() {
            t.destroy(d);
        }
        for b in [&self.vertex, &self.uniform, &self.readback] {
            // SAFETY: as above.
            unsafe {
                d.destroy_buffer(b.buffer, None);
                d.free_memory(b.memory, None);
            }
        }
    }
}

/// One subpass: the colour target (cleared, then TRANSFER_SRC_OPTIMAL for the readback) and
/// the depth buffer when there is one (cleared, not stored).
fn render_pass(d: &Device, depth: Option<vk::Format>) -> vk::RenderPass {
    let mut atts = vec![vk::AttachmentDescription::default()
        .format(COLOR)
        .samples(vk::SampleCountFlags::TYPE_1)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(vk::AttachmentStoreOp::STORE)
        .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
        .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
        .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)];
    if let Some(f) = depth {
        atts.push(
            vk::AttachmentDescription::default()
                .format(f)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::DONT_CARE)
                .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                .initial_layout(vk::ImageLayout::UNDEFINED)
                .final_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
        );
    }
    let color = [vk::AttachmentReference {
        attachment: 0,
        layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
    }];
    let depth_ref = vk::AttachmentReference {
        attachment: 1,
        layout: vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
    };
    let mut sub = vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&color);
    if depth.is_some() {
        sub = sub.depth_stencil_attachment(&depth_ref);
    }
    let frag_tests =
        vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS;
    let deps = [
        // The previous frame's copy reads the target before this frame clears it; its depth
        // tests finish before this frame's clear of the depth buffer.
        vk::SubpassDependency::default()
            .src_subpass(vk::SUBPASS_EXTERNAL)
            .dst_subpass(0)
            .src_stage_mask(vk::PipelineStageFlags::TRANSFER | frag_tests)
            .dst_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT | frag_tests)
            .src_access_mask(vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE)
            .dst_access_mask(
                vk::AccessFlags::COLOR_ATTACHMENT_WRITE
                    | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
            ),
        vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ),
    ];
    let subs = [sub];
    let info =
        vk::RenderPassCreateInfo::default().attachments(&atts).subpasses(&subs).dependencies(&deps);
    // SAFETY: a valid create info on a live device.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

/// The cube's pipeline: vertex input of `vertices`, back faces culled (counter-clockwise is
/// front: the projection flips y into Vulkan's downward framebuffer y, so the image is not
/// mirrored and outside faces stay counter-clockwise on screen), depth test LESS
/// when there is a depth buffer, static viewport and scissor covering `size`.
fn pipeline(setup: &mut DrawSetup<'_>, depth: bool, [w, h]: [u32; 2]) -> vk::Pipeline {
    let bindings = [binding(0, STRIDE, false)];
    let attributes = [
        attribute(0, 0, vk::Format::R32G32B32_SFLOAT, 0),
        attribute(1, 0, vk::Format::R32G32B32_SFLOAT, 12),
        attribute(2, 0, vk::Format::R32G32_SFLOAT, 24),
    ];
    let mut desc = setup.desc();
    desc.bindings = &bindings;
    desc.attributes = &attributes;
    desc.viewport = Some(viewport(w, h));
    desc.rasterization = desc.rasterization.cull_mode(vk::CullModeFlags::BACK);
    if depth {
        desc.depth_stencil = Some(
            vk::PipelineDepthStencilStateCreateInfo::default()
                .depth_test_enable(true)
                .depth_write_enable(true)
                .depth_compare_op(vk::CompareOp::LESS),
        );
    }
    setup.pipeline(&desc)
}
