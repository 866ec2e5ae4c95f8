//! `vkCmdBlitImage` differential against lavapipe, validation on: scaling up and down, flipped
//! offsets on either side, layers, the last mip level as source and destination, nearest and
//! linear filters, and format conversion (UNORM → SFLOAT, sRGB → UNORM); every sampled
//! colour format as a source, every colour target that the blit kernel stores as a destination.
//!
//! Nearest results without a format conversion must be bit-exact; conversions may differ by
//! one LSB of the destination (see the comparison). The region sizes are chosen so no destination texel
//! centre maps exactly onto a source texel edge (e.g. 13 → 19: (2x+1)·13/38 is never an
//! integer), where the spec lets implementations round either way. Linear results may differ
//! by the implementations' filtering precision: both quantise the weights to
//! subTexelPrecisionBits (8 here: 1/256), so a weight may be off by 1/256 per axis; with
//! values in [0, 1] and two axes that is 2/256, plus one LSB of the destination's rounding.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, transfer_transition, Gpu};
use ferrum_tests::texels::{self, Range};
use ferrum_tests::{entry_with_lavapipe, Harness};

const SRC: vk::Extent3D = vk::Extent3D { width: 13, height: 7, depth: 1 };
const DST: vk::Extent3D = vk::Extent3D { width: 19, height: 11, depth: 1 };
const LEVELS: u32 = 2;
const LAYERS: u32 = 2;

/// The aspect blitted and copied: depth for the depth formats, colour otherwise.
fn aspect(f: vk::Format) -> vk::ImageAspectFlags {
    if matches!(f, vk::Format::D16_UNORM | vk::Format::D32_SFLOAT) {
        vk::ImageAspectFlags::DEPTH
    } else {
        vk::ImageAspectFlags::COLOR
    }
}

fn bpe(f: vk::Format) -> u32 {
    u32::from(vulkan_ferrum::format::info(f).unwrap().block_bytes)
}

/// Buffer regions for every level and layer of an image of `e`, packed; and the total size.
fn levels(f: vk::Format, e: vk::Extent3D) -> (Vec<vk::BufferImageCopy>, u64) {
    let mut size = 0u64;
    let regions = (0..LEVELS)
        .map(|level| {
            let ext = vk::Extent3D {
                width: (e.width >> level).max(1),
                height: (e.height >> level).max(1),
                depth: 1,
            };
            let r = vk::BufferImageCopy {
                buffer_offset: size,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect(f),
                    mip_level: level,
                    base_array_layer: 0,
                    layer_count: LAYERS,
                },
                image_extent: ext,
                ..Default::default()
            };
            size += u64::from(ext.width * ext.height * LAYERS * bpe(f));
            size = size.next_multiple_of(16);
            r
        })
        .collect();
    (regions, size)
}

/// Source data: floats in [0, 1] for float formats (finite, so both drivers filter the same
/// numbers), a byte pattern otherwise; other formats' data from [`texels::pattern`].
fn pattern(f: vk::Format, bytes: usize) -> Vec<u8> {
    match f {
        vk::Format::R32G32B32A32_SFLOAT => {
            (0..bytes / 4).flat_map(|i| ((i * 37 % 1001) as f32 / 1000.0).to_le_bytes()).collect()
        }
        // Half floats k/1024 for k < 1024: exact in f16 (exponent bits from the value).
        vk::Format::R16G16B16A16_SFLOAT => (0..bytes / 2)
            .flat_map(|i| f32_to_f16((i * 37 % 1024) as f32 / 1024.0).to_le_bytes())
            .collect(),
        vk::Format::R8G8B8A8_UNORM | vk::Format::R32_UINT => {
            (0..bytes).map(|i| (i * 131 + i / 7 + 5) as u8).collect()
        }
        _ => texels::pattern(f, bytes, Range::Unit),
    }
}

/// Exact for the values `pattern` uses (normal halves, and 0).
fn f32_to_f16(x: f32) -> u16 {
    if x == 0.0 {
        return 0;
    }
    let b = x.to_bits();
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    ((exp as u32) << 10 | (b >> 13) & 0x3ff) as u16
}

fn f16_to_f32(h: u16) -> f32 {
    let (e, m) = (u32::from(h >> 10) & 0x1f, u32::from(h & 0x3ff));
    let v = if e == 0 {
        m as f32 / 1024.0 * 2f32.powi(-14)
    } else {
        (1.0 + m as f32 / 1024.0) * 2f32.powi(e as i32 - 15)
    };
    if h & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// Channel values of destination bytes as floats (for the tolerance of linear filtering),
/// and the size of one LSB.
fn decode(f: vk::Format, bytes: &[u8]) -> (Vec<f32>, f32) {
    match f {
        vk::Format::R8G8B8A8_UNORM => {
            (bytes.iter().map(|&b| f32::from(b) / 255.0).collect(), 1.0 / 255.0)
        }
        vk::Format::R16G16B16A16_SFLOAT => (
            bytes.chunks(2).map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]]))).collect(),
            1.0 / 1024.0,
        ),
        vk::Format::R32G32B32A32_SFLOAT => {
            (bytes.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(), 0.0)
        }
        _ => panic!("no linear comparison for {f:?}"),
    }
}

fn sub(level: u32, layer: u32, count: u32, f: vk::Format) -> vk::ImageSubresourceLayers {
    vk::ImageSubresourceLayers {
        aspect_mask: aspect(f),
        mip_level: level,
        base_array_layer: layer,
        layer_count: count,
    }
}

fn o(x: i32, y: i32, z: i32) -> vk::Offset3D {
    vk::Offset3D { x, y, z }
}

/// The blits: 13×7 → 19×11 both layers (up); flipped 13×7 layer 1 → level 1 (9×5) layer 0
/// (down, mirrored in x and y); the last level (6×3) with a mirrored source in x into an 8×5
/// part of level 1 layer 1 whose destination is mirrored in y.
fn blits(f: vk::Format) -> [vk::ImageBlit; 3] {
    let sub = |level, layer, count| sub(level, layer, count, f);
    [
        vk::ImageBlit {
            src_subresource: sub(0, 0, 2),
            src_offsets: [o(0, 0, 0), o(13, 7, 1)],
            dst_subresource: sub(0, 0, 2),
            dst_offsets: [o(0, 0, 0), o(19, 11, 1)],
        },
        vk::ImageBlit {
            src_subresource: sub(0, 1, 1),
            src_offsets: [o(13, 7, 0), o(0, 0, 1)],
            dst_subresource: sub(1, 0, 1),
            dst_offsets: [o(0, 0, 0), o(9, 5, 1)],
        },
        vk::ImageBlit {
            src_subresource: sub(1, 1, 1),
            src_offsets: [o(6, 0, 0), o(0, 3, 1)],
            dst_subresource: sub(1, 1, 1),
            dst_offsets: [o(1, 5, 0), o(9, 0, 1)],
        },
    ]
}

fn round(gpu: &Gpu, (sf, df): (vk::Format, vk::Format), filter: vk::Filter) -> Vec<u8> {
    let (up_regions, up_size) = levels(sf, SRC);
    let (down_regions, down_size) = levels(df, DST);
    let up = gpu.host_buffer(up_size);
    up.write(0, &pattern(sf, up_size as usize));
    let zero = gpu.host_buffer(down_size);
    zero.write(0, &vec![0; down_size as usize]);
    let down = gpu.host_buffer(down_size);
    down.write(0, &vec![0xcd; down_size as usize]);
    let (a, b) = (
        gpu.transfer_image(vk::ImageType::TYPE_2D, sf, SRC, LEVELS, LAYERS),
        gpu.transfer_image(vk::ImageType::TYPE_2D, df, DST, LEVELS, LAYERS),
    );
    gpu.run(|d, cb| {
        let barrier = |image, old, new, f| {
            let range = vk::ImageSubresourceRange {
                aspect_mask: aspect(f),
                base_mip_level: 0,
                level_count: LEVELS,
                base_array_layer: 0,
                layer_count: LAYERS,
            };
            transfer_transition(d, cb, &[image], range, (old, new));
        };
        let (undef, dst, src) = (
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        );
        barrier(a, undef, dst, sf);
        barrier(b, undef, dst, df);
        // SAFETY: a command buffer in the recording state; live buffers and images.
        unsafe {
            d.cmd_copy_buffer_to_image(cb, up.buffer, a, dst, &up_regions);
            d.cmd_copy_buffer_to_image(cb, zero.buffer, b, dst, &down_regions);
            transfer_to_transfer(d, cb);
            barrier(a, dst, src, sf);
            d.cmd_blit_image(cb, a, src, b, dst, &blits(sf), filter);
            barrier(b, dst, src, df);
            d.cmd_copy_image_to_buffer(cb, b, src, down.buffer, &down_regions);
            transfer_to_host(d, cb);
        }
    });
    down.bytes().to_vec()
}

/// (source, destination, linear too).
const CASES: &[(vk::Format, vk::Format, bool)] = &[
    (vk::Format::R8G8B8A8_UNORM, vk::Format::R8G8B8A8_UNORM, true),
    (vk::Format::R16G16B16A16_SFLOAT, vk::Format::R16G16B16A16_SFLOAT, true),
    (vk::Format::R32G32B32A32_SFLOAT, vk::Format::R32G32B32A32_SFLOAT, true),
    (vk::Format::R8G8B8A8_UNORM, vk::Format::R32G32B32A32_SFLOAT, true),
    (vk::Format::R32G32B32A32_SFLOAT, vk::Format::R8G8B8A8_UNORM, true),
    (vk::Format::R32_UINT, vk::Format::R32_UINT, false),
    (vk::Format::R32_SINT, vk::Format::R32_SINT, false),
];

#[test]
fn blits_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let lvp = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let mut failures = Vec::new();
    for &(sf, df, linear) in CASES {
        let filters: &[vk::Filter] = if linear {
            &[vk::Filter::NEAREST, vk::Filter::LINEAR]
        } else {
            &[vk::Filter::NEAREST]
        };
        for &filter in filters {
            let want = round(&lvp, (sf, df), filter);
            let got = round(&ours, (sf, df), filter);
            let bad = if filter == vk::Filter::NEAREST && sf == df {
                got.iter()
                    .zip(&want)
                    .position(|(a, b)| a != b)
                    .map(|i| format!("byte {i}: ferrum {:#x}, lavapipe {:#x}", got[i], want[i]))
            } else {
                // Conversions: the spec's float -> UNORM rounding is a "should" (round to
                // nearest), UNORM -> float one ulp of f32; so one LSB of the destination.
                // Linear: the weights' 1/256 per axis on top.
                let (g, lsb) = decode(df, &got);
                let (w, _) = decode(df, &want);
                let filt = if filter == vk::Filter::LINEAR { 2.0 / 256.0 } else { 0.0 };
                let tol = |b: f32| filt + lsb + b.abs() * 2.5e-7;
                g.iter().zip(&w).position(|(a, b)| (a - b).abs() > tol(*b)).map(|i| {
                    let t = tol(w[i]);
                    format!("channel {i}: ferrum {}, lavapipe {} (tolerance {t})", g[i], w[i])
                })
            };
            if let Some(b) = bad {
                failures.push(format!("{sf:?} -> {df:?} {filter:?}: {b}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// The destination every sampled colour format is blitted into to prove it as a blit source
/// (a destination proven in both directions by [`CASES`]): RGBA32F for normalized, sRGB and
/// float formats, R32_UINT / R32_SINT (the red channel) for integer ones.
fn wide_destination(f: vk::Format) -> vk::Format {
    use vulkan_ferrum::format::Numeric;
    match vulkan_ferrum::format::info(f).unwrap().numeric {
        Numeric::Uint => vk::Format::R32_UINT,
        Numeric::Sint => vk::Format::R32_SINT,
        _ => vk::Format::R32G32B32A32_SFLOAT,
    }
}

/// Every sampled colour format as a blit source (`BLIT_SRC`): nearest (and for non-integer
/// formats linear) blits into [`wide_destination`], differential against lavapipe. Integer
/// results are exact; float results within lavapipe's sampling precision (it reads formats
/// of up to 8 bits per channel through an 8-bit path, 1/255, and decodes sRGB with a
/// polynomial, 0.2%), plus the filter's weight precision (1/256 per axis on values below 2).
#[test]
fn every_sampled_format_blits_as_source() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let lvp = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let mut failures = Vec::new();
    let sources = vulkan_ferrum::format::properties::PROVEN_SAMPLED.iter().copied();
    // Depth formats blit only into themselves (`depth_blits_match_lavapipe`).
    let colour = |f: &vk::Format| aspect(*f) == vk::ImageAspectFlags::COLOR;
    for sf in
        sources.filter(|&f| vulkan_ferrum::format::properties::proven_blit_src(f)).filter(colour)
    {
        let df = wide_destination(sf);
        let float = df == vk::Format::R32G32B32A32_SFLOAT;
        let filters: &[vk::Filter] =
            if float { &[vk::Filter::NEAREST, vk::Filter::LINEAR] } else { &[vk::Filter::NEAREST] };
        for &filter in filters {
            let want = round(&lvp, (sf, df), filter);
            let got = round(&ours, (sf, df), filter);
            let bad = if !float {
                got.iter()
                    .zip(&want)
                    .position(|(a, b)| a != b)
                    .map(|i| format!("byte {i}: ferrum {:#x}, lavapipe {:#x}", got[i], want[i]))
            } else {
                let (g, _) = decode(df, &got);
                let (w, _) = decode(df, &want);
                let filt = if filter == vk::Filter::LINEAR { 4.0 / 256.0 } else { 0.0 };
                let tol = |b: f32| filt + 2.0 / 255.0 + 2e-3 + b.abs() * 2e-3;
                g.iter()
                    .zip(&w)
                    .position(|(a, b)| (a - b).abs() > tol(*b))
                    .map(|i| format!("channel {i}: ferrum {}, lavapipe {}", g[i], w[i]))
            };
            if let Some(b) = bad {
                failures.push(format!("{sf:?} -> {df:?} {filter:?}: {b}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// Every colour format the driver proves as a blit destination (`BLIT_DST`,
/// `proven_blit_dst`): the blits of [`blits`] from the same format with a nearest filter
/// (each texel sampled and stored back: bit-exact, as lavapipe's), and for non-integer
/// formats from RGBA32F (values in [0, 1)) with a linear filter, compared channel by channel
/// as values: within the filter's weight precision (1/256 per axis) plus one step of the
/// destination's rounding (float destinations: one mantissa step, relative).
#[test]
fn every_colour_format_blits_as_destination() {
    use ferrum_tests::texels::{field_bits, field_value, fields};
    use vulkan_ferrum::format::{info, properties, Numeric};
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp = Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[]);
    let ours = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 0, 1, &[]);
    let mut failures = Vec::new();
    let targets = properties::PROVEN_COLOR.iter().copied();
    for df in targets.filter(|&f| properties::proven_blit_dst(f)) {
        let want = round(&lvp, (df, df), vk::Filter::NEAREST);
        let got = round(&ours, (df, df), vk::Filter::NEAREST);
        if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
            failures.push(format!("{df:?} nearest: byte {i}: {:#x}, {:#x}", got[i], want[i]));
        }
        let numeric = info(df).unwrap().numeric;
        if matches!(numeric, Numeric::Uint | Numeric::Sint) {
            continue;
        }
        let sf = vk::Format::R32G32B32A32_SFLOAT;
        let want = round(&lvp, (sf, df), vk::Filter::LINEAR);
        let got = round(&ours, (sf, df), vk::Filter::LINEAR);
        let size = bpe(df) as usize;
        let texels = got.chunks(size).zip(want.chunks(size)).enumerate();
        let bad = texels.flat_map(|(t, (a, b))| {
            fields(df).into_iter().flatten().filter_map(move |f| {
                let (x, y) = (
                    field_value(field_bits(a, f), f, numeric),
                    field_value(field_bits(b, f), f, numeric),
                );
                let step = match numeric {
                    // One step of the mantissa (10 bits for f16, 6 and 5 for the 11- and
                    // 10-bit floats): either rounding direction is allowed.
                    Numeric::Float => y.abs() / f64::from(1u32 << mantissa_bits(f.bits)),
                    Numeric::Snorm => 1.0 / ((1u64 << (f.bits - 1)) - 1) as f64,
                    _ => 1.0 / ((1u64 << f.bits) - 1) as f64,
                };
                ((x - y).abs() > 2.0 / 256.0 + step + 1e-9)
                    .then(|| format!("texel {t}: ferrum {x}, lavapipe {y}"))
            })
        });
        if let Some(b) = bad.take(4).reduce(|a, b| a + "; " + &b) {
            failures.push(format!("{sf:?} -> {df:?} linear: {b}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

/// Mantissa bits of a float channel of `bits` bits: 6 and 5 for the unsigned 11- and
/// 10-bit floats, 10 for halves (and, generously, for 32-bit floats).
fn mantissa_bits(bits: u32) -> u32 {
    match bits {
        11 => 6,
        10 => 5,
        _ => 10,
    }
}

/// Depth blits (nearest, into the same format: the only depth blits Vulkan allows) of the
/// depth formats the driver proves them for, with the blits of [`blits`]: each depth is
/// sampled and stored back, so the result must equal lavapipe's bit for bit.
#[test]
fn depth_blits_match_lavapipe() {
    use vulkan_ferrum::format::properties;
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp = Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[]);
    let ours = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 0, 1, &[]);
    let mut failures = Vec::new();
    let depth = [vk::Format::D16_UNORM, vk::Format::D32_SFLOAT];
    for f in depth.into_iter().filter(|&f| properties::proven_blit_dst(f)) {
        assert!(properties::proven_blit_src(f), "{f:?}");
        let want = round(&lvp, (f, f), vk::Filter::NEAREST);
        let got = round(&ours, (f, f), vk::Filter::NEAREST);
        // Sanity: lavapipe's blits wrote something other than the zeros they replaced.
        assert!(want.iter().any(|&b| b != 0 && b != 0xcd), "{f:?}");
        if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
            failures
                .push(format!("{f:?}: byte {i}: ferrum {:#x}, lavapipe {:#x}", got[i], want[i]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}
