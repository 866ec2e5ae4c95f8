//! Pipeline derivatives (VK_PIPELINE_CREATE_DERIVATIVE_BIT) through the loader, validation
//! on, on Ferrum and lavapipe: one vkCreateGraphicsPipelines call makes a base pipeline
//! (ALLOW_DERIVATIVES) and a derivative naming it by basePipelineIndex; a second call makes a
//! derivative naming the base by basePipelineHandle. Each pipeline has its own fragment
//! shader and blend state; each draws a triangle covering the target, and the texels must be
//! the colour that pipeline's own state gives (hand-computed, exact in UNORM8) — a derivative
//! takes nothing from its parent.

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::{opaque, viewport, GraphicsDesc};
use ferrum_tests::scene::{full_rect, module, render_pass, ColorTarget, Reader, H, W};
use ferrum_tests::{entry_with_lavapipe, Harness};

const VS: &str = "#version 450
void main() {
    vec2 c = vec2(float(gl_VertexIndex & 1) * 4.0 - 1.0, float(gl_VertexIndex >> 1) * 4.0 - 1.0);
    gl_Position = vec4(c, 0.5, 1.0);
}
";

const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// The clear colour, multiples of 1/255.
const CLEAR: [f32; 4] = [0.2, 0.4, 0.6, 1.0];

fn fs(color: [f32; 4]) -> String {
    let [r, g, b, a] = color;
    format!(
        "#version 450
layout(location = 0) out vec4 o;
void main() {{ o = vec4({r:.6}, {g:.6}, {b:.6}, {a:.6}); }}
"
    )
}

/// Shader colours of the base, the derivative by index and the one by handle; the last is
/// blended 50 % (SRC_ALPHA, alpha 0.6 → 0.6·src + 0.4·clear).
const COLORS: [[f32; 4]; 3] = [[0.8, 0.0, 1.0, 1.0], [0.0, 1.0, 0.2, 1.0], [1.0, 0.6, 0.0, 0.6]];

/// The expected RGBA8 texels, in the order of [`COLORS`].
fn expected() -> [[u8; 4]; 3] {
    let unorm = |v: f32| (v * 255.0).round() as u8;
    let blended = |i: usize| 0.6 * COLORS[2][i] + 0.4 * CLEAR[i];
    [
        COLORS[0].map(unorm),
        COLORS[1].map(unorm),
        [unorm(blended(0)), unorm(blended(1)), unorm(blended(2)), unorm(0.6 * 0.6 + 0.4)],
    ]
}

/// Creates the three pipelines as the module comment says and draws with each; returns each
/// target's texels.
fn render(gpu: &Gpu) -> Vec<Vec<u32>> {
    let d = &gpu.device;
    // SAFETY: valid create infos and commands on live handles; all destroyed after the GPU
    // is idle.
    unsafe {
        let pass = render_pass(d, FORMAT, vk::AttachmentLoadOp::CLEAR);
        let layout =
            d.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None).unwrap();
        let vs = module(d, VS, "vert");
        let fss: Vec<vk::ShaderModule> =
            COLORS.iter().map(|&c| module(d, &fs(c), "frag")).collect();
        let desc = |i: usize| {
            let mut g = GraphicsDesc::new(pass, layout, [vs, fss[i]]);
            g.viewport = Some(viewport(W, H));
            g
        };
        let mut base = desc(0);
        base.flags = vk::PipelineCreateFlags::ALLOW_DERIVATIVES;
        let mut by_index = desc(1);
        by_index.flags = vk::PipelineCreateFlags::DERIVATIVE;
        let both = base.with_info(|b| {
            by_index.with_info(|x| {
                let x = x.base_pipeline_index(0).base_pipeline_handle(vk::Pipeline::null());
                d.create_graphics_pipelines(vk::PipelineCache::null(), &[b, x], None)
            })
        });
        let both = both.expect("base and derivative by index");
        let mut by_handle = desc(2);
        by_handle.flags = vk::PipelineCreateFlags::DERIVATIVE;
        by_handle.blend = vec![{
            use vk::BlendFactor as F;
            opaque()
                .blend_enable(true)
                .src_color_blend_factor(F::SRC_ALPHA)
                .dst_color_blend_factor(F::ONE_MINUS_SRC_ALPHA)
                .src_alpha_blend_factor(F::SRC_ALPHA)
                .dst_alpha_blend_factor(F::ONE_MINUS_SRC_ALPHA)
        }];
        let third = by_handle.with_info(|x| {
            let x = x.base_pipeline_handle(both[0]).base_pipeline_index(-1);
            d.create_graphics_pipelines(vk::PipelineCache::null(), &[x], None)
        });
        let pipes = [both[0], both[1], third.expect("derivative by handle")[0]];
        let mut out = Vec::new();
        for &pipe in &pipes {
            let target = ColorTarget::new(gpu, FORMAT);
            let reader = Reader::of(gpu, &target);
            let views = [target.view];
            let fb_info = vk::FramebufferCreateInfo::default()
                .render_pass(pass)
                .attachments(&views)
                .width(W)
                .height(H)
                .layers(1);
            let fb = d.create_framebuffer(&fb_info, None).unwrap();
            let clear = [vk::ClearValue { color: vk::ClearColorValue { float32: CLEAR } }];
            gpu.run(|d, cb| {
                let begin = vk::RenderPassBeginInfo::default()
                    .render_pass(pass)
                    .framebuffer(fb)
                    .render_area(full_rect())
                    .clear_values(&clear);
                d.cmd_begin_render_pass(cb, &begin, vk::SubpassContents::INLINE);
                d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
                d.cmd_draw(cb, 3, 1, 0, 0);
                d.cmd_end_render_pass(cb);
                reader.record(d, cb);
            });
            out.push(reader.texels());
            drop(reader);
            d.destroy_framebuffer(fb, None);
            target.destroy(d);
        }
        for p in pipes {
            d.destroy_pipeline(p, None);
        }
        for m in fss.into_iter().chain([vs]) {
            d.destroy_shader_module(m, None);
        }
        d.destroy_pipeline_layout(layout, None);
        d.destroy_render_pass(pass, None);
        out
    }
}

#[test]
fn derivative_pipelines_draw_with_their_own_state() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let want = expected();
    let mut failures = Vec::new();
    for name in ["llvmpipe", "Ferrum"] {
        let gpu = Gpu::new(&h.instance, h.physical_device_named(name), 0, 1, &[]);
        for (i, texels) in render(&gpu).iter().enumerate() {
            if let Some(t) = texels.iter().find(|&&t| {
                let g = t.to_le_bytes();
                (0..4).any(|c| (i32::from(g[c]) - i32::from(want[i][c])).abs() > 1)
            }) {
                failures.push(format!(
                    "{name}: pipeline {i}: {:?}, want {:?}",
                    t.to_le_bytes(),
                    want[i]
                ));
            }
        }
        drop(gpu);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
