//! Sampling every sampled format of Ferrum's table, differential against lavapipe: a
//! deterministic texel pattern (valid numbers only: no NaN, infinity or denormal in float
//! formats, depth in [0, 1]) is uploaded by vkCmdCopyBufferToImage into every level and layer
//! of a swizzled 2-level, 2-layer image of odd size; a compute shader reads every texel back
//! through texelFetch, textureLod with a nearest sampler and (filterable formats) a linear one
//! (coordinates off the texel centre so the last row and column blend with the clamped edge),
//! and, for formats with a buffer format, texelFetch of the same bytes through a uniform texel
//! buffer. Depth formats are sampled through their depth aspect, and also with depth-compare
//! samplers (`sampler2DArrayShadow`, every compare op, nearest and linear) at references equal
//! to a texel's value, just below and just above it. Lavapipe shares the process's loader
//! configuration, so this runs in its own test binary.

use ash_loaded::{vk, Device};
use ferrum_tests::gpu::{Gpu, HostBuffer, ViewedImage};
use ferrum_tests::kernel::{binding, whole, Kernel, SetPool};
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::texels::{self, Range};
use ferrum_tests::{entry_with_lavapipe, Harness};
use vulkan_ferrum::format::{info, Numeric};

const W: u32 = 9;
const H: u32 = 5;
const LEVELS: u32 = 2;
const LAYERS: u32 = 2;
/// uvec4 words per texel: texelFetch, nearest, linear, texel buffer.
const SLOTS: u32 = 4;
const OUT_WORDS: u32 = LEVELS * LAYERS * W * H * SLOTS * 4;
/// A word no read produces here (marks reads that were not made).
const UNREAD: u32 = 0x5e5e_5e5e;

/// What a format's shaders read it as.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Float,
    Uint,
    Sint,
}

fn kind(format: vk::Format) -> Kind {
    match info(format).expect("a table format").numeric {
        Numeric::Uint => Kind::Uint,
        Numeric::Sint => Kind::Sint,
        _ => Kind::Float,
    }
}

fn is_depth(format: vk::Format) -> bool {
    matches!(format, vk::Format::D16_UNORM | vk::Format::D32_SFLOAT)
}

/// The sampled formats under test: the list the driver advertises sampling for (every colour
/// format the hardware samples that lavapipe samples as well, and the depth formats through
/// their depth aspect), so that what is advertised and what is proven cannot drift apart.
const FORMATS: &[vk::Format] = vulkan_ferrum::format::properties::PROVEN_SAMPLED;

/// Whether `format` is read through a linear sampler (float results; not integer formats,
/// and not depth: lavapipe does not filter depth without compare, so it is no oracle there).
fn filterable(format: vk::Format) -> bool {
    kind(format) == Kind::Float && !is_depth(format)
}

/// Whether `format` is also read as a uniform texel buffer.
fn has_buffer_view(format: vk::Format) -> bool {
    info(format).is_some_and(|f| f.buf_format != 0)
}

/// The upload bytes for `bytes` bytes of `format`.
fn pattern(format: vk::Format, bytes: usize) -> Vec<u8> {
    texels::pattern(format, bytes, Range::Wide)
}

fn texel_bytes(format: vk::Format) -> u32 {
    u32::from(info(format).unwrap().block_bytes)
}

/// Level `level`'s byte offset in the upload (levels packed, each 16-byte aligned).
fn level_offset(format: vk::Format, level: u32) -> u64 {
    (0..level)
        .map(|l| u64::from((W >> l) * (H >> l) * texel_bytes(format) * LAYERS).next_multiple_of(16))
        .sum()
}

fn aspect(format: vk::Format) -> vk::ImageAspectFlags {
    if is_depth(format) {
        vk::ImageAspectFlags::DEPTH
    } else {
        vk::ImageAspectFlags::COLOR
    }
}

fn prefix(format: vk::Format) -> &'static str {
    match kind(format) {
        Kind::Float => "",
        Kind::Uint => "u",
        Kind::Sint => "i",
    }
}

fn reader_source(format: vk::Format) -> String {
    let p = prefix(format);
    let bits = match kind(format) {
        Kind::Float => "floatBitsToUint",
        Kind::Uint => "uvec4",
        Kind::Sint => "uvec4",
    };
    let linear = if filterable(format) {
        format!(
            "{bits}(textureLod({p}sampler2DArray(tex, linear_smp), vec3((vec2(g.xy) + vec2(0.75, 0.25)) / vec2(w, h), g.z), float(lv)))"
        )
    } else {
        format!("uvec4({UNREAD}u)")
    };
    let buffer = if has_buffer_view(format) {
        format!(
            "lv == 0 && g.z == 0 ? {bits}(texelFetch(texels, g.y * {W} + g.x)) : uvec4({UNREAD}u)"
        )
    } else {
        format!("uvec4({UNREAD}u)")
    };
    format!(
        "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform {p}texture2DArray tex;
layout(set = 0, binding = 1) uniform sampler nearest_smp;
layout(set = 0, binding = 2) uniform sampler linear_smp;
layout(set = 0, binding = 3) buffer Out {{ uvec4 o[]; }};
layout(set = 0, binding = 4) uniform {p}samplerBuffer texels;
void main() {{
    ivec3 g = ivec3(gl_GlobalInvocationID);
    for (int lv = 0; lv < {LEVELS}; lv++) {{
        int w = {W} >> lv, h = {H} >> lv;
        if (g.x >= w || g.y >= h) continue;
        int at = {SLOTS} * (((lv * {LAYERS} + g.z) * {H} + g.y) * {W} + g.x);
        o[at] = {bits}(texelFetch({p}sampler2DArray(tex, nearest_smp), g, lv));
        vec2 c = (vec2(g.xy) + vec2(0.4, 0.6)) / vec2(w, h);
        o[at + 1] = {bits}(textureLod({p}sampler2DArray(tex, nearest_smp), vec3(c, g.z), float(lv)));
        o[at + 2] = {linear};
        o[at + 3] = {buffer};
    }}
}}
"
    )
}

/// A sampler with `filter`, clamped to the edge; `compare` makes it a depth-compare sampler.
fn sampler(d: &Device, filter: vk::Filter, compare: Option<vk::CompareOp>) -> vk::Sampler {
    let clamp = vk::SamplerAddressMode::CLAMP_TO_EDGE;
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(clamp)
        .address_mode_v(clamp)
        .address_mode_w(clamp)
        .compare_enable(compare.is_some())
        .compare_op(compare.unwrap_or(vk::CompareOp::NEVER))
        .max_lod(vk::LOD_CLAMP_NONE);
    // SAFETY: a valid create info on a live device.
    unsafe { d.create_sampler(&info, None) }.expect("vkCreateSampler")
}

/// A sampled 2-level, 2-layer image of `format` holding `data` (uploaded by a copy), its
/// array view and memory.
fn sampled(gpu: &Gpu, format: vk::Format, data: &HostBuffer) -> ViewedImage {
    let range = vk::ImageSubresourceRange {
        aspect_mask: aspect(format),
        base_mip_level: 0,
        level_count: LEVELS,
        base_array_layer: 0,
        layer_count: LAYERS,
    };
    // SAFETY: valid create infos and commands on live handles.
    unsafe {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width: W, height: H, depth: 1 })
            .mip_levels(LEVELS)
            .array_layers(LAYERS)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST);
        let target = gpu.viewed_image(&info, vk::ImageViewType::TYPE_2D_ARRAY, range);
        let image = target.image;
        let regions: Vec<_> = (0..LEVELS)
            .map(|level| vk::BufferImageCopy {
                buffer_offset: level_offset(format, level),
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect(format),
                    mip_level: level,
                    base_array_layer: 0,
                    layer_count: LAYERS,
                },
                image_extent: vk::Extent3D { width: W >> level, height: H >> level, depth: 1 },
                ..Default::default()
            })
            .collect();
        let barrier = |old, new, src, dst| {
            vk::ImageMemoryBarrier::default()
                .image(image)
                .old_layout(old)
                .new_layout(new)
                .src_access_mask(src)
                .dst_access_mask(dst)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .subresource_range(range)
        };
        let dst = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
        let read = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;
        gpu.run(|d, cb| {
            let stage = vk::PipelineStageFlags::TRANSFER;
            let to_dst = barrier(
                vk::ImageLayout::UNDEFINED,
                dst,
                vk::AccessFlags::empty(),
                vk::AccessFlags::TRANSFER_WRITE,
            );
            let flags = vk::DependencyFlags::empty();
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                stage,
                flags,
                &[],
                &[],
                &[to_dst],
            );
            d.cmd_copy_buffer_to_image(cb, data.buffer, image, dst, &regions);
            let to_read =
                barrier(dst, read, vk::AccessFlags::TRANSFER_WRITE, vk::AccessFlags::SHADER_READ);
            let cs = vk::PipelineStageFlags::COMPUTE_SHADER;
            d.cmd_pipeline_barrier(cb, stage, cs, flags, &[], &[], &[to_read]);
        });
        target
    }
}

/// A uniform texel buffer view of `format` over the first bytes of `data` (level 0, layer 0).
fn texel_view(d: &Device, format: vk::Format, data: &HostBuffer) -> vk::BufferView {
    let bytes = u64::from(W * H * texel_bytes(format));
    let info = vk::BufferViewCreateInfo::default()
        .buffer(data.buffer)
        .format(format)
        .offset(0)
        .range(bytes);
    // SAFETY: a valid create info for a live buffer made with texel-buffer usage.
    unsafe { d.create_buffer_view(&info, None) }.expect("vkCreateBufferView")
}

/// Reads every texel of `format` back on `gpu`; the reader's output words.
fn sample_all(gpu: &Gpu, format: vk::Format) -> Vec<u32> {
    let d = &gpu.device;
    let upload = level_offset(format, LEVELS);
    let data = gpu.host_buffer(upload);
    data.write(0, &pattern(format, upload as usize));
    let bindings = [
        binding(0, vk::DescriptorType::SAMPLED_IMAGE, 1),
        binding(1, vk::DescriptorType::SAMPLER, 1),
        binding(2, vk::DescriptorType::SAMPLER, 1),
        binding(3, vk::DescriptorType::STORAGE_BUFFER, 1),
        binding(4, vk::DescriptorType::UNIFORM_TEXEL_BUFFER, 1),
    ];
    let reader = Kernel::new(d, &compute_spirv(&reader_source(format)), &[&bindings], 0);
    let out = gpu.host_buffer(u64::from(OUT_WORDS) * 4);
    out.write(0, &vec![0xcd; OUT_WORDS as usize * 4]);
    let image = sampled(gpu, format, &data);
    // A buffer view of a format without one is never read (the shader's branch is constant).
    let view_format = if has_buffer_view(format) { format } else { vk::Format::R8G8B8A8_UNORM };
    let texels = texel_view(d, view_format, &data);
    let samplers = [sampler(d, vk::Filter::NEAREST, None), sampler(d, vk::Filter::LINEAR, None)];
    let set = SetPool::new(d, reader.set_layouts[0], &bindings);
    set.write_sampled_image(0, image.view, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
    set.write_samplers(1, &samplers);
    set.write_buffers(3, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
    let views = [texels];
    let write = vk::WriteDescriptorSet::default()
        .dst_set(set.set)
        .dst_binding(4)
        .descriptor_type(vk::DescriptorType::UNIFORM_TEXEL_BUFFER)
        .texel_buffer_view(&views);
    // SAFETY: the set is live and not in use; everything is destroyed after the GPU is idle.
    unsafe {
        d.update_descriptor_sets(&[write], &[]);
        gpu.run(|d, cb| {
            reader.bind(cb, &[set.set], &[]);
            d.cmd_dispatch(cb, W.div_ceil(8), H.div_ceil(8), LAYERS);
            ferrum_tests::kernel::compute_to_host(d, cb);
        });
        let words = out.u32s();
        drop(set);
        for s in samplers {
            d.destroy_sampler(s, None);
        }
        d.destroy_buffer_view(texels, None);
        image.destroy(d);
        gpu.destroy_buffer(out);
        gpu.destroy_buffer(data);
        words
    }
}

/// The spread (max - min) of component `k` over the 2 x 2 footprint that the linear sample
/// of texel `t` reads (texels x..x+1, y-1..y of its level, clamped), from lavapipe's
/// texelFetch words.
fn footprint_spread(lvp: &[u32], t: usize, k: usize) -> f32 {
    let (w, h) = (W as usize, H as usize);
    let (x, y, plane) = (t % w, t / w % h, t / (w * h));
    let level = plane / LAYERS as usize;
    let lw = w >> level;
    let values: Vec<f32> = [(0, 0), (1, 0), (0, 1), (1, 1)]
        .iter()
        .map(|&(dx, dy)| {
            let (tx, ty) = ((x + dx).min(lw - 1), (y + dy).max(1) - 1);
            f32::from_bits(lvp[((plane * h + ty) * w + tx) * (SLOTS as usize * 4) + k])
        })
        .collect();
    let max = values.iter().copied().fold(f32::MIN, f32::max);
    let min = values.iter().copied().fold(f32::MAX, f32::min);
    max - min
}

/// Whether `format` is normalized (or sRGB) with channels of at most 8 bits, which
/// lavapipe's sampler (not its texelFetch) reads through an 8-bit path: its nearest and
/// linear results are then quantised to 1/255 steps, where ours are the exact conversion.
fn lavapipe_8bit_sampling(format: vk::Format) -> bool {
    let name = format!("{format:?}");
    let channels = name.split("_PACK").next().unwrap_or("");
    let numeric = info(format).unwrap().numeric;
    matches!(numeric, Numeric::Unorm | Numeric::Srgb)
        && !channels.contains("16")
        && !channels.contains("10")
}

/// Whether our word `i` for `format` matches lavapipe's. Exact, except where Vulkan leaves
/// precision to the implementation: normalized conversions need not be correctly rounded (a
/// few float ulps); lavapipe converts sRGB with a polynomial (ours is the exact curve: both
/// within 0.2% + 2e-3 here, where one 8-bit step near white is 7e-3); lavapipe's sampler
/// quantises 8-bit formats to 1/255 (see [`lavapipe_8bit_sampling`]); and the linear
/// filter's weights have implementation-defined sub-texel precision (the hardware's are 8
/// fractional bits): two 1/256 weight steps of the footprint's spread.
fn matches(format: vk::Format, i: usize, ours: &[u32], lvp: &[u32]) -> bool {
    if ours[i] == lvp[i] {
        return true;
    }
    if kind(format) != Kind::Float {
        return false;
    }
    let (a, b) = (f32::from_bits(ours[i]), f32::from_bits(lvp[i]));
    let numeric = info(format).unwrap().numeric;
    let slot = (i / 4) % SLOTS as usize;
    let mut rounding = match numeric {
        Numeric::Srgb => 2e-3 + b.abs() * 2e-3,
        Numeric::Unorm | Numeric::Snorm | Numeric::DepthStencil => b.abs() * 4e-7,
        _ => 0.0,
    };
    if (slot == 1 || slot == 2) && lavapipe_8bit_sampling(format) {
        // Linear: its input and its result are both quantised.
        rounding += if slot == 2 { 2.0 } else { 1.0 } / 255.0;
    }
    if slot == 2 {
        let spread = footprint_spread(lvp, i / (SLOTS as usize * 4), i % 4);
        return (a - b).abs() <= spread / 128.0 + rounding + b.abs() / 65536.0;
    }
    (a - b).abs() <= rounding
}

fn describe(i: usize, ours: &[u32], lvp: &[u32]) -> String {
    let texel = i / (SLOTS as usize * 4);
    let what = ["texelFetch", "nearest", "linear", "texel buffer"][(i / 4) % SLOTS as usize];
    format!("texel {texel} {what}[{}]: ferrum {:#x}, lavapipe {:#x}", i % 4, ours[i], lvp[i])
}

#[test]
fn every_sampled_format_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_gpu = Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[]);
    let ours_gpu = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 0, 1, &[]);
    let mut failures = Vec::new();
    for &format in FORMATS {
        let lvp = sample_all(&lvp_gpu, format);
        // Sanity: lavapipe read the last texel of every level and layer.
        for plane in 0..LEVELS * LAYERS {
            let lv = plane / LAYERS;
            let at = ((plane * H + (H >> lv) - 1) * W + (W >> lv) - 1) * SLOTS * 4;
            assert_ne!(lvp[at as usize], 0xcdcd_cdcd, "{format:?}: lavapipe plane {plane}");
        }
        let ours = sample_all(&ours_gpu, format);
        let bad: Vec<String> = (0..OUT_WORDS as usize)
            .filter(|&i| {
                // Depth reads compare the depth (R) only: Vulkan leaves G, B and A of a
                // depth view's reads to the implementation.
                !(matches(format, i, &ours, &lvp) || is_depth(format) && i % 4 != 0)
            })
            .take(6)
            .map(|i| describe(i, &ours, &lvp))
            .collect();
        if !bad.is_empty() {
            failures.push(format!("{format:?} differs:\n{}", bad.join("\n")));
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// The depth-compare reader: layer 1 of level 0 through a 2D view, each texel's stored depth
/// d (texelFetch) compared as Dref d - 1/4096, d and d + 1/4096 at a point a quarter texel
/// off its centre (so a linear sampler blends it with its neighbours).
fn compare_source() -> String {
    format!(
        "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform samplerShadow cmp;
layout(set = 0, binding = 2) uniform sampler plain;
layout(set = 0, binding = 3) buffer Out {{ vec4 o[]; }};
void main() {{
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (g.x >= {W} || g.y >= {H}) return;
    float d = texelFetch(sampler2D(tex, plain), g, 0).r;
    vec2 c = (vec2(g) + vec2(0.75, 0.25)) / vec2({W}, {H});
    float step = 1.0 / 4096.0;
    o[g.y * {W} + g.x] = vec4(textureLod(sampler2DShadow(tex, cmp), vec3(c, d - step), 0.0),
        textureLod(sampler2DShadow(tex, cmp), vec3(c, d), 0.0),
        textureLod(sampler2DShadow(tex, cmp), vec3(c, d + step), 0.0), d);
}}
"
    )
}

const COMPARE_OPS: [vk::CompareOp; 8] = [
    vk::CompareOp::NEVER,
    vk::CompareOp::LESS,
    vk::CompareOp::EQUAL,
    vk::CompareOp::LESS_OR_EQUAL,
    vk::CompareOp::GREATER,
    vk::CompareOp::NOT_EQUAL,
    vk::CompareOp::GREATER_OR_EQUAL,
    vk::CompareOp::ALWAYS,
];

/// Depth-compare results of `format` on `gpu` for every compare op with `filter`: per op,
/// W x H vec4s (the three comparisons and the depth).
fn compare_all(gpu: &Gpu, format: vk::Format, filter: vk::Filter) -> Vec<Vec<f32>> {
    let d = &gpu.device;
    let upload = level_offset(format, LEVELS);
    let data = gpu.host_buffer(upload);
    data.write(0, &pattern(format, upload as usize));
    let image = sampled(gpu, format, &data);
    let bindings = [
        binding(0, vk::DescriptorType::SAMPLED_IMAGE, 1),
        binding(1, vk::DescriptorType::SAMPLER, 1),
        binding(2, vk::DescriptorType::SAMPLER, 1),
        binding(3, vk::DescriptorType::STORAGE_BUFFER, 1),
    ];
    let reader = Kernel::new(d, &compute_spirv(&compare_source()), &[&bindings], 0);
    let range = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::DEPTH,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 1,
        layer_count: 1,
    };
    let info = vk::ImageViewCreateInfo::default()
        .image(image.image)
        .view_type(vk::ImageViewType::TYPE_2D)
        .format(format)
        .subresource_range(range);
    // SAFETY: a valid create info for a live image.
    let view = unsafe { d.create_image_view(&info, None) }.expect("vkCreateImageView");
    let plain = sampler(d, vk::Filter::NEAREST, None);
    let results = COMPARE_OPS
        .iter()
        .map(|&op| {
            let cmp = sampler(d, filter, Some(op));
            let out = gpu.host_buffer(u64::from(W * H * 16));
            let set = SetPool::new(d, reader.set_layouts[0], &bindings);
            set.write_sampled_image(0, view, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
            set.write_samplers(1, &[cmp, plain]);
            set.write_buffers(3, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
            gpu.run(|d, cb| {
                reader.bind(cb, &[set.set], &[]);
                // SAFETY: recording into a live command buffer.
                unsafe { d.cmd_dispatch(cb, W.div_ceil(8), H.div_ceil(8), 1) };
                ferrum_tests::kernel::compute_to_host(d, cb);
            });
            let values = out.u32s().into_iter().map(f32::from_bits).collect();
            drop(set);
            // SAFETY: the GPU is idle.
            unsafe { d.destroy_sampler(cmp, None) };
            gpu.destroy_buffer(out);
            values
        })
        .collect();
    // SAFETY: the GPU is idle.
    unsafe {
        d.destroy_sampler(plain, None);
        d.destroy_image_view(view, None);
    }
    image.destroy(d);
    gpu.destroy_buffer(data);
    results
}

/// The depth-compare results must equal lavapipe's: exactly with NEAREST (a comparison is
/// 0 or 1, also at equality), and within the filter's weight precision (two 1/256 steps)
/// with LINEAR, which averages the four comparisons of its footprint.
#[test]
fn depth_compare_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_gpu = Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[]);
    let ours_gpu = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 0, 1, &[]);
    let mut failures = Vec::new();
    for format in [vk::Format::D16_UNORM, vk::Format::D32_SFLOAT] {
        for filter in [vk::Filter::NEAREST, vk::Filter::LINEAR] {
            let lvp = compare_all(&lvp_gpu, format, filter);
            let ours = compare_all(&ours_gpu, format, filter);
            let tolerance = if filter == vk::Filter::LINEAR { 2.0 / 256.0 } else { 0.0 };
            for (k, op) in COMPARE_OPS.iter().enumerate() {
                // Sanity: LESS passes below the stored depth, and fails at and above it.
                if *op == vk::CompareOp::LESS && filter == vk::Filter::NEAREST {
                    let below = lvp[k].chunks(4).filter(|v| v[0] == 1.0).count();
                    let at_or_above = lvp[k].chunks(4).filter(|v| v[1] + v[2] != 0.0).count();
                    assert!(below > 0 && at_or_above == 0, "{format:?}: {below} {at_or_above}");
                }
                let bad: Vec<String> = (0..lvp[k].len())
                    .filter(|&i| (ours[k][i] - lvp[k][i]).abs() > tolerance)
                    .take(4)
                    .map(|i| {
                        format!(
                            "texel {} [{}]: ferrum {}, lavapipe {}",
                            i / 4,
                            i % 4,
                            ours[k][i],
                            lvp[k][i]
                        )
                    })
                    .collect();
                if !bad.is_empty() {
                    failures.push(format!("{format:?} {filter:?} {op:?}:\n{}", bad.join("\n")));
                }
            }
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
