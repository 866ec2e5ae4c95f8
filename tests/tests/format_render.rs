//! Colour attachments and vertex input of every format the driver advertises them for,
//! differential against lavapipe through the loader with validation on.
//!
//! Colour: a small odd-sized target of each format is cleared by its load op, then drawn
//! with pixel-aligned rectangles (no edge is ambiguous, so coverage must match exactly): an
//! opaque one, and over it two blended ones (alpha blending, then reverse subtraction with
//! MAX alpha) for blendable formats or an opaque overwrite for integer ones. The values come
//! from the pixel position and span each channel's range and beyond it (normalized values
//! below 0 and above 1 are clamped; integer values hit 0, the maximum, the minimum and -1).
//! The target is read back by a copy and compared channel by channel.
//!
//! Vertex input: one point per vertex, each on its own pixel of an RGBA32_UINT target; the
//! attribute (at a non-zero offset, with a stride wider than the format) goes to the pixel
//! bit for bit, with the defaults Vulkan gives the components the format lacks.
//!
//! Tolerances (the spec's): integer channels exact; a float-to-normalized or float-to-float
//! conversion may round either way (one step of the channel). Blending is done "with a
//! precision and dynamic range no lower than that used to represent destination
//! components": two steps for UNORM and sRGB; for float channels each operand may be rounded
//! to the destination's precision first (ours blends the 16-bit export of formats of up to
//! 16 bits per channel, lavapipe 32-bit floats), so an error of half a step of the largest
//! operand each carries into the result (see `Tolerance`). Lavapipe does not blend SNORM
//! targets, so they are proven without blending. Vertex fetch: integers, scaled and float
//! values exact, normalized conversions within two f32 ulps.

use ash_loaded::vk;
use ferrum_tests::draw::{DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::pipeline::{attribute, binding, viewport};
use ferrum_tests::scene::{cleared_pass, copy_layers, Attachment};
use ferrum_tests::texels::{self, field_bits, fields, float_value, Field, Range};
use ferrum_tests::{entry_with_lavapipe, Harness};
use vulkan_ferrum::format::properties::{blends, PROVEN_COLOR, PROVEN_VERTEX};
use vulkan_ferrum::format::{info, Numeric};

const W: u32 = 13;
const H: u32 = 7;

/// What a shader writes to (or reads from) a format: floats, unsigned or signed integers.
fn glsl_type(numeric: Numeric) -> &'static str {
    match numeric {
        Numeric::Uint => "uvec4",
        Numeric::Sint => "ivec4",
        _ => "vec4",
    }
}

/// The rectangle's vertex shader: six vertices of [x0, x1] x [-1, 1] in clip space.
const RECT_VS: &str = "#version 450
layout(push_constant) uniform P { int shift; float x0; float x1; };
void main() {
    int v = gl_VertexIndex;
    int corner = v < 3 ? v : (v == 3 ? 2 : (v == 4 ? 1 : 3));
    gl_Position = vec4((corner & 1) != 0 ? x1 : x0, (corner & 2) != 0 ? 1.0 : -1.0, 0.0, 1.0);
}
";

/// The steps of the float patterns: 32-bit, half and unsigned 11/10-bit float channels.
const F32_SCALE: f64 = 1234.5678;
const F16_SCALE: f64 = 9.625;
const UFLOAT_SCALE: f64 = 4.0625;

/// The largest magnitude [`rect_fs`] writes to a float format's channels.
fn magnitude(format: vk::Format) -> f64 {
    if format == vk::Format::B10G11R11_UFLOAT_PACK32 {
        63.0 * UFLOAT_SCALE
    } else if fields(format).iter().flatten().any(|f| f.bits == 32) {
        32.0 * F32_SCALE + 1.0
    } else {
        32.0 * F16_SCALE + 1.0
    }
}

/// Channel widths of `format` in R, G, B, A order, 32 for channels it lacks (their values
/// are discarded).
fn widths(format: vk::Format) -> [u32; 4] {
    fields(format).map(|f| f.map_or(32, |f| f.bits))
}

/// The fragment shader writing `format`'s pattern: per channel an index k in 0..64 from the
/// pixel and `shift`, turned into a value of the format's kind; `blend` keeps alpha in [0, 1]
/// so that the blend factors stay weights.
fn rect_fs(format: vk::Format, blend: bool) -> String {
    let numeric = info(format).unwrap().numeric;
    let [r, g, b, a] = widths(format);
    let float32 = fields(format).iter().flatten().any(|f| f.bits == 32);
    let value = match numeric {
        Numeric::Uint => format!(
            "uvec4 mask = uvec4(0xffffffffu) >> (32u - uvec4({r}u, {g}u, {b}u, {a}u));
    uvec4 h = uvec4(i) * uvec4(2654435761u, 2246822519u, 3266489917u, 668265263u);
    uvec4 v = (h ^ (h >> 15)) & mask;
    o = n == 0 ? mask : (n == 1 ? uvec4(0u) : v);"
        ),
        Numeric::Sint => format!(
            "uvec4 sh = 32u - uvec4({r}u, {g}u, {b}u, {a}u);
    uvec4 h = uvec4(i) * uvec4(2654435761u, 2246822519u, 3266489917u, 668265263u);
    ivec4 v = ivec4((h ^ (h >> 15)) << sh) >> ivec4(sh);
    ivec4 top = ivec4(uvec4(0x7fffffffu) >> (sh));
    o = n == 0 ? top : (n == 1 ? -top - 1 : (n == 2 ? ivec4(-1) : v));"
        ),
        Numeric::Unorm | Numeric::Srgb => "o = vec4(k - 16) / 32.0;".to_string(),
        Numeric::Snorm => "o = vec4(k - 32) / 24.0;".to_string(),
        _ if format == vk::Format::B10G11R11_UFLOAT_PACK32 => {
            format!("o = vec4(k) * {UFLOAT_SCALE:?};")
        }
        _ => {
            let scale = if float32 { F32_SCALE } else { F16_SCALE };
            format!("o = vec4(k - 32) * {scale:?} + vec4(k) / 64.0;")
        }
    };
    let alpha = if blend { "o.a = float(k.w) / 63.0;" } else { "" };
    format!(
        "#version 450
layout(push_constant) uniform P {{ int shift; float x0; float x1; }};
layout(location = 0) out {ty} o;
void main() {{
    int i = int(gl_FragCoord.x) + int(gl_FragCoord.y) * {W} + shift;
    int n = i % 7;
    ivec4 k = (ivec4(i) * ivec4(1, 7, 13, 29) + ivec4(0, 5, 11, 17)) & 63;
    {value}
    {alpha}
}}
",
        ty = glsl_type(numeric)
    )
}

/// The load-op clear value of `format` (inside every channel's range but for the normalized
/// ones, whose clear is clamped).
fn clear_value(numeric: Numeric) -> vk::ClearColorValue {
    match numeric {
        Numeric::Uint => vk::ClearColorValue { uint32: [3, 1, 2, 1] },
        Numeric::Sint => vk::ClearColorValue { int32: [-2, 1, -1, 1] },
        _ => vk::ClearColorValue { float32: [0.3, -0.25, 0.7, 1.5] },
    }
}

/// A draw of the scene: the pipeline's blend state, the pattern's shift and the
/// rectangle's pixel columns.
struct Draw {
    blend: vk::PipelineColorBlendAttachmentState,
    shift: i32,
    columns: (u32, u32),
}

fn draws(format: vk::Format) -> Vec<Draw> {
    use vk::{BlendFactor as B, BlendOp as Op};
    let all = vk::ColorComponentFlags::RGBA;
    let opaque = vk::PipelineColorBlendAttachmentState::default().color_write_mask(all);
    let mut out = vec![Draw { blend: opaque, shift: 0, columns: (0, W - 2) }];
    if blends(format) {
        let alpha = opaque
            .blend_enable(true)
            .src_color_blend_factor(B::SRC_ALPHA)
            .dst_color_blend_factor(B::ONE_MINUS_SRC_ALPHA)
            .src_alpha_blend_factor(B::ONE)
            .dst_alpha_blend_factor(B::ONE_MINUS_SRC_ALPHA);
        let subtract = opaque
            .blend_enable(true)
            .src_color_blend_factor(B::ONE)
            .dst_color_blend_factor(B::ONE)
            .color_blend_op(Op::REVERSE_SUBTRACT)
            .src_alpha_blend_factor(B::ONE)
            .dst_alpha_blend_factor(B::ONE)
            .alpha_blend_op(Op::MAX);
        out.push(Draw { blend: alpha, shift: 17, columns: (3, 8) });
        out.push(Draw { blend: subtract, shift: 41, columns: (6, 10) });
    } else {
        out.push(Draw { blend: opaque, shift: 17, columns: (5, 9) });
    }
    out
}

/// Renders `format`'s scene on `gpu`; the target's bytes, row by row.
fn render(gpu: &Gpu, format: vk::Format) -> Vec<u8> {
    let d = &gpu.device;
    let numeric = info(format).unwrap().numeric;
    let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
    let target = Attachment::new(gpu, format, (W, H), vk::SampleCountFlags::TYPE_1, 1, usage);
    let bytes = u64::from(W * H * u32::from(info(format).unwrap().block_bytes));
    let out = gpu.host_buffer(bytes);
    // SAFETY: the harness's live device.
    let pass =
        unsafe { cleared_pass(&gpu.device, format, None, vk::ImageLayout::TRANSFER_SRC_OPTIMAL) };
    let range = [vk::PushConstantRange {
        stage_flags: vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT,
        offset: 0,
        size: 12,
    }];
    let draws = draws(format);
    let views = [target.view];
    let opaque_fs = rect_fs(format, false);
    let mut desc = SetupDesc::new(pass, &views, (W, H), [RECT_VS, &opaque_fs]);
    desc.push = &range;
    let mut setup = DrawSetup::new(d, &desc);
    // The blending draws' fragment shader (made once, when a draw blends).
    let mut blend_fs = None;
    let pipelines: Vec<vk::Pipeline> = draws
        .iter()
        .map(|draw| {
            let mut desc = setup.desc();
            if draw.blend.blend_enable != 0 {
                let fs =
                    *blend_fs.get_or_insert_with(|| setup.module(&rect_fs(format, true), "frag"));
                desc.fs = Some(fs);
            }
            desc.viewport = Some(viewport(W, H));
            desc.blend = vec![draw.blend];
            setup.pipeline(&desc)
        })
        .collect();
    let clears = [vk::ClearValue { color: clear_value(numeric) }];
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        setup.begin(cb, &clears);
        for (draw, &pipeline) in draws.iter().zip(&pipelines) {
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
            let x = |c: u32| (c as f32 * 2.0 / W as f32 - 1.0).to_bits();
            let push = [draw.shift as u32, x(draw.columns.0), x(draw.columns.1)];
            let push: Vec<u8> = push.iter().flat_map(|w| w.to_le_bytes()).collect();
            let stages = vk::ShaderStageFlags::VERTEX | vk::ShaderStageFlags::FRAGMENT;
            d.cmd_push_constants(cb, setup.layout, stages, 0, &push);
            d.cmd_draw(cb, 6, 1, 0, 0);
        }
        d.cmd_end_render_pass(cb);
        copy_layers(d, cb, target.image, (W, H, 1), out.buffer);
    });
    let texels = out.bytes().to_vec();
    drop(setup);
    target.destroy(d);
    gpu.destroy_buffer(out);
    texels
}

/// A float field's position on the number line in steps of its own precision: the
/// sign-magnitude bits as a signed integer, so neighbouring representable values differ by 1.
fn float_steps(bits: u64, width: u32) -> i64 {
    let signed = width == 16 || width == 32;
    let sign = signed && bits >> (width - 1) & 1 == 1;
    let magnitude = if signed { bits & ((1 << (width - 1)) - 1) } else { bits } as i64;
    if sign {
        -magnitude
    } else {
        magnitude
    }
}

/// How far two fields may differ: `steps` steps of the channel; for a blended float channel
/// (`magnitude`: the largest operand) a blend at the destination's precision, whose
/// operands' rounding (half a step of the largest operand each) carries into the result, and
/// the result's own rounding either way.
#[derive(Clone, Copy)]
struct Tolerance {
    steps: i64,
    magnitude: Option<f64>,
}

/// Mantissa bits of a float field `bits` wide (binary32, binary16, unsigned 11/10-bit).
fn mantissa(bits: u32) -> i32 {
    match bits {
        32 => 23,
        16 => 10,
        b => b as i32 - 5,
    }
}

/// Whether two fields of `numeric` agree within `t`.
fn field_close(numeric: Numeric, f: Field, a: u64, b: u64, t: Tolerance) -> bool {
    let steps = t.steps;
    if a == b {
        return true;
    }
    match numeric {
        Numeric::Uint | Numeric::Sint => false,
        Numeric::Unorm | Numeric::Srgb => (a as i64 - b as i64).abs() <= steps,
        Numeric::Snorm => {
            // -2^(b-1) and -2^(b-1) + 1 both mean -1.
            let min = -(1i64 << (f.bits - 1)) + 1;
            let s = |x: u64| ((x << (64 - f.bits)) as i64 >> (64 - f.bits)).max(min);
            (s(a) - s(b)).abs() <= steps
        }
        _ if t.magnitude.is_some() => {
            let (x, y) = (float_value(a, f.bits), float_value(b, f.bits));
            let m = t.magnitude.unwrap_or(0.0);
            (x - y).abs() <= (2.0 * y.abs() + 2.0 * m) * 2f64.powi(-mantissa(f.bits))
        }
        _ => {
            // Denormals may be flushed to zero by a conversion.
            let tiny = |x: u64| float_value(x, f.bits).abs() < 6.2e-5;
            (float_steps(a, f.bits) - float_steps(b, f.bits)).abs() <= steps || tiny(a) && tiny(b)
        }
    }
}

/// The texels of `format` where ours and lavapipe's differ beyond the tolerance.
fn render_mismatches(format: vk::Format, ours: &[u8], lvp: &[u8]) -> Vec<String> {
    let f = info(format).unwrap();
    let size = usize::from(f.block_bytes);
    let tol = if blends(format) {
        let float = f.numeric == Numeric::Float;
        Tolerance { steps: 2, magnitude: float.then(|| magnitude(format)) }
    } else {
        Tolerance { steps: 1, magnitude: None }
    };
    let mut bad = Vec::new();
    for (t, (a, b)) in ours.chunks(size).zip(lvp.chunks(size)).enumerate() {
        for (c, field) in fields(format).iter().enumerate() {
            let Some(field) = *field else { continue };
            let (x, y) = (field_bits(a, field), field_bits(b, field));
            if !field_close(f.numeric, field, x, y, tol) {
                let at = (t as u32 % W, t as u32 / W);
                bad.push(format!("{at:?} channel {c}: ferrum {x:#x}, lavapipe {y:#x}"));
            }
        }
    }
    bad
}

/// Whether the driver of `pd` advertises `optimal` and `buffer` features for `format`.
fn supports(
    h: &Harness,
    pd: vk::PhysicalDevice,
    format: vk::Format,
    optimal: vk::FormatFeatureFlags,
    buffer: vk::FormatFeatureFlags,
) -> bool {
    // SAFETY: a live physical device.
    let p = unsafe { h.instance.get_physical_device_format_properties(pd, format) };
    p.optimal_tiling_features.contains(optimal) && p.buffer_features.contains(buffer)
}

#[test]
fn every_colour_format_renders_like_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let lvp_gpu = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours_pd = h.physical_device_named("Ferrum");
    let ours_gpu = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let mut failures = Vec::new();
    for &format in PROVEN_COLOR {
        type F = vk::FormatFeatureFlags;
        let need = if blends(format) {
            F::COLOR_ATTACHMENT | F::COLOR_ATTACHMENT_BLEND
        } else {
            F::COLOR_ATTACHMENT
        };
        assert!(supports(&h, ours_pd, format, need, F::empty()), "{format:?} not advertised");
        if !supports(&h, lvp_pd, format, need, F::empty()) {
            failures.push(format!("{format:?}: lavapipe lacks {need:?}"));
            continue;
        }
        let lvp = render(&lvp_gpu, format);
        // Sanity: the clear and the draws left different values in lavapipe's target.
        let size = usize::from(info(format).unwrap().block_bytes);
        assert_ne!(lvp[..size], lvp[lvp.len() - size..], "{format:?}: lavapipe drew nothing");
        let ours = render(&ours_gpu, format);
        let bad = render_mismatches(format, &ours, &lvp);
        if !bad.is_empty() {
            failures.push(format!(
                "{format:?}: {} channels differ\n{}",
                bad.len(),
                bad[..bad.len().min(6)].join("\n")
            ));
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// Points, one per vertex, on their own pixel; the attribute's bits go to an RGBA32_UINT
/// target.
fn vertex_shaders(format: vk::Format) -> (String, String) {
    let numeric = info(format).unwrap().numeric;
    let (ty, bits) = match numeric {
        Numeric::Uint => ("uvec4", "a"),
        Numeric::Sint => ("ivec4", "uvec4(a)"),
        _ => ("vec4", "floatBitsToUint(a)"),
    };
    let vs = format!(
        "#version 450
layout(location = 0) in {ty} a;
layout(location = 0) flat out uvec4 v;
void main() {{
    int i = gl_VertexIndex;
    vec2 p = (vec2(i % {W}, i / {W}) + 0.5) / vec2({W}, {H});
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
    gl_PointSize = 1.0;
    v = {bits};
}}
"
    );
    let fs = "#version 450
layout(location = 0) flat in uvec4 v;
layout(location = 0) out uvec4 o;
void main() { o = v; }
"
    .to_string();
    (vs, fs)
}

/// Bytes before the first vertex and between the end of one vertex and the next.
const GAP: u32 = 4;

/// Fetches W x H vertices of `format` on `gpu`; the RGBA32_UINT target's words.
fn fetch(gpu: &Gpu, format: vk::Format) -> Vec<u32> {
    let d = &gpu.device;
    let target_format = vk::Format::R32G32B32A32_UINT;
    let size = u32::from(info(format).unwrap().block_bytes);
    let stride = size + GAP;
    let data = texels::pattern(format, (GAP + W * H * stride) as usize, Range::Wide);
    let vertices = gpu.host_buffer(data.len() as u64);
    vertices.write(0, &data);
    let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
    let target =
        Attachment::new(gpu, target_format, (W, H), vk::SampleCountFlags::TYPE_1, 1, usage);
    let out = gpu.host_buffer(u64::from(W * H * 16));
    // SAFETY: the harness's live device.
    let pass = unsafe {
        cleared_pass(&gpu.device, target_format, None, vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
    };
    let (vs, fs) = vertex_shaders(format);
    let views = [target.view];
    let mut setup = DrawSetup::new(d, &SetupDesc::new(pass, &views, (W, H), [&vs, &fs]));
    let bindings = [binding(0, stride, false)];
    let attributes = [attribute(0, 0, format, GAP)];
    let mut desc = setup.desc();
    desc.viewport = Some(viewport(W, H));
    desc.topology = vk::PrimitiveTopology::POINT_LIST;
    desc.bindings = &bindings;
    desc.attributes = &attributes;
    let pipeline = setup.pipeline(&desc);
    // A value no vertex writes: pixels no point reached keep it.
    let clears = [vk::ClearValue { color: vk::ClearColorValue { uint32: [0xcdcd_cdcd; 4] } }];
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        setup.begin(cb, &clears);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_bind_vertex_buffers(cb, 0, &[vertices.buffer], &[0]);
        d.cmd_draw(cb, W * H, 1, 0, 0);
        d.cmd_end_render_pass(cb);
        copy_layers(d, cb, target.image, (W, H, 1), out.buffer);
    });
    let words = out.u32s();
    drop(setup);
    target.destroy(d);
    gpu.destroy_buffer(out);
    gpu.destroy_buffer(vertices);
    words
}

/// Whether our fetched word matches lavapipe's: exact, but normalized conversions (which
/// need not be correctly rounded) within two f32 ulps.
fn fetched_close(numeric: Numeric, a: u32, b: u32) -> bool {
    a == b
        || matches!(numeric, Numeric::Unorm | Numeric::Snorm)
            && (float_steps(u64::from(a), 32) - float_steps(u64::from(b), 32)).abs() <= 2
}

#[test]
fn every_vertex_format_fetches_like_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let lvp_gpu = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours_pd = h.physical_device_named("Ferrum");
    let ours_gpu = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let mut failures = Vec::new();
    for &format in PROVEN_VERTEX {
        type F = vk::FormatFeatureFlags;
        let ours = supports(&h, ours_pd, format, F::empty(), F::VERTEX_BUFFER);
        assert!(ours, "{format:?}: listed but not advertised (the hardware table lacks FETCH)");
        if !supports(&h, lvp_pd, format, F::empty(), F::VERTEX_BUFFER) {
            failures.push(format!("{format:?}: lavapipe lacks VERTEX_BUFFER"));
            continue;
        }
        let numeric = info(format).unwrap().numeric;
        let lvp = fetch(&lvp_gpu, format);
        // Sanity: lavapipe's points reached every pixel.
        assert!(lvp.chunks(4).all(|v| v != [0xcdcd_cdcd; 4]), "{format:?}: a point is missing");
        let ours = fetch(&ours_gpu, format);
        let bad: Vec<String> = (0..lvp.len())
            .filter(|&i| !fetched_close(numeric, ours[i], lvp[i]))
            .take(6)
            .map(|i| {
                format!(
                    "vertex {} [{}]: ferrum {:#x}, lavapipe {:#x}",
                    i / 4,
                    i % 4,
                    ours[i],
                    lvp[i]
                )
            })
            .collect();
        if !bad.is_empty() {
            failures.push(format!("{format:?}:\n{}", bad.join("\n")));
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
