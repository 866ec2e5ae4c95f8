//! Block-compressed formats (BC1–BC7) sampled and blitted, differential against lavapipe
//! (Mesa's decoders, which we did not write). Deterministic pseudo-random blocks that cover
//! every encoding the format has (BC1/BC4/BC5 endpoint orders both ways, so both the
//! four/eight-value and the punch-through/six-value modes; every BC6H mode and every BC7
//! mode, partitions and p-bits at random) are uploaded by vkCmdCopyBufferToImage into a
//! swizzled 3-level, 2-layer image whose sizes are no multiple of the block (26×13: level 2
//! is 6×3 texels in 2×1 partial blocks). A compute shader reads every texel of every level
//! and layer back through texelFetch, nearest and linear textureLod (off the texel centre,
//! so the linear footprint straddles block edges and clamps at the last row and column), and
//! a trilinear textureLod half way to the next level. A second test blits every format's
//! level 1 into RGBA32F (same size nearest, and scaled and mirrored linear) and reads it
//! back by a copy. Lavapipe shares the process's loader configuration, so this runs in its
//! own test binary.

use ash_loaded::{vk, Device};
use ferrum_tests::gpu::{Gpu, HostBuffer, ViewedImage};
use ferrum_tests::kernel::{binding, whole, Kernel, SetPool};
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::{entry_with_lavapipe, Harness};
use vulkan_ferrum::format::{info, Numeric};

const W: u32 = 26;
const H: u32 = 13;
const LEVELS: u32 = 3;
const LAYERS: u32 = 2;
/// uvec4 words per texel: texelFetch, nearest, linear, trilinear.
const SLOTS: usize = 4;
const OUT_WORDS: usize = (LEVELS * LAYERS * W * H) as usize * SLOTS * 4;
/// A word no read produces here (marks reads that were not made).
const UNREAD: u32 = 0x5e5e_5e5e;

/// The formats under test: every block-compressed format the driver advertises, so that
/// what is advertised and what is proven cannot drift apart.
const FORMATS: &[vk::Format] = vulkan_ferrum::format::properties::PROVEN_BC;

fn block_bytes(format: vk::Format) -> usize {
    usize::from(info(format).expect("a table format").block_bytes)
}

/// Blocks of `level` per layer, as (columns, rows).
fn blocks(level: u32) -> (u32, u32) {
    ((W >> level).max(1).div_ceil(4), (H >> level).max(1).div_ceil(4))
}

/// Level `level`'s byte offset in the upload (levels packed, each 16-byte aligned).
fn level_offset(format: vk::Format, level: u32) -> u64 {
    (0..level)
        .map(|l| {
            let (c, r) = blocks(l);
            (u64::from(c * r * LAYERS) * block_bytes(format) as u64).next_multiple_of(16)
        })
        .sum()
}

/// BC6H's valid mode bits, lowest bits first as the block stores them: the two 2-bit modes
/// and the twelve 5-bit ones (the four reserved 5-bit values are left out: the Data Format
/// Specification leaves their decode undefined).
const BC6H_MODES: [(u8, u32); 14] = [
    (0b00, 2),
    (0b01, 2),
    (0b00010, 5),
    (0b00110, 5),
    (0b01010, 5),
    (0b01110, 5),
    (0b10010, 5),
    (0b10110, 5),
    (0b11010, 5),
    (0b11110, 5),
    (0b00011, 5),
    (0b00111, 5),
    (0b01011, 5),
    (0b01111, 5),
];

/// Block `k` of `format`: random bits (seeded by the format and `k`) with the mode
/// bits set so that block `k` uses BC6H mode `k % 14` or BC7 mode `k % 8` (BC7's mode is the
/// position of its lowest set bit).
fn block(format: vk::Format, k: u32) -> Vec<u8> {
    let seed = 0x9e37_79b9_7f4a_7c15u64 ^ (u64::from(format.as_raw() as u32) << 20) ^ u64::from(k);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out: Vec<u8> = (0..block_bytes(format)).map(|_| rng.u8(..)).collect();
    match format {
        vk::Format::BC6H_UFLOAT_BLOCK | vk::Format::BC6H_SFLOAT_BLOCK => {
            let (bits, n) = BC6H_MODES[(k % 14) as usize];
            out[0] = (out[0] & !((1u8 << n) - 1)) | bits;
        }
        vk::Format::BC7_UNORM_BLOCK | vk::Format::BC7_SRGB_BLOCK => {
            let mode = k % 8;
            let low = ((1u16 << (mode + 1)) - 1) as u8;
            out[0] = (out[0] & !low) | (1 << mode);
        }
        _ => {}
    }
    out
}

/// The whole upload of `format`: every level's blocks, layer after layer.
fn upload(format: vk::Format) -> Vec<u8> {
    let mut data = vec![0u8; level_offset(format, LEVELS) as usize];
    let mut k = 0;
    for level in 0..LEVELS {
        let (c, r) = blocks(level);
        let at = level_offset(format, level) as usize;
        let size = block_bytes(format);
        for i in 0..(c * r * LAYERS) as usize {
            data[at + i * size..at + (i + 1) * size].copy_from_slice(&block(format, k));
            k += 1;
        }
    }
    data
}

fn reader_source() -> String {
    format!(
        "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2DArray tex;
layout(set = 0, binding = 1) uniform sampler nearest_smp;
layout(set = 0, binding = 2) uniform sampler linear_smp;
layout(set = 0, binding = 3) buffer Out {{ uvec4 o[]; }};
void main() {{
    ivec3 g = ivec3(gl_GlobalInvocationID);
    for (int lv = 0; lv < {LEVELS}; lv++) {{
        int w = {W} >> lv, h = {H} >> lv;
        if (g.x >= w || g.y >= h) continue;
        int at = {SLOTS} * (((lv * {LAYERS} + g.z) * {H} + g.y) * {W} + g.x);
        o[at] = floatBitsToUint(texelFetch(sampler2DArray(tex, nearest_smp), g, lv));
        vec2 c = (vec2(g.xy) + vec2(0.4, 0.6)) / vec2(w, h);
        o[at + 1] = floatBitsToUint(textureLod(sampler2DArray(tex, nearest_smp), vec3(c, g.z), float(lv)));
        vec2 l = (vec2(g.xy) + vec2(0.75, 0.25)) / vec2(w, h);
        o[at + 2] = floatBitsToUint(textureLod(sampler2DArray(tex, linear_smp), vec3(l, g.z), float(lv)));
        o[at + 3] = lv + 1 < {LEVELS}
            ? floatBitsToUint(textureLod(sampler2DArray(tex, linear_smp), vec3(l, g.z), float(lv) + 0.5))
            : uvec4({UNREAD}u);
    }}
}}
"
    )
}

/// A clamped sampler with `filter` for texels and mip levels.
fn sampler(d: &Device, filter: vk::Filter) -> vk::Sampler {
    let clamp = vk::SamplerAddressMode::CLAMP_TO_EDGE;
    let mipmap = if filter == vk::Filter::LINEAR {
        vk::SamplerMipmapMode::LINEAR
    } else {
        vk::SamplerMipmapMode::NEAREST
    };
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(mipmap)
        .address_mode_u(clamp)
        .address_mode_v(clamp)
        .address_mode_w(clamp)
        .max_lod(vk::LOD_CLAMP_NONE);
    // SAFETY: a valid create info on a live device.
    unsafe { d.create_sampler(&info, None) }.expect("vkCreateSampler")
}

fn colour_range(levels: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: levels,
        base_array_layer: 0,
        layer_count: LAYERS,
    }
}

fn barrier(
    image: vk::Image,
    range: vk::ImageSubresourceRange,
    (old, new): (vk::ImageLayout, vk::ImageLayout),
    (src, dst): (vk::AccessFlags, vk::AccessFlags),
) -> vk::ImageMemoryBarrier<'static> {
    vk::ImageMemoryBarrier::default()
        .image(image)
        .old_layout(old)
        .new_layout(new)
        .src_access_mask(src)
        .dst_access_mask(dst)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .subresource_range(range)
}

/// A 3-level, 2-layer image of `format` holding `data` (uploaded by a copy, tightly packed
/// rows: bufferRowLength 0), left in `layout`, its array view and memory.
fn compressed(
    gpu: &Gpu,
    format: vk::Format,
    data: &HostBuffer,
    layout: vk::ImageLayout,
) -> ViewedImage {
    let range = colour_range(LEVELS);
    let usage = vk::ImageUsageFlags::SAMPLED
        | vk::ImageUsageFlags::TRANSFER_DST
        | vk::ImageUsageFlags::TRANSFER_SRC;
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
            .usage(usage);
        let target = gpu.viewed_image(&info, vk::ImageViewType::TYPE_2D_ARRAY, range);
        let image = target.image;
        let regions: Vec<_> = (0..LEVELS)
            .map(|level| vk::BufferImageCopy {
                buffer_offset: level_offset(format, level),
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: level,
                    base_array_layer: 0,
                    layer_count: LAYERS,
                },
                // The level's texel extent (a partial block at the right and bottom).
                image_extent: vk::Extent3D {
                    width: (W >> level).max(1),
                    height: (H >> level).max(1),
                    depth: 1,
                },
                ..Default::default()
            })
            .collect();
        let dst = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
        let write = vk::AccessFlags::TRANSFER_WRITE;
        gpu.run(|d, cb| {
            let none = vk::AccessFlags::empty();
            let to_dst = barrier(image, range, (vk::ImageLayout::UNDEFINED, dst), (none, write));
            let flags = vk::DependencyFlags::empty();
            let (top, transfer) =
                (vk::PipelineStageFlags::TOP_OF_PIPE, vk::PipelineStageFlags::TRANSFER);
            d.cmd_pipeline_barrier(cb, top, transfer, flags, &[], &[], &[to_dst]);
            d.cmd_copy_buffer_to_image(cb, data.buffer, image, dst, &regions);
            let read = vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_READ;
            let to_read = barrier(image, range, (dst, layout), (write, read));
            let all = vk::PipelineStageFlags::COMPUTE_SHADER | transfer;
            d.cmd_pipeline_barrier(cb, transfer, all, flags, &[], &[], &[to_read]);
        });
        target
    }
}

fn upload_buffer(gpu: &Gpu, format: vk::Format) -> HostBuffer {
    let data = upload(format);
    let buffer = gpu.host_buffer(data.len() as u64);
    buffer.write(0, &data);
    buffer
}

/// Reads every texel of `format` back on `gpu`; the reader's output words.
fn sample_all(gpu: &Gpu, format: vk::Format) -> Vec<u32> {
    let d = &gpu.device;
    let data = upload_buffer(gpu, format);
    let bindings = [
        binding(0, vk::DescriptorType::SAMPLED_IMAGE, 1),
        binding(1, vk::DescriptorType::SAMPLER, 1),
        binding(2, vk::DescriptorType::SAMPLER, 1),
        binding(3, vk::DescriptorType::STORAGE_BUFFER, 1),
    ];
    let reader = Kernel::new(d, &compute_spirv(&reader_source()), &[&bindings], 0);
    let out = gpu.host_buffer(OUT_WORDS as u64 * 4);
    out.write(0, &vec![0xcd; OUT_WORDS * 4]);
    let read = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;
    let image = compressed(gpu, format, &data, read);
    let samplers = [sampler(d, vk::Filter::NEAREST), sampler(d, vk::Filter::LINEAR)];
    let set = SetPool::new(d, reader.set_layouts[0], &bindings);
    set.write_sampled_image(0, image.view, read);
    set.write_samplers(1, &samplers);
    set.write_buffers(3, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
    // SAFETY: the set is live and not in use; everything is destroyed after the GPU is idle.
    unsafe {
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
        image.destroy(d);
        gpu.destroy_buffer(out);
        gpu.destroy_buffer(data);
        words
    }
}

/// The texels (x, y) a bilinear sample at normalised (u, v) of a `w`×`h` level reads,
/// clamped to the edge.
fn footprint(u: f32, v: f32, w: u32, h: u32) -> Vec<(u32, u32)> {
    let corner = |c: f32, n: u32| {
        let x = (c * n as f32 - 0.5).floor() as i64;
        [x.clamp(0, i64::from(n) - 1) as u32, (x + 1).clamp(0, i64::from(n) - 1) as u32]
    };
    let (xs, ys) = (corner(u, w), corner(v, h));
    xs.iter().flat_map(|&x| ys.iter().map(move |&y| (x, y))).collect()
}

/// Channel `k`'s spread (max - min) over the texels a filtered read of texel (x, y) of
/// `level`, layer `z` reads: that level's bilinear footprint and, for the trilinear read,
/// the next level's; taken from lavapipe's texelFetch words.
fn spread(lvp: &[u32], (x, y, z): (u32, u32, u32), level: u32, trilinear: bool, k: usize) -> f32 {
    let (w, h) = ((W >> level).max(1), (H >> level).max(1));
    let (u, v) = ((x as f32 + 0.75) / w as f32, (y as f32 + 0.25) / h as f32);
    let levels = if trilinear { level..level + 2 } else { level..level + 1 };
    let values: Vec<f32> = levels
        .flat_map(|l| {
            let (lw, lh) = ((W >> l).max(1), (H >> l).max(1));
            footprint(u, v, lw, lh).into_iter().map(move |(tx, ty)| (l, tx, ty))
        })
        .map(|(l, tx, ty)| {
            let t = (((l * LAYERS + z) * H + ty) * W + tx) as usize;
            f32::from_bits(lvp[t * SLOTS * 4 + k])
        })
        .collect();
    let max = values.iter().copied().fold(f32::MIN, f32::max);
    let min = values.iter().copied().fold(f32::MAX, f32::min);
    max - min
}

/// How far a decoded value of `format` near `b` may be from lavapipe's `b`: the Data Format
/// Specification defines BC1–BC5 interpolation in real arithmetic, and lavapipe decodes them
/// to 8 bits (one step of rounding each way for the endpoints' expansion and the
/// interpolation, where ours is the exact value); sRGB adds lavapipe's polynomial curve
/// (0.2% + 2e-3, as format_sampling.rs) on the slope of the curve near white (2.4 times an
/// 8-bit step). BC7 decodes to exact 8-bit values, BC6H to exact halves (one ulp for the
/// conversion to float).
fn decode_tolerance(format: vk::Format, b: f32) -> f32 {
    let step = 1.0 / 255.0;
    match info(format).unwrap().numeric {
        _ if format == vk::Format::BC7_UNORM_BLOCK => b.abs() * 4e-7,
        _ if format == vk::Format::BC7_SRGB_BLOCK => 2e-3 + b.abs() * 2e-3,
        Numeric::Srgb => 2.4 * 2.0 * step + 2e-3 + b.abs() * 2e-3,
        Numeric::Snorm => 2.0 / 127.0,
        Numeric::Float => b.abs() / 1024.0,
        _ => 2.0 * step,
    }
}

/// Whether our word `i` for `format` matches lavapipe's: within the decode tolerance and,
/// for filtered reads, the linear filter's weight precision (implementation-defined; the
/// hardware's has 8 fractional bits): two 1/256 weight steps of the footprint's spread, as
/// format_sampling.rs allows. Alpha of formats without one is exact (1).
fn matches(format: vk::Format, i: usize, ours: &[u32], lvp: &[u32]) -> bool {
    if ours[i] == lvp[i] {
        return true;
    }
    let (a, b) = (f32::from_bits(ours[i]), f32::from_bits(lvp[i]));
    if lvp[i] == UNREAD || !a.is_finite() {
        return false;
    }
    let texel = i / (SLOTS * 4);
    let slot = (i / 4) % SLOTS;
    let k = i % 4;
    let (x, y) = ((texel as u32) % W, (texel as u32) / W % H);
    let plane = (texel as u32) / (W * H);
    let (level, z) = (plane / LAYERS, plane % LAYERS);
    let mut allowed = decode_tolerance(format, b);
    if slot >= 2 {
        let s = spread(lvp, (x, y, z), level, slot == 3, k);
        allowed += s / 128.0 + b.abs() / 65536.0;
        // Lavapipe filters formats it decodes to 8 bits through an 8-bit path: its
        // filtered result is rounded to 1/255 (format_sampling.rs's rule; seen on BC7,
        // whose texelFetch words are exact).
        if info(format).unwrap().numeric != Numeric::Float {
            allowed += 1.0 / 255.0;
        }
    }
    (a - b).abs() <= allowed
}

fn describe(i: usize, ours: &[u32], lvp: &[u32]) -> String {
    let texel = i / (SLOTS * 4);
    let what = ["texelFetch", "nearest", "linear", "trilinear"][(i / 4) % SLOTS];
    let (a, b) = (f32::from_bits(ours[i]), f32::from_bits(lvp[i]));
    format!(
        "texel {texel} {what}[{}]: ferrum {a} ({:#x}), lavapipe {b} ({:#x})",
        i % 4,
        ours[i],
        lvp[i]
    )
}

/// Compares every word of two drivers' results; up to six differences per format.
fn differences(format: vk::Format, ours: &[u32], lvp: &[u32]) -> Vec<String> {
    (0..ours.len())
        .filter(|&i| !matches(format, i, ours, lvp))
        .take(6)
        .map(|i| describe(i, ours, lvp))
        .collect()
}

fn gpus(h: &Harness) -> (Gpu, Gpu) {
    let features =
        vk::PhysicalDeviceFeatures { texture_compression_bc: vk::TRUE, ..Default::default() };
    let lvp = Gpu::with_features(&h.instance, h.physical_device_named("llvmpipe"), 0, &features);
    let ours = Gpu::with_features(&h.instance, h.physical_device_named("Ferrum"), 0, &features);
    (lvp, ours)
}

#[test]
fn every_bc_format_samples_like_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let (lvp_gpu, ours_gpu) = gpus(&h);
    let mut failures = Vec::new();
    for &format in FORMATS {
        let lvp = sample_all(&lvp_gpu, format);
        // Sanity: lavapipe read the last texel of every level and layer.
        for plane in 0..LEVELS * LAYERS {
            let lv = plane / LAYERS;
            let at = ((plane * H + (H >> lv) - 1) * W + (W >> lv) - 1) as usize * SLOTS * 4;
            assert_ne!(lvp[at], 0xcdcd_cdcd, "{format:?}: lavapipe plane {plane}");
        }
        let ours = sample_all(&ours_gpu, format);
        let bad = differences(format, &ours, &lvp);
        if !bad.is_empty() {
            failures.push(format!("{format:?} differs:\n{}", bad.join("\n")));
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// A single-level, single-layer optimal 2D image usable as transfer source and destination,
/// and its memory (freed by the caller after the image).
fn transfer_image(gpu: &Gpu, format: vk::Format, w: u32, h: u32) -> (vk::Image, vk::DeviceMemory) {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: w, height: h, depth: 1 })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
    // SAFETY: a valid create info on a live device.
    let image = unsafe { gpu.device.create_image(&info, None) }.expect("vkCreateImage");
    (image, gpu.bind_image_memory(image))
}

fn destroy_image(d: &Device, (image, memory): (vk::Image, vk::DeviceMemory)) {
    // SAFETY: the GPU is idle.
    unsafe {
        d.destroy_image(image, None);
        d.free_memory(memory, None);
    }
}

/// Blit destinations: the same size as level 1 (NEAREST), and a larger, mirrored one (LINEAR).
const BLITS: [(vk::Filter, u32, u32, bool); 2] =
    [(vk::Filter::NEAREST, W >> 1, H >> 1, false), (vk::Filter::LINEAR, 17, 9, true)];

/// Blits level 1, layer 1 of `format` into RGBA32F images (see [`BLITS`]) on `gpu` and
/// reads them back: the destinations' texels, one after the other.
fn blit_all(gpu: &Gpu, format: vk::Format) -> Vec<u32> {
    let d = &gpu.device;
    let data = upload_buffer(gpu, format);
    let src_layout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
    let src = compressed(gpu, format, &data, src_layout);
    let total: u32 = BLITS.iter().map(|b| b.1 * b.2).sum();
    let out = gpu.host_buffer(u64::from(total) * 16);
    let one_layer = vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: 0,
        layer_count: 1,
    };
    let rgba32f = vk::Format::R32G32B32A32_SFLOAT;
    let mut offset = 0u64;
    for &(filter, w, h, mirror) in &BLITS {
        let extent = vk::Extent3D { width: w, height: h, depth: 1 };
        let owned = transfer_image(gpu, rgba32f, w, h);
        let dst = owned.0;
        let (lw, lh) = ((W >> 1) as i32, (H >> 1) as i32);
        let src_offsets = [vk::Offset3D { x: 0, y: 0, z: 0 }, vk::Offset3D { x: lw, y: lh, z: 1 }];
        let (x0, x1) = if mirror { (w as i32, 0) } else { (0, w as i32) };
        let dst_offsets =
            [vk::Offset3D { x: x0, y: 0, z: 0 }, vk::Offset3D { x: x1, y: h as i32, z: 1 }];
        let region = vk::ImageBlit {
            src_subresource: vk::ImageSubresourceLayers {
                mip_level: 1,
                base_array_layer: 1,
                ..one_layer
            },
            src_offsets,
            dst_subresource: one_layer,
            dst_offsets,
        };
        let copy = vk::BufferImageCopy {
            buffer_offset: offset,
            image_subresource: one_layer,
            image_extent: extent,
            ..Default::default()
        };
        let range = vk::ImageSubresourceRange { layer_count: 1, ..colour_range(1) };
        let (dst_layout, read) =
            (vk::ImageLayout::TRANSFER_DST_OPTIMAL, vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
        let write = vk::AccessFlags::TRANSFER_WRITE;
        // SAFETY: valid commands on live handles; the GPU is idle after `run`.
        gpu.run(|d, cb| unsafe {
            let transfer = vk::PipelineStageFlags::TRANSFER;
            let flags = vk::DependencyFlags::empty();
            let none = vk::AccessFlags::empty();
            let to_dst =
                barrier(dst, range, (vk::ImageLayout::UNDEFINED, dst_layout), (none, write));
            d.cmd_pipeline_barrier(cb, transfer, transfer, flags, &[], &[], &[to_dst]);
            d.cmd_blit_image(cb, src.image, src_layout, dst, dst_layout, &[region], filter);
            let to_src =
                barrier(dst, range, (dst_layout, read), (write, vk::AccessFlags::TRANSFER_READ));
            d.cmd_pipeline_barrier(cb, transfer, transfer, flags, &[], &[], &[to_src]);
            d.cmd_copy_image_to_buffer(cb, dst, read, out.buffer, &[copy]);
            ferrum_tests::gpu::transfer_to_host(d, cb);
        });
        destroy_image(d, owned);
        offset += u64::from(w * h) * 16;
    }
    let words = out.u32s();
    src.destroy(d);
    gpu.destroy_buffer(out);
    gpu.destroy_buffer(data);
    words
}

#[test]
fn every_bc_format_blits_like_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let (lvp_gpu, ours_gpu) = gpus(&h);
    let mut failures = Vec::new();
    for &format in FORMATS {
        let lvp = blit_all(&lvp_gpu, format);
        let ours = blit_all(&ours_gpu, format);
        // The nearest blit is a texel-for-texel decode; the linear one blends up to four
        // texels of values within [min, max] of their channel over the whole level (the
        // nearest blit's words): the weight precision allowance of `matches` over that
        // spread, and lavapipe's 8-bit filtering path.
        let nearest = (BLITS[0].1 * BLITS[0].2 * 4) as usize;
        let spread = |k: usize| {
            let values = lvp[..nearest].iter().skip(k).step_by(4).map(|&v| f32::from_bits(v));
            let (lo, hi) = values.fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
            hi - lo
        };
        let eight_bit =
            if info(format).unwrap().numeric == Numeric::Float { 0.0 } else { 1.0 / 255.0 };
        let bad: Vec<String> = (0..lvp.len())
            .filter(|&i| {
                let (a, b) = (f32::from_bits(ours[i]), f32::from_bits(lvp[i]));
                let mut allowed = decode_tolerance(format, b);
                if i >= nearest {
                    allowed += spread(i % 4) / 128.0 + b.abs() / 65536.0 + eight_bit;
                }
                let within = (a - b).abs() <= allowed;
                !within
            })
            .take(6)
            .map(|i| {
                format!(
                    "word {i}: ferrum {}, lavapipe {}",
                    f32::from_bits(ours[i]),
                    f32::from_bits(lvp[i])
                )
            })
            .collect();
        if !bad.is_empty() {
            failures.push(format!("{format:?} blit differs:\n{}", bad.join("\n")));
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// The uncompressed format with `format`'s block size (the copies' size-compatible partner).
fn element_format(format: vk::Format) -> vk::Format {
    if block_bytes(format) == 8 {
        vk::Format::R32G32_UINT
    } else {
        vk::Format::R32G32B32A32_UINT
    }
}

/// Uncompressed partner image: 8×4 elements.
const ELEMS: (u32, u32) = (8, 4);

/// Copies between `format` and its size-compatible uncompressed format on `gpu`: blocks of
/// level 0, layer 1 from texel (4, 4) to the level's edge (22×9 texels: partial blocks on
/// the right and bottom) into the partner at element (1, 0); then partner elements back into
/// a second compressed image (whose level 0 first gets the upload's layer 0) at texel
/// (4, 4) and (12, 8). Returns the partner's bytes, then the second image's level 0.
fn copy_round(gpu: &Gpu, format: vk::Format) -> Vec<u8> {
    let d = &gpu.device;
    let data = upload_buffer(gpu, format);
    let (src_layout, dst_layout) =
        (vk::ImageLayout::TRANSFER_SRC_OPTIMAL, vk::ImageLayout::TRANSFER_DST_OPTIMAL);
    let src = compressed(gpu, format, &data, src_layout);
    let (ew, eh) = ELEMS;
    let u = transfer_image(gpu, element_format(format), ew, eh);
    let back = transfer_image(gpu, format, W, H);
    let bb = block_bytes(format) as u64;
    let (cols, rows) = blocks(0);
    let u_bytes = u64::from(ew * eh) * bb;
    let back_bytes = u64::from(cols * rows) * bb;
    let zeros = gpu.host_buffer(u_bytes);
    let out = gpu.host_buffer(u_bytes + back_bytes);
    let layer = |l: u32| vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: l,
        layer_count: 1,
    };
    let off = |x: i32, y: i32| vk::Offset3D { x, y, z: 0 };
    let ext = |width: u32, height: u32| vk::Extent3D { width, height, depth: 1 };
    let (write, read) = (vk::AccessFlags::TRANSFER_WRITE, vk::AccessFlags::TRANSFER_READ);
    let range = vk::ImageSubresourceRange { layer_count: 1, ..colour_range(1) };
    let to_dst = |image: vk::Image| {
        let none = vk::AccessFlags::empty();
        barrier(image, range, (vk::ImageLayout::UNDEFINED, dst_layout), (none, write))
    };
    let to_src = |image: vk::Image| barrier(image, range, (dst_layout, src_layout), (write, read));
    // Extents are in the source's texels (VkImageCopy between compressed and uncompressed).
    let to_u = vk::ImageCopy {
        src_subresource: layer(1),
        src_offset: off(4, 4),
        dst_subresource: layer(0),
        dst_offset: off(1, 0),
        extent: ext(W - 4, H - 4),
    };
    let to_back =
        [(off(1, 0), off(4, 4)), (off(4, 1), off(12, 8))].map(|(from, to)| vk::ImageCopy {
            src_subresource: layer(0),
            src_offset: from,
            dst_subresource: layer(0),
            dst_offset: to,
            extent: ext(3, 1),
        });
    let fill = |offset: u64, width, height| vk::BufferImageCopy {
        buffer_offset: offset,
        image_subresource: layer(0),
        image_extent: ext(width, height),
        ..Default::default()
    };
    // SAFETY: valid commands on live handles; the GPU is idle after `run`.
    gpu.run(|d, cb| unsafe {
        let transfer = vk::PipelineStageFlags::TRANSFER;
        let flags = vk::DependencyFlags::empty();
        let pipeline_barrier = |b: &[vk::ImageMemoryBarrier]| {
            d.cmd_pipeline_barrier(cb, transfer, transfer, flags, &[], &[], b);
        };
        pipeline_barrier(&[to_dst(u.0), to_dst(back.0)]);
        d.cmd_copy_buffer_to_image(cb, zeros.buffer, u.0, dst_layout, &[fill(0, ew, eh)]);
        d.cmd_copy_buffer_to_image(cb, data.buffer, back.0, dst_layout, &[fill(0, W, H)]);
        ferrum_tests::gpu::transfer_to_transfer(d, cb);
        d.cmd_copy_image(cb, src.image, src_layout, u.0, dst_layout, &[to_u]);
        pipeline_barrier(&[to_src(u.0)]);
        d.cmd_copy_image(cb, u.0, src_layout, back.0, dst_layout, &to_back);
        pipeline_barrier(&[to_src(back.0)]);
        d.cmd_copy_image_to_buffer(cb, u.0, src_layout, out.buffer, &[fill(0, ew, eh)]);
        d.cmd_copy_image_to_buffer(cb, back.0, src_layout, out.buffer, &[fill(u_bytes, W, H)]);
        ferrum_tests::gpu::transfer_to_host(d, cb);
    });
    let bytes = out.bytes().to_vec();
    destroy_image(d, u);
    destroy_image(d, back);
    src.destroy(d);
    for b in [data, zeros, out] {
        gpu.destroy_buffer(b);
    }
    bytes
}

/// What [`copy_round`] must produce, from the upload alone: partner element (1 + i, j) is
/// block (1 + i, 1 + j) of level 0, layer 1 (i < 6, j < 3; zero elsewhere); the second
/// image is layer 0 but for blocks (1..4, 1) = elements (1..4, 0) and (3..6, 2) = elements
/// (4..7, 1).
fn expected_round(format: vk::Format) -> Vec<u8> {
    let data = upload(format);
    let bb = block_bytes(format);
    let (cols, rows) = blocks(0);
    let block_at = |l: u32, x: u32, y: u32| {
        let at = (((l * rows + y) * cols + x) as usize) * bb;
        data[at..at + bb].to_vec()
    };
    let (ew, eh) = ELEMS;
    let mut u = vec![0u8; (ew * eh) as usize * bb];
    for j in 0..3 {
        for i in 0..6 {
            let at = ((j * ew + 1 + i) as usize) * bb;
            u[at..at + bb].copy_from_slice(&block_at(1, 1 + i, 1 + j));
        }
    }
    let mut back = data[..(cols * rows) as usize * bb].to_vec();
    let mut put = |bx: u32, by: u32, ex: u32, ey: u32| {
        let (to, from) = (((by * cols + bx) as usize) * bb, ((ey * ew + ex) as usize) * bb);
        back[to..to + bb].copy_from_slice(&u[from..from + bb]);
    };
    for i in 0..3 {
        put(1 + i, 1, 1 + i, 0);
        put(3 + i, 2, 4 + i, 1);
    }
    u.extend(back);
    u
}

#[test]
fn every_bc_format_copies_to_and_from_uncompressed_images() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let (lvp_gpu, ours_gpu) = gpus(&h);
    let mut failures = Vec::new();
    for &format in FORMATS {
        let want = expected_round(format);
        let lvp = copy_round(&lvp_gpu, format);
        assert_eq!(lvp, want, "{format:?}: lavapipe disagrees with the spec's block mapping");
        if copy_round(&ours_gpu, format) != want {
            failures.push(format!("{format:?}"));
        }
    }
    drop((lvp_gpu, ours_gpu));
    assert!(failures.is_empty(), "copies differ: {}", failures.join(", "));
    h.assert_clean();
}
