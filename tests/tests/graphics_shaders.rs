//! Shader features of the graphics stages through the loader, differential against lavapipe
//! (validation layer on), with the scene harness of tests/graphics.rs (`ferrum_tests::scene`):
//! fine and coarse derivatives with helper lanes at the triangle's edges; implicit-LOD
//! trilinear sampling of a mip chain whose levels are uniform colours (so the result is the
//! level of detail itself: wrong derivatives in an edge quad give a wrong colour);
//! `discard` of whole quads and `demote` of single pixels followed by derivatives that need
//! the demoted lanes, and the helper status seen through a neighbour's derivative; clip
//! distances (one written through a loop's dynamic index, one exactly 0 at every vertex) and
//! a cull distance that drops one instance; private arrays indexed dynamically in both stages
//! (the scratch ring); 64-bit flat varyings with values only f64 holds, shown bit for bit.
//!
//! Comparison: within 2/255 per channel (interpolated and level-of-detail values carry both
//! implementations' rounding; trilinear colours change by at most 48/255 per level, so 2/255
//! is a LOD difference of 1/24) and at most `EDGE_SLACK` edge-coverage pixels.

use ash_loaded::vk;
use ferrum_tests::draw::{clear_color, DrawSetup, SetupDesc};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::SetPool;
use ferrum_tests::pipeline::viewport;
use ferrum_tests::scene::{compare_sized, render_pass, ColorTarget, Reader, Tolerance};
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 64;
const H: u32 = 48;
const EDGE_SLACK: usize = 8;
const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// The texture's size and levels (16 x 16 down to 1 x 1).
const TEX: u32 = 16;
const LEVELS: u32 = 5;

/// A triangle with its edges inside the target and clip w 1, 2, 3 at its vertices (so
/// varyings are perspective-interpolated), and `uv` = its NDC position.
const VS_TRIANGLE: &str = "#version 450
layout(location = 0) out vec2 uv;
void main() {
    int i = gl_VertexIndex;
    vec2 p = i == 0 ? vec2(-0.9, -0.85) : (i == 1 ? vec2(0.95, -0.6) : vec2(-0.4, 0.9));
    float w = float(i + 1);
    gl_Position = vec4(p * w, 0.25 * w, w);
    uv = p * 0.5 + 0.5;
}
";

/// Fine derivatives of a quadratic (they differ per row and column, so a wrong lane pair
/// shows), fwidth, and coarse derivatives of affine values (equal in every pixel).
const FS_DERIVATIVES: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    vec2 q = uv * uv * 20.0;
    float c = dFdxCoarse(gl_FragCoord.x * 0.25) + dFdyCoarse(gl_FragCoord.y * 0.5);
    o = vec4(abs(dFdxFine(q.x)) * 2.0, abs(dFdyFine(q.y)) * 2.0, fwidthFine(q.x + q.y), c);
}
";

/// Four bands 16 pixels wide (whole quads) sampling with axis-aligned texel gradients of
/// 2^(0.75 band) texels per pixel: level of detail 0, 0.75, 1.5, 2.25, and a bias of 0.5 in
/// the lower half of the target.
const FS_IMPLICIT_LOD: &str = "#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    float band = floor(gl_FragCoord.x / 16.0);
    vec2 t = gl_FragCoord.xy * exp2(0.75 * band) / 16.0;
    o = gl_FragCoord.y < 24.0 ? texture(tex, t) : texture(tex, t, 0.5);
}
";

/// `discard` whole quads (no quad loses only some lanes to a terminate), `demote` single
/// pixels, then fine derivatives that read the demoted lanes, and the neighbours' helper
/// status (demoted lanes and lanes outside the triangle are helpers).
const FS_DEMOTE: &str = "#version 450
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (((p.x >> 1) + 3 * (p.y >> 1)) % 5 == 0) {
        discard;
    }
    if ((p.x + 2 * p.y) % 3 == 0) {
        demote;
    }
    vec2 q = uv * uv * 20.0;
    float h = helperInvocationEXT() ? 1.0 : 0.0;
    o = vec4(abs(dFdxFine(q.x)) * 2.0, abs(dFdyFine(q.y)) * 2.0, abs(dFdxFine(h)), 1.0);
}
";

/// Two instances of the triangle: clip distances x_ndc >= -0.2 (through a loop's dynamic
/// index), y_ndc <= 0.4, and 0 (inside) at every vertex; the cull distance is negative at
/// every vertex of instance 1 (culled whole) and at one vertex of instance 0 (kept).
const VS_CLIP: &str = "#version 450
layout(location = 0) out vec2 uv;
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[3];
    float gl_CullDistance[1];
};
void main() {
    int i = gl_VertexIndex;
    vec2 p = i == 0 ? vec2(-0.9, -0.85) : (i == 1 ? vec2(0.95, -0.6) : vec2(-0.4, 0.9));
    float w = float(i + 1);
    gl_Position = vec4(p * w, 0.25 * w, w);
    for (int k = 0; k < 3; k++) {
        gl_ClipDistance[k] = k == 0 ? (p.x + 0.2) * w : (k == 1 ? (0.4 - p.y) * w : 0.0);
    }
    gl_CullDistance[0] = gl_InstanceIndex == 1 || i == 0 ? -1.0 : 1.0;
    uv = vec2(float(gl_InstanceIndex), 1.0);
}
";

const FS_UV: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() { o = vec4(uv, 0.5, 1.0); }
";

/// Two triangles (one per instance) whose corners come from a constant table indexed by
/// vertex and instance, and whose `uv` comes from an array written in a loop: each array is
/// 24 dwords, too big for VGPRs, so both live in the scratch ring.
const VS_SCRATCH: &str = "#version 450
layout(location = 0) out vec2 uv;
const vec4 P[6] = vec4[](
    vec4(-0.9, -0.85, 0.25, 1.0), vec4(-0.05, -0.6, 0.25, 1.0), vec4(-0.6, 0.9, 0.25, 1.0),
    vec4(0.05, -0.9, 0.5, 1.0), vec4(0.95, 0.7, 0.5, 1.0), vec4(0.1, 0.85, 0.5, 1.0));
void main() {
    int i = gl_VertexIndex + 3 * gl_InstanceIndex;
    float k[24];
    for (int j = 0; j < 24; j++) {
        k[j] = float(j) / 24.0;
    }
    gl_Position = P[i];
    uv = vec2(k[(i * 7 + 3) % 24], k[(i * 5) % 24]);
}
";

/// A per-pixel array of eight vec4 (scratch), filled from the pixel's row and `uv`, read at
/// indices from its position.
const FS_SCRATCH: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 t[8];
    for (int j = 0; j < 8; j++) {
        t[j] = vec4(float(j) / 8.0, float(p.y % 16) / 16.0, uv);
    }
    o = t[(p.x + p.y) % 8] * vec4(1.0, 1.0, 0.5, 0.5) + vec4(0.0, 0.0, t[p.x % 8].x * 0.5, 0.25);
}
";

/// 64-bit flat varyings (double, dvec2/3/4 over two locations, int64_t and uint64_t sharing
/// a location by components) holding bit patterns only f64 holds: ±0, the smallest and
/// largest denormals, ±inf, NaNs with payloads, ±max, 1 + 2^-52, INT64_MIN, UINT64_MAX, and
/// a product; every vertex has other bits, so only the provoking vertex's may show.
const VS_DOUBLES: &str = "#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(location = 0) flat out dvec3 a;
layout(location = 1, component = 2) flat out double b;
layout(location = 2) flat out dvec2 c;
layout(location = 3) flat out int64_t e;
layout(location = 3, component = 2) flat out uint64_t u;
layout(location = 4) flat out dvec4 d;
void main() {
    int i = gl_VertexIndex;
    vec2 p = i == 0 ? vec2(-0.9, -0.85) : (i == 1 ? vec2(0.95, -0.6) : vec2(-0.4, 0.9));
    float w = float(i + 1);
    gl_Position = vec4(p * w, 0.25 * w, w);
    uint v = uint(i);
    a = dvec3(packDouble2x32(uvec2(v, 0x80000000u)), packDouble2x32(uvec2(1u + v, 0u)),
              packDouble2x32(uvec2(0xffffffffu - v, 0x000fffffu)));
    b = packDouble2x32(uvec2(0u, 0xfff00000u - (v << 20)));
    c = dvec2(packDouble2x32(uvec2(1u + v, 0x7ff00000u)),
              packDouble2x32(uvec2(0x9abcdef0u ^ v, 0xfff81234u)));
    e = int64_t(0x8000000000000000ul) + int64_t(i);
    u = 0xfffffffffffffffful - uint64_t(i);
    d = dvec4(packDouble2x32(uvec2(0xffffffffu, 0x7fefffffu - v)),
              packDouble2x32(uvec2(0xffffffffu - v, 0xffefffffu)),
              double(i + 1) * 0.1lf, packDouble2x32(uvec2(v, 0x7ff00000u)));
}
";

/// Each pixel shows one of the 24 dwords of VS_DOUBLES's values, byte by byte (exact in
/// UNORM8), chosen by its position.
const FS_DOUBLES: &str = "#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(location = 0) flat in dvec3 a;
layout(location = 1, component = 2) flat in double b;
layout(location = 2) flat in dvec2 c;
layout(location = 3) flat in int64_t e;
layout(location = 3, component = 2) flat in uint64_t u;
layout(location = 4) flat in dvec4 d;
layout(location = 0) out vec4 o;
void main() {
    uvec2 bits[12] = uvec2[](
        unpackDouble2x32(a.x), unpackDouble2x32(a.y), unpackDouble2x32(a.z),
        unpackDouble2x32(b), unpackDouble2x32(c.x), unpackDouble2x32(c.y),
        unpackUint2x32(uint64_t(e)), unpackUint2x32(u), unpackDouble2x32(d.x),
        unpackDouble2x32(d.y), unpackDouble2x32(d.z), unpackDouble2x32(d.w));
    ivec2 q = ivec2(gl_FragCoord.xy);
    int k = (q.x + 5 * q.y) % 24;
    uint word = (k & 1) == 0 ? bits[k >> 1].x : bits[k >> 1].y;
    o = vec4(uvec4(word, word >> 8, word >> 16, word >> 24) & 0xffu) / 255.0;
}
";

struct Scene {
    name: &'static str,
    vs: &'static str,
    fs: &'static str,
    /// The FS samples the mip chain (set 0, binding 0).
    textured: bool,
    instances: u32,
}

const SCENES: &[Scene] = &[
    Scene {
        name: "derivatives",
        vs: VS_TRIANGLE,
        fs: FS_DERIVATIVES,
        textured: false,
        instances: 1,
    },
    Scene {
        name: "implicit_lod",
        vs: VS_TRIANGLE,
        fs: FS_IMPLICIT_LOD,
        textured: true,
        instances: 1,
    },
    Scene { name: "discard_demote", vs: VS_TRIANGLE, fs: FS_DEMOTE, textured: false, instances: 1 },
    Scene { name: "clip_cull", vs: VS_CLIP, fs: FS_UV, textured: false, instances: 2 },
    Scene { name: "scratch", vs: VS_SCRATCH, fs: FS_SCRATCH, textured: false, instances: 2 },
    Scene {
        name: "double_varyings",
        vs: VS_DOUBLES,
        fs: FS_DOUBLES,
        textured: false,
        instances: 1,
    },
];

/// The uniform colour of mip level `l` (channels step by at most 48/255 per level).
fn level_color(l: u32) -> [f32; 4] {
    let l = l as f32;
    [0.1 + 0.18 * l, 0.9 - 0.12 * l, 0.3 + 0.05 * l, 1.0]
}

/// The device: clip and cull distances, 64-bit floats and integers and demote-to-helper
/// enabled.
fn device(h: &Harness, pd: vk::PhysicalDevice) -> Gpu {
    let mut demote = vk::PhysicalDeviceShaderDemoteToHelperInvocationFeatures::default()
        .shader_demote_to_helper_invocation(true);
    let core = vk::PhysicalDeviceFeatures::default()
        .shader_clip_distance(true)
        .shader_cull_distance(true)
        .shader_float64(true)
        .shader_int64(true);
    let mut features = vk::PhysicalDeviceFeatures2::default().features(core).push_next(&mut demote);
    let ext = [c"VK_EXT_shader_demote_to_helper_invocation"];
    Gpu::with_feature_chain(&h.instance, pd, 0, &ext, &mut features)
}

/// The mip chain, each level cleared to its colour, ready for sampling; (image, memory, view).
///
/// # Safety
/// Records into `cb` of `gpu`'s device.
unsafe fn texture(gpu: &Gpu) -> (vk::Image, vk::DeviceMemory, vk::ImageView) {
    let d = &gpu.device;
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(FORMAT)
        .extent(vk::Extent3D { width: TEX, height: TEX, depth: 1 })
        .mip_levels(LEVELS)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::SAMPLED);
    // SAFETY: forwarded to the caller.
    unsafe {
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let memory = gpu.bind_image_memory(image);
        let all = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: LEVELS,
            base_array_layer: 0,
            layer_count: 1,
        };
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(FORMAT)
            .subresource_range(all);
        let view = d.create_image_view(&view_info, None).unwrap();
        gpu.run(|d, cb| {
            let to_dst = vk::ImageMemoryBarrier::default()
                .image(image)
                .subresource_range(all)
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
                .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE);
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_dst],
            );
            for l in 0..LEVELS {
                let range = vk::ImageSubresourceRange { base_mip_level: l, level_count: 1, ..all };
                let color = vk::ClearColorValue { float32: level_color(l) };
                d.cmd_clear_color_image(
                    cb,
                    image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &color,
                    &[range],
                );
            }
            let to_read = vk::ImageMemoryBarrier::default()
                .image(image)
                .subresource_range(all)
                .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
                .new_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ);
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::FRAGMENT_SHADER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_read],
            );
        });
        (image, memory, view)
    }
}

/// The scene's pipeline (full-target viewport and scissor, no blending).
fn pipeline(setup: &mut DrawSetup<'_>) -> vk::Pipeline {
    let mut desc = setup.desc();
    desc.viewport = Some(viewport(W, H));
    setup.pipeline(&desc)
}

/// Renders `s` on `gpu`; the target's texels as packed RGBA8.
fn render(gpu: &Gpu, s: &Scene) -> Vec<u32> {
    let d = &gpu.device;
    let target = ColorTarget::sized(gpu, FORMAT, W, H);
    let reader = Reader::of(gpu, &target);
    let tex_bindings = [vk::DescriptorSetLayoutBinding::default()
        .binding(0)
        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
        .descriptor_count(1)
        .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
    // SAFETY: valid create infos on a live device; the set-up takes the pass over, the
    // set layout is destroyed below.
    let (pass, tex_layout) = unsafe {
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&tex_bindings);
        let tex_layout = d.create_descriptor_set_layout(&info, None).unwrap();
        (render_pass(d, FORMAT, vk::AttachmentLoadOp::CLEAR), tex_layout)
    };
    let views = [target.view];
    let set_layouts = [tex_layout];
    let mut desc = SetupDesc::new(pass, &views, (W, H), [s.vs, s.fs]);
    if s.textured {
        desc.set_layouts = &set_layouts;
    }
    let mut setup = DrawSetup::new(d, &desc);
    let pipe = pipeline(&mut setup);
    // SAFETY: records into a command buffer of `gpu`.
    let tex = s.textured.then(|| unsafe { texture(gpu) });
    let linear = vk::SamplerCreateInfo::default()
        .mag_filter(vk::Filter::LINEAR)
        .min_filter(vk::Filter::LINEAR)
        .mipmap_mode(vk::SamplerMipmapMode::LINEAR)
        .max_lod(vk::LOD_CLAMP_NONE);
    // SAFETY: a valid create info on a live device; destroyed below.
    let tex_smp = unsafe { d.create_sampler(&linear, None) }.unwrap();
    let tex_set = SetPool::new(d, tex_layout, &tex_bindings);
    if let Some((_, _, tview)) = tex {
        let info = [vk::DescriptorImageInfo {
            sampler: tex_smp,
            image_view: tview,
            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(tex_set.set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .image_info(&info);
        // SAFETY: a valid write of a live set.
        unsafe { d.update_descriptor_sets(&[write], &[]) };
    }
    // SAFETY: commands on live handles, recorded in order.
    gpu.run(|d, cb| unsafe {
        setup.begin(cb, &[clear_color([0.1, 0.2, 0.3, 1.0])]);
        d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe);
        if s.textured {
            let bind = vk::PipelineBindPoint::GRAPHICS;
            d.cmd_bind_descriptor_sets(cb, bind, setup.layout, 0, &[tex_set.set], &[]);
        }
        d.cmd_draw(cb, 3, s.instances, 0, 0);
        d.cmd_end_render_pass(cb);
        reader.record(d, cb);
    });
    let texels = reader.texels();
    drop((reader, tex_set, setup));
    // SAFETY: the GPU is done with them.
    unsafe {
        d.destroy_sampler(tex_smp, None);
        if let Some((timage, tmem, tview)) = tex {
            d.destroy_image_view(tview, None);
            d.destroy_image(timage, None);
            d.free_memory(tmem, None);
        }
        d.destroy_descriptor_set_layout(tex_layout, None);
    }
    target.destroy(d);
    texels
}

#[test]
fn shader_scenes_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let lvp_gpu = device(&h, lvp_pd);
    let ours_gpu = device(&h, ours_pd);
    let tol = Tolerance { channel: 2, slack: EDGE_SLACK };
    let mut failures = Vec::new();
    for s in SCENES {
        let lvp = render(&lvp_gpu, s);
        // Sanity: lavapipe drew a good part of the target, and kept the clear colour in the
        // corner the triangle leaves out.
        let clear = lvp.iter().filter(|&&t| t == lvp[0]).count();
        assert!(clear > 100 && clear < lvp.len() - 300, "{}: lavapipe's drawing", s.name);
        let ours = render(&ours_gpu, s);
        if let Err(e) = compare_sized(s.name, W, &ours, &lvp, tol) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
