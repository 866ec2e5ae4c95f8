//! Alpha to one (the alphaToOne feature) alone and with alpha to coverage, at 1 and 4
//! samples, through the loader with the validation layer on, against lavapipe and against
//! values computed here (harness: `ferrum_tests::scene`).
//!
//! One triangle covers the RGBA8 target; the fragment shader outputs (0.8, 0.4, 0.2, a) with
//! a = 1 in columns 0..12, 0 in columns 12..24 and 0.6 beyond, blended SRC_ALPHA /
//! ONE_MINUS_SRC_ALPHA over the clear colour (0.2, 0.6, 1.0, 0) and resolved. The Vulkan
//! rules (§ Multisample Coverage): alpha to coverage uses the shader's alpha (coverage of
//! alpha 0 is no sample, of alpha 1 every sample; between them the bits are the
//! implementation's), and only then alpha to one replaces the alpha (so blending sees 1).
//! Hence, with alpha to one:
//! - alone: every pixel is the source colour, alpha 1 — (204, 102, 51, 255) exactly;
//! - with alpha to coverage: columns 0..12 are the source, columns 12..24 keep the clear
//!   colour (the coverage came from the shader's 0, not from the 1 alpha to one wrote), and
//!   every covered sample beyond holds the source with alpha 1, so a pixel with k of n
//!   samples covered resolves to (k·source + (n−k)·clear) / n: its alpha tells k.
//!
//! Lavapipe must agree wherever the result is exact (all pixels without alpha to coverage,
//! columns 0..24 with it).

use ash_loaded::vk;
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::opaque;
use ferrum_tests::scene::{
    compare, render_pass, resolve_render_pass, ColorTarget, Reader, Tolerance, H, W,
};
use ferrum_tests::{entry_with_lavapipe, Harness};

const VS: &str = "#version 450
void main() {
    vec2 c = vec2(float(gl_VertexIndex & 1) * 4.0 - 1.0, float(gl_VertexIndex >> 1) * 4.0 - 1.0);
    gl_Position = vec4(c, 0.5, 1.0);
}
";

/// Column boundaries at whole pixels: the pixel centre decides (no sample straddles).
const FS: &str = "#version 450
layout(location = 0) out vec4 o;
void main() {
    float x = gl_FragCoord.x;
    o = vec4(0.8, 0.4, 0.2, x < 12.0 ? 1.0 : x < 24.0 ? 0.0 : 0.6);
}
";

const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// Multiples of 1/255: exact in UNORM8.
const CLEAR: [f32; 4] = [0.2, 0.6, 1.0, 0.0];
const CLEAR_TEXEL: [u8; 4] = [51, 153, 255, 0];
const SOURCE: [u8; 4] = [204, 102, 51, 255];
/// The first column whose alpha (0.6) gives implementation-dependent coverage.
const PARTIAL: u32 = 24;

#[derive(Clone, Copy, Debug)]
struct Case {
    samples: vk::SampleCountFlags,
    alpha_to_coverage: bool,
    alpha_to_one: bool,
}

impl Case {
    fn name(&self) -> String {
        format!(
            "{}x{}{}",
            self.samples.as_raw(),
            if self.alpha_to_coverage { " alpha to coverage" } else { "" },
            if self.alpha_to_one { " alpha to one" } else { "" }
        )
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for samples in [vk::SampleCountFlags::TYPE_1, vk::SampleCountFlags::TYPE_4] {
        for (alpha_to_coverage, alpha_to_one) in [(false, true), (true, false), (true, true)] {
            out.push(Case { samples, alpha_to_coverage, alpha_to_one });
        }
    }
    out
}

/// Renders `c` on `gpu`: the (resolved) target's texels as packed RGBA8.
fn render(gpu: &Gpu, c: &Case) -> Vec<u32> {
    let d = &gpu.device;
    let target = ColorTarget::new(gpu, FORMAT);
    let msaa = c.samples != vk::SampleCountFlags::TYPE_1;
    let ms = msaa.then(|| ColorTarget::multisampled(gpu, FORMAT, c.samples));
    let reader = Reader::of(gpu, &target);
    // SAFETY: valid render pass create infos on a live device; the set-up takes the pass over.
    let pass = unsafe {
        match &ms {
            Some(_) => resolve_render_pass(d, FORMAT, c.samples),
            None => render_pass(d, FORMAT, vk::AttachmentLoadOp::CLEAR),
        }
    };
    let views: Vec<vk::ImageView> = ms.iter().map(|m| m.view).chain([target.view]).collect();
    let mut setup = DrawSetup::new(d, &SetupDesc::new(pass, &views, (W, H), [VS, FS]));
    let mut desc = setup.desc();
    desc.viewport = Some(ferrum_tests::pipeline::viewport(W, H));
    desc.samples = c.samples;
    desc.alpha_to_coverage = c.alpha_to_coverage;
    desc.alpha_to_one = c.alpha_to_one;
    desc.blend = vec![{
        use vk::BlendFactor as F;
        opaque()
            .blend_enable(true)
            .src_color_blend_factor(F::SRC_ALPHA)
            .dst_color_blend_factor(F::ONE_MINUS_SRC_ALPHA)
            .src_alpha_blend_factor(F::ONE)
            .dst_alpha_blend_factor(F::ZERO)
    }];
    let pipe = setup.pipeline(&desc);
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        setup.begin(cb, &[clear_color(CLEAR); 2]);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
        d.cmd_draw(cb, 3, 1, 0, 0);
        d.cmd_end_render_pass(cb);
        reader.record(d, cb);
    });
    let texels = reader.texels();
    drop((reader, setup));
    target.destroy(d);
    if let Some(m) = ms {
        m.destroy(d);
    }
    texels
}

/// The expected texel of column `x` where the spec makes it exact; `None` where alpha to
/// coverage of 0.6 leaves the covered samples to the implementation.
fn exact(c: &Case, x: u32) -> Option<[u8; 4]> {
    match (c.alpha_to_coverage, x) {
        (false, _) if c.alpha_to_one => Some(SOURCE),
        (true, x) if x < 12 => Some(SOURCE),
        (true, x) if x < PARTIAL => Some(CLEAR_TEXEL),
        _ => None,
    }
}

/// Differences of `got` from the hand-computed values of `c`, as messages. In the partial
/// columns with both features, alpha = k/n·255 names the covered count k and the colour
/// must be (k·source + (n−k)·clear)/n, within the resolve's rounding.
fn check(c: &Case, got: &[u32]) -> Vec<String> {
    let n = c.samples.as_raw() as i32;
    let mut bad = Vec::new();
    let mut partial_counts = std::collections::BTreeSet::new();
    for y in 0..H {
        for x in 0..W {
            let g = got[(y * W + x) as usize].to_le_bytes();
            let want = match exact(c, x) {
                Some(w) => w,
                None if c.alpha_to_coverage && c.alpha_to_one => {
                    let k = (i32::from(g[3]) * n + 127) / 255;
                    partial_counts.insert(k);
                    std::array::from_fn(|i| {
                        let (s, b) = (i32::from(SOURCE[i]), i32::from(CLEAR_TEXEL[i]));
                        ((k * s + (n - k) * b) as f32 / n as f32).round() as u8
                    })
                }
                None => continue,
            };
            if (0..4).any(|i| (i32::from(g[i]) - i32::from(want[i])).abs() > 1) {
                bad.push(format!("{}: ({x}, {y}) is {g:?}, want {want:?}", c.name()));
            }
        }
    }
    // The partial columns must not be all one thing: 0.6 covers some samples somewhere.
    if c.alpha_to_coverage && c.alpha_to_one && !partial_counts.iter().any(|&k| k > 0) {
        bad.push(format!("{}: alpha 0.6 covered no sample anywhere", c.name()));
    }
    bad
}

#[test]
fn alpha_to_one_matches_lavapipe_and_the_spec() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let wanted = vk::PhysicalDeviceFeatures { alpha_to_one: vk::TRUE, ..Default::default() };
    for pd in [lvp_pd, ours_pd] {
        // SAFETY: live physical devices.
        let f = unsafe { h.instance.get_physical_device_features(pd) };
        assert_eq!(f.alpha_to_one, vk::TRUE);
    }
    let lvp_gpu = Gpu::with_features(&h.instance, lvp_pd, 0, &wanted);
    let ours_gpu = Gpu::with_features(&h.instance, ours_pd, 0, &wanted);
    let mut failures = Vec::new();
    for c in cases() {
        let mut lvp = render(&lvp_gpu, &c);
        let mut ours = render(&ours_gpu, &c);
        failures.extend(check(&c, &ours).into_iter().take(4));
        failures.extend(check(&c, &lvp).into_iter().take(4).map(|m| format!("lavapipe: {m}")));
        // Compare where the result is exact.
        for (i, (o, l)) in ours.iter_mut().zip(lvp.iter_mut()).enumerate() {
            if exact(&c, i as u32 % W).is_none() {
                (*o, *l) = (0, 0);
            }
        }
        let exact_only = Tolerance { channel: 0, slack: 0 };
        if let Err(e) = compare(&c.name(), &ours, &lvp, exact_only) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
