//! Stores and atomics in vertex and fragment shaders (vertexPipelineStoresAndAtomics,
//! fragmentStoresAndAtomics) through the loader, validation on, on Ferrum and on lavapipe.
//!
//! Two instances of a triangle that covers the whole W×H target, the first at depth 0.25, the
//! second behind it at 0.75, depth test LESS against a target cleared to 1.0. The fragment
//! shader counts its invocations per pixel and in total with atomics; the vertex shader stores
//! its clip position per vertex. The expectations are hand-computed from the spec: without
//! EarlyFragmentTests the depth test follows the shader, so every pixel runs it twice (and
//! keeps the first instance's colour); with EarlyFragmentTests the hidden instance never runs
//! (once per pixel). A third scene draws a small triangle whose shader takes derivatives (so
//! helper lanes run beside it at its edges): exactly the pixels it colours count once, and
//! helpers store nothing.

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::{binding, whole, SetPool};
use ferrum_tests::pipeline::{viewport, GraphicsDesc};
use ferrum_tests::scene::{cleared_pass, module, Attachment, ColorTarget, Reader};
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 24;
const H: u32 = 16;
const COLOR: vk::Format = vk::Format::R8G8B8A8_UNORM;
const DEPTH: vk::Format = vk::Format::D32_SFLOAT;
/// Words of the storage buffer: total, 3 pad, 6 vec4 clip positions, W*H hit counters.
const WORDS: usize = 4 + 6 * 4 + (W * H) as usize;
const HITS: usize = 28;

const VS_COVER: &str = "#version 450
layout(set = 0, binding = 0) buffer Out { uint total; uint pad[3]; vec4 verts[6]; uint hits[]; };
void main() {
    vec2 p = vec2(gl_VertexIndex == 1 ? 3.0 : -1.0, gl_VertexIndex == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.25 + 0.5 * float(gl_InstanceIndex), 1.0);
    verts[gl_InstanceIndex * 3 + gl_VertexIndex] = gl_Position;
}
";

/// Counts and colours; `{early}` is empty or the EarlyFragmentTests layout line.
const FS_COUNT: &str = "#version 450
{early}
layout(set = 0, binding = 0) buffer Out { uint total; uint pad[3]; vec4 verts[6]; uint hits[]; };
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    atomicAdd(hits[p.y * 24 + p.x], 1u);
    atomicAdd(total, 1u);
    o = vec4(gl_FragCoord.z, 0.0, 1.0, 1.0);
}
";

/// A small triangle with a varying whose derivatives it takes: helper lanes run at its edges.
const VS_SMALL: &str = "#version 450
layout(location = 0) out vec2 uv;
void main() {
    vec2 p = gl_VertexIndex == 0 ? vec2(-0.7, -0.8) : (gl_VertexIndex == 1 ? vec2(0.65, -0.3) : vec2(-0.2, 0.75));
    gl_Position = vec4(p, 0.5, 1.0);
    uv = p * p * 4.0;
}
";

const FS_SMALL: &str = "#version 450
layout(set = 0, binding = 0) buffer Out { uint total; uint pad[3]; vec4 verts[6]; uint hits[]; };
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float d = dFdx(uv.x) + dFdy(uv.y);
    atomicAdd(hits[p.y * 24 + p.x], 1u);
    atomicAdd(total, 1u);
    o = vec4(1.0, clamp(abs(d), 0.0, 1.0), 0.0, 1.0);
}
";

#[derive(Clone, Copy, PartialEq, Debug)]
enum Scene {
    /// Two full-target instances, depth tests after the shader.
    Late,
    /// The same with EarlyFragmentTests.
    Early,
    /// One small triangle with derivatives.
    Helpers,
}

struct Outcome {
    words: Vec<u32>,
    colors: Vec<u32>,
}

fn device(h: &Harness, pd: vk::PhysicalDevice) -> Gpu {
    let features = vk::PhysicalDeviceFeatures::default()
        .fragment_stores_and_atomics(true)
        .vertex_pipeline_stores_and_atomics(true);
    Gpu::with_features(&h.instance, pd, 0, &features)
}

fn render(gpu: &Gpu, scene: Scene) -> Outcome {
    let d = &gpu.device;
    let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
    let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1).stage_flags(stages)];
    let out = gpu.host_buffer(WORDS as u64 * 4);
    out.write(0, &vec![0; WORDS * 4]);
    let one = vk::SampleCountFlags::TYPE_1;
    let color = ColorTarget::sized(gpu, COLOR, W, H);
    let ds_usage = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
    let depth = Attachment::new(gpu, DEPTH, (W, H), one, 1, ds_usage);
    let reader = Reader::of(gpu, &color);
    let early = if scene == Scene::Early { "layout(early_fragment_tests) in;" } else { "" };
    let (vs, fs) = match scene {
        Scene::Helpers => (VS_SMALL.to_string(), FS_SMALL.to_string()),
        _ => (VS_COVER.to_string(), FS_COUNT.replace("{early}", early)),
    };
    // SAFETY: valid create infos and commands on live handles; all destroyed after the GPU
    // is idle.
    unsafe {
        let set_layout = d
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
            .unwrap();
        let set_layouts = [set_layout];
        let layout = d
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
            .unwrap();
        let set = SetPool::new(d, set_layout, &bindings);
        set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
        let pass = cleared_pass(d, COLOR, Some(DEPTH), vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
        let views = [color.view, depth.view];
        let fb_info = vk::FramebufferCreateInfo::default()
            .render_pass(pass)
            .attachments(&views)
            .width(W)
            .height(H)
            .layers(1);
        let fb = d.create_framebuffer(&fb_info, None).unwrap();
        let modules = [module(d, &vs, "vert"), module(d, &fs, "frag")];
        let mut desc = GraphicsDesc::new(pass, layout, modules);
        desc.viewport = Some(viewport(W, H));
        desc.depth_stencil = Some(
            vk::PipelineDepthStencilStateCreateInfo::default()
                .depth_test_enable(true)
                .depth_write_enable(true)
                .depth_compare_op(vk::CompareOp::LESS),
        );
        let pipe = desc.create(d);
        let clear = [
            vk::ClearValue { color: vk::ClearColorValue { float32: [0.0; 4] } },
            vk::ClearValue { depth_stencil: vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 } },
        ];
        let area = vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent: vk::Extent2D { width: W, height: H },
        };
        let instances = if scene == Scene::Helpers { 1 } else { 2 };
        gpu.run(|d, cb| {
            let begin = vk::RenderPassBeginInfo::default()
                .render_pass(pass)
                .framebuffer(fb)
                .render_area(area)
                .clear_values(&clear);
            d.cmd_begin_render_pass(cb, &begin, vk::SubpassContents::INLINE);
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
            d.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::GRAPHICS,
                layout,
                0,
                &[set.set],
                &[],
            );
            d.cmd_draw(cb, 3, instances, 0, 0);
            d.cmd_end_render_pass(cb);
            // The stores to the host and the colour target to the reader's compute pass.
            let visible = vk::MemoryBarrier::default()
                .src_access_mask(
                    vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                )
                .dst_access_mask(vk::AccessFlags::HOST_READ | vk::AccessFlags::SHADER_READ);
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::VERTEX_SHADER
                    | vk::PipelineStageFlags::FRAGMENT_SHADER
                    | vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                vk::PipelineStageFlags::HOST | vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &[visible],
                &[],
                &[],
            );
            reader.record(d, cb);
        });
        let outcome = Outcome { words: out.u32s(), colors: reader.texels() };
        drop(reader);
        drop(set);
        d.destroy_pipeline(pipe, None);
        for m in modules {
            d.destroy_shader_module(m, None);
        }
        d.destroy_framebuffer(fb, None);
        d.destroy_render_pass(pass, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_descriptor_set_layout(set_layout, None);
        color.destroy(d);
        depth.destroy(d);
        gpu.destroy_buffer(out);
        outcome
    }
}

/// What the spec fixes for `scene`, checked on either driver.
fn check(scene: Scene, o: &Outcome) -> Result<(), String> {
    let hits = &o.words[HITS..];
    let total = o.words[0];
    let err = |what: String| Err(format!("{scene:?}: {what}"));
    if scene == Scene::Helpers {
        // Exactly the coloured pixels ran (red = 255), once each; helpers stored nothing.
        let covered: Vec<bool> = o.colors.iter().map(|c| c & 0xff == 0xff).collect();
        let n = covered.iter().filter(|&&c| c).count() as u32;
        if n < 20 || total != n {
            return err(format!("{total} invocations counted, {n} pixels coloured"));
        }
        if let Some(i) = (0..hits.len()).find(|&i| hits[i] != u32::from(covered[i])) {
            return err(format!("pixel {i}: {} hits, coloured {}", hits[i], covered[i]));
        }
        return Ok(());
    }
    let per_pixel = if scene == Scene::Late { 2 } else { 1 };
    if let Some(i) = hits.iter().position(|&h| h != per_pixel) {
        return err(format!("pixel {i}: {} invocations, want {per_pixel}", hits[i]));
    }
    if total != per_pixel * W * H {
        return err(format!("total {total}, want {}", per_pixel * W * H));
    }
    // The nearer instance's colour: depth 0.25 in red (64 of 255, rounded either way).
    if let Some(i) = o.colors.iter().position(|&c| !(63..=64).contains(&(c & 0xff))) {
        return err(format!("pixel {i} colour {:#x}", o.colors[i]));
    }
    // Every vertex of both instances stored its clip position.
    for inst in 0..2 {
        for v in 0..3 {
            let at = 4 + (inst * 3 + v) * 4;
            let p: Vec<f32> = o.words[at..at + 4].iter().map(|&w| f32::from_bits(w)).collect();
            let want = [
                if v == 1 { 3.0 } else { -1.0 },
                if v == 2 { 3.0 } else { -1.0 },
                0.25 + 0.5 * inst as f32,
                1.0,
            ];
            if p != want {
                return err(format!("instance {inst} vertex {v}: stored {p:?}, want {want:?}"));
            }
        }
    }
    Ok(())
}

#[test]
fn vertex_and_fragment_side_effects_follow_the_depth_test_order() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp = device(&h, h.physical_device_named("llvmpipe"));
    let ours = device(&h, h.physical_device_named("Ferrum"));
    let mut failures = Vec::new();
    for scene in [Scene::Late, Scene::Early, Scene::Helpers] {
        let reference = render(&lvp, scene);
        if let Err(e) = check(scene, &reference) {
            failures.push(format!("lavapipe {e}"));
        }
        let result = render(&ours, scene);
        if let Err(e) = check(scene, &result) {
            failures.push(format!("ferrum {e}"));
        }
    }
    drop((lvp, ours));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
