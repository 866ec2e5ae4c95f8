//! Linked graphics stages through the loader (validation layer on): Ferrum compiles a
//! pipeline's vertex shader knowing which input components its fragment shader reads, so
//! outputs nobody reads are neither computed nor exported. Three pipelines share one vertex
//! shader module and one VkPipelineCache; their fragment shaders declare the same inputs (so
//! the interfaces match exactly) but read different ones. Each draws the colour its reads
//! give (compared with the colour computed here, and lavapipe draws the same), which also
//! shows the pipelines did not share a cached vertex shader compiled for another reader; the
//! vertex shader of a pipeline whose fragment shader reads less has fewer instructions
//! (VK_KHR_pipeline_executable_properties).

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::GraphicsDesc;
use ferrum_tests::scene::module;
use ferrum_tests::{entry_with_lavapipe, Harness};
use raster::{Rect, Target, H, W};

/// The rectangle of raster.rs's vertex shader, with three outputs: the push colour, its
/// reverse (flat) and a costly value no fragment shader here reads.
const VS: &str = "#version 450
layout(push_constant) uniform P { ivec4 rect; vec4 color; } pc;
layout(location = 0) out vec4 a;
layout(location = 1) flat out vec4 b;
layout(location = 2) out vec4 costly;
void main() {
    int i = gl_VertexIndex % 6;
    bool right = i == 1 || i == 2 || i == 4;
    bool bottom = i == 2 || i == 4 || i == 5;
    vec2 p = vec2(right ? pc.rect.z : pc.rect.x, bottom ? pc.rect.w : pc.rect.y);
    gl_Position = vec4(p / vec2(37.0, 23.0) * 2.0 - 1.0, 0.0, 1.0);
    a = pc.color;
    b = pc.color.wzyx;
    costly = vec4(sin(p.x), cos(p.y), exp2(p.x * 0.01), log2(p.y + 2.0)) * pc.color;
}
";

/// Fragment shaders declaring all three inputs and reading `body`'s.
fn fs(body: &str) -> String {
    format!(
        "#version 450
layout(location = 0) in vec4 a;
layout(location = 1) flat in vec4 b;
layout(location = 2) in vec4 costly;
layout(location = 0) out vec4 o;
void main() {{ o = {body}; }}
"
    )
}

const RECT: Rect = [5, 4, 29, 17];
const COLOR: [f32; 4] = [0.2, 0.4, 0.6, 1.0];

/// What each fragment shader reads, and the colour that gives.
fn cases() -> [(String, [f32; 4]); 3] {
    let [r, g, b, a] = COLOR;
    [
        (fs("a"), COLOR),
        (fs("b"), [a, b, g, r]),
        (fs("vec4(a.xy, b.zw) + costly * 0.0"), [r, g, g, r]),
    ]
}

/// Draws `RECT` with each case's pipeline (all through one cache) and returns the images
/// and, when `stats` (Ferrum with VK_KHR_pipeline_executable_properties), the vertex
/// shaders' instruction counts.
fn render(h: &Harness, gpu: &Gpu, pd: vk::PhysicalDevice, stats: bool) -> Vec<(Vec<u8>, u64)> {
    let d = &gpu.device;
    let t = Target::new(h, pd, gpu);
    let out = gpu.host_buffer(u64::from(W * H * 4));
    let vs = module(d, VS, "vert");
    let mut results = Vec::new();
    // SAFETY: valid create infos and commands on live handles; destroyed after the waits.
    unsafe {
        let cache = d.create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None).unwrap();
        for (src, _) in cases() {
            let fsm = module(d, &src, "frag");
            let mut desc = GraphicsDesc::new(t.pass, t.layout, [vs, fsm]);
            desc.cache = cache;
            if stats {
                desc.flags = vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR;
            }
            let pipeline = desc.create(d);
            gpu.run(|d, cb| {
                t.begin(d, cb);
                d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
                t.rect_colored(d, cb, RECT, COLOR, 1);
                d.cmd_end_render_pass(cb);
                t.read_back(d, cb, &out);
            });
            let n = if stats { vs_instructions(h, d, pipeline) } else { 0 };
            results.push((out.bytes().to_vec(), n));
            d.destroy_pipeline(pipeline, None);
            d.destroy_shader_module(fsm, None);
        }
        d.destroy_pipeline_cache(cache, None);
        d.destroy_shader_module(vs, None);
    }
    gpu.destroy_buffer(out);
    t.destroy(d);
    results
}

/// The "Instructions" statistic of `pipeline`'s vertex executable.
fn vs_instructions(h: &Harness, d: &ash_loaded::Device, pipeline: vk::Pipeline) -> u64 {
    let ext = {
        let _loader = ferrum_tests::loader_lock();
        ash_loaded::khr::pipeline_executable_properties::Device::new(&h.instance, d)
    };
    // SAFETY: a live pipeline created with CAPTURE_STATISTICS on a device with the feature.
    unsafe {
        let props = ext
            .get_pipeline_executable_properties(&vk::PipelineInfoKHR::default().pipeline(pipeline))
            .unwrap();
        let index = props.iter().position(|p| p.stages == vk::ShaderStageFlags::VERTEX).unwrap();
        let exe = vk::PipelineExecutableInfoKHR::default()
            .pipeline(pipeline)
            .executable_index(index as u32);
        let stats = ext.get_pipeline_executable_statistics(&exe).unwrap();
        let s = stats.iter().find(|s| s.name_as_c_str().unwrap().to_bytes() == b"Instructions");
        s.unwrap().value.u64
    }
}

#[test]
fn unread_outputs_go_and_pipelines_keep_their_own_vertex_shader() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let want: Vec<Vec<u8>> = cases().iter().map(|c| raster::painted(&[(RECT, c.1)])).collect();
    let lvp = h.physical_device_named("llvmpipe");
    let lgpu = Gpu::new(&h.instance, lvp, 0, 1, &[]);
    for (k, (img, _)) in render(&h, &lgpu, lvp, false).iter().enumerate() {
        assert!(raster::close(img, &want[k]), "llvmpipe: case {k}");
    }
    drop(lgpu);
    let pd = h.physical_device_named("Ferrum");
    let mut exe = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
        .pipeline_executable_info(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut exe);
    let ext = c"VK_KHR_pipeline_executable_properties";
    let gpu = Gpu::with_feature_chain(&h.instance, pd, 0, &[ext], &mut f2);
    let got = render(&h, &gpu, pd, true);
    for (k, (img, _)) in got.iter().enumerate() {
        assert!(raster::close(img, &want[k]), "Ferrum: case {k}");
    }
    // One output read (a or b) against two (a, b; costly is multiplied by 0 but read).
    let n: Vec<u64> = got.iter().map(|g| g.1).collect();
    assert!(n[0] < n[2] && n[1] < n[2], "vertex shader instructions {n:?}");
    drop(gpu);
    h.assert_clean();
}
