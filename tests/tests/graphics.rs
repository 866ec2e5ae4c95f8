//! Draws through the loader, differential against lavapipe (validation layer on): a scene
//! corpus rendered into a cleared R8G8B8A8_UNORM target by a render pass, read back by a
//! compute shader's texelFetch into an SSBO. Scenes: one triangle with positions from
//! gl_VertexIndex and a constant colour; an interpolated colour; a strip with firstVertex;
//! an indexed quad with vertexOffset and a 16-bit index buffer; a dynamic viewport and
//! scissor; two render passes (clear, then load); culled triangles; vertex buffers with a
//! per-instance attribute and firstInstance; indirect and indexed indirect draws;
//! vkCmdClearAttachments of a rectangle; RGBA16F and RGBA32F targets; colour blending (source
//! over, dynamic blend constants with REVERSE_SUBTRACT/MAX and a partial write mask, MIN and
//! SUBTRACT with DST_ALPHA/SRC_ALPHA_SATURATE).
//!
//! Comparison (`ferrum_tests::scene`, the harness shared with graphics_scenes.rs): every
//! channel within 1/255: Vulkan's float → UNORM conversion may round a tie either way (the
//! clear colour's 0.3 × 255 = 76.5 gives 76 on lavapipe, 77 here) and interpolated colours
//! carry the interpolation precision; coverage must match except on pixels whose centre lies
//! within the sub-pixel precision of an edge (Vulkan lets coverage there go either way: at
//! most `EDGE_SLACK` such pixels per scene, all next to a pixel of the other value).

use ash_loaded::{vk, Device};
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::{attribute, binding, opaque};
use ferrum_tests::scene::{
    close, compare, render_pass, ColorTarget, Reader, Tolerance, DEFAULT_TOLERANCE, H, W,
};
use ferrum_tests::{entry_with_lavapipe, Harness};

/// Positions and colours computed from gl_VertexIndex (fract of golden-ratio steps).
const VS: &str = "#version 450
layout(location = 0) out vec3 color;
void main() {
    float i = float(gl_VertexIndex % 8);
    vec2 p = fract(vec2(i * 0.618, i * 0.382 + 0.1)) * 1.7 - 0.85;
    gl_Position = vec4(p, 0.0, 1.0);
    color = fract(vec3(i * 0.31, i * 0.57 + 0.2, i * 0.13 + 0.5));
}
";

/// Position, colour and a per-instance shift from vertex buffers.
const VS_INPUTS: &str = "#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 col;
layout(location = 2) in vec2 shift;
layout(location = 0) out vec3 color;
void main() {
    gl_Position = vec4(pos + shift, 0.0, 1.0);
    color = col.rgb * col.a;
}
";

const FS_FLAT: &str = "#version 450
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 o;
void main() { o = vec4(1.0, 0.5, 0.25, 0.75); }
";

const FS_SMOOTH: &str = "#version 450
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 o;
void main() { o = vec4(color, 1.0); }
";

/// One scene.
#[derive(Clone, Copy)]
struct Scene {
    name: &'static str,
    smooth: bool,
    topology: vk::PrimitiveTopology,
    cull: vk::CullModeFlags,
    /// Draw: Auto(count, first) or Indexed(count, first index, vertex offset).
    draw: DrawKind,
    /// Viewport and scissor (x, y, w, h); None = the whole target.
    viewport: Option<[f32; 4]>,
    scissor: Option<[i32; 4]>,
    /// A second render pass that loads the first one's result and draws this.
    second: Option<DrawKind>,
    /// Vertex buffers feed position, colour and a per-instance shift (VS_INPUTS).
    inputs: bool,
    /// vkCmdClearAttachments of this rectangle after the draw (x, y, w, h).
    clear_rect: Option<[i32; 4]>,
    /// The colour target's format.
    format: vk::Format,
    blend: Blend,
    /// depthBiasEnable with no depth attachment: no effect (CTS draw tests do this).
    depth_bias: bool,
}

/// Colour blending of the scene's pipeline.
#[derive(Clone, Copy, PartialEq)]
enum Blend {
    Off,
    /// Source over: SRC_ALPHA / ONE_MINUS_SRC_ALPHA, alpha ONE / ZERO.
    Over,
    /// CONSTANT_COLOR / ONE_MINUS_CONSTANT_ALPHA with REVERSE_SUBTRACT, alpha MAX; constants
    /// from vkCmdSetBlendConstants, write mask R|G|A.
    Constant,
    /// MIN on colour (factors ignored), alpha SUBTRACT of DST_ALPHA / SRC_ALPHA_SATURATE.
    MinSubtract,
}

/// Dynamic blend constants of `Blend::Constant`.
const CONSTANTS: [f32; 4] = [0.25, 0.5, 0.75, 0.375];

#[derive(Clone, Copy)]
enum DrawKind {
    Auto(u32, u32),
    Indexed(u32, u32, i32),
    /// vertexCount, firstVertex, instanceCount, firstInstance.
    Instanced(u32, u32, u32, u32),
    /// One indirect draw; indexed or not (arguments in `ARGS`).
    Indirect(bool),
}

/// A VkDrawIndirectCommand (3 vertices from 3) then at byte 16 a VkDrawIndexedIndirectCommand
/// (6 indices from index 1, vertexOffset 3).
const ARGS: [u32; 9] = [3, 1, 3, 0, 6, 1, 1, 3, 0];

const BASE: Scene = Scene {
    name: "triangle",
    smooth: false,
    topology: vk::PrimitiveTopology::TRIANGLE_LIST,
    cull: vk::CullModeFlags::NONE,
    draw: DrawKind::Auto(3, 0),
    viewport: None,
    scissor: None,
    second: None,
    inputs: false,
    clear_rect: None,
    format: vk::Format::R8G8B8A8_UNORM,
    blend: Blend::Off,
    depth_bias: false,
};

const SCENES: &[Scene] = &[
    BASE,
    Scene { name: "smooth colour", smooth: true, ..BASE },
    Scene {
        name: "strip with firstVertex",
        topology: vk::PrimitiveTopology::TRIANGLE_STRIP,
        draw: DrawKind::Auto(4, 3),
        smooth: true,
        ..BASE
    },
    Scene { name: "indexed quad, vertexOffset", draw: DrawKind::Indexed(6, 1, 3), ..BASE },
    Scene {
        name: "viewport and scissor",
        viewport: Some([5.0, 3.0, 24.0, 15.0]),
        scissor: Some([8, 2, 20, 11]),
        smooth: true,
        ..BASE
    },
    Scene { name: "two passes", second: Some(DrawKind::Auto(3, 3)), smooth: true, ..BASE },
    Scene { name: "back face culled", cull: vk::CullModeFlags::BACK, ..BASE },
    Scene { name: "front face culled", cull: vk::CullModeFlags::FRONT, ..BASE },
    Scene {
        name: "vertex buffers, instanced with firstInstance",
        inputs: true,
        smooth: true,
        draw: DrawKind::Instanced(3, 1, 2, 1),
        ..BASE
    },
    Scene { name: "draw indirect", draw: DrawKind::Indirect(false), ..BASE },
    Scene { name: "draw indexed indirect", draw: DrawKind::Indirect(true), ..BASE },
    Scene { name: "clear attachments", clear_rect: Some([3, 4, 20, 9]), smooth: true, ..BASE },
    Scene {
        name: "RGBA16F target",
        format: vk::Format::R16G16B16A16_SFLOAT,
        smooth: true,
        clear_rect: Some([3, 4, 20, 9]),
        ..BASE
    },
    Scene {
        name: "RGBA32F target, strip",
        format: vk::Format::R32G32B32A32_SFLOAT,
        topology: vk::PrimitiveTopology::TRIANGLE_STRIP,
        draw: DrawKind::Auto(5, 1),
        ..BASE
    },
    Scene { name: "blend over", blend: Blend::Over, draw: DrawKind::Auto(6, 0), ..BASE },
    Scene { name: "depth bias, no depth attachment", depth_bias: true, smooth: true, ..BASE },
    Scene {
        name: "blend constants (dynamic), RGBA16F",
        blend: Blend::Constant,
        format: vk::Format::R16G16B16A16_SFLOAT,
        draw: DrawKind::Auto(6, 0),
        ..BASE
    },
    Scene { name: "blend min/subtract", blend: Blend::MinSubtract, smooth: true, ..BASE },
    Scene {
        name: "BGRA8 target",
        format: vk::Format::B8G8R8A8_UNORM,
        smooth: true,
        clear_rect: Some([3, 4, 20, 9]),
        ..BASE
    },
    Scene {
        name: "blend over, BGRA8",
        blend: Blend::Over,
        format: vk::Format::B8G8R8A8_UNORM,
        draw: DrawKind::Auto(6, 0),
        ..BASE
    },
    Scene {
        name: "B10G11R11 target",
        format: vk::Format::B10G11R11_UFLOAT_PACK32,
        smooth: true,
        clear_rect: Some([3, 4, 20, 9]),
        ..BASE
    },
    Scene {
        name: "blend over, B10G11R11",
        blend: Blend::Over,
        format: vk::Format::B10G11R11_UFLOAT_PACK32,
        draw: DrawKind::Auto(6, 0),
        ..BASE
    },
    Scene {
        name: "blend over, RGBA32F",
        blend: Blend::Over,
        format: vk::Format::R32G32B32A32_SFLOAT,
        draw: DrawKind::Auto(6, 0),
        ..BASE
    },
];

/// Vertex buffer: 4 vertices (vec2 position, RGBA8 colour; 12 bytes each) at 0, 3 instance
/// shifts (vec2) at 128.
fn vertex_data() -> Vec<u8> {
    let mut out = vec![0u8; 160];
    let verts: [([f32; 2], [u8; 4]); 4] = [
        ([-0.7, -0.6], [255, 0, 0, 255]),
        ([0.65, -0.5], [0, 255, 0, 128]),
        ([-0.2, 0.75], [0, 0, 255, 255]),
        ([0.5, 0.6], [255, 255, 0, 255]),
    ];
    for (i, (p, c)) in verts.iter().enumerate() {
        out[12 * i..12 * i + 4].copy_from_slice(&p[0].to_le_bytes());
        out[12 * i + 4..12 * i + 8].copy_from_slice(&p[1].to_le_bytes());
        out[12 * i + 8..12 * i + 12].copy_from_slice(c);
    }
    for (i, d) in [[0.0f32, 0.0], [0.2, 0.15], [-0.3, 0.1]].iter().enumerate() {
        out[128 + 8 * i..132 + 8 * i].copy_from_slice(&d[0].to_le_bytes());
        out[132 + 8 * i..136 + 8 * i].copy_from_slice(&d[1].to_le_bytes());
    }
    out
}

/// 16-bit indices (first index 1 skips the leading sentinel).
const INDICES: [u16; 7] = [0xdead, 0, 1, 2, 2, 1, 3];

/// Graphics pipeline of `scene` for the set-up's pass (dynamic viewport/scissor).
fn pipeline(setup: &mut DrawSetup<'_>, s: &Scene) -> vk::Pipeline {
    let bindings = [binding(0, 12, false), binding(1, 8, true)];
    let attributes = [
        attribute(0, 0, vk::Format::R32G32_SFLOAT, 0),
        attribute(1, 0, vk::Format::R8G8B8A8_UNORM, 8),
        attribute(2, 1, vk::Format::R32G32_SFLOAT, 0),
    ];
    let mut desc = setup.desc();
    if s.inputs {
        desc.bindings = &bindings;
        desc.attributes = &attributes;
    }
    desc.topology = s.topology;
    desc.rasterization = desc
        .rasterization
        .cull_mode(s.cull)
        .depth_bias_enable(s.depth_bias)
        .depth_bias_constant_factor(1000.0)
        .depth_bias_slope_factor(4.0);
    use vk::{BlendFactor as F, BlendOp as O};
    let on = opaque().blend_enable(true);
    desc.blend = vec![match s.blend {
        Blend::Off => opaque(),
        Blend::Over => on
            .src_color_blend_factor(F::SRC_ALPHA)
            .dst_color_blend_factor(F::ONE_MINUS_SRC_ALPHA)
            .color_blend_op(O::ADD)
            .src_alpha_blend_factor(F::ONE)
            .dst_alpha_blend_factor(F::ZERO)
            .alpha_blend_op(O::ADD),
        Blend::Constant => on
            .src_color_blend_factor(F::CONSTANT_COLOR)
            .dst_color_blend_factor(F::ONE_MINUS_CONSTANT_ALPHA)
            .color_blend_op(O::REVERSE_SUBTRACT)
            .src_alpha_blend_factor(F::ONE)
            .dst_alpha_blend_factor(F::ONE)
            .alpha_blend_op(O::MAX)
            .color_write_mask(
                vk::ColorComponentFlags::R
                    | vk::ColorComponentFlags::G
                    | vk::ColorComponentFlags::A,
            ),
        Blend::MinSubtract => on
            .src_color_blend_factor(F::ONE)
            .dst_color_blend_factor(F::ONE)
            .color_blend_op(O::MIN)
            .src_alpha_blend_factor(F::DST_ALPHA)
            .dst_alpha_blend_factor(F::SRC_ALPHA_SATURATE)
            .alpha_blend_op(O::SUBTRACT),
    }];
    desc.blend_constants = [9.0; 4];
    desc.dynamic = vec![vk::DynamicState::BLEND_CONSTANTS];
    setup.pipeline(&desc)
}

fn record_draw(d: &Device, cb: vk::CommandBuffer, k: DrawKind, args: vk::Buffer) {
    // SAFETY: a command buffer in a render pass with a pipeline bound.
    unsafe {
        match k {
            DrawKind::Auto(n, first) => d.cmd_draw(cb, n, 1, first, 0),
            DrawKind::Indexed(n, first, off) => d.cmd_draw_indexed(cb, n, 1, first, off, 0),
            DrawKind::Instanced(n, first, i, fi) => d.cmd_draw(cb, n, i, first, fi),
            DrawKind::Indirect(false) => d.cmd_draw_indirect(cb, args, 0, 1, 16),
            DrawKind::Indirect(true) => d.cmd_draw_indexed_indirect(cb, args, 16, 1, 20),
        }
    }
}

/// Renders `s` on `gpu`; the target's texels as packed RGBA8.
fn render(gpu: &Gpu, s: &Scene) -> Vec<u32> {
    let d = &gpu.device;
    let index = gpu.host_buffer(64);
    let bytes: Vec<u8> = INDICES.iter().flat_map(|i| i.to_le_bytes()).collect();
    index.write(0, &bytes);
    let vertices = gpu.host_buffer(256);
    vertices.write(0, &vertex_data());
    let args = gpu.host_buffer(64);
    let arg_bytes: Vec<u8> = ARGS.iter().flat_map(|a| a.to_le_bytes()).collect();
    args.write(0, &arg_bytes);
    let target = ColorTarget::new(gpu, s.format);
    let reader = Reader::of(gpu, &target);
    // SAFETY: valid render pass create infos on a live device; the set-up takes them over.
    let passes = unsafe {
        [
            render_pass(d, s.format, vk::AttachmentLoadOp::CLEAR),
            render_pass(d, s.format, vk::AttachmentLoadOp::LOAD),
        ]
    };
    let views = [target.view];
    let vs = if s.inputs { VS_INPUTS } else { VS };
    let fs = if s.smooth { FS_SMOOTH } else { FS_FLAT };
    let mut setup = DrawSetup::new(d, &SetupDesc::new(passes[0], &views, (W, H), [vs, fs]));
    setup.own_pass(passes[1]);
    let pipe = pipeline(&mut setup, s);
    let full = setup.area();
    let [vx, vy, vw, vh] = s.viewport.unwrap_or([0.0, 0.0, W as f32, H as f32]);
    let viewport =
        vk::Viewport { x: vx, y: vy, width: vw, height: vh, min_depth: 0.0, max_depth: 1.0 };
    let scissor = s.scissor.map_or(full, |[x, y, w, h]| vk::Rect2D {
        offset: vk::Offset2D { x, y },
        extent: vk::Extent2D { width: w as u32, height: h as u32 },
    });
    let clear = [clear_color([0.1, 0.2, 0.3, 1.0])];
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        for (i, k) in std::iter::once(s.draw).chain(s.second).enumerate() {
            setup.begin_pass(cb, passes[i.min(1)], &clear, vk::SubpassContents::INLINE);
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
            d.cmd_set_viewport(cb, 0, &[viewport]);
            d.cmd_set_scissor(cb, 0, &[scissor]);
            d.cmd_set_blend_constants(cb, &CONSTANTS);
            d.cmd_bind_index_buffer(cb, index.buffer, 0, vk::IndexType::UINT16);
            if s.inputs {
                d.cmd_bind_vertex_buffers(cb, 0, &[vertices.buffer; 2], &[0, 128]);
            }
            record_draw(d, cb, k, args.buffer);
            if let Some([x, y, w, h]) = s.clear_rect {
                let a = [vk::ClearAttachment {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    color_attachment: 0,
                    clear_value: clear_color([0.9, 0.6, 0.0, 1.0]),
                }];
                let r = [vk::ClearRect {
                    rect: vk::Rect2D {
                        offset: vk::Offset2D { x, y },
                        extent: vk::Extent2D { width: w as u32, height: h as u32 },
                    },
                    base_array_layer: 0,
                    layer_count: 1,
                }];
                d.cmd_clear_attachments(cb, &a, &r);
            }
            d.cmd_end_render_pass(cb);
        }
        reader.record(d, cb);
    });
    let texels = reader.texels();
    drop((reader, setup));
    target.destroy(d);
    gpu.destroy_buffer(index);
    gpu.destroy_buffer(vertices);
    gpu.destroy_buffer(args);
    texels
}

#[test]
fn scenes_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let lvp_gpu = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours_gpu = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let mut failures = Vec::new();
    for s in SCENES {
        let lvp = render(&lvp_gpu, s);
        // Sanity: the corner keeps the clear colour and (unless culled) something was drawn.
        let clear = lvp.iter().filter(|&&t| t == lvp[0]).count();
        assert!(close(lvp[0], 0xff4d_331a, 1), "{}: lavapipe's clear {:08x}", s.name, lvp[0]);
        if s.cull == vk::CullModeFlags::NONE {
            assert!(clear < lvp.len(), "{}: lavapipe drew nothing", s.name);
        }
        let ours = render(&ours_gpu, s);
        // B10G11R11 keeps 6 (R, G) and 5 (B) mantissa bits. The Vulkan conversion rules
        // for unsigned 11- and 10-bit floats name no rounding mode, and lavapipe truncates
        // where Ferrum rounds to nearest even: one mantissa step apart, at most 2^-6 below
        // 1.0, i.e. 4 of the reader's 1/255 steps.
        let tolerance = if s.format == vk::Format::B10G11R11_UFLOAT_PACK32 {
            Tolerance { channel: 4, ..DEFAULT_TOLERANCE }
        } else {
            DEFAULT_TOLERANCE
        };
        if let Err(e) = compare(s.name, &ours, &lvp, tolerance) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
