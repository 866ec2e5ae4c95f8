//! Copies and clears with swizzled (OPTIMAL) images, differential against lavapipe, for every
//! image format of Ferrum's table that lavapipe also copies: a buffer → image upload of every
//! level and layer (3 levels, 2 layers, odd sizes), a clear of one level and layer
//! (vkCmdClearColorImage / vkCmdClearDepthStencilImage), an image → image copy of a
//! sub-rectangle at an offset into a second image, and image → buffer downloads of everything
//! plus a sub-rectangle with bufferRowLength/bufferImageHeight padding. Both drivers' bytes must
//! be equal. Lavapipe shares the process's loader configuration, so this is its own binary.

use ash_loaded::vk;
use ferrum_tests::gpu::{
    transfer_to_host, transfer_to_transfer, transfer_transition, Gpu, HostBuffer,
};
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 13;
const H: u32 = 7;
const LEVELS: u32 = 3;
const LAYERS: u32 = 2;
const EXTENT: vk::Extent3D = vk::Extent3D { width: W, height: H, depth: 1 };

/// Texel-block size in bytes and block width/height of a format, per aspect plane.
fn plane(format: vk::Format, aspect: vk::ImageAspectFlags) -> (u32, u32) {
    use vk::Format as F;
    let name = format!("{format:?}");
    if aspect == vk::ImageAspectFlags::STENCIL {
        return (1, 1);
    }
    match format {
        F::D16_UNORM => (2, 1),
        F::D32_SFLOAT | F::D32_SFLOAT_S8_UINT => (4, 1),
        F::S8_UINT => (1, 1),
        _ if name.starts_with("BC1") || name.starts_with("BC4") => (8, 4),
        _ if name.starts_with("BC") => (16, 4),
        _ => (vulkan_ferrum::format::info(format).unwrap().block_bytes as u32, 1),
    }
}

fn aspects(format: vk::Format) -> Vec<vk::ImageAspectFlags> {
    use vk::Format as F;
    match format {
        F::D16_UNORM | F::D32_SFLOAT => vec![vk::ImageAspectFlags::DEPTH],
        F::S8_UINT => vec![vk::ImageAspectFlags::STENCIL],
        F::D32_SFLOAT_S8_UINT => vec![vk::ImageAspectFlags::DEPTH, vk::ImageAspectFlags::STENCIL],
        _ => vec![vk::ImageAspectFlags::COLOR],
    }
}

/// The buffer regions of every level (all layers) of one aspect, tightly packed from
/// `*offset`, and the bytes they take.
fn all_levels(
    format: vk::Format,
    aspect: vk::ImageAspectFlags,
    offset: &mut u64,
) -> Vec<vk::BufferImageCopy> {
    let (bpe, b) = plane(format, aspect);
    (0..LEVELS)
        .map(|level| {
            let (w, h) = ((W >> level).max(1), (H >> level).max(1));
            let r = vk::BufferImageCopy {
                buffer_offset: *offset,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect,
                    mip_level: level,
                    base_array_layer: 0,
                    layer_count: LAYERS,
                },
                image_extent: vk::Extent3D { width: w, height: h, depth: 1 },
                ..Default::default()
            };
            *offset += u64::from(w.div_ceil(b) * h.div_ceil(b) * bpe * LAYERS);
            *offset = offset.next_multiple_of(16);
            r
        })
        .collect()
}

/// Upload data: for depth, floats in [0, 1] (copies of other values are undefined).
fn pattern(format: vk::Format, bytes: usize) -> Vec<u8> {
    if matches!(format, vk::Format::D32_SFLOAT | vk::Format::D32_SFLOAT_S8_UINT) {
        return (0..bytes / 4)
            .flat_map(|i| ((i * 37 % 1001) as f32 / 1000.0).to_le_bytes())
            .collect();
    }
    (0..bytes).map(|i| (i * 131 + i / 7 + 5) as u8).collect()
}

/// Moves `images` (every level and layer) from layout `old` to `new` after earlier transfers.
fn transition(
    d: &ash_loaded::Device,
    cb: vk::CommandBuffer,
    images: &[vk::Image],
    all: vk::ImageAspectFlags,
    old: vk::ImageLayout,
    new: vk::ImageLayout,
) {
    let range = vk::ImageSubresourceRange {
        aspect_mask: all,
        base_mip_level: 0,
        level_count: LEVELS,
        base_array_layer: 0,
        layer_count: LAYERS,
    };
    transfer_transition(d, cb, images, range, (old, new));
}

const CLEAR_COLOR: [f32; 4] = [1.0, 0.0, 0.25, 1.0];
const CLEAR_UINT: [u32; 4] = [1, 2, 3, 4];

/// The whole round on one driver; the downloaded bytes.
fn round(gpu: &Gpu, format: vk::Format) -> Vec<u8> {
    let d = &gpu.device;
    let asp = aspects(format);
    let all = asp.iter().fold(vk::ImageAspectFlags::empty(), |a, &b| a | b);
    let mut size = 0;
    let regions: Vec<_> = asp.iter().flat_map(|&a| all_levels(format, a, &mut size)).collect();
    let up = gpu.host_buffer(size);
    up.write(0, &pattern(format, size as usize));
    let sub_bytes = 4096u64;
    let down: HostBuffer = gpu.host_buffer(size * 2 + sub_bytes);
    down.write(0, &vec![0xcd; down.size as usize]);
    let (a, b) = (
        gpu.transfer_image(vk::ImageType::TYPE_2D, format, EXTENT, LEVELS, LAYERS),
        gpu.transfer_image(vk::ImageType::TYPE_2D, format, EXTENT, LEVELS, LAYERS),
    );
    let info = vulkan_ferrum::format::info(format).unwrap();
    let (_, block) = plane(format, asp[0]);
    gpu.run(|d, cb| {
        let (undefined, dst, src) = (
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        );
        transition(d, cb, &[a, b], all, undefined, dst);
        // SAFETY: recording commands on live handles with regions inside them.
        unsafe {
            d.cmd_copy_buffer_to_image(cb, up.buffer, a, dst, &regions);
            d.cmd_copy_buffer_to_image(cb, up.buffer, b, dst, &regions);
            transfer_to_transfer(d, cb);
            let range = vk::ImageSubresourceRange {
                aspect_mask: all,
                base_mip_level: 1,
                level_count: 1,
                base_array_layer: 1,
                layer_count: 1,
            };
            if info.is_depth_stencil() {
                let v = vk::ClearDepthStencilValue { depth: 0.25, stencil: 0x5a };
                d.cmd_clear_depth_stencil_image(cb, a, dst, &v, &[range]);
            } else if !info.is_compressed() {
                let int = matches!(
                    info.numeric,
                    vulkan_ferrum::format::Numeric::Uint | vulkan_ferrum::format::Numeric::Sint
                );
                let v = if int {
                    vk::ClearColorValue { uint32: CLEAR_UINT }
                } else {
                    vk::ClearColorValue { float32: CLEAR_COLOR }
                };
                let ranges = [
                    range,
                    vk::ImageSubresourceRange {
                        base_mip_level: 2,
                        layer_count: vk::REMAINING_ARRAY_LAYERS,
                        base_array_layer: 0,
                        ..range
                    },
                ];
                d.cmd_clear_color_image(cb, a, dst, &v, &ranges);
            }
            // A sub-rectangle of level 0 layer 1 of `a` into layer 0 of `b` at another place
            // (block-compressed: whole blocks, reaching the bottom edge).
            transfer_to_transfer(d, cb);
            transition(d, cb, &[a], all, dst, src);
            let (sy, dx, dy) = if block == 1 { (2, 3, 1) } else { (0, 0, 0) };
            for &aspect in &asp {
                let layers = |layer| vk::ImageSubresourceLayers {
                    aspect_mask: aspect,
                    mip_level: 0,
                    base_array_layer: layer,
                    layer_count: 1,
                };
                let copy = vk::ImageCopy {
                    src_subresource: layers(1),
                    src_offset: vk::Offset3D { x: block as i32, y: sy, z: 0 },
                    dst_subresource: layers(0),
                    dst_offset: vk::Offset3D { x: dx, y: dy, z: 0 },
                    extent: vk::Extent3D { width: 2 * block, height: H - sy as u32, depth: 1 },
                };
                d.cmd_copy_image(cb, a, src, b, dst, &[copy]);
            }
            transition(d, cb, &[b], all, dst, src);
            let mut back = regions.clone();
            for r in &mut back {
                r.buffer_offset += 0;
            }
            d.cmd_copy_image_to_buffer(cb, a, src, down.buffer, &back);
            for r in &mut back {
                r.buffer_offset += size;
            }
            d.cmd_copy_image_to_buffer(cb, b, src, down.buffer, &back);
            // A padded sub-rectangle: rows of 3 blocks more than the extent, image height +1.
            let sub = vk::BufferImageCopy {
                buffer_offset: 2 * size,
                buffer_row_length: 5 * block,
                buffer_image_height: H.next_multiple_of(block) + block,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: asp[0],
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 2,
                },
                image_offset: vk::Offset3D { x: block as i32, y: 0, z: 0 },
                image_extent: vk::Extent3D { width: 2 * block, height: H, depth: 1 },
            };
            d.cmd_copy_image_to_buffer(cb, a, src, down.buffer, &[sub]);
            transfer_to_host(d, cb);
        }
    });
    let _ = d;
    down.bytes().to_vec()
}

/// Formats lavapipe copies with OPTIMAL tiling.
fn lavapipe_copies(h: &Harness, pd: vk::PhysicalDevice, format: vk::Format) -> bool {
    // SAFETY: a live physical device.
    let p = unsafe { h.instance.get_physical_device_format_properties(pd, format) };
    let need = vk::FormatFeatureFlags::TRANSFER_SRC | vk::FormatFeatureFlags::TRANSFER_DST;
    p.optimal_tiling_features.contains(need)
}

#[test]
fn swizzled_copies_and_clears_match_lavapipe() {
    let validate = std::env::var_os("FERRUM_META_NO_VALIDATION").is_none();
    let h = Harness::with_entry(entry_with_lavapipe(), validate, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let lvp = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let only = std::env::var("FERRUM_META_FORMAT").ok();
    let mut failures = Vec::new();
    let mut tested = 0;
    for f in vulkan_ferrum::format::FORMATS {
        if f.img_format == 0 || !lavapipe_copies(&h, lvp_pd, f.format) {
            continue;
        }
        if only.as_ref().is_some_and(|o| *o != format!("{:?}", f.format)) {
            continue;
        }
        tested += 1;
        let want = round(&lvp, f.format);
        let got = round(&ours, f.format);
        if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
            let n = got.iter().zip(&want).filter(|(a, b)| a != b).count();
            failures.push(format!(
                "{:?}: {n} bytes differ, first at {i}: ferrum {:#x}, lavapipe {:#x}",
                f.format, got[i], want[i]
            ));
        }
    }
    eprintln!("{tested} formats compared");
    assert!(tested > 0);
    assert!(
        failures.is_empty(),
        "{} of {tested} formats differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if validate {
        h.assert_clean();
    }
}

/// Upload both levels, clear level 1 (3D: every slice), copy a box of level 0 within the
/// image (3D: slices 1..3 to 2..4), download both levels.
fn shaped_round(gpu: &Gpu, format: vk::Format, ty: vk::ImageType) -> Vec<u8> {
    let (e, layers) = if ty == vk::ImageType::TYPE_3D {
        (vk::Extent3D { width: 9, height: 6, depth: 5 }, 1)
    } else {
        (vk::Extent3D { width: 17, height: 1, depth: 1 }, 3)
    };
    let bpe = u64::from(vulkan_ferrum::format::info(format).unwrap().block_bytes);
    let mut regions = Vec::new();
    let mut size = 0u64;
    for level in 0..2 {
        let m = |v: u32| (v >> level).max(1);
        let ext = vk::Extent3D { width: m(e.width), height: m(e.height), depth: m(e.depth) };
        regions.push(vk::BufferImageCopy {
            buffer_offset: size,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: level,
                base_array_layer: 0,
                layer_count: layers,
            },
            image_extent: ext,
            ..Default::default()
        });
        size += u64::from(ext.width * ext.height * ext.depth * layers) * bpe;
        size = size.next_multiple_of(16);
    }
    let up = gpu.host_buffer(size);
    up.write(0, &pattern(format, size as usize));
    let down = gpu.host_buffer(size);
    down.write(0, &vec![0xcd; size as usize]);
    let a = gpu.transfer_image(ty, format, e, 2, layers);
    let color = vk::ImageAspectFlags::COLOR;
    gpu.run(|d, cb| {
        let barrier = |d: &ash_loaded::Device, old, new| {
            let range = vk::ImageSubresourceRange {
                aspect_mask: color,
                base_mip_level: 0,
                level_count: 2,
                base_array_layer: 0,
                layer_count: layers,
            };
            transfer_transition(d, cb, &[a], range, (old, new));
        };
        let general = vk::ImageLayout::GENERAL;
        barrier(d, vk::ImageLayout::UNDEFINED, general);
        // SAFETY: recording commands on live handles with regions inside them.
        unsafe {
            d.cmd_copy_buffer_to_image(cb, up.buffer, a, general, &regions);
            barrier(d, general, general);
            let int = matches!(
                vulkan_ferrum::format::info(format).unwrap().numeric,
                vulkan_ferrum::format::Numeric::Uint | vulkan_ferrum::format::Numeric::Sint
            );
            let v = if int {
                vk::ClearColorValue { uint32: CLEAR_UINT }
            } else {
                vk::ClearColorValue { float32: CLEAR_COLOR }
            };
            let range = vk::ImageSubresourceRange {
                aspect_mask: color,
                base_mip_level: 1,
                level_count: 1,
                base_array_layer: 0,
                layer_count: vk::REMAINING_ARRAY_LAYERS,
            };
            d.cmd_clear_color_image(cb, a, general, &v, &[range]);
            let sub = |layer| vk::ImageSubresourceLayers {
                aspect_mask: color,
                mip_level: 0,
                base_array_layer: layer,
                layer_count: 1,
            };
            let copy = if ty == vk::ImageType::TYPE_3D {
                vk::ImageCopy {
                    src_subresource: sub(0),
                    src_offset: vk::Offset3D { x: 1, y: 2, z: 1 },
                    dst_subresource: sub(0),
                    dst_offset: vk::Offset3D { x: 5, y: 0, z: 2 },
                    extent: vk::Extent3D { width: 4, height: 3, depth: 2 },
                }
            } else {
                vk::ImageCopy {
                    src_subresource: sub(0),
                    src_offset: vk::Offset3D { x: 2, y: 0, z: 0 },
                    dst_subresource: sub(2),
                    dst_offset: vk::Offset3D { x: 9, y: 0, z: 0 },
                    extent: vk::Extent3D { width: 7, height: 1, depth: 1 },
                }
            };
            barrier(d, general, general);
            d.cmd_copy_image(cb, a, general, a, general, &[copy]);
            barrier(d, general, general);
            d.cmd_copy_image_to_buffer(cb, a, general, down.buffer, &regions);
            transfer_to_host(d, cb);
        }
    });
    down.bytes().to_vec()
}

#[test]
fn one_d_array_and_three_d_copies_and_clears_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp_pd = h.physical_device_named("llvmpipe");
    let ours_pd = h.physical_device_named("Ferrum");
    let lvp = Gpu::new(&h.instance, lvp_pd, 0, 1, &[]);
    let ours = Gpu::new(&h.instance, ours_pd, 0, 1, &[]);
    let mut failures = Vec::new();
    let formats = [
        vk::Format::R8_UNORM,
        vk::Format::R16_UINT,
        vk::Format::R8G8B8A8_SRGB,
        vk::Format::R32G32_SFLOAT,
        vk::Format::R32G32B32A32_UINT,
    ];
    for ty in [vk::ImageType::TYPE_1D, vk::ImageType::TYPE_3D] {
        for format in formats {
            let want = shaped_round(&lvp, format, ty);
            let got = shaped_round(&ours, format, ty);
            if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
                failures.push(format!(
                    "{ty:?} {format:?}: first difference at byte {i}: ferrum {:#x}, lavapipe {:#x}",
                    got[i], want[i]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // GENERAL is deliberate (a copy within one image); only its performance advice is allowed.
    let bad: Vec<String> =
        h.messages().into_iter().filter(|m| !m.contains("Performance Warning")).collect();
    assert!(bad.is_empty(), "validation reported:\n{}", bad.join("\n"));
}
