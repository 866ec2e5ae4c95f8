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
//! helpers store nothing. Two more draw the covering instances under rasterizer discard,
//! static and dynamic (VK_EXT_extended_dynamic_state2): the vertex shader still runs (its
//! stores land) and the pipeline statistics count 6 input-assembly vertices, 2 primitives and
//! 6 vertex shader invocations, while no fragment shader runs and the target keeps its clear
//! colour.

use ash_loaded::{ext, vk};
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::{binding, whole, SetPool};
use ferrum_tests::pipeline::viewport;
use ferrum_tests::scene::{cleared_pass, Attachment, ColorTarget, Reader};
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
    /// The two instances with rasterizerDiscardEnable in the pipeline.
    Discard,
    /// The same with the discard set by vkCmdSetRasterizerDiscardEnableEXT.
    DiscardDynamic,
}

impl Scene {
    fn discards(self) -> bool {
        matches!(self, Scene::Discard | Scene::DiscardDynamic)
    }
}

/// Pipeline statistics queried: IA vertices, IA primitives, VS and FS invocations.
fn statistics() -> vk::QueryPipelineStatisticFlags {
    use vk::QueryPipelineStatisticFlags as S;
    S::INPUT_ASSEMBLY_VERTICES
        | S::INPUT_ASSEMBLY_PRIMITIVES
        | S::VERTEX_SHADER_INVOCATIONS
        | S::FRAGMENT_SHADER_INVOCATIONS
}

struct Outcome {
    words: Vec<u32>,
    colors: Vec<u32>,
    /// The [`statistics`] of the draw, in bit order.
    stats: [u64; 4],
}

fn device(h: &Harness, pd: vk::PhysicalDevice) -> Gpu {
    let features = vk::PhysicalDeviceFeatures::default()
        .fragment_stores_and_atomics(true)
        .vertex_pipeline_stores_and_atomics(true)
        .pipeline_statistics_query(true);
    let mut eds2 =
        vk::PhysicalDeviceExtendedDynamicState2FeaturesEXT::default().extended_dynamic_state2(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().features(features).push_next(&mut eds2);
    let ext = [c"VK_EXT_extended_dynamic_state2"];
    Gpu::with_feature_chain(&h.instance, pd, 0, &ext, &mut f2)
}

fn render(gpu: &Gpu, eds2: &ext::extended_dynamic_state2::Device, scene: Scene) -> Outcome {
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
    // SAFETY: valid create infos on a live device; the set-up takes the pass over, the rest
    // is destroyed below.
    let (set_layout, pass, stats) = unsafe {
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        let set_layout = d.create_descriptor_set_layout(&info, None).unwrap();
        let pass = cleared_pass(d, COLOR, Some(DEPTH), vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
        let stats_info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::PIPELINE_STATISTICS)
            .query_count(1)
            .pipeline_statistics(statistics());
        (set_layout, pass, d.create_query_pool(&stats_info, None).unwrap())
    };
    let set_layouts = [set_layout];
    let views = [color.view, depth.view];
    let mut setup_desc = SetupDesc::new(pass, &views, (W, H), [&vs, &fs]);
    setup_desc.set_layouts = &set_layouts;
    let mut setup = DrawSetup::new(d, &setup_desc);
    let set = SetPool::new(d, set_layout, &bindings);
    set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
    let mut desc = setup.desc();
    desc.viewport = Some(viewport(W, H));
    match scene {
        Scene::Discard => desc.rasterization.rasterizer_discard_enable = vk::TRUE,
        Scene::DiscardDynamic => desc.dynamic.push(vk::DynamicState::RASTERIZER_DISCARD_ENABLE),
        _ => {}
    }
    desc.depth_stencil = Some(
        vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(true)
            .depth_compare_op(vk::CompareOp::LESS),
    );
    let pipe = setup.pipeline(&desc);
    let clear = [
        clear_color([0.0; 4]),
        vk::ClearValue { depth_stencil: vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 } },
    ];
    let instances = if scene == Scene::Helpers { 1 } else { 2 };
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        d.cmd_reset_query_pool(cb, stats, 0, 1);
        d.cmd_begin_query(cb, stats, 0, vk::QueryControlFlags::empty());
        setup.begin(cb, &clear);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
        let bind = vk::PipelineBindPoint::GRAPHICS;
        d.cmd_bind_descriptor_sets(cb, bind, setup.layout, 0, &[set.set], &[]);
        if scene == Scene::DiscardDynamic {
            eds2.cmd_set_rasterizer_discard_enable(cb, true);
        }
        d.cmd_draw(cb, 3, instances, 0, 0);
        d.cmd_end_render_pass(cb);
        d.cmd_end_query(cb, stats, 0);
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
    // One query of four 64-bit counters.
    let mut counts = [[0u64; 4]];
    let wait = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT;
    // SAFETY: the query finished (the submission was waited for); then nothing uses the pool
    // or the set layout any more.
    unsafe {
        d.get_query_pool_results(stats, 0, &mut counts, wait).unwrap();
        d.destroy_query_pool(stats, None);
    }
    let outcome = Outcome { words: out.u32s(), colors: reader.texels(), stats: counts[0] };
    drop((reader, set, setup));
    // SAFETY: as above.
    unsafe { d.destroy_descriptor_set_layout(set_layout, None) };
    color.destroy(d);
    depth.destroy(d);
    gpu.destroy_buffer(out);
    outcome
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
    let per_pixel = match scene {
        Scene::Late => 2,
        Scene::Discard | Scene::DiscardDynamic => 0,
        _ => 1,
    };
    if let Some(i) = hits.iter().position(|&h| h != per_pixel) {
        return err(format!("pixel {i}: {} invocations, want {per_pixel}", hits[i]));
    }
    if total != per_pixel * W * H {
        return err(format!("total {total}, want {}", per_pixel * W * H));
    }
    // The nearer instance's colour: depth 0.25 in red (64 of 255, rounded either way); the
    // clear colour under discard.
    let red = if scene.discards() { 0..=0 } else { 63..=64 };
    if let Some(i) = o.colors.iter().position(|&c| !red.contains(&(c & 0xff))) {
        return err(format!("pixel {i} colour {:#x}", o.colors[i]));
    }
    // 2 instances of 3 vertices, no vertex reuse in a non-indexed draw; under discard no
    // fragment shader runs (elsewhere helper invocations may count: not checked).
    let fs = if scene.discards() { 0 } else { o.stats[3] };
    if o.stats != [6, 2, 6, fs] {
        return err(format!("statistics {:?}, want [6, 2, 6, {fs}]", o.stats));
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
    let lvp_eds2 = ext::extended_dynamic_state2::Device::new(&h.instance, &lvp.device);
    let ours_eds2 = ext::extended_dynamic_state2::Device::new(&h.instance, &ours.device);
    let mut failures = Vec::new();
    let scenes = [Scene::Late, Scene::Early, Scene::Helpers, Scene::Discard, Scene::DiscardDynamic];
    for scene in scenes {
        let reference = render(&lvp, &lvp_eds2, scene);
        if let Err(e) = check(scene, &reference) {
            failures.push(format!("lavapipe {e}"));
        }
        let result = render(&ours, &ours_eds2, scene);
        if let Err(e) = check(scene, &result) {
            failures.push(format!("ferrum {e}"));
        }
    }
    drop((lvp, ours));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
