//! Issue 18's scene corpus, differential against lavapipe through the loader with the
//! validation layer on (harness: `ferrum_tests::scene`): triangles crossing every clip plane
//! (x, y, near, far, w near 0 and negative), shared edges under additive blending (a fan and
//! an irregular indexed mesh: a pixel covered twice shows twice the colour), every topology
//! Ferrum advertises (point list, line list and strip, triangle list, strip and fan,
//! primitive restart with 16- and 32-bit indices), indexed, instanced and indirect draws with
//! base vertex and base instance, instance divisors 0 and 2, textured geometry with mipmaps (combined image sampler in
//! the fragment shader, implicit LOD, minification across levels, each address mode), MRT
//! (three colour attachments of different formats with a write mask), and a render pass of
//! three subpasses.
//!
//! Not here, because Ferrum does not advertise them (a scene would only test the refusal):
//! adjacency topologies (no geometryShader), primitive restart of list topologies
//! (primitiveTopologyListRestart), per-attachment write masks (independentBlend), dynamic
//! rendering (VK_KHR_dynamic_rendering; the device is Vulkan 1.0). Input attachments have their
//! own scenes in graphics_input_attachments.rs.
//!
//! Each scene states its tolerance (`Tolerance`) and why, from the spec's precision rules.

use ash_loaded::{vk, Device};
use ferrum_tests::draw::{DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::{attribute, binding, opaque};
use ferrum_tests::scene::{
    compare, full_viewport, ColorTarget, Reader, Texture, Tolerance, DEFAULT_TOLERANCE, H, W,
};
use ferrum_tests::{entry_with_lavapipe, Harness};

/// Position (clip space, w included), colour; a per-instance shift from binding 1 (scaled by
/// w so it moves the vertex in NDC). Point size 1 for point lists.
const VS: &str = "#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 2) in vec2 shift;
layout(location = 0) out vec4 color;
void main() {
    gl_Position = pos + vec4(shift * pos.w, 0.0, 0.0);
    gl_PointSize = 1.0;
    color = col;
}
";

const FS_COLOR: &str = "#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() { o = color; }
";

/// The colour's xy are texture coordinates (implicit LOD from their screen derivatives).
const FS_TEXTURE: &str = "#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() { o = texture(tex, color.xy); }
";

/// Three colour outputs for the MRT scene.
const FS_MRT: &str = "#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
void main() {
    o0 = color;
    o1 = vec4(color.bgr * 0.5, 1.0 - color.a);
    o2 = vec4(color.g, 0.25, color.r * color.b, 0.5);
}
";

/// One vertex: clip-space position and colour (or texture coordinates in xy).
type Vertex = [f32; 8];

fn v(p: [f32; 4], c: [f32; 4]) -> Vertex {
    [p[0], p[1], p[2], p[3], c[0], c[1], c[2], c[3]]
}

/// A 2D vertex at z 0.5, w 1 with a colour.
fn v2(x: f32, y: f32, c: [f32; 4]) -> Vertex {
    v([x, y, 0.5, 1.0], c)
}

const RED: [f32; 4] = [1.0, 0.1, 0.1, 1.0];
const GREEN: [f32; 4] = [0.1, 0.9, 0.2, 1.0];
const BLUE: [f32; 4] = [0.2, 0.3, 1.0, 1.0];
const QUARTER: [f32; 4] = [0.25, 0.25, 0.25, 0.25];

/// Per-instance shifts (binding 1): instance 0 stays put.
const SHIFTS: [[f32; 2]; 4] = [[0.0, 0.0], [0.3, 0.2], [-0.45, 0.1], [0.15, -0.5]];

#[derive(Clone, Copy, Debug)]
enum Draw {
    /// vertexCount, instanceCount, firstVertex, firstInstance.
    Direct(u32, u32, u32, u32),
    /// indexCount, instanceCount, firstIndex, vertexOffset, firstInstance.
    Indexed(u32, u32, u32, i32, u32),
    /// vkCmdDrawIndirect of these arguments.
    Indirect([u32; 4]),
    /// vkCmdDrawIndexedIndirect of these arguments (vertexOffset as its bits).
    IndexedIndirect([u32; 5]),
}

/// What the fragment stage does.
#[derive(Clone, Copy, PartialEq)]
enum Shade {
    Color,
    /// Additive blending (ONE, ONE) onto a black target.
    Additive,
    /// Samples a texture through this sampler.
    Texture(Sampler),
    /// Three targets of different formats, write mask R|G|A.
    Mrt,
    /// The MRT targets blended three ways (independentBlend): additive, alpha, none.
    MrtBlend,
}

#[derive(Clone, Copy, PartialEq, Debug)]
struct Sampler {
    address: vk::SamplerAddressMode,
    linear: bool,
    /// LOD range upper bound (0 restricts to level 0).
    max_lod: f32,
}

struct Scene {
    name: &'static str,
    topology: vk::PrimitiveTopology,
    restart: bool,
    vertices: Vec<Vertex>,
    /// Index type and indices.
    indices: Option<(vk::IndexType, Vec<u32>)>,
    /// The draws, in order; with `subpasses` > 1 draw i goes to subpass i.
    draws: Vec<Draw>,
    shade: Shade,
    subpasses: u32,
    tolerance: Tolerance,
    /// The instance divisor of binding 1 (VK_EXT_vertex_attribute_divisor), when not 1.
    divisor: Option<u32>,
}

fn scene(name: &'static str, topology: vk::PrimitiveTopology, vertices: Vec<Vertex>) -> Scene {
    let n = vertices.len() as u32;
    Scene {
        name,
        topology,
        restart: false,
        vertices,
        indices: None,
        draws: vec![Draw::Direct(n, 1, 0, 0)],
        shade: Shade::Color,
        subpasses: 1,
        tolerance: DEFAULT_TOLERANCE,
        divisor: None,
    }
}

#[path = "graphics_scenes/corpus.rs"]
mod corpus;

/// The target formats of `s`.
fn formats(s: &Scene) -> Vec<vk::Format> {
    match s.shade {
        Shade::Mrt | Shade::MrtBlend => vec![
            vk::Format::R8G8B8A8_UNORM,
            vk::Format::R16G16B16A16_SFLOAT,
            vk::Format::R32G32B32A32_SFLOAT,
        ],
        _ if s.subpasses > 1 => vec![vk::Format::R8G8B8A8_UNORM; 2],
        _ => vec![vk::Format::R8G8B8A8_UNORM],
    }
}

/// Clear colour: black for additive scenes (so overlaps add up from zero), else a grey-blue.
fn clear_color(s: &Scene) -> [f32; 4] {
    if s.shade == Shade::Additive {
        [0.0; 4]
    } else {
        [0.1, 0.2, 0.3, 1.0]
    }
}

/// A render pass with one attachment per format (cleared, then read by the compute reader)
/// and `subpasses` subpasses: with more than one, subpass i writes attachment i % 2 and
/// preserves the other; consecutive subpasses and the external reads depend on each other.
fn render_pass(d: &Device, formats: &[vk::Format], subpasses: u32, mrt: bool) -> vk::RenderPass {
    let atts: Vec<_> = formats
        .iter()
        .map(|&f| {
            vk::AttachmentDescription::default()
                .format(f)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                .initial_layout(vk::ImageLayout::UNDEFINED)
                .final_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
        })
        .collect();
    let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    let all: Vec<_> = (0..formats.len() as u32)
        .map(|attachment| vk::AttachmentReference { attachment, layout })
        .collect();
    let single: Vec<[vk::AttachmentReference; 1]> =
        (0..2).map(|a| [vk::AttachmentReference { attachment: a, layout }]).collect();
    let preserve: Vec<[u32; 1]> = (0..2).map(|a| [1 - a]).collect();
    let subs: Vec<_> = (0..subpasses as usize)
        .map(|i| {
            let s = vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS);
            if subpasses == 1 {
                s.color_attachments(if mrt { &all } else { &all[..1] })
            } else {
                s.color_attachments(&single[i % 2]).preserve_attachments(&preserve[i % 2])
            }
        })
        .collect();
    let color = vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT;
    let write = vk::AccessFlags::COLOR_ATTACHMENT_WRITE;
    let mut deps = vec![vk::SubpassDependency::default()
        .src_subpass(subpasses - 1)
        .dst_subpass(vk::SUBPASS_EXTERNAL)
        .src_stage_mask(color)
        .dst_stage_mask(vk::PipelineStageFlags::COMPUTE_SHADER)
        .src_access_mask(write)
        .dst_access_mask(vk::AccessFlags::SHADER_READ)];
    for i in 1..subpasses {
        deps.push(
            vk::SubpassDependency::default()
                .src_subpass(i - 1)
                .dst_subpass(i)
                .src_stage_mask(color)
                .dst_stage_mask(color)
                .src_access_mask(write)
                .dst_access_mask(write | vk::AccessFlags::COLOR_ATTACHMENT_READ),
        );
    }
    let info =
        vk::RenderPassCreateInfo::default().attachments(&atts).subpasses(&subs).dependencies(&deps);
    // SAFETY: a valid create info on a live device.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

/// The scene's pipeline for `subpass` of the set-up's pass.
fn pipeline(setup: &mut DrawSetup<'_>, s: &Scene, subpass: u32) -> vk::Pipeline {
    let bindings = [binding(0, 32, false), binding(1, 8, true)];
    let attributes = [
        attribute(0, 0, vk::Format::R32G32B32A32_SFLOAT, 0),
        attribute(1, 0, vk::Format::R32G32B32A32_SFLOAT, 16),
        attribute(2, 1, vk::Format::R32G32_SFLOAT, 0),
    ];
    let divisors: Vec<_> = s
        .divisor
        .map(|divisor| vk::VertexInputBindingDivisorDescriptionKHR { binding: 1, divisor })
        .into_iter()
        .collect();
    let mut desc = setup.desc();
    desc.subpass = subpass;
    desc.bindings = &bindings;
    desc.attributes = &attributes;
    desc.divisors = &divisors;
    desc.topology = s.topology;
    desc.restart = s.restart;
    desc.viewport = Some(full_viewport());
    let mut att = opaque();
    if s.shade == Shade::Additive {
        att = att
            .blend_enable(true)
            .src_color_blend_factor(vk::BlendFactor::ONE)
            .dst_color_blend_factor(vk::BlendFactor::ONE)
            .color_blend_op(vk::BlendOp::ADD)
            .src_alpha_blend_factor(vk::BlendFactor::ONE)
            .dst_alpha_blend_factor(vk::BlendFactor::ONE)
            .alpha_blend_op(vk::BlendOp::ADD);
    }
    if s.shade == Shade::Mrt {
        use vk::ColorComponentFlags as C;
        att = att.color_write_mask(C::R | C::G | C::A);
    }
    let n = if s.shade == Shade::Mrt { 3 } else { 1 };
    desc.blend = vec![att; n];
    if s.shade == Shade::MrtBlend {
        use vk::BlendFactor as B;
        let additive = opaque()
            .blend_enable(true)
            .src_color_blend_factor(B::ONE)
            .dst_color_blend_factor(B::ONE)
            .color_blend_op(vk::BlendOp::ADD)
            .src_alpha_blend_factor(B::ONE)
            .dst_alpha_blend_factor(B::ZERO)
            .alpha_blend_op(vk::BlendOp::ADD);
        let alpha = opaque()
            .blend_enable(true)
            .src_color_blend_factor(B::SRC_ALPHA)
            .dst_color_blend_factor(B::ONE_MINUS_SRC_ALPHA)
            .color_blend_op(vk::BlendOp::ADD)
            .src_alpha_blend_factor(B::ONE)
            .dst_alpha_blend_factor(B::ONE_MINUS_SRC_ALPHA)
            .alpha_blend_op(vk::BlendOp::REVERSE_SUBTRACT);
        desc.blend = vec![additive, alpha, opaque()];
    }
    setup.pipeline(&desc)
}

/// The scenes' texture: 16 x 16 with 5 levels. Level 0 is 4 x 4 blocks of 4 x 4 texels in 16
/// distinct colours (address modes show as a rearranged pattern); levels 1 to 4 are each one
/// solid colour of their own, so the level a pixel sampled is visible.
fn texture_levels() -> Vec<Vec<u8>> {
    let mut levels = Vec::new();
    let mut level0 = Vec::new();
    for y in 0..16u32 {
        for x in 0..16u32 {
            let b = (y / 4) * 4 + x / 4;
            level0.extend_from_slice(&[
                (b * 16) as u8,
                (255 - b * 13) as u8,
                ((b * 7) % 16 * 16) as u8,
                255,
            ]);
        }
    }
    levels.push(level0);
    let solid: [[u8; 4]; 4] =
        [[250, 40, 40, 255], [40, 250, 40, 255], [40, 40, 250, 255], [240, 240, 40, 255]];
    for (k, c) in solid.iter().enumerate() {
        let size = 16usize >> (k + 1);
        levels.push(c.repeat(size * size));
    }
    levels
}

/// Records the scene's draws into `cb` (inside its render pass, pipelines per subpass).
fn record(
    d: &Device,
    cb: vk::CommandBuffer,
    s: &Scene,
    pipes: &[vk::Pipeline],
    layout: vk::PipelineLayout,
    set: Option<vk::DescriptorSet>,
    buffer: vk::Buffer,
) {
    let gfx = vk::PipelineBindPoint::GRAPHICS;
    // SAFETY: a recording command buffer inside the scene's render pass.
    unsafe {
        for (i, draw) in s.draws.iter().enumerate() {
            if s.subpasses > 1 && i > 0 {
                d.cmd_next_subpass(cb, vk::SubpassContents::INLINE);
            }
            let pipe = pipes[if s.subpasses > 1 { i } else { 0 }];
            d.cmd_bind_pipeline(cb, gfx, pipe);
            if let Some(set) = set {
                d.cmd_bind_descriptor_sets(cb, gfx, layout, 0, &[set], &[]);
            }
            d.cmd_bind_vertex_buffers(cb, 0, &[buffer, buffer], &[VERTEX_OFFSET, INSTANCE_OFFSET]);
            if let Some((ty, _)) = &s.indices {
                d.cmd_bind_index_buffer(cb, buffer, INDEX_OFFSET, *ty);
            }
            match *draw {
                Draw::Direct(n, i, f, fi) => d.cmd_draw(cb, n, i, f, fi),
                Draw::Indexed(n, i, f, off, fi) => d.cmd_draw_indexed(cb, n, i, f, off, fi),
                Draw::Indirect(_) => d.cmd_draw_indirect(cb, buffer, ARGS_OFFSET, 1, 16),
                Draw::IndexedIndirect(_) => {
                    d.cmd_draw_indexed_indirect(cb, buffer, ARGS_OFFSET, 1, 20)
                }
            }
        }
    }
}

/// Byte offsets in the scene's one buffer: indices, indirect arguments, vertices, instance
/// shifts. The indices sit at offset 0: with them at 4096, lavapipe (Mesa 22.3.6) drew
/// nothing for vkCmdDrawIndexedIndirect while its direct indexed draws honoured the offset;
/// it seems to drop the index buffer's bind offset on that path.
const INDEX_OFFSET: u64 = 0;
const VERTEX_OFFSET: u64 = 4096;
const INSTANCE_OFFSET: u64 = 6144;
const ARGS_OFFSET: u64 = 3072;

/// The scene's buffer contents.
fn buffer_data(s: &Scene) -> Vec<u8> {
    let mut out = vec![0u8; 8192];
    let verts: Vec<u8> = s.vertices.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    assert!(verts.len() <= 2048, "{}: too many vertices", s.name);
    let at = VERTEX_OFFSET as usize;
    out[at..at + verts.len()].copy_from_slice(&verts);
    if let Some((ty, idx)) = &s.indices {
        let bytes: Vec<u8> = if *ty == vk::IndexType::UINT16 {
            idx.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect()
        } else {
            idx.iter().flat_map(|i| i.to_le_bytes()).collect()
        };
        let at = INDEX_OFFSET as usize;
        out[at..at + bytes.len()].copy_from_slice(&bytes);
    }
    let shifts: Vec<u8> = SHIFTS.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let at = INSTANCE_OFFSET as usize;
    out[at..at + shifts.len()].copy_from_slice(&shifts);
    let args: Vec<u32> = s
        .draws
        .iter()
        .find_map(|d| match d {
            Draw::Indirect(a) => Some(a.to_vec()),
            Draw::IndexedIndirect(a) => Some(a.to_vec()),
            _ => None,
        })
        .unwrap_or_default();
    let bytes: Vec<u8> = args.iter().flat_map(|a| a.to_le_bytes()).collect();
    let at = ARGS_OFFSET as usize;
    out[at..at + bytes.len()].copy_from_slice(&bytes);
    out
}

/// Renders `s` on `gpu`: per target, its texels as packed RGBA8.
fn render(gpu: &Gpu, s: &Scene) -> Vec<Vec<u32>> {
    let d = &gpu.device;
    let data = buffer_data(s);
    let buffer = gpu.host_buffer(data.len() as u64);
    buffer.write(0, &data);
    let formats = formats(s);
    let targets: Vec<ColorTarget> = formats.iter().map(|&f| ColorTarget::new(gpu, f)).collect();
    let readers: Vec<Reader> = targets.iter().map(|t| Reader::new(gpu, t.view)).collect();
    let texture =
        matches!(s.shade, Shade::Texture(_)).then(|| Texture::new(gpu, 16, &texture_levels()));
    let fs = match s.shade {
        Shade::Color | Shade::Additive => FS_COLOR,
        Shade::Texture(_) => FS_TEXTURE,
        Shade::Mrt | Shade::MrtBlend => FS_MRT,
    };
    let pass =
        render_pass(d, &formats, s.subpasses, matches!(s.shade, Shade::Mrt | Shade::MrtBlend));
    let bindings = [vk::DescriptorSetLayoutBinding::default()
        .binding(0)
        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
        .descriptor_count(1)
        .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
    let set_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
    // SAFETY: a valid create info on a live device; destroyed below.
    let set_layout = unsafe { d.create_descriptor_set_layout(&set_info, None) }
        .expect("vkCreateDescriptorSetLayout");
    let set_layouts = [set_layout];
    let views: Vec<_> = targets.iter().map(|t| t.view).collect();
    let mut desc = SetupDesc::new(pass, &views, (W, H), [VS, fs]);
    desc.set_layouts = &set_layouts;
    let mut setup = DrawSetup::new(d, &desc);
    // SAFETY: valid create infos and commands on live objects, all destroyed after the
    // submission finished.
    unsafe {
        let sizes = [vk::DescriptorPoolSize {
            ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            descriptor_count: 1,
        }];
        let pool = d
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes),
                None,
            )
            .expect("vkCreateDescriptorPool");
        let mut sampler = vk::Sampler::null();
        let mut set = None;
        if let (Shade::Texture(smp), Some(tex)) = (s.shade, &texture) {
            let filter = if smp.linear { vk::Filter::LINEAR } else { vk::Filter::NEAREST };
            let mip = if smp.linear {
                vk::SamplerMipmapMode::LINEAR
            } else {
                vk::SamplerMipmapMode::NEAREST
            };
            sampler = d
                .create_sampler(
                    &vk::SamplerCreateInfo::default()
                        .mag_filter(filter)
                        .min_filter(filter)
                        .mipmap_mode(mip)
                        .address_mode_u(smp.address)
                        .address_mode_v(smp.address)
                        .address_mode_w(smp.address)
                        .border_color(vk::BorderColor::FLOAT_OPAQUE_WHITE)
                        .max_lod(smp.max_lod),
                    None,
                )
                .expect("vkCreateSampler");
            let s0 = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(pool)
                        .set_layouts(&set_layouts),
                )
                .expect("vkAllocateDescriptorSets")[0];
            let info = [vk::DescriptorImageInfo {
                sampler,
                image_view: tex.view,
                image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            }];
            let write = vk::WriteDescriptorSet::default()
                .dst_set(s0)
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(&info);
            d.update_descriptor_sets(&[write], &[]);
            set = Some(s0);
        }
        let pipes: Vec<_> = (0..s.subpasses).map(|i| pipeline(&mut setup, s, i)).collect();
        let clears: Vec<_> = formats
            .iter()
            .map(|_| vk::ClearValue { color: vk::ClearColorValue { float32: clear_color(s) } })
            .collect();
        gpu.run(|d, cb| {
            setup.begin(cb, &clears);
            record(d, cb, s, &pipes, setup.layout, set, buffer.buffer);
            d.cmd_end_render_pass(cb);
            for r in &readers {
                r.record(d, cb);
            }
        });
        let texels = readers.iter().map(Reader::texels).collect();
        drop((readers, setup));
        d.destroy_sampler(sampler, None);
        d.destroy_descriptor_pool(pool, None);
        d.destroy_descriptor_set_layout(set_layout, None);
        for t in targets {
            t.destroy(d);
        }
        if let Some(t) = texture {
            t.destroy(d);
        }
        gpu.destroy_buffer(buffer);
        texels
    }
}

/// Additive scenes: no pixel may hold more than one layer of QUARTER (a shared edge covered
/// twice would show 0.5); checked on each driver's image on its own.
fn no_double_hits(name: &str, driver: &str, texels: &[u32]) -> Result<(), String> {
    // 0.25 in UNORM8 is 64 (63.75 rounded); two layers are 128.
    match texels.iter().position(|&t| (0..4).any(|c| (t >> (8 * c)) & 0xff > 70)) {
        Some(i) => Err(format!(
            "{name}: {driver} covered ({}, {}) twice: {:08x}",
            i as u32 % W,
            i as u32 / W,
            texels[i]
        )),
        None => Ok(()),
    }
}

#[test]
fn scene_corpus_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let extensions = [c"VK_KHR_sampler_mirror_clamp_to_edge", c"VK_EXT_vertex_attribute_divisor"];
    let device = |pd| {
        let mut divisor = vk::PhysicalDeviceVertexAttributeDivisorFeaturesKHR::default()
            .vertex_attribute_instance_rate_divisor(true)
            .vertex_attribute_instance_rate_zero_divisor(true);
        let core = vk::PhysicalDeviceFeatures::default()
            .independent_blend(true)
            .full_draw_index_uint32(true);
        let mut f2 = vk::PhysicalDeviceFeatures2::default().features(core).push_next(&mut divisor);
        Gpu::with_feature_chain(&h.instance, pd, 0, &extensions, &mut f2)
    };
    let lvp_gpu = device(lvp_pd);
    let ours_gpu = device(ours_pd);
    let only = std::env::var("SCENE").ok();
    let mut failures = Vec::new();
    let mut ran = 0;
    for s in corpus::scenes() {
        if only.as_deref().is_some_and(|o| !s.name.contains(o)) {
            continue;
        }
        ran += 1;
        let lvp = render(&lvp_gpu, &s);
        let ours = render(&ours_gpu, &s);
        // Sanity: lavapipe drew something into every target.
        for (i, t) in lvp.iter().enumerate() {
            assert!(
                t.iter().any(|&x| x != t[0]),
                "{} target {i}: lavapipe drew nothing\n{}",
                s.name,
                h.messages().join("\n")
            );
        }
        for (i, (o, l)) in ours.iter().zip(&lvp).enumerate() {
            let name = format!("{} (target {i})", s.name);
            if let Err(e) = compare(&name, o, l, s.tolerance) {
                failures.push(e);
            }
        }
        if s.shade == Shade::Additive {
            for (driver, t) in [("lavapipe", &lvp[0]), ("ferrum", &ours[0])] {
                if let Err(e) = no_double_hits(s.name, driver, t) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(ran > 0, "no scene matched SCENE={only:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
