//! Pipeline state of the logicOp, dualSrcBlend, fillModeNonSolid and multiViewport features,
//! differential against lavapipe through the loader with the validation layer on (harness:
//! `ferrum_tests::scene`): every logic op on a UNORM target and one on a float target (where
//! Vulkan does not apply it), dual-source blending with the SRC1 factors, polygon modes LINE
//! and POINT with and without face culling, and three viewports and scissors, static and
//! dynamic (vkCmdSetViewport/Scissor with a first index above 0 must not disturb viewport 0,
//! which is the only one used without a viewport-index output).
//!
//! Two triangles of opposite winding that overlap, each with its own flat colour and an
//! interpolated second colour, drawn over a clear colour. The colours are multiples of 1/255
//! so a UNORM target holds them exactly and the logic ops see the same bits on both drivers.

use ash_loaded::vk;
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::opaque;
use ferrum_tests::scene::{
    compare, full_rect, render_pass, ColorTarget, Reader, Tolerance, DEFAULT_TOLERANCE, EDGE_SLACK,
    H, W,
};
use ferrum_tests::{entry_with_lavapipe, Harness};

/// Triangle 0 (vertices 0..3) is counter-clockwise in NDC, triangle 1 clockwise. No vertex
/// lands within 0.1 pixel of a pixel-centre boundary, so points and edges are far from ties.
const VS: &str = "#version 450
layout(location = 0) flat out vec4 color;
layout(location = 1) out vec4 second;
void main() {
    int i = gl_VertexIndex;
    vec2 p = i == 0 ? vec2(-0.8, -0.7) : i == 1 ? vec2(0.6, -0.9) : i == 2 ? vec2(-0.2, 0.8)
           : i == 3 ? vec2(0.9, 0.85) : i == 4 ? vec2(0.7, -0.5) : vec2(-0.6, 0.3);
    gl_Position = vec4(p, 0.5, 1.0);
    gl_PointSize = 1.0;
    color = i < 3 ? vec4(53.0, 202.0, 95.0, 144.0) / 255.0
                  : vec4(240.0, 15.0, 170.0, 60.0) / 255.0;
    second = vec4(fract(p * 0.7 + 0.5), 0.3, 0.8);
}
";

/// Declares `second` too, so the interfaces match (the validation layer warns otherwise).
const FS_FLAT: &str = "#version 450
layout(location = 0) flat in vec4 color;
layout(location = 1) in vec4 second;
layout(location = 0) out vec4 o;
void main() { o = color; }
";

/// Two outputs at location 0: index 0 is the source colour, index 1 the second source.
const FS_DUAL: &str = "#version 450
layout(location = 0) flat in vec4 color;
layout(location = 1) in vec4 second;
layout(location = 0, index = 0) out vec4 src0;
layout(location = 0, index = 1) out vec4 src1;
void main() {
    src0 = second;
    src1 = vec4(color.bgr, 1.0 - second.x);
}
";

/// Clear colour: multiples of 1/255 (exact in UNORM8, no rounding tie).
const CLEAR: [f32; 4] = [60.0 / 255.0, 130.0 / 255.0, 200.0 / 255.0, 250.0 / 255.0];

/// Logic ops are exact on bits: any colour difference is a wrong op. Edge pixels as the
/// harness allows (coverage within sub-pixel precision of an edge).
const EXACT: Tolerance = Tolerance { channel: 0, slack: EDGE_SLACK };

#[derive(Clone, Copy, Debug)]
enum Viewports {
    /// One static viewport over the target.
    One,
    /// Three static viewports; viewport 0 a sub-rectangle.
    Static,
    /// Three dynamic viewports and scissors, set with first indices 0, then 1 and 2.
    Dynamic,
}

#[derive(Clone, Copy)]
struct Case {
    name: &'static str,
    format: vk::Format,
    fs: &'static str,
    blend: vk::PipelineColorBlendAttachmentState,
    logic_op: Option<vk::LogicOp>,
    polygon: vk::PolygonMode,
    cull: vk::CullModeFlags,
    viewports: Viewports,
    tolerance: Tolerance,
}

fn base(name: &'static str) -> Case {
    Case {
        name,
        format: vk::Format::R8G8B8A8_UNORM,
        fs: FS_FLAT,
        blend: opaque(),
        logic_op: None,
        polygon: vk::PolygonMode::FILL,
        cull: vk::CullModeFlags::NONE,
        viewports: Viewports::One,
        tolerance: DEFAULT_TOLERANCE,
    }
}

const LOGIC_OPS: [(vk::LogicOp, &str); 16] = [
    (vk::LogicOp::CLEAR, "logic clear"),
    (vk::LogicOp::AND, "logic and"),
    (vk::LogicOp::AND_REVERSE, "logic and_reverse"),
    (vk::LogicOp::COPY, "logic copy"),
    (vk::LogicOp::AND_INVERTED, "logic and_inverted"),
    (vk::LogicOp::NO_OP, "logic no_op"),
    (vk::LogicOp::XOR, "logic xor"),
    (vk::LogicOp::OR, "logic or"),
    (vk::LogicOp::NOR, "logic nor"),
    (vk::LogicOp::EQUIVALENT, "logic equivalent"),
    (vk::LogicOp::INVERT, "logic invert"),
    (vk::LogicOp::OR_REVERSE, "logic or_reverse"),
    (vk::LogicOp::COPY_INVERTED, "logic copy_inverted"),
    (vk::LogicOp::OR_INVERTED, "logic or_inverted"),
    (vk::LogicOp::NAND, "logic nand"),
    (vk::LogicOp::SET, "logic set"),
];

/// Dual-source equations: colour = src0 * src1 + dst * (1 - src1) and alpha likewise with
/// src1's alpha; or colour = src0 + dst * src1.a with alpha = 0 * dst - src0.a * (1 - src1.a)
/// (REVERSE_SUBTRACT, clamped to 0 by the UNORM target).
fn dual(first: bool) -> vk::PipelineColorBlendAttachmentState {
    use vk::{BlendFactor as F, BlendOp as O};
    let on = opaque().blend_enable(true).color_blend_op(O::ADD).alpha_blend_op(O::ADD);
    if first {
        on.src_color_blend_factor(F::SRC1_COLOR)
            .dst_color_blend_factor(F::ONE_MINUS_SRC1_COLOR)
            .src_alpha_blend_factor(F::SRC1_ALPHA)
            .dst_alpha_blend_factor(F::ONE_MINUS_SRC1_ALPHA)
    } else {
        on.src_color_blend_factor(F::ONE)
            .dst_color_blend_factor(F::SRC1_ALPHA)
            .src_alpha_blend_factor(F::ONE_MINUS_SRC1_ALPHA)
            .dst_alpha_blend_factor(F::ZERO)
            .alpha_blend_op(O::REVERSE_SUBTRACT)
    }
}

fn cases() -> Vec<Case> {
    let mut out: Vec<Case> = LOGIC_OPS
        .iter()
        .map(|&(op, name)| Case { logic_op: Some(op), tolerance: EXACT, ..base(name) })
        .collect();
    // "Logical operations are not applied to floating-point or sRGB format color
    // attachments": the source is written as is.
    out.push(Case {
        format: vk::Format::R16G16B16A16_SFLOAT,
        logic_op: Some(vk::LogicOp::XOR),
        ..base("logic xor on a float target (not applied)")
    });
    // Where the triangles overlap the second blends onto the first's result, which was
    // rounded to UNORM8 (a tie may round either way) from interpolated inputs: two roundings
    // and the interpolation precision add up to 2/255.
    let twice = Tolerance { channel: 2, ..DEFAULT_TOLERANCE };
    let dual_case =
        |name, first| Case { fs: FS_DUAL, blend: dual(first), tolerance: twice, ..base(name) };
    out.push(dual_case("dual source SRC1 colour/alpha", true));
    out.push(dual_case("dual source ONE + SRC1_ALPHA", false));
    // Lines: 1-pixel non-strict lines, whose coverage may differ from lavapipe's where a
    // line's edge passes within sub-pixel precision of a centre (as the corpus's line
    // scenes allow), over six edges.
    let lines = Tolerance { channel: 1, slack: 16 };
    let line =
        |name, cull| Case { polygon: vk::PolygonMode::LINE, cull, tolerance: lines, ..base(name) };
    out.push(line("polygon mode line", vk::CullModeFlags::NONE));
    out.push(line("polygon mode line, back faces culled", vk::CullModeFlags::BACK));
    // Size-1 points cover the one pixel whose centre lies in their square: exact.
    let points = Tolerance { channel: 0, slack: 0 };
    let point = |name, cull| Case {
        polygon: vk::PolygonMode::POINT,
        cull,
        tolerance: points,
        ..base(name)
    };
    out.push(point("polygon mode point", vk::CullModeFlags::NONE));
    out.push(point("polygon mode point, front faces culled", vk::CullModeFlags::FRONT));
    out.push(Case { viewports: Viewports::Static, ..base("three static viewports") });
    out.push(Case { viewports: Viewports::Dynamic, ..base("three dynamic viewports") });
    out
}

fn viewport(x: f32, y: f32, w: f32, h: f32) -> vk::Viewport {
    vk::Viewport { x, y, width: w, height: h, min_depth: 0.0, max_depth: 1.0 }
}

fn rect(x: i32, y: i32, w: u32, h: u32) -> vk::Rect2D {
    vk::Rect2D { offset: vk::Offset2D { x, y }, extent: vk::Extent2D { width: w, height: h } }
}

/// Viewport 0 of the multi-viewport cases, then two that would draw elsewhere.
fn three_viewports() -> [vk::Viewport; 3] {
    [
        viewport(4.0, 3.0, 25.0, 15.0),
        viewport(0.0, 0.0, W as f32, H as f32),
        viewport(20.0, 0.0, 10.0, 10.0),
    ]
}

/// Renders `c` on `gpu`: the target's texels as packed RGBA8.
fn render(gpu: &Gpu, c: &Case) -> Vec<u32> {
    let d = &gpu.device;
    let target = ColorTarget::new(gpu, c.format);
    let reader = Reader::of(gpu, &target);
    // SAFETY: a valid render pass create info on a live device; the set-up takes it over.
    let pass = unsafe { render_pass(d, c.format, vk::AttachmentLoadOp::CLEAR) };
    let views = [target.view];
    let mut setup = DrawSetup::new(d, &SetupDesc::new(pass, &views, (W, H), [VS, c.fs]));
    let mut desc = setup.desc();
    desc.rasterization = desc.rasterization.polygon_mode(c.polygon).cull_mode(c.cull);
    desc.blend = vec![c.blend];
    desc.logic_op = c.logic_op;
    let [v0, v1, v2] = three_viewports();
    match c.viewports {
        Viewports::One => desc.viewport = Some(viewport(0.0, 0.0, W as f32, H as f32)),
        Viewports::Static => {
            desc.viewport = Some(v0);
            desc.more_viewports = vec![v1, v2];
        }
        Viewports::Dynamic => desc.more_viewports = vec![v1, v2],
    }
    let pipe = setup.pipeline(&desc);
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        setup.begin(cb, &[clear_color(CLEAR)]);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
        if let Viewports::Dynamic = c.viewports {
            // Viewport 0 is v0 scissored to its left part; the later calls change only
            // viewports and scissors 1 and 2.
            d.cmd_set_viewport(cb, 0, &[v0, v0, v0]);
            d.cmd_set_scissor(cb, 0, &[rect(2, 1, 20, 18), full_rect(), full_rect()]);
            d.cmd_set_viewport(cb, 1, &[v1, v2]);
            d.cmd_set_scissor(cb, 2, &[rect(25, 0, 12, 23)]);
        }
        d.cmd_draw(cb, 6, 1, 0, 0);
        d.cmd_end_render_pass(cb);
        reader.record(d, cb);
    });
    let texels = reader.texels();
    drop((reader, setup));
    target.destroy(d);
    texels
}

/// The features the cases use, which both drivers report.
fn features() -> vk::PhysicalDeviceFeatures {
    vk::PhysicalDeviceFeatures {
        logic_op: vk::TRUE,
        dual_src_blend: vk::TRUE,
        fill_mode_non_solid: vk::TRUE,
        multi_viewport: vk::TRUE,
        ..Default::default()
    }
}

#[test]
fn pipeline_state_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    // SAFETY: live physical devices.
    let ours_features = unsafe { h.instance.get_physical_device_features(ours_pd) };
    let wanted = features();
    assert_eq!(
        (ours_features.logic_op, ours_features.dual_src_blend),
        (wanted.logic_op, wanted.dual_src_blend)
    );
    assert_eq!(
        (ours_features.fill_mode_non_solid, ours_features.multi_viewport),
        (wanted.fill_mode_non_solid, wanted.multi_viewport)
    );
    let lvp_gpu = Gpu::with_features(&h.instance, lvp_pd, 0, &wanted);
    let ours_gpu = Gpu::with_features(&h.instance, ours_pd, 0, &wanted);
    let mut failures = Vec::new();
    for c in cases() {
        let lvp = render(&lvp_gpu, &c);
        // Sanity: something was drawn over the clear colour (NO_OP keeps it).
        let drawn = lvp.iter().any(|&t| t != lvp[0]);
        assert_eq!(drawn, c.logic_op != Some(vk::LogicOp::NO_OP), "{}: lavapipe", c.name);
        let ours = render(&ours_gpu, &c);
        if let Err(e) = compare(c.name, &ours, &lvp, c.tolerance) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
