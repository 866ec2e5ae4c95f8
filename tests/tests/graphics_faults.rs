//! Device loss from the graphics stages: a fragment shader that never ends (the simulator's
//! per-wave instruction budget) and a vertex shader storing through a buffer device address
//! no memory backs (the GPU's page fault) each lose the device; every later command that must
//! report it returns VK_ERROR_DEVICE_LOST, the process goes on, and a new device on the same
//! physical device draws again.

#[path = "support/raster.rs"]
mod raster;

use std::time::Duration;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::GraphicsDesc;
use ferrum_tests::scene::module;
use ferrum_tests::Harness;
use raster::{Target, H, W};

/// The wall clock behind the counted budget; a runaway wave must be stopped by the budget
/// long before it.
const CLOCK: Duration = Duration::from_millis(4000);

/// A short hang detection (runaway waves stop after 2^16 instructions), set before the first
/// instance loads the driver (every test in this binary calls it first).
fn short_watchdog() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::env::set_var("FERRUM_SIM_WAVE_BUDGET", "65536");
        std::env::set_var("FERRUM_SIM_WATCHDOG_MS", CLOCK.as_millis().to_string());
    });
}

/// The pass-through vertex shader of the target's rectangles, for the endless fragment test.
const RECT_VS: &str = "#version 450
layout(push_constant) uniform P { uvec2 a; uint stop; } pc;
void main() {
    int i = gl_VertexIndex % 6;
    bool right = i == 1 || i == 2 || i == 4;
    bool bottom = i == 2 || i == 4 || i == 5;
    gl_Position = vec4(right ? 1.0 : -1.0, bottom ? 1.0 : -1.0, 0.0, 1.0);
}
";

/// `stop` is pushed as 0: the loop never ends.
const ENDLESS_FS: &str = "#version 450
layout(push_constant) uniform P { uvec2 a; uint stop; } pc;
layout(location = 0) out vec4 o;
void main() {
    uint n = 0u;
    while (pc.stop == 0u || n == 12345u) { n += 1u; }
    o = vec4(float(n));
}
";

/// Every vertex stores through the pushed address.
const STORING_VS: &str = "#version 450
#extension GL_EXT_buffer_reference : require
layout(buffer_reference, std430) buffer Out { uint v[]; };
layout(push_constant) uniform P { Out dst; } pc;
void main() {
    pc.dst.v[gl_VertexIndex] = 0xbadu;
    int i = gl_VertexIndex % 6;
    gl_Position = vec4(i == 1 ? 1.0 : -1.0, i == 2 ? 1.0 : -1.0, 0.0, 1.0);
}
";

const PLAIN_FS: &str = "#version 450
layout(location = 0) out vec4 o;
void main() { o = vec4(1.0); }
";

/// Draws one rectangle with `shaders` and `push` into a fresh target and expects the device
/// to be lost: the fence wait and every later wait or submission report it.
fn draw_and_lose(gpu: &Gpu, h: &Harness, pd: vk::PhysicalDevice, shaders: [&str; 2], push: &[u8]) {
    let d = &gpu.device;
    let t = Target::new(h, pd, gpu);
    let modules = [module(d, shaders[0], "vert"), module(d, shaders[1], "frag")];
    // SAFETY: valid create infos and commands on live handles; the loss is the point.
    unsafe {
        let pipeline = GraphicsDesc::new(t.pass, t.layout, modules).create(d);
        let cb = gpu.record(|d, cb| {
            t.begin(d, cb);
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
            let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
            d.cmd_push_constants(cb, t.layout, stages, 0, push);
            d.cmd_draw(cb, 6, 1, 0, 0);
            d.cmd_end_render_pass(cb);
        });
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        let cbs = [cb];
        d.queue_submit(gpu.queue, &[vk::SubmitInfo::default().command_buffers(&cbs)], fence)
            .unwrap();
        let start = std::time::Instant::now();
        assert_eq!(d.wait_for_fences(&[fence], true, u64::MAX), Err(vk::Result::ERROR_DEVICE_LOST));
        assert!(start.elapsed() < CLOCK, "the loss took {:?}: the clock's turn", start.elapsed());
        assert_eq!(d.get_fence_status(fence), Err(vk::Result::ERROR_DEVICE_LOST));
        assert_eq!(d.queue_wait_idle(gpu.queue), Err(vk::Result::ERROR_DEVICE_LOST));
        assert_eq!(d.device_wait_idle(), Err(vk::Result::ERROR_DEVICE_LOST));
        let submit = d.queue_submit(gpu.queue, &[], fence);
        assert_eq!(submit, Err(vk::Result::ERROR_DEVICE_LOST));
        d.destroy_fence(fence, None);
        d.destroy_pipeline(pipeline, None);
        for m in modules {
            d.destroy_shader_module(m, None);
        }
    }
    t.destroy(d);
}

/// A new device on the same physical device draws the target's rectangle exactly.
fn new_device_draws(h: &Harness, pd: vk::PhysicalDevice) {
    let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
    let d = &gpu.device;
    let t = Target::new(h, pd, &gpu);
    let out = gpu.host_buffer(u64::from(W * H * 4));
    let draw = ([3, 2, 30, 20], [1.0, 0.0, 0.0, 1.0]);
    gpu.run(|d, cb| {
        // SAFETY: recording on live handles.
        unsafe {
            t.begin(d, cb);
            t.rect_colored(d, cb, draw.0, draw.1, 1);
            d.cmd_end_render_pass(cb);
            t.read_back(d, cb, &out);
        }
    });
    assert!(raster::close(out.bytes(), &raster::painted(&[draw])), "the new device's draw");
    gpu.destroy_buffer(out);
    t.destroy(d);
}

#[test]
fn an_endless_fragment_shader_loses_the_device() {
    short_watchdog();
    let h = Harness::plain();
    let pd = h.physical_device();
    let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
    draw_and_lose(&gpu, &h, pd, [RECT_VS, ENDLESS_FS], &[0; 16]);
    drop(gpu);
    new_device_draws(&h, pd);
}

#[test]
fn a_vertex_shader_store_to_an_unbacked_address_loses_the_device() {
    short_watchdog();
    // Writing through an unbacked address is the invalid usage under test: no validation.
    let h = Harness::plain();
    let pd = h.physical_device();
    let mut bda =
        vk::PhysicalDeviceBufferDeviceAddressFeatures::default().buffer_device_address(true);
    let features = vk::PhysicalDeviceFeatures::default().vertex_pipeline_stores_and_atomics(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().features(features).push_next(&mut bda);
    let ext = [c"VK_KHR_buffer_device_address"];
    let gpu = Gpu::with_feature_chain(&h.instance, pd, 0, &ext, &mut f2);
    // Far above every allocation the test made, page aligned, inside the 48-bit VA space.
    let bad_address: u64 = 0x7f00_dead_0000;
    let mut push = bad_address.to_le_bytes().to_vec();
    push.extend([0; 8]);
    draw_and_lose(&gpu, &h, pd, [STORING_VS, PLAIN_FS], &push);
    drop(gpu);
    new_device_draws(&h, pd);
}
