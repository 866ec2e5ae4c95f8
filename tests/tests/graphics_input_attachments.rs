//! Subpass input attachments through the loader, validation layer on, on Ferrum and on
//! lavapipe: subpass 0 draws a triangle into colour attachments (and depth), subpass 1 reads
//! them back as input attachments with a full-screen triangle (so every pixel, the image's
//! edges included, reads its own texel), and optionally subpass 2 reads and writes its own
//! colour attachment twice with a by-region self-dependency barrier between the draws (a
//! feedback loop). Cases: one input, deferred shading (colour + depth inputs), the most
//! colour attachments a subpass can write read back as inputs (8 colours + depth = 9 inputs),
//! a 4-sample input read per sample, and two views (each view's layer read by its view).
//!
//! Oracles: the images equal lavapipe's within 1/255 per channel (the weighted sums are
//! rounded to UNORM8 by both) with coverage allowed to differ only at the triangle's edges;
//! the image corners, which the triangle never covers, equal the load-op clear colour pushed
//! through the shaders' arithmetic by hand.

use ash_loaded::{vk, Device};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::SetPool;
use ferrum_tests::pipeline::{opaque, viewport, GraphicsDesc};
use ferrum_tests::scene::{self, compare_sized, module, Attachment, Tolerance, H, W};
use ferrum_tests::{entry_with_lavapipe, Harness};

const COLOR: vk::Format = vk::Format::R8G8B8A8_UNORM;
const DEPTH: vk::Format = vk::Format::D32_SFLOAT;
/// Load-op clear colour of the attachments subpass 0 writes (exact in UNORM8).
const CLEAR: [f32; 4] = [0.2, 0.4, 0.6, 0.8];

#[derive(Clone, Copy, Debug)]
struct Case {
    name: &'static str,
    /// Colour attachments written by subpass 0 and read by subpass 1.
    colors: u32,
    /// A depth attachment written by subpass 0 and read by subpass 1.
    depth: bool,
    samples: vk::SampleCountFlags,
    views: u32,
    /// Subpass 2: the output read and written in place twice.
    feedback: bool,
}

/// Subpass 0: a triangle with depth 0.2..0.8 whose first two vertices move with the view
/// (gl_ViewIndex plus a pushed base, so that one view can be rendered alone as a reference).
const VS0: &str = "#version 450
#extension GL_EXT_multiview : require
layout(push_constant) uniform P { int base; };
layout(location = 0) out vec3 c;
void main() {
    int i = gl_VertexIndex;
    float v = float(gl_ViewIndex + base);
    vec2 p = i == 0 ? vec2(-0.9 + 0.3 * v, -0.8) : (i == 1 ? vec2(0.85, -0.3 + 0.2 * v)
                                                          : vec2(-0.4, 0.95));
    gl_Position = vec4(p, i == 0 ? 0.2 : (i == 1 ? 0.5 : 0.8), 1.0);
    c = i == 0 ? vec3(1.0, 0.2, 0.0) : (i == 1 ? vec3(0.0, 1.0, 0.3) : vec3(0.1, 0.3, 1.0));
}
";

/// Subpasses 1 and 2: a triangle covering the whole target.
const VS_FULL: &str = "#version 450
void main() {
    vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
";

/// Subpass 2: half the pixel's value plus a quarter, in place.
const FS_FEEDBACK: &str = "#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput self_;
layout(location = 0) out vec4 o;
void main() { o = subpassLoad(self_) * 0.5 + vec4(0.25); }
";

/// Subpass 0's fragment shader: output k is the colour mixed towards its rotation by k/8,
/// alpha (k + 1) / 9.
fn fs0(c: &Case) -> String {
    let mut s = String::from("#version 450\nlayout(location = 0) in vec3 c;\n");
    for k in 0..c.colors {
        s += &format!("layout(location = {k}) out vec4 o{k};\n");
    }
    s += "void main() {\n";
    for k in 0..c.colors {
        s += &format!("    o{k} = vec4(mix(c, c.yzx, {k}.0 / 8.0), {}.0 / 9.0);\n", k + 1);
    }
    s + "}\n"
}

/// Weight of input `k` of `n` in subpass 1's sum: (k + 1) / (n (n + 1) / 2), summing to 1, so
/// inputs read in the wrong order change the result.
fn weight(k: u32, n: u32) -> f32 {
    (k + 1) as f32 / (n * (n + 1) / 2) as f32
}

/// Subpass 1's fragment shader: the weighted sum of the colour inputs, blue replaced by the
/// depth input; with samples, one channel of each of the first input's four samples.
fn fs1(c: &Case) -> String {
    let mut s = String::from("#version 450\nlayout(location = 0) out vec4 o;\n");
    if c.samples != vk::SampleCountFlags::TYPE_1 {
        s +=
            "layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS i0;\n";
        return s + "void main() {\n    o = vec4(subpassLoad(i0, 0).r, subpassLoad(i0, 1).g, \
                    subpassLoad(i0, 2).b, subpassLoad(i0, 3).a);\n}\n";
    }
    let n = c.colors;
    for k in 0..n + u32::from(c.depth) {
        s += &format!(
            "layout(input_attachment_index = {k}, set = 0, binding = {k}) uniform subpassInput i{k};\n"
        );
    }
    s += "void main() {\n    vec4 a = vec4(0.0);\n";
    for k in 0..n {
        s += &format!("    a += subpassLoad(i{k}) * {:?};\n", weight(k, n));
    }
    if c.depth {
        s += &format!("    a.b = subpassLoad(i{n}).r;\n");
    }
    s + "    o = a;\n}\n"
}

/// The corner pixels' value (the triangle covers no corner): CLEAR through the shaders.
fn corner(c: &Case) -> [u8; 4] {
    let mut v = CLEAR;
    if c.depth {
        v[2] = 1.0;
    }
    if c.feedback {
        for _ in 0..2 {
            v = v.map(|x| ((x * 255.0).round() / 255.0) * 0.5 + 0.25);
        }
    }
    v.map(|x| (x * 255.0).round() as u8)
}

fn attachment_desc(
    format: vk::Format,
    samples: vk::SampleCountFlags,
    store: vk::AttachmentStoreOp,
    final_layout: vk::ImageLayout,
) -> vk::AttachmentDescription {
    vk::AttachmentDescription::default()
        .format(format)
        .samples(samples)
        .load_op(vk::AttachmentLoadOp::CLEAR)
        .store_op(store)
        .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
        .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
        .final_layout(final_layout)
}

fn reference(attachment: u32, layout: vk::ImageLayout) -> vk::AttachmentReference {
    vk::AttachmentReference { attachment, layout }
}

fn dependency(src: u32, dst: u32, views: u32) -> vk::SubpassDependency {
    type S = vk::PipelineStageFlags;
    type A = vk::AccessFlags;
    let mut flags = vk::DependencyFlags::BY_REGION;
    if views > 1 {
        flags |= vk::DependencyFlags::VIEW_LOCAL;
    }
    vk::SubpassDependency::default()
        .src_subpass(src)
        .dst_subpass(dst)
        .src_stage_mask(S::COLOR_ATTACHMENT_OUTPUT | S::LATE_FRAGMENT_TESTS)
        .dst_stage_mask(S::FRAGMENT_SHADER)
        .src_access_mask(A::COLOR_ATTACHMENT_WRITE | A::DEPTH_STENCIL_ATTACHMENT_WRITE)
        .dst_access_mask(A::INPUT_ATTACHMENT_READ)
        .dependency_flags(flags)
}

/// Attachments: the colours, the depth (if any), then the output.
unsafe fn render_pass(d: &Device, c: &Case) -> vk::RenderPass {
    type L = vk::ImageLayout;
    let n = c.colors;
    let mut atts: Vec<_> = (0..n)
        .map(|_| {
            attachment_desc(
                COLOR,
                c.samples,
                vk::AttachmentStoreOp::DONT_CARE,
                L::SHADER_READ_ONLY_OPTIMAL,
            )
        })
        .collect();
    if c.depth {
        let ro = L::DEPTH_STENCIL_READ_ONLY_OPTIMAL;
        atts.push(attachment_desc(DEPTH, c.samples, vk::AttachmentStoreOp::DONT_CARE, ro));
    }
    let out = atts.len() as u32;
    let one = vk::SampleCountFlags::TYPE_1;
    atts.push(attachment_desc(COLOR, one, vk::AttachmentStoreOp::STORE, L::TRANSFER_SRC_OPTIMAL));
    let colors0: Vec<_> = (0..n).map(|k| reference(k, L::COLOR_ATTACHMENT_OPTIMAL)).collect();
    let depth0 = reference(n, L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    let mut inputs1: Vec<_> = (0..n).map(|k| reference(k, L::SHADER_READ_ONLY_OPTIMAL)).collect();
    if c.depth {
        inputs1.push(reference(n, L::DEPTH_STENCIL_READ_ONLY_OPTIMAL));
    }
    let out_layout = if c.feedback { L::GENERAL } else { L::COLOR_ATTACHMENT_OPTIMAL };
    let out1 = [reference(out, out_layout)];
    let mut sub0 = vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&colors0);
    if c.depth {
        sub0 = sub0.depth_stencil_attachment(&depth0);
    }
    let sub1 = vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .input_attachments(&inputs1)
        .color_attachments(&out1);
    let sub2 = vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .input_attachments(&out1)
        .color_attachments(&out1);
    let mut subs = vec![sub0, sub1];
    let mut deps = vec![dependency(0, 1, c.views)];
    if c.feedback {
        subs.push(sub2);
        deps.push(dependency(1, 2, c.views));
        deps.push(dependency(2, 2, c.views));
    }
    let last = subs.len() as u32 - 1;
    deps.push(
        vk::SubpassDependency::default()
            .src_subpass(last)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ),
    );
    let masks = vec![(1u32 << c.views) - 1; subs.len()];
    let mut multiview = vk::RenderPassMultiviewCreateInfo::default().view_masks(&masks);
    let mut info =
        vk::RenderPassCreateInfo::default().attachments(&atts).subpasses(&subs).dependencies(&deps);
    if c.views > 1 {
        info = info.push_next(&mut multiview);
    }
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

/// A set layout of `n` fragment-stage input attachments and its pipeline layout.
unsafe fn input_layout(
    d: &Device,
    n: u32,
) -> (vk::DescriptorSetLayout, vk::PipelineLayout, Vec<vk::DescriptorSetLayoutBinding<'static>>) {
    let bindings: Vec<_> = (0..n)
        .map(|k| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(k)
                .descriptor_type(vk::DescriptorType::INPUT_ATTACHMENT)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::FRAGMENT)
        })
        .collect();
    // SAFETY: forwarded to the caller.
    unsafe {
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        let set = d.create_descriptor_set_layout(&info, None).expect("vkCreateDescriptorSetLayout");
        let sets = [set];
        let pinfo = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
        let layout = d.create_pipeline_layout(&pinfo, None).expect("vkCreatePipelineLayout");
        (set, layout, bindings)
    }
}

/// Points binding k of `set` at `views[k]` in `layouts[k]`.
unsafe fn write_inputs(
    d: &Device,
    set: vk::DescriptorSet,
    views: &[(vk::ImageView, vk::ImageLayout)],
) {
    let infos: Vec<_> = views
        .iter()
        .map(|&(image_view, image_layout)| {
            [vk::DescriptorImageInfo { image_view, image_layout, ..Default::default() }]
        })
        .collect();
    let writes: Vec<_> = infos
        .iter()
        .enumerate()
        .map(|(k, info)| {
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(k as u32)
                .descriptor_type(vk::DescriptorType::INPUT_ATTACHMENT)
                .image_info(info)
        })
        .collect();
    // SAFETY: forwarded to the caller.
    unsafe { d.update_descriptor_sets(&writes, &[]) };
}

/// Renders case `c` on `pd` with view `base` added to the view index; the output's layers,
/// packed RGBA8.
fn render(h: &Harness, pd: vk::PhysicalDevice, c: &Case, base: i32) -> Vec<u32> {
    type U = vk::ImageUsageFlags;
    let mut mv = vk::PhysicalDeviceMultiviewFeatures::default().multiview(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut mv);
    let gpu = Gpu::with_feature_chain(&h.instance, pd, 0, &[c"VK_KHR_multiview"], &mut f2);
    let d = &gpu.device;
    let size = (W, H);
    let input = U::COLOR_ATTACHMENT | U::INPUT_ATTACHMENT;
    let mut atts: Vec<_> = (0..c.colors)
        .map(|_| Attachment::new(&gpu, COLOR, size, c.samples, c.views, input))
        .collect();
    if c.depth {
        let usage = U::DEPTH_STENCIL_ATTACHMENT | U::INPUT_ATTACHMENT;
        atts.push(Attachment::new(&gpu, DEPTH, size, c.samples, c.views, usage));
    }
    let one = vk::SampleCountFlags::TYPE_1;
    let out_usage = input | U::TRANSFER_SRC;
    atts.push(Attachment::new(&gpu, COLOR, size, one, c.views, out_usage));
    let inputs = atts.len() as u32 - 1;
    let out = gpu.host_buffer(u64::from(W * H * 4 * c.views));
    // SAFETY: valid create infos and commands on live handles; everything is destroyed after
    // the GPU is idle.
    unsafe {
        let pass = render_pass(d, c);
        let views: Vec<_> = atts.iter().map(|a| a.view).collect();
        let fb_info = vk::FramebufferCreateInfo::default()
            .render_pass(pass)
            .attachments(&views)
            .width(W)
            .height(H)
            .layers(1);
        let framebuffer = d.create_framebuffer(&fb_info, None).expect("vkCreateFramebuffer");
        let push = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::VERTEX,
            offset: 0,
            size: 4,
        }];
        let info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&push);
        let empty = d.create_pipeline_layout(&info, None).expect("vkCreatePipelineLayout");
        let (set1_layout, layout1, bindings1) = input_layout(d, inputs);
        let (set2_layout, layout2, bindings2) = input_layout(d, 1);
        let set1 = SetPool::new(d, set1_layout, &bindings1);
        let set2 = SetPool::new(d, set2_layout, &bindings2);
        let mut in_views: Vec<_> = (0..c.colors)
            .map(|k| (views[k as usize], vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL))
            .collect();
        if c.depth {
            in_views
                .push((views[c.colors as usize], vk::ImageLayout::DEPTH_STENCIL_READ_ONLY_OPTIMAL));
        }
        write_inputs(d, set1.set, &in_views);
        write_inputs(d, set2.set, &[(views[inputs as usize], vk::ImageLayout::GENERAL)]);
        let modules = [
            module(d, VS0, "vert"),
            module(d, &fs0(c), "frag"),
            module(d, VS_FULL, "vert"),
            module(d, &fs1(c), "frag"),
            module(d, FS_FEEDBACK, "frag"),
        ];
        let mut desc0 = GraphicsDesc::new(pass, empty, [modules[0], modules[1]]);
        desc0.viewport = Some(viewport(W, H));
        desc0.samples = c.samples;
        desc0.blend = vec![opaque(); c.colors as usize];
        if c.depth {
            desc0.depth_stencil = Some(
                vk::PipelineDepthStencilStateCreateInfo::default()
                    .depth_test_enable(true)
                    .depth_write_enable(true)
                    .depth_compare_op(vk::CompareOp::LESS),
            );
        }
        let mut desc1 = GraphicsDesc::new(pass, layout1, [modules[2], modules[3]]);
        desc1.viewport = Some(viewport(W, H));
        desc1.subpass = 1;
        let mut desc2 = GraphicsDesc::new(pass, layout2, [modules[2], modules[4]]);
        desc2.viewport = Some(viewport(W, H));
        desc2.subpass = 2;
        let pipes = [desc0.create(d), desc1.create(d)];
        let feedback = c.feedback.then(|| desc2.create(d));
        gpu.run(|d, cb| {
            let mut clears: Vec<_> = (0..c.colors)
                .map(|_| vk::ClearValue { color: vk::ClearColorValue { float32: CLEAR } })
                .collect();
            if c.depth {
                let depth_stencil = vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 };
                clears.push(vk::ClearValue { depth_stencil });
            }
            clears.push(vk::ClearValue { color: vk::ClearColorValue { float32: [0.0; 4] } });
            let begin = vk::RenderPassBeginInfo::default()
                .render_pass(pass)
                .framebuffer(framebuffer)
                .render_area(scene::full_rect())
                .clear_values(&clears);
            let gfx = vk::PipelineBindPoint::GRAPHICS;
            d.cmd_begin_render_pass(cb, &begin, vk::SubpassContents::INLINE);
            d.cmd_bind_pipeline(cb, gfx, pipes[0]);
            let vs = vk::ShaderStageFlags::VERTEX;
            d.cmd_push_constants(cb, empty, vs, 0, &base.to_le_bytes());
            d.cmd_draw(cb, 3, 1, 0, 0);
            d.cmd_next_subpass(cb, vk::SubpassContents::INLINE);
            d.cmd_bind_pipeline(cb, gfx, pipes[1]);
            d.cmd_bind_descriptor_sets(cb, gfx, layout1, 0, &[set1.set], &[]);
            d.cmd_draw(cb, 3, 1, 0, 0);
            if let Some(p) = feedback {
                d.cmd_next_subpass(cb, vk::SubpassContents::INLINE);
                d.cmd_bind_pipeline(cb, gfx, p);
                d.cmd_bind_descriptor_sets(cb, gfx, layout2, 0, &[set2.set], &[]);
                d.cmd_draw(cb, 3, 1, 0, 0);
                let barrier = vk::MemoryBarrier::default()
                    .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
                    .dst_access_mask(vk::AccessFlags::INPUT_ATTACHMENT_READ);
                d.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                    vk::PipelineStageFlags::FRAGMENT_SHADER,
                    vk::DependencyFlags::BY_REGION,
                    &[barrier],
                    &[],
                    &[],
                );
                d.cmd_draw(cb, 3, 1, 0, 0);
            }
            d.cmd_end_render_pass(cb);
            scene::copy_layers(d, cb, atts[inputs as usize].image, (W, H, c.views), out.buffer);
        });
        pipes.iter().chain(&feedback).for_each(|&p| d.destroy_pipeline(p, None));
        modules.iter().for_each(|&m| d.destroy_shader_module(m, None));
        drop((set1, set2));
        for (s, l) in [(set1_layout, layout1), (set2_layout, layout2)] {
            d.destroy_pipeline_layout(l, None);
            d.destroy_descriptor_set_layout(s, None);
        }
        d.destroy_pipeline_layout(empty, None);
        d.destroy_framebuffer(framebuffer, None);
        d.destroy_render_pass(pass, None);
    }
    atts.into_iter().for_each(|a| a.destroy(d));
    let texels = out.u32s();
    gpu.destroy_buffer(out);
    texels
}

/// Compares Ferrum's image of `c` with lavapipe's. Lavapipe (Mesa 22.3 here) leaves every
/// view but the first of a multiview subpass reading input attachments unrendered, so with
/// views the reference for layer v is lavapipe's single-view rendering of view v (the
/// pushed base); the corner check below holds every layer of both drivers to the hand value.
fn check(c: Case) {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lavapipe = h.physical_device_named("llvmpipe");
    let lvp: Vec<u32> = if c.views == 1 {
        render(&h, lavapipe, &c, 0)
    } else {
        let single = Case { views: 1, ..c };
        (0..c.views as i32).flat_map(|v| render(&h, lavapipe, &single, v)).collect()
    };
    let ours = render(&h, h.physical_device_named("Ferrum"), &c, 0);
    h.assert_clean();
    let layer = (W * H) as usize;
    // Multisampled edges show per-sample coverage in the four channels: twice the slack.
    let slack = if c.samples == vk::SampleCountFlags::TYPE_1 { 8 } else { 16 };
    let want = u32::from_le_bytes(corner(&c));
    for v in 0..c.views as usize {
        let (o, l) = (&ours[v * layer..(v + 1) * layer], &lvp[v * layer..(v + 1) * layer]);
        let name = format!("{} layer {v}", c.name);
        compare_sized(&name, W, o, l, Tolerance { channel: 1, slack }).unwrap();
        for (driver, img) in [("Ferrum", o), ("lavapipe", l)] {
            for i in [0, layer - 1] {
                assert!(
                    scene::close(img[i], want, 1),
                    "{name} {driver} corner {i}: {:08x} vs {want:08x}",
                    img[i]
                );
            }
        }
    }
}

fn case(name: &'static str) -> Case {
    Case {
        name,
        colors: 1,
        depth: false,
        samples: vk::SampleCountFlags::TYPE_1,
        views: 1,
        feedback: false,
    }
}

#[test]
fn one_input_attachment() {
    check(case("one input"));
}

#[test]
fn deferred_colour_and_depth_inputs_then_a_feedback_loop() {
    check(Case { colors: 2, depth: true, feedback: true, ..case("deferred") });
}

#[test]
fn eight_inputs_in_one_subpass() {
    // Seven colours and the depth: lavapipe's maxPerStageDescriptorInputAttachments is 8.
    check(Case { colors: 7, depth: true, ..case("8 inputs") });
}

/// Pixels whose sample 0 is covered (red is not the clear colour's) while sample 3 is not
/// (alpha is the clear colour's), or the reverse: only per-sample reads see them.
fn mixed_pixels(img: &[u32]) -> usize {
    let clear = CLEAR.map(|x| (x * 255.0).round() as u32);
    img.iter().filter(|&&t| ((t & 0xff) != clear[0]) == ((t >> 24) == clear[3])).count()
}

#[test]
fn multisampled_input_read_per_sample() {
    let c = Case { samples: vk::SampleCountFlags::TYPE_4, ..case("4 samples") };
    check(c);
    // The edge slack of `check` could hide a read of one sample for all four: the edges'
    // partly covered pixels must show, in the same number as on lavapipe.
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let ours = mixed_pixels(&render(&h, h.physical_device_named("Ferrum"), &c, 0));
    let lvp = mixed_pixels(&render(&h, h.physical_device_named("llvmpipe"), &c, 0));
    assert!(ours >= 10 && ours.abs_diff(lvp) <= 4, "mixed edge pixels: {ours} vs {lvp}");
    h.assert_clean();
}

#[test]
fn multiview_inputs_read_their_view() {
    check(Case { views: 2, ..case("2 views") });
}
