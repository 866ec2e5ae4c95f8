//! Extended dynamic state (VK_EXT_extended_dynamic_state and _state2) through the loader,
//! differential (validation layer on). One render pass of draws whose topology, primitive
//! restart, cull mode, front face, rasterizer discard, logic op, viewport and scissor (with
//! count) and vertex stride change from draw to draw:
//! - dynamic: one pipeline per topology class (Vulkan lets the dynamic topology change only
//!   within the pipeline's class) with decoy values baked in, every value from vkCmdSet*EXT
//!   and the stride from vkCmdBindVertexBuffers2EXT;
//! - static: a pipeline per draw with the draw's state baked in.
//!
//! Ferrum's dynamic image must be byte for byte its static one, and match lavapipe's static
//! image within graphics_scenes' line tolerance (colours within 1/255, up to 10 pixels on
//! edges: lines and points rasterize within Vulkan's implementation-dependent rules).
//! Lavapipe's own dynamic image is not the reference: its dynamic logic op is applied late.

use ash_loaded::{ext, vk};
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::{attribute, binding};
use ferrum_tests::scene::{
    compare, full_rect, full_viewport, render_pass, ColorTarget, Reader, Tolerance, H, W,
};
use ferrum_tests::{entry_with_lavapipe, Harness};

const VS: &str = "#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 col;
layout(location = 0) flat out vec4 color;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    gl_PointSize = 1.0;
    color = col;
}
";

const FS: &str = "#version 450
layout(location = 0) flat in vec4 color;
layout(location = 0) out vec4 o;
void main() { o = color; }
";

const EXTENSIONS: [&std::ffi::CStr; 2] =
    [c"VK_EXT_extended_dynamic_state", c"VK_EXT_extended_dynamic_state2"];

/// The two vertex buffers hold the same vertices: 6 floats apart, or 8 (2 floats of padding).
const STRIDES: [u32; 2] = [24, 32];
const RESTART: u16 = 0xffff;
/// Exact in UNORM8 (51, 102, 153, 255), so that logic ops see the same bits on both drivers.
const CLEAR: [f32; 4] = [0.2, 0.4, 0.6, 1.0];

/// One draw and its state.
struct Draw {
    topology: vk::PrimitiveTopology,
    restart: bool,
    cull: vk::CullModeFlags,
    front: vk::FrontFace,
    discard: bool,
    scissor: vk::Rect2D,
    /// Index into `STRIDES`.
    buffer: usize,
    /// Positions (clip space) of the draw's vertices, one colour for all.
    points: Vec<[f32; 2]>,
    color: [f32; 4],
    /// Indices into `points` (primitive restart: `RESTART`), or a non-indexed draw.
    indices: Option<Vec<u16>>,
    /// The logic op (every pipeline enables logic ops; COPY draws plainly).
    logic: vk::LogicOp,
}

fn draw(topology: vk::PrimitiveTopology, points: Vec<[f32; 2]>, color: [f32; 4]) -> Draw {
    Draw {
        topology,
        restart: false,
        cull: vk::CullModeFlags::NONE,
        front: vk::FrontFace::COUNTER_CLOCKWISE,
        discard: false,
        scissor: full_rect(),
        buffer: 0,
        points,
        color,
        indices: None,
        logic: vk::LogicOp::COPY,
    }
}

/// Two triangles of opposite winding side by side from `x`.
fn pair(x: f32) -> Vec<[f32; 2]> {
    vec![
        [x, -0.2],
        [x + 0.2, 0.3],
        [x + 0.4, -0.2],
        [x + 0.5, -0.2],
        [x + 0.9, -0.2],
        [x + 0.7, 0.3],
    ]
}

fn draws() -> Vec<Draw> {
    use vk::PrimitiveTopology as T;
    let quad = |x: f32, y: f32| vec![[x, y], [x, y + 0.4], [x + 0.3, y], [x + 0.3, y + 0.4]];
    let strip_points: Vec<[f32; 2]> = [quad(-0.9, 0.45), quad(-0.4, 0.45)].concat();
    vec![
        Draw { buffer: 1, ..draw(T::TRIANGLE_STRIP, quad(-0.9, -0.9), [1.0, 0.0, 0.0, 1.0]) },
        Draw {
            cull: vk::CullModeFlags::BACK,
            ..draw(T::TRIANGLE_LIST, pair(-0.9), [0.0, 1.0, 0.0, 1.0])
        },
        Draw {
            cull: vk::CullModeFlags::BACK,
            front: vk::FrontFace::CLOCKWISE,
            buffer: 1,
            logic: vk::LogicOp::XOR,
            ..draw(T::TRIANGLE_LIST, pair(0.05), [0.0, 0.0, 1.0, 1.0])
        },
        Draw {
            discard: true,
            ..draw(T::TRIANGLE_LIST, vec![[-1.0, -1.0], [3.0, -1.0], [-1.0, 3.0]], [1.0; 4])
        },
        Draw {
            buffer: 1,
            ..draw(T::LINE_STRIP, vec![[-0.9, 0.35], [0.9, 0.4], [0.1, 0.9]], [1.0, 1.0, 0.0, 1.0])
        },
        Draw {
            logic: vk::LogicOp::INVERT,
            ..draw(
                T::POINT_LIST,
                vec![[-0.7, -0.5], [-0.3, -0.55], [0.2, -0.6], [0.6, -0.5], [0.85, 0.85]],
                [1.0, 0.0, 1.0, 1.0],
            )
        },
        Draw {
            restart: true,
            buffer: 1,
            indices: Some(vec![0, 1, 2, 3, RESTART, 4, 5, 6, 7]),
            ..draw(T::TRIANGLE_STRIP, strip_points, [0.0, 1.0, 1.0, 1.0])
        },
        Draw {
            scissor: vk::Rect2D {
                offset: vk::Offset2D { x: 24, y: 12 },
                extent: vk::Extent2D { width: 9, height: 7 },
            },
            logic: vk::LogicOp::OR,
            ..draw(
                T::TRIANGLE_FAN,
                vec![[0.5, 0.5], [0.1, 0.1], [0.95, 0.1], [0.95, 0.95], [0.1, 0.95]],
                [1.0, 0.5, 0.0, 1.0],
            )
        },
    ]
}

/// The class of a topology: a dynamic topology must stay in its pipeline's class.
fn class(t: vk::PrimitiveTopology) -> usize {
    use vk::PrimitiveTopology as T;
    match t {
        T::POINT_LIST => 0,
        T::LINE_LIST | T::LINE_STRIP => 1,
        _ => 2,
    }
}

/// Decoys per class: a topology of the class other than any draw's, and restart where it is
/// allowed without primitiveTopologyListRestart.
const DECOY_TOPOLOGY: [(vk::PrimitiveTopology, bool); 3] = [
    (vk::PrimitiveTopology::POINT_LIST, false),
    (vk::PrimitiveTopology::LINE_LIST, false),
    (vk::PrimitiveTopology::TRIANGLE_FAN, true),
];

/// The pipeline of `d` (static) or of `d`'s topology class with decoys (dynamic).
fn pipeline(setup: &mut DrawSetup<'_>, d: &Draw, dynamic: bool) -> vk::Pipeline {
    let stride = if dynamic { 16 } else { STRIDES[d.buffer] };
    let bindings = [binding(0, stride, false)];
    let attributes = [
        attribute(0, 0, vk::Format::R32G32_SFLOAT, 0),
        attribute(1, 0, vk::Format::R32G32B32A32_SFLOAT, 8),
    ];
    let mut desc = setup.desc();
    desc.bindings = &bindings;
    desc.attributes = &attributes;
    if dynamic {
        let (topology, restart) = DECOY_TOPOLOGY[class(d.topology)];
        desc.topology = topology;
        desc.restart = restart;
        desc.rasterization = desc
            .rasterization
            .cull_mode(vk::CullModeFlags::FRONT_AND_BACK)
            .front_face(vk::FrontFace::CLOCKWISE)
            .rasterizer_discard_enable(true);
        use vk::DynamicState as S;
        desc.dynamic = vec![
            S::PRIMITIVE_TOPOLOGY,
            S::PRIMITIVE_RESTART_ENABLE,
            S::CULL_MODE,
            S::FRONT_FACE,
            S::RASTERIZER_DISCARD_ENABLE,
            S::VIEWPORT_WITH_COUNT,
            S::SCISSOR_WITH_COUNT,
            S::VERTEX_INPUT_BINDING_STRIDE,
            S::LOGIC_OP_EXT,
        ];
        desc.logic_op = Some(vk::LogicOp::CLEAR);
    } else {
        desc.topology = d.topology;
        desc.restart = d.restart;
        desc.rasterization = desc
            .rasterization
            .cull_mode(d.cull)
            .front_face(d.front)
            .rasterizer_discard_enable(d.discard);
        desc.logic_op = Some(d.logic);
    }
    setup.pipeline(&desc)
}

/// The vertices of every draw, in draw order, laid out `stride` bytes apart.
fn vertex_bytes(draws: &[Draw], stride: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for d in draws {
        for p in &d.points {
            let mut v: Vec<f32> = vec![p[0], p[1]];
            v.extend(d.color);
            v.resize(stride as usize / 4, 9.0);
            out.extend(v.iter().flat_map(|f| f.to_le_bytes()));
        }
    }
    out
}

/// Records the state of `d` through the extensions' commands.
unsafe fn set_state(
    one: &ext::extended_dynamic_state::Device,
    two: &ext::extended_dynamic_state2::Device,
    cb: vk::CommandBuffer,
    d: &Draw,
) {
    // SAFETY: a recording command buffer inside a render pass.
    unsafe {
        one.cmd_set_primitive_topology(cb, d.topology);
        two.cmd_set_primitive_restart_enable(cb, d.restart);
        one.cmd_set_cull_mode(cb, d.cull);
        one.cmd_set_front_face(cb, d.front);
        two.cmd_set_rasterizer_discard_enable(cb, d.discard);
        one.cmd_set_viewport_with_count(cb, &[full_viewport()]);
        one.cmd_set_scissor_with_count(cb, &[d.scissor]);
        two.cmd_set_logic_op(cb, d.logic);
    }
}

/// Draws the corpus on `gpu`, its state dynamic or baked.
fn render(h: &Harness, gpu: &Gpu, dynamic: bool) -> Vec<u32> {
    let dev = &gpu.device;
    let format = vk::Format::R8G8B8A8_UNORM;
    let draws = draws();
    let buffers = STRIDES.map(|stride| {
        let bytes = vertex_bytes(&draws, stride);
        let b = gpu.host_buffer(bytes.len() as u64);
        b.write(0, &bytes);
        (b, bytes.len() as u64)
    });
    let indices: Vec<u16> =
        draws.iter().flat_map(|d| d.indices.clone().unwrap_or_default()).collect();
    let index = gpu.host_buffer(2 * indices.len().max(2) as u64);
    index.write(0, &indices.iter().flat_map(|i| i.to_le_bytes()).collect::<Vec<u8>>());
    let target = ColorTarget::new(gpu, format);
    let reader = Reader::of(gpu, &target);
    let one = ext::extended_dynamic_state::Device::new(&h.instance, dev);
    let two = ext::extended_dynamic_state2::Device::new(&h.instance, dev);
    // SAFETY: a valid render pass create info on a live device; the set-up takes it over.
    let pass = unsafe { render_pass(dev, format, vk::AttachmentLoadOp::CLEAR) };
    let views = [target.view];
    let mut setup = DrawSetup::new(dev, &SetupDesc::new(pass, &views, (W, H), [VS, FS]));
    // Dynamic: one pipeline per topology class, shared by the class's draws.
    let pipes: Vec<vk::Pipeline> = match dynamic {
        true => (0..3)
            .map(|c| draws.iter().find(|d| class(d.topology) == c).unwrap())
            .map(|d| pipeline(&mut setup, d, true))
            .collect(),
        false => draws.iter().map(|d| pipeline(&mut setup, d, false)).collect(),
    };
    let pipe_of = |i: usize| pipes[if dynamic { class(draws[i].topology) } else { i }];
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|dev, cb| unsafe {
        setup.begin(cb, &[clear_color(CLEAR)]);
        dev.cmd_bind_index_buffer(cb, index.buffer, 0, vk::IndexType::UINT16);
        let (mut first_vertex, mut first_index) = (0u32, 0u32);
        let mut bound = vk::Pipeline::null();
        for (i, d) in draws.iter().enumerate() {
            if pipe_of(i) != bound {
                bound = pipe_of(i);
                dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, bound);
            }
            let (b, size) = &buffers[d.buffer];
            if dynamic {
                set_state(&one, &two, cb, d);
                let stride = [u64::from(STRIDES[d.buffer])];
                one.cmd_bind_vertex_buffers2(
                    cb,
                    0,
                    &[b.buffer],
                    &[0],
                    Some(&[*size]),
                    Some(&stride),
                );
            } else {
                dev.cmd_set_viewport(cb, 0, &[full_viewport()]);
                dev.cmd_set_scissor(cb, 0, &[d.scissor]);
                dev.cmd_bind_vertex_buffers(cb, 0, &[b.buffer], &[0]);
            }
            match &d.indices {
                Some(i) => {
                    let n = i.len() as u32;
                    dev.cmd_draw_indexed(cb, n, 1, first_index, first_vertex as i32, 0);
                    first_index += n;
                }
                None => dev.cmd_draw(cb, d.points.len() as u32, 1, first_vertex, 0),
            }
            first_vertex += d.points.len() as u32;
        }
        dev.cmd_end_render_pass(cb);
        reader.record(dev, cb);
    });
    let texels = reader.texels();
    drop((reader, setup));
    target.destroy(dev);
    for (b, _) in buffers {
        gpu.destroy_buffer(b);
    }
    gpu.destroy_buffer(index);
    texels
}

/// A device on `pd` with both extensions and their features.
fn eds_gpu(h: &Harness, pd: vk::PhysicalDevice) -> Gpu {
    let mut one =
        vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT::default().extended_dynamic_state(true);
    let mut two = vk::PhysicalDeviceExtendedDynamicState2FeaturesEXT::default()
        .extended_dynamic_state2(true)
        .extended_dynamic_state2_logic_op(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .features(vk::PhysicalDeviceFeatures::default().logic_op(true))
        .push_next(&mut one)
        .push_next(&mut two);
    Gpu::with_feature_chain(&h.instance, pd, 0, &EXTENSIONS, &mut f2)
}

/// The distinct colours of an image.
fn colours(image: &[u32]) -> Vec<u32> {
    let mut c = image.to_vec();
    c.sort_unstable();
    c.dedup();
    c
}

#[test]
fn dynamic_state_draws_as_baked_state_and_as_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_gpu = eds_gpu(&h, h.physical_device_named("llvmpipe"));
    let ours_gpu = eds_gpu(&h, h.physical_device_named("Ferrum"));
    // Lavapipe's baked pipelines are the reference: the installed lavapipe (Debian 12's Mesa)
    // applies a dynamic logic op late, to the next draw of the pipeline (seen here: the XOR
    // and OR draws came out plain, the strip after the INVERTed points inverted).
    let lvp = render(&h, &lvp_gpu, false);
    // Sanity: every colour but the discarded white; blue XOR the clear colour; INVERT.
    for c in [0xff00_00ffu32, 0xff00_ff00, 0x0066_6633, 0x0066_99cc, 0xff00_ffff, 0xffff_ff00] {
        assert!(lvp.contains(&c), "lavapipe drew no {c:08x}: {:08x?}", colours(&lvp));
    }
    assert!(!lvp.contains(&u32::MAX), "lavapipe drew the discarded triangle");
    let ours = render(&h, &ours_gpu, true);
    let baked = render(&h, &ours_gpu, false);
    let exact = Tolerance { channel: 0, slack: 0 };
    if let Err(e) = compare("dynamic vs baked", &ours, &baked, exact) {
        panic!("{e}");
    }
    let lines = Tolerance { channel: 1, slack: 10 };
    if let Err(e) = compare("extended dynamic state vs lavapipe", &ours, &lvp, lines) {
        panic!("{e}");
    }
    h.assert_clean();
}
