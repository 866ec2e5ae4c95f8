//! Depth/stencil attachments through the loader, differential against lavapipe (validation
//! layer on): render passes with an RGBA8 colour attachment and a depth/stencil attachment
//! (D16_UNORM, D32_SFLOAT, S8_UINT, D32_SFLOAT_S8_UINT), flat-coloured triangles with
//! per-vertex depth, then the colour, depth and stencil aspects copied to a buffer with
//! vkCmdCopyImageToBuffer and compared with lavapipe's.
//!
//! Scenes (`scenes()`): every depth compare op against a background at 0.5; depth writes off;
//! clear values 0 and 1; the seven stencil ops besides KEEP, on the pass, fail and depth-fail
//! paths, from stencil 0 and 255 (wrap and clamp at both ends); compare and write masks;
//! separate front/back stencil state; dynamic reference/compare/write masks; depth bias
//! (constant, slope, clamp, dynamic) on D16 and D32, also of polygons drawn as points and lines; depth clamp with geometry beyond near
//! and far (and clipping without it); depth bounds; vkCmdClearAttachments of depth and of
//! stencil; LOAD of a previous pass's depth/stencil, DONT_CARE stencil load.
//!
//! Every scene is drawn a second time on Ferrum with the state set by extended dynamic state
//! (`graphics_depth/dynamic.rs`: decoys baked into the pipelines, the real values from
//! vkCmdSet*EXT) and must give exactly the bytes of the static pipelines.
//!
//! Tolerances: colours are flat, so they must match exactly. Depth: D16 within 1 LSB
//! (Vulkan's depth interpolation and conversion to fixed point may round either way),
//! D32_SFLOAT within 2^-20 (interpolation of z from the vertices is not exact; the spec
//! requires only that it be computed from the plane "with at least the precision" of the
//! format; every effect a scene tests — bias units, compare results — is far larger). Stencil
//! values exactly. Coverage may differ on pixels whose centre lies within sub-pixel precision
//! of an edge, or where two triangles' depths are equal within the tolerance: at most
//! `EDGE_SLACK` such pixels per image, each next to a pixel with the other side's value.

use ash_loaded::{vk, Device};
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::{attribute, binding, viewport};
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 32;
const H: u32 = 24;
const EDGE_SLACK: usize = 8;
const CLEAR_COLOR: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

const VS: &str = "#version 450
layout(location = 0) in vec2 xy;
layout(location = 1) in vec2 zw;
void main() { gl_Position = vec4(xy, zw); }
";

const FS: &str = "#version 450
layout(push_constant) uniform P { vec4 color; } pc;
layout(location = 0) out vec4 o;
void main() { o = pc.color; }
";

/// `FS` with a stencil reference per pixel ([`scenes::exported_stencil`]).
const FS_STENCIL: &str = "#version 450
#extension GL_ARB_shader_stencil_export : require
layout(push_constant) uniform P { vec4 color; } pc;
layout(location = 0) out vec4 o;
void main() {
    o = pc.color;
    ivec2 p = ivec2(gl_FragCoord.xy);
    gl_FragStencilRefARB = p.x * 11 + p.y;
}
";

/// The device extension the stencil-export scenes need on both drivers.
const STENCIL_EXPORT: &std::ffi::CStr = c"VK_EXT_shader_stencil_export";

#[path = "graphics_depth/scenes.rs"]
mod scenes;
use scenes::*;
#[path = "graphics_depth/dynamic.rs"]
mod dynamic;
use dynamic::Eds;

#[path = "graphics_depth/transfer.rs"]
mod transfer;
use transfer::{read_back, transfer_clear};

#[path = "graphics_depth/comparison.rs"]
mod comparison;
use comparison::{compare, host_bounds};

/// Which aspects a scene's result is compared on (an aspect loaded with DONT_CARE and never
/// written has undefined contents).
fn compared(s: &Scene) -> (bool, bool) {
    let dont = vk::AttachmentLoadOp::DONT_CARE;
    (has_depth(s.format) && s.load.0 != dont, has_stencil(s.format) && s.load.1 != dont)
}

fn memory_type(h: &Harness, pd: vk::PhysicalDevice, bits: u32) -> u32 {
    // SAFETY: a live physical device.
    let m = unsafe { h.instance.get_physical_device_memory_properties(pd) };
    (0..m.memory_type_count)
        .find(|&i| {
            bits & (1 << i) != 0
                && m.memory_types[i as usize]
                    .property_flags
                    .contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)
        })
        .or_else(|| (0..m.memory_type_count).find(|&i| bits & (1 << i) != 0))
        .expect("memory type")
}

/// A render pass with colour (cleared) and depth/stencil attachments; `load` says whether
/// the depth/stencil attachment is loaded (a later pass) or uses the scene's load ops.
unsafe fn render_pass(d: &Device, s: &Scene, load: bool) -> vk::RenderPass {
    let ds_layout = vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    let color_layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    let (dl, sl) =
        if load { (vk::AttachmentLoadOp::LOAD, vk::AttachmentLoadOp::LOAD) } else { s.load };
    let att = [
        vk::AttachmentDescription::default()
            .format(vk::Format::R8G8B8A8_UNORM)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(if load { vk::AttachmentLoadOp::LOAD } else { vk::AttachmentLoadOp::CLEAR })
            .store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(if load { color_layout } else { vk::ImageLayout::UNDEFINED })
            .final_layout(color_layout),
        vk::AttachmentDescription::default()
            .format(s.format)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(dl)
            .store_op(vk::AttachmentStoreOp::STORE)
            .stencil_load_op(sl)
            .stencil_store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(if load { ds_layout } else { vk::ImageLayout::UNDEFINED })
            .final_layout(ds_layout),
    ];
    let color_ref = [vk::AttachmentReference { attachment: 0, layout: color_layout }];
    let ds_ref = vk::AttachmentReference { attachment: 1, layout: ds_layout };
    let sub = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&color_ref)
        .depth_stencil_attachment(&ds_ref)];
    let stages = vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
        | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS
        | vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT;
    let access = vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE
        | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ
        | vk::AccessFlags::COLOR_ATTACHMENT_WRITE
        | vk::AccessFlags::COLOR_ATTACHMENT_READ;
    let deps = [
        vk::SubpassDependency::default()
            .src_subpass(vk::SUBPASS_EXTERNAL)
            .dst_subpass(0)
            .src_stage_mask(stages)
            .dst_stage_mask(stages)
            .src_access_mask(access)
            .dst_access_mask(access),
        vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(stages)
            .dst_stage_mask(stages | vk::PipelineStageFlags::TRANSFER)
            .src_access_mask(access)
            .dst_access_mask(access | vk::AccessFlags::TRANSFER_READ),
    ];
    let info =
        vk::RenderPassCreateInfo::default().attachments(&att).subpasses(&sub).dependencies(&deps);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

fn pipeline(
    setup: &mut DrawSetup<'_>,
    s: &Scene,
    st: &State,
    fs: Option<vk::ShaderModule>,
    eds: bool,
) -> vk::Pipeline {
    let bindings = [binding(0, if eds { dynamic::DECOY_STRIDE } else { 16 }, false)];
    let attributes = [
        attribute(0, 0, vk::Format::R32G32_SFLOAT, 0),
        attribute(1, 0, vk::Format::R32G32_SFLOAT, 8),
    ];
    let mut desc = setup.desc();
    if let Some(fs) = fs {
        desc.fs = Some(fs);
    }
    if st.no_fs {
        desc.fs = None;
    }
    desc.bindings = &bindings;
    desc.attributes = &attributes;
    desc.viewport = Some(scene_viewport(s));
    let (bc, bclamp, bs) = st.bias.unwrap_or((0.0, 0.0, 0.0));
    desc.rasterization = desc
        .rasterization
        .cull_mode(st.cull)
        .polygon_mode(st.polygon)
        .depth_clamp_enable(st.depth_clamp)
        .depth_bias_enable(st.bias.is_some())
        .depth_bias_constant_factor(bc)
        .depth_bias_clamp(bclamp)
        .depth_bias_slope_factor(bs);
    let (min_b, max_b) = st.bounds.unwrap_or((0.0, 1.0));
    desc.depth_stencil = Some(
        vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(st.depth_test)
            .depth_write_enable(st.depth_write)
            .depth_compare_op(st.compare)
            .depth_bounds_test_enable(st.bounds.is_some())
            .min_depth_bounds(min_b)
            .max_depth_bounds(max_b)
            .stencil_test_enable(st.stencil)
            .front(st.front)
            .back(st.back),
    );
    if st.dynamic_bias.is_some() {
        desc.dynamic.push(vk::DynamicState::DEPTH_BIAS);
    }
    if st.dynamic_stencil.is_some() {
        desc.dynamic.extend([
            vk::DynamicState::STENCIL_REFERENCE,
            vk::DynamicState::STENCIL_COMPARE_MASK,
            vk::DynamicState::STENCIL_WRITE_MASK,
        ]);
    }
    if eds {
        dynamic::decoy(&mut desc, st);
    }
    setup.pipeline(&desc)
}

/// The scene's viewport.
fn scene_viewport(s: &Scene) -> vk::Viewport {
    vk::Viewport { min_depth: s.depth_range.0, max_depth: s.depth_range.1, ..viewport(W, H) }
}

/// An image with its memory and a view.
struct Target {
    image: vk::Image,
    memory: vk::DeviceMemory,
    view: vk::ImageView,
}

unsafe fn target(
    h: &Harness,
    pd: vk::PhysicalDevice,
    d: &Device,
    format: vk::Format,
    usage: vk::ImageUsageFlags,
    aspect: vk::ImageAspectFlags,
) -> Target {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: W, height: H, depth: 1 })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage | vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
    // SAFETY: forwarded to the caller.
    unsafe {
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let req = d.get_image_memory_requirements(image);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(memory_type(h, pd, req.memory_type_bits));
        let memory = d.allocate_memory(&alloc, None).unwrap();
        d.bind_image_memory(image, memory, 0).unwrap();
        let range = vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        };
        let vinfo = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(format)
            .subresource_range(range);
        let view = d.create_image_view(&vinfo, None).unwrap();
        Target { image, memory, view }
    }
}

/// Read-back images of one scene: colour as RGBA8 words, depth as f32 in [0, 1] (D16
/// converted), stencil bytes.
struct Result {
    color: Vec<u32>,
    depth: Vec<f32>,
    stencil: Vec<u8>,
}

/// Buffer offsets of the three read-backs (4-byte aligned, as depth/stencil copies need).
const COLOR_AT: u64 = 0;
const DEPTH_AT: u64 = (W * H * 4) as u64;
const STENCIL_AT: u64 = DEPTH_AT + (W * H * 4) as u64;

fn set_dynamic(d: &Device, cb: vk::CommandBuffer, st: &State) {
    // SAFETY: a command buffer recording inside a render pass.
    unsafe {
        if let Some((c, clamp, slope)) = st.dynamic_bias {
            d.cmd_set_depth_bias(cb, c, clamp, slope);
        }
        if let Some(faces) = st.dynamic_stencil {
            for (face, (r, cm, wm)) in
                [vk::StencilFaceFlags::FRONT, vk::StencilFaceFlags::BACK].into_iter().zip(faces)
            {
                d.cmd_set_stencil_reference(cb, face, r);
                d.cmd_set_stencil_compare_mask(cb, face, cm);
                d.cmd_set_stencil_write_mask(cb, face, wm);
            }
        }
    }
}

/// Renders `s` on `gpu`, with its state set by extended dynamic state when `eds` is given.
fn render(
    h: &Harness,
    pd: vk::PhysicalDevice,
    gpu: &Gpu,
    s: &Scene,
    bounds: bool,
    eds: Option<&Eds>,
) -> Result {
    let mut steps = s.steps.clone();
    for step in &mut steps {
        if let Step::Bounds(lo, hi, z, color) = *step {
            // Without depthBounds (lavapipe) nothing is drawn: the host applies the step.
            let (tris, bounds) =
                if bounds { (quad(z), Some((lo, hi))) } else { (Vec::new(), None) };
            *step = Step::Draw(draw(tris, color, State { bounds, ..ALWAYS }));
        }
    }
    let s = &Scene { steps, ..s.clone() };
    let d = &gpu.device;
    let out = gpu.host_buffer(STENCIL_AT + u64::from(W * H) + 64);
    out.write(0, &vec![0xcd; out.bytes().len()]);
    // Vertices of every draw, in step order.
    let mut verts: Vec<u8> = Vec::new();
    for step in &s.steps {
        if let Step::Draw(dr) = step {
            for v in dr.tris.iter().flatten() {
                verts.extend(v.iter().flat_map(|c| c.to_le_bytes()));
            }
        }
    }
    let vbuf = gpu.host_buffer(verts.len().max(16) as u64);
    vbuf.write(0, &verts);
    let aspects = match (has_depth(s.format), has_stencil(s.format)) {
        (true, true) => vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL,
        (true, false) => vk::ImageAspectFlags::DEPTH,
        _ => vk::ImageAspectFlags::STENCIL,
    };
    // SAFETY: valid create infos and commands on live handles; all destroyed after the GPU
    // is idle.
    unsafe {
        let color = target(
            h,
            pd,
            d,
            vk::Format::R8G8B8A8_UNORM,
            vk::ImageUsageFlags::COLOR_ATTACHMENT,
            vk::ImageAspectFlags::COLOR,
        );
        let depth =
            target(h, pd, d, s.format, vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT, aspects);
        let passes = [render_pass(d, s, false), render_pass(d, s, true)];
        let views = [color.view, depth.view];
        let range = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::FRAGMENT,
            offset: 0,
            size: 16,
        }];
        let mut desc = SetupDesc::new(passes[0], &views, (W, H), [VS, FS]);
        desc.push = &range;
        let mut setup = DrawSetup::new(d, &desc);
        setup.own_pass(passes[1]);
        let fs_stencil = setup.module(FS_STENCIL, "frag");
        let pipes: Vec<Option<vk::Pipeline>> = s
            .steps
            .iter()
            .map(|st| match st {
                Step::Draw(dr) => {
                    let stencil_fs = dr.state.export_stencil.then_some(fs_stencil);
                    Some(pipeline(&mut setup, s, &dr.state, stencil_fs, eds.is_some()))
                }
                _ => None,
            })
            .collect();
        let clears = [
            clear_color(CLEAR_COLOR),
            vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue {
                    depth: s.clear_depth,
                    stencil: s.clear_stencil,
                },
            },
        ];
        gpu.run(|d, cb| {
            let begin = |pass: vk::RenderPass| {
                setup.begin_pass(cb, pass, &clears, vk::SubpassContents::INLINE);
                match eds {
                    Some(e) => dynamic::bind_vertices(e, cb, vbuf.buffer, verts.len() as u64),
                    None => d.cmd_bind_vertex_buffers(cb, 0, &[vbuf.buffer], &[0]),
                }
            };
            if s.transfer_clear {
                transfer_clear(d, cb, &color, &depth, aspects, &clears);
            }
            begin(passes[usize::from(s.transfer_clear)]);
            let mut first = 0u32;
            for (step, pipe) in s.steps.iter().zip(&pipes) {
                match step {
                    Step::Draw(dr) => {
                        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe.unwrap());
                        set_dynamic(d, cb, &dr.state);
                        if let Some(e) = eds {
                            dynamic::set(e, cb, &dr.state, scene_viewport(s));
                        }
                        let bytes: Vec<u8> =
                            dr.color.iter().flat_map(|c| c.to_le_bytes()).collect();
                        let stage = vk::ShaderStageFlags::FRAGMENT;
                        d.cmd_push_constants(cb, setup.layout, stage, 0, &bytes);
                        let n = 3 * dr.tris.len() as u32;
                        if n > 0 {
                            d.cmd_draw(cb, n, 1, first, 0);
                        }
                        first += n;
                    }
                    Step::Clear(aspect, z, st, [x, y, w, hh]) => {
                        let a = [vk::ClearAttachment {
                            aspect_mask: *aspect,
                            color_attachment: 0,
                            clear_value: vk::ClearValue {
                                depth_stencil: vk::ClearDepthStencilValue {
                                    depth: *z,
                                    stencil: *st,
                                },
                            },
                        }];
                        let r = [vk::ClearRect {
                            rect: vk::Rect2D {
                                offset: vk::Offset2D { x: *x, y: *y },
                                extent: vk::Extent2D { width: *w as u32, height: *hh as u32 },
                            },
                            base_array_layer: 0,
                            layer_count: 1,
                        }];
                        d.cmd_clear_attachments(cb, &a, &r);
                    }
                    Step::NextPass => {
                        d.cmd_end_render_pass(cb);
                        begin(passes[1]);
                    }
                    Step::Bounds(..) => unreachable!("replaced by a draw above"),
                }
            }
            d.cmd_end_render_pass(cb);
            read_back(d, cb, &color, &depth, aspects, s.format, out.buffer);
        });
        let bytes = out.bytes();
        let color_words = (0..(W * H) as usize)
            .map(|i| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
            .collect();
        let dbytes = &bytes[DEPTH_AT as usize..];
        let depth_vals = (0..(W * H) as usize)
            .map(|i| match s.format {
                D16 => f32::from(u16::from_le_bytes([dbytes[2 * i], dbytes[2 * i + 1]])) / 65535.0,
                S8 => 0.0,
                _ => f32::from_le_bytes(dbytes[4 * i..4 * i + 4].try_into().unwrap()),
            })
            .collect();
        let stencil_vals = if has_stencil(s.format) {
            bytes[STENCIL_AT as usize..STENCIL_AT as usize + (W * H) as usize].to_vec()
        } else {
            vec![0; (W * H) as usize]
        };
        drop(setup);
        for t in [color, depth] {
            d.destroy_image_view(t.view, None);
            d.destroy_image(t.image, None);
            d.free_memory(t.memory, None);
        }
        gpu.destroy_buffer(out);
        gpu.destroy_buffer(vbuf);
        Result { color: color_words, depth: depth_vals, stencil: stencil_vals }
    }
}

#[test]
fn depth_stencil_scenes_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let features = vk::PhysicalDeviceFeatures::default()
        .depth_clamp(true)
        .depth_bias_clamp(true)
        .fill_mode_non_solid(true);
    // Lavapipe has no depthBounds (see `Step::Bounds`).
    let mut lvp_f2 = vk::PhysicalDeviceFeatures2::default().features(features);
    let lvp_gpu = Gpu::with_feature_chain(&h.instance, lvp_pd, 0, &[STENCIL_EXPORT], &mut lvp_f2);
    let mut eds1 =
        vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT::default().extended_dynamic_state(true);
    let mut eds2 =
        vk::PhysicalDeviceExtendedDynamicState2FeaturesEXT::default().extended_dynamic_state2(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .features(features.depth_bounds(true))
        .push_next(&mut eds1)
        .push_next(&mut eds2);
    let extensions = [dynamic::EXTENSIONS[0], dynamic::EXTENSIONS[1], STENCIL_EXPORT];
    let ours_gpu = Gpu::with_feature_chain(&h.instance, ours_pd, 0, &extensions, &mut f2);
    let eds = Eds::new(&h.instance, &ours_gpu.device);
    let only = std::env::var("FERRUM_DEPTH_SCENE").ok();
    let mut failures = Vec::new();
    let mut ran = 0;
    for s in scenes() {
        if only.as_ref().is_some_and(|o| !s.name.contains(o.as_str())) {
            continue;
        }
        let mut lvp = render(&h, lvp_pd, &lvp_gpu, &s, false, None);
        // Sanity: lavapipe drew something over the clear colour.
        assert!(lvp.color.iter().any(|&c| c != 0xff00_0000), "{}: lavapipe drew nothing", s.name);
        host_bounds(&s, &mut lvp);
        let ours = render(&h, ours_pd, &ours_gpu, &s, true, None);
        if let Err(e) = compare(&s, &ours, &lvp) {
            failures.push(e);
        }
        // The same state from the command buffer draws the very same image.
        let dynamic = render(&h, ours_pd, &ours_gpu, &s, true, Some(&eds));
        if let Some(e) = dynamic::identical(&ours, &dynamic) {
            failures.push(format!("{} with extended dynamic state: {e}", s.name));
        }
        ran += 1;
    }
    assert!(ran > 0);
    assert!(
        failures.is_empty(),
        "{} of {ran} scenes differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    h.assert_clean();
}
