//! Per-sample fragment shading through the loader (validation layer on), against values
//! computed here from Vulkan's standard sample locations. Lavapipe is not run: the installed
//! one aborts in a worker thread (heap corruption inside libvulkan_lvp) on these scenes;
//! `FERRUM_MSAA_SHADING_LAVAPIPE=1` runs it too.
//!
//! Each scene draws one triangle covering the whole 4x RGBA32F target (cleared to 0) with a
//! pipeline sample mask of one sample `k`, and resolves it: only sample `k` is written, so
//! the resolved value is a quarter of what the invocation shading sample `k` output, exactly
//! (the values are multiples of 1/64). The shaders read gl_SampleID, gl_SamplePosition and
//! gl_SampleMaskIn (which make the shader run per sample), a `sample`-qualified input, and
//! interpolateAtSample / AtOffset / AtCentroid of a `noperspective` input that is a linear
//! function of the window position, so every interpolation has one exact answer at
//! every pixel (derivative-based offsets are exact on linear functions). Alpha to coverage
//! is checked the same way: the resolved alpha is the covered fraction of each pixel.

use ash_loaded::{vk, Device};
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::{Gpu, ViewedImage};
use ferrum_tests::pipeline::viewport;
use ferrum_tests::scene::copy_layers;
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 8;
const H: u32 = 8;
const FORMAT: vk::Format = vk::Format::R32G32B32A32_SFLOAT;
const SAMPLES: vk::SampleCountFlags = vk::SampleCountFlags::TYPE_4;
/// Vulkan's standard 4x locations in 1/16 pixel from the top-left corner.
const LOCS: [(f32, f32); 4] = [(6.0, 2.0), (14.0, 6.0), (2.0, 10.0), (10.0, 14.0)];

fn fs(body: &str) -> String {
    format!(
        "#version 450
layout(location = 0) noperspective in vec2 p;
layout(location = 1) noperspective sample in vec2 ps;
layout(location = 0) out vec4 o;
void main() {{ {body} }}
"
    )
}

/// One triangle covering the target; `p` (and its copy `ps`, read as a `sample` input) is the
/// window position scaled by 1/16, interpolated without perspective.
const VS2: &str = "#version 450
layout(location = 0) noperspective out vec2 p;
layout(location = 1) noperspective out vec2 ps;
void main() {
    vec2 c = vec2(float(gl_VertexIndex & 1) * 4.0 - 1.0, float(gl_VertexIndex >> 1) * 4.0 - 1.0);
    gl_Position = vec4(c, 0.0, 1.0);
    p = (c * 0.5 + 0.5) * vec2(8.0, 8.0) / 16.0;
    ps = p;
}
";

struct Case {
    name: &'static str,
    body: &'static str,
    /// The value sample `k` of pixel (x, y) gets.
    want: fn(k: usize, x: f32, y: f32) -> [f32; 4],
    alpha_to_coverage: bool,
}

/// `p` at window position (x, y) (pixel corner plus the offset in pixels).
fn p_at(x: f32, y: f32) -> [f32; 2] {
    [x / 16.0, y / 16.0]
}

fn sample_pos(k: usize) -> (f32, f32) {
    (LOCS[k].0 / 16.0, LOCS[k].1 / 16.0)
}

const CASES: &[Case] = &[
    Case {
        name: "gl_SampleID and gl_SamplePosition",
        body: "o = vec4(gl_SamplePosition, float(gl_SampleID) / 4.0, 1.0);",
        want: |k, _, _| {
            let (sx, sy) = sample_pos(k);
            [sx, sy, k as f32 / 4.0, 1.0]
        },
        alpha_to_coverage: false,
    },
    Case {
        name: "gl_SampleMaskIn per sample",
        body: "o = vec4(float(gl_SampleMaskIn[0]) / 16.0, float(gl_SampleID) / 4.0, 0.0, 1.0);",
        want: |k, _, _| [(1 << k) as f32 / 16.0, k as f32 / 4.0, 0.0, 1.0],
        alpha_to_coverage: false,
    },
    Case {
        name: "sample-qualified input",
        body: "o = vec4(ps, 0.0, 1.0);",
        want: |k, x, y| {
            let (sx, sy) = sample_pos(k);
            let v = p_at(x + sx, y + sy);
            [v[0], v[1], 0.0, 1.0]
        },
        alpha_to_coverage: false,
    },
    Case {
        name: "interpolateAtSample of a centre input",
        body: "o = vec4(interpolateAtSample(p, 3), interpolateAtSample(p, gl_SampleID));",
        want: |k, x, y| {
            let (ax, ay) = sample_pos(3);
            let (sx, sy) = sample_pos(k);
            let (a, b) = (p_at(x + ax, y + ay), p_at(x + sx, y + sy));
            [a[0], a[1], b[0], b[1]]
        },
        alpha_to_coverage: false,
    },
    Case {
        name: "interpolateAtOffset",
        body: "o = vec4(interpolateAtOffset(p, vec2(0.25, -0.375)), interpolateAtOffset(p, vec2(-0.5)));",
        want: |_, x, y| {
            let (a, c) = (p_at(x + 0.75, y + 0.125), p_at(x, y));
            [a[0], a[1], c[0], c[1]]
        },
        alpha_to_coverage: false,
    },
    Case {
        // The pipeline's sample mask leaves one covered sample, and the centroid is a covered
        // sample position (Ferrum applies the mask before choosing it, as PA_SC_AA_MASK does).
        name: "interpolateAtCentroid",
        body: "o = vec4(interpolateAtCentroid(p), 0.0, 1.0);",
        want: |k, x, y| {
            let (sx, sy) = sample_pos(k);
            let c = p_at(x + sx, y + sy);
            [c[0], c[1], 0.0, 1.0]
        },
        alpha_to_coverage: false,
    },
    Case {
        name: "alpha to coverage: alpha 0 and 1",
        // Alpha 1 in the left half, 0 in the right half (no pixel straddles x = 4).
        body: "o = vec4(1.0, 0.5, 0.25, gl_FragCoord.x < 4.0 ? 1.0 : 0.0);",
        want: |_, x, _| if x < 4.0 { [1.0, 0.5, 0.25, 1.0] } else { [0.0; 4] },
        alpha_to_coverage: true,
    },
];

unsafe fn pass(d: &Device) -> vk::RenderPass {
    let att = |samples, load| {
        vk::AttachmentDescription::default()
            .format(FORMAT)
            .samples(samples)
            .load_op(load)
            .store_op(vk::AttachmentStoreOp::STORE)
            .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
            .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
    };
    let atts = [
        att(SAMPLES, vk::AttachmentLoadOp::CLEAR),
        att(vk::SampleCountFlags::TYPE_1, vk::AttachmentLoadOp::DONT_CARE),
    ];
    let layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
    let refs = [vk::AttachmentReference { attachment: 0, layout }];
    let resolves = [vk::AttachmentReference { attachment: 1, layout }];
    let subs = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&refs)
        .resolve_attachments(&resolves)];
    let deps = [vk::SubpassDependency::default()
        .src_subpass(0)
        .dst_subpass(vk::SUBPASS_EXTERNAL)
        .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
        .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
        .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
        .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
    let info =
        vk::RenderPassCreateInfo::default().attachments(&atts).subpasses(&subs).dependencies(&deps);
    // SAFETY: forwarded to the caller.
    unsafe { d.create_render_pass(&info, None) }.expect("vkCreateRenderPass")
}

/// The pipeline of `setup` with sample mask `mask` (static full-target viewport, SAMPLES
/// samples, no blending).
fn pipeline(setup: &mut DrawSetup<'_>, mask: u32, alpha_to_coverage: bool) -> vk::Pipeline {
    let mut desc = setup.desc();
    desc.viewport = Some(viewport(W, H));
    desc.samples = SAMPLES;
    desc.sample_mask = Some(mask);
    desc.alpha_to_coverage = alpha_to_coverage;
    setup.pipeline(&desc)
}

fn image(gpu: &Gpu, samples: vk::SampleCountFlags) -> ViewedImage {
    use vk::ImageUsageFlags as U;
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(FORMAT)
        .extent(vk::Extent3D { width: W, height: H, depth: 1 })
        .mip_levels(1)
        .array_layers(1)
        .samples(samples)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(U::COLOR_ATTACHMENT | U::TRANSFER_SRC);
    gpu.viewed_image(&info, vk::ImageViewType::TYPE_2D, ferrum_tests::scene::color_range(1))
}

/// Renders case `c` with pipeline sample mask `1 << k`; returns the resolved texels.
fn render(gpu: &Gpu, c: &Case, k: usize) -> Vec<[f32; 4]> {
    let d = &gpu.device;
    let ms = image(gpu, SAMPLES);
    let resolved = image(gpu, vk::SampleCountFlags::TYPE_1);
    let size = u64::from(W * H * 16);
    let down = gpu.host_buffer(size);
    // SAFETY: a valid create info on a live device; the set-up takes the pass over.
    let rp = unsafe { pass(d) };
    let views = [ms.view, resolved.view];
    let fs = fs(c.body);
    let mut setup = DrawSetup::new(d, &SetupDesc::new(rp, &views, (W, H), [VS2, &fs]));
    let pipe = pipeline(&mut setup, 1 << k, c.alpha_to_coverage);
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        setup.begin(cb, &[clear_color([0.0; 4]); 2]);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
        d.cmd_draw(cb, 3, 1, 0, 0);
        d.cmd_end_render_pass(cb);
        copy_layers(d, cb, resolved.image, (W, H, 1), down.buffer);
    });
    drop(setup);
    ms.destroy(d);
    resolved.destroy(d);
    let b = down.bytes().to_vec();
    gpu.destroy_buffer(down);
    (0..(W * H) as usize)
        .map(|p| {
            core::array::from_fn(|c| {
                let o = 16 * p + 4 * c;
                f32::from_le_bytes(b[o..o + 4].try_into().unwrap())
            })
        })
        .collect()
}

/// Differences from the expected values of one case and sample, as messages.
fn check(c: &Case, k: usize, got: &[[f32; 4]]) -> Vec<String> {
    let mut bad = Vec::new();
    for y in 0..H {
        for x in 0..W {
            let want = (c.want)(k, x as f32, y as f32).map(|v| v / 4.0);
            let g = got[(y * W + x) as usize];
            if (0..4).any(|i| (g[i] - want[i]).abs() > 1e-6) {
                bad.push(format!("{}, sample {k}, ({x}, {y}): {g:?}, want {want:?}", c.name));
            }
        }
    }
    bad
}

#[test]
fn per_sample_shading_matches_the_standard_locations() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let features =
        vk::PhysicalDeviceFeatures { sample_rate_shading: vk::TRUE, ..Default::default() };
    let mut failures = Vec::new();
    let mut drivers = vec!["Ferrum"];
    if std::env::var_os("FERRUM_MSAA_SHADING_LAVAPIPE").is_some() {
        drivers.push("llvmpipe");
    }
    for name in drivers {
        let pd = h.physical_device_named(name);
        let gpu = Gpu::with_features(&h.instance, pd, 0, &features);
        for c in CASES {
            for k in 0..4 {
                let got = render(&gpu, c, k);
                failures
                    .extend(check(c, k, &got).into_iter().take(3).map(|m| format!("{name}: {m}")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
