//! `vkCmdBlitImage` conversions at their edges, against expectations computed here from the
//! Vulkan spec (validation on): float → packed 16-bit UNORM (clamp to [0, 1], scale by
//! 2^b − 1, round to nearest; the bit layouts of the spec's "Format Definition" table), and
//! integer → narrower integer, which saturates (the CTS' `intNearestBlitCompare` converts its
//! reference "clamped to max. representable value"). Each case is a 1:1 nearest blit of a
//! one-row image, so every destination texel is exactly one source texel converted.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, transfer_transition, Gpu};
use ferrum_tests::Harness;

fn bpe(f: vk::Format) -> usize {
    usize::from(vulkan_ferrum::format::info(f).unwrap().block_bytes)
}

/// Uploads `src` (texels of `sf`) into an `n`×1 image, blits it 1:1 with NEAREST into an
/// `n`×1 image of `df`, and returns that image's bytes.
fn blit_row(gpu: &Gpu, sf: vk::Format, df: vk::Format, src: &[u8]) -> Vec<u8> {
    let n = (src.len() / bpe(sf)) as u32;
    let extent = vk::Extent3D { width: n, height: 1, depth: 1 };
    let up = gpu.host_buffer(src.len() as u64);
    up.write(0, src);
    let size = n as usize * bpe(df);
    let down = gpu.host_buffer(size as u64);
    down.write(0, &vec![0xcd; size]);
    let a = gpu.transfer_image(vk::ImageType::TYPE_2D, sf, extent, 1, 1);
    let b = gpu.transfer_image(vk::ImageType::TYPE_2D, df, extent, 1, 1);
    let colour = vk::ImageAspectFlags::COLOR;
    let range =
        vk::ImageSubresourceRange::default().aspect_mask(colour).level_count(1).layer_count(1);
    let layers = vk::ImageSubresourceLayers::default().aspect_mask(colour).layer_count(1);
    let copy = vk::BufferImageCopy::default().image_subresource(layers).image_extent(extent);
    let corner = vk::Offset3D { x: n as i32, y: 1, z: 1 };
    let blit = vk::ImageBlit {
        src_subresource: layers,
        src_offsets: [vk::Offset3D::default(), corner],
        dst_subresource: layers,
        dst_offsets: [vk::Offset3D::default(), corner],
    };
    gpu.run(|d, cb| {
        let barrier = |image, old, new| transfer_transition(d, cb, &[image], range, (old, new));
        let (undef, dst, src_l) = (
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        );
        barrier(a, undef, dst);
        barrier(b, undef, dst);
        // SAFETY: a command buffer in the recording state; live buffers and images.
        unsafe {
            d.cmd_copy_buffer_to_image(cb, up.buffer, a, dst, &[copy]);
            transfer_to_transfer(d, cb);
            barrier(a, dst, src_l);
            d.cmd_blit_image(cb, a, src_l, b, dst, &[blit], vk::Filter::NEAREST);
            barrier(b, dst, src_l);
            d.cmd_copy_image_to_buffer(cb, b, src_l, down.buffer, &[copy]);
            transfer_to_host(d, cb);
        }
    });
    down.bytes().to_vec()
}

/// The spec's float → `bits`-bit UNORM: clamp to [0, 1] (NaN: 0), scale, round to nearest
/// (ties to even). The inputs below keep clear of ties in f32 arithmetic (0.3 · 15 is 4.5 in
/// f32 but not in f64: the spec lets either neighbour be returned there).
fn unorm(f: f32, bits: u32) -> u16 {
    let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
    (f64::from(f) * f64::from((1u32 << bits) - 1)).round_ties_even() as u16
}

/// The channel layout of each packed format, per API channel R, G, B, A: (lowest bit,
/// width), written out from the spec's "Format Definition" (`_PACK16` formats name their
/// channels from the most significant bit down).
const PACKED: &[(vk::Format, [(u32, u32); 4])] = &[
    (vk::Format::R5G6B5_UNORM_PACK16, [(11, 5), (5, 6), (0, 5), (0, 0)]),
    (vk::Format::A1R5G5B5_UNORM_PACK16, [(10, 5), (5, 5), (0, 5), (15, 1)]),
    (vk::Format::R5G5B5A1_UNORM_PACK16, [(11, 5), (6, 5), (1, 5), (0, 1)]),
    (vk::Format::B5G5R5A1_UNORM_PACK16, [(1, 5), (6, 5), (11, 5), (0, 1)]),
    (vk::Format::B4G4R4A4_UNORM_PACK16, [(4, 4), (8, 4), (12, 4), (0, 4)]),
];

/// Channel values with the edges: 0, 1, beyond both ends, ±inf, NaN, a denormal, values
/// just inside each end, and values near a rounding boundary of 4-, 5- and 6-bit channels.
const VALUES: &[f32] = &[
    0.0,
    1.0,
    -1.0,
    2.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    1e-40,
    0.016,
    0.984,
    0.31,
    0.71,
    15.4 / 31.0,
    15.6 / 31.0,
    31.4 / 63.0,
    7.6 / 15.0,
    -0.0,
];

#[test]
fn float_to_packed_16_bit_blits_round_and_clamp() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 0, 1, &[]);
    // Texel i holds VALUES[i + c] in channel c (wrapping), so each value meets each channel.
    let n = VALUES.len();
    let texel = |i: usize| [0, 1, 2, 3].map(|c| VALUES[(i + c * 5) % n]);
    let src: Vec<u8> = (0..n).flat_map(texel).flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
    let mut failures = Vec::new();
    for &(df, fields) in PACKED {
        let got = blit_row(&gpu, vk::Format::R32G32B32A32_SFLOAT, df, &src);
        for (i, bytes) in got.chunks(2).enumerate() {
            let want = texel(i)
                .iter()
                .zip(fields)
                .filter(|(_, (_, w))| *w != 0)
                .fold(0u16, |acc, (&v, (low, w))| acc | unorm(v, w) << low);
            let got = u16::from_le_bytes([bytes[0], bytes[1]]);
            if got != want {
                failures
                    .push(format!("{df:?} texel {i} {:?}: {got:#06x}, want {want:#06x}", texel(i)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    h.assert_clean();
}

#[test]
fn integer_blits_saturate_to_the_destination() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 0, 1, &[]);
    // R16_SINT → R8G8_SINT: R saturates to [-128, 127]; G is the source's missing green, 0.
    let ints: [i16; 10] = [i16::MIN, -129, -128, -1, 0, 1, 126, 127, 128, i16::MAX];
    let src: Vec<u8> = ints.iter().flat_map(|v| v.to_le_bytes()).collect();
    let got = blit_row(&gpu, vk::Format::R16_SINT, vk::Format::R8G8_SINT, &src);
    let want: Vec<u8> = ints.iter().flat_map(|&v| [v.clamp(-128, 127) as i8 as u8, 0]).collect();
    assert_eq!(got, want, "R16_SINT -> R8G8_SINT");
    // R32G32B32A32_UINT → R16G16_UINT: R and G saturate to 65535.
    let uints: [u32; 8] = [0, 1, 65534, 65535, 65536, 0x0001_ffff, 0x8000_0000, u32::MAX];
    let src: Vec<u8> = (0..uints.len())
        .flat_map(|i| [0, 1, 2, 3].map(|c| uints[(i + c * 3) % uints.len()]))
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let got = blit_row(&gpu, vk::Format::R32G32B32A32_UINT, vk::Format::R16G16_UINT, &src);
    let want: Vec<u8> = (0..uints.len())
        .flat_map(|i| [0, 1].map(|c| uints[(i + c * 3) % uints.len()].min(65535) as u16))
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert_eq!(got, want, "R32G32B32A32_UINT -> R16G16_UINT");
    // R32_SINT → R8_SINT and R16_SINT: both ends.
    let wide: [i32; 8] = [i32::MIN, -32769, -32768, -129, 127, 32767, 32768, i32::MAX];
    let src: Vec<u8> = wide.iter().flat_map(|v| v.to_le_bytes()).collect();
    let got = blit_row(&gpu, vk::Format::R32_SINT, vk::Format::R8_SINT, &src);
    let want: Vec<u8> = wide.iter().map(|&v| v.clamp(-128, 127) as i8 as u8).collect();
    assert_eq!(got, want, "R32_SINT -> R8_SINT");
    let got = blit_row(&gpu, vk::Format::R32_SINT, vk::Format::R16_SINT, &src);
    let want: Vec<u8> =
        wide.iter().flat_map(|&v| (v.clamp(-32768, 32767) as i16).to_le_bytes()).collect();
    assert_eq!(got, want, "R32_SINT -> R16_SINT");
    h.assert_clean();
}
