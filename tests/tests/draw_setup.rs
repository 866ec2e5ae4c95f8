//! `draw::DrawSetup` destroys everything it owns: a set-up with a second render pass, an
//! extra shader module and two pipelines, dropped before its device, leaves the Khronos
//! validation layer nothing to report at vkDestroyDevice — while the same set-up forgotten
//! instead of dropped makes the layer report the leaked objects there (the control that shows
//! the oracle would catch a set-up that missed one).
//!
//! Both drivers are checked: lavapipe as the reference of what the layer reports, Ferrum as
//! the driver under test. The draw itself is checked too (the set-up's pass, framebuffer and
//! pipeline must work, not just exist): the clear colour and one rectangle, read back.

use ash_loaded::vk;
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::scene::{render_pass, ColorTarget, Reader, H, W};
use ferrum_tests::{entry_with_lavapipe, Harness};

/// A rectangle over the left half of the target (two triangles); the right half keeps the
/// clear colour.
const VS: &str = "#version 450
const vec2 P[6] = vec2[](vec2(-1.0, -1.0), vec2(0.0, -1.0), vec2(0.0, 1.0),
                         vec2(-1.0, -1.0), vec2(0.0, 1.0), vec2(-1.0, 1.0));
void main() { gl_Position = vec4(P[gl_VertexIndex], 0.5, 1.0); }
";

const FS: &str = "#version 450
layout(location = 0) out vec4 o;
void main() { o = vec4(1.0, 0.0, 1.0, 1.0); }
";

const FS_OTHER: &str = "#version 450
layout(location = 0) out vec4 o;
void main() { o = vec4(0.0, 1.0, 0.0, 1.0); }
";

const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// The clear colour, exact in UNORM8 (51, 102, 153, 255).
const CLEAR: [f32; 4] = [0.2, 0.4, 0.6, 1.0];

/// Draws with a full set-up on `gpu` and drops it (or forgets it, when `leak`); the texels.
fn draw(gpu: &Gpu, leak: bool) -> Vec<u32> {
    let d = &gpu.device;
    let target = ColorTarget::new(gpu, FORMAT);
    let reader = Reader::of(gpu, &target);
    // SAFETY: valid render pass create infos on a live device; the set-up takes them over.
    let passes = unsafe {
        [
            render_pass(d, FORMAT, vk::AttachmentLoadOp::CLEAR),
            render_pass(d, FORMAT, vk::AttachmentLoadOp::LOAD),
        ]
    };
    let views = [target.view];
    let mut setup = DrawSetup::new(d, &SetupDesc::new(passes[0], &views, (W, H), [VS, FS]));
    setup.own_pass(passes[1]);
    let other = setup.module(FS_OTHER, "frag");
    let mut desc = setup.desc();
    desc.viewport = Some(ferrum_tests::pipeline::viewport(W, H));
    let pipe = setup.pipeline(&desc);
    desc.fs = Some(other);
    // Made but never bound: the set-up must destroy it all the same.
    setup.pipeline(&desc);
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        setup.begin(cb, &[clear_color(CLEAR)]);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
        d.cmd_draw(cb, 6, 1, 0, 0);
        d.cmd_end_render_pass(cb);
        reader.record(d, cb);
    });
    let texels = reader.texels();
    drop(reader);
    if leak {
        std::mem::forget(setup);
    } else {
        drop(setup);
    }
    target.destroy(d);
    texels
}

/// The texels the draw must give: magenta left of the centre column, the clear colour right.
fn check(name: &str, texels: &[u32]) {
    let (magenta, clear) = (0xffff_00ffu32, 0xff99_6633u32);
    for y in 0..H {
        for x in 0..W {
            let got = texels[(y * W + x) as usize];
            // Column W/2 holds the edge at x = 18.5 (pixel centres 18.5 lie on it for W = 37):
            // either value is right there.
            let want: &[u32] = match (x * 2 + 1).cmp(&W) {
                std::cmp::Ordering::Less => &[magenta],
                std::cmp::Ordering::Equal => &[magenta, clear],
                std::cmp::Ordering::Greater => &[clear],
            };
            assert!(want.contains(&got), "{name}: ({x}, {y}) is {got:08x}, want {want:08x?}");
        }
    }
}

#[test]
fn a_dropped_set_up_leaves_nothing_and_a_forgotten_one_is_reported() {
    for name in ["llvmpipe", "Ferrum"] {
        let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
        let pd = h.physical_device_named(name);
        let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
        check(name, &draw(&gpu, false));
        drop(gpu);
        h.assert_clean();

        let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
        check(name, &draw(&gpu, true));
        drop(gpu);
        // Exactly the set-up's nine objects are reported as leaked: two passes, the
        // framebuffer, the layout, three modules and two pipelines.
        let msgs = h.messages();
        let leaks = msgs.iter().filter(|m| m.contains("VUID-vkDestroyDevice-device-00378"));
        assert_eq!(
            (leaks.count(), msgs.len()),
            (9, 9),
            "{name}: a forgotten set-up's leaks, as reported:\n{}",
            msgs.join("\n")
        );
    }
}
