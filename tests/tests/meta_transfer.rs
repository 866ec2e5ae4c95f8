//! Copies and clears with swizzled (OPTIMAL) images, differential against lavapipe, for every
//! image format of Ferrum's table that lavapipe also copies: a buffer → image upload of every
//! level and layer (3 levels, 2 layers, odd sizes), a clear of one level and layer
//! (vkCmdClearColorImage / vkCmdClearDepthStencilImage), an image → image copy of a
//! sub-rectangle at an offset into a second image, and image → buffer downloads of everything
//! plus a sub-rectangle with bufferRowLength/bufferImageHeight padding. Both drivers' bytes must
//! be equal. Lavapipe shares the process's loader configuration, so this is its own binary.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, Gpu, HostBuffer};
use ferrum_tests::{entry_with_lavapipe, Harness};

const W: u32 = 13;
const H: u32 = 7;
const LEVELS: u32 = 3;
const LAYERS: u32 = 2;

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
        _ => (ferrum_icd::format::info(format).unwrap().block_bytes as u32, 1),
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

fn image(gpu: &Gpu, h: &Harness, pd: vk::PhysicalDevice, format: vk::Format) -> vk::Image {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: W, height: H, depth: 1 })
        .mip_levels(LEVELS)
        .array_layers(LAYERS)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
    let d = &gpu.device;
    // SAFETY: valid create info and live handles; the test destroys nothing it still uses.
    unsafe {
        let image = d.create_image(&info, None).expect("vkCreateImage");
        let req = d.get_image_memory_requirements(image);
        let props = h.instance.get_physical_device_memory_properties(pd);
        let index =
            (0..props.memory_type_count).find(|&i| req.memory_type_bits & (1 << i) != 0).unwrap();
        let alloc =
            vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index);
        let memory = d.allocate_memory(&alloc, None).unwrap();
        d.bind_image_memory(image, memory, 0).unwrap();
        image
    }
}

fn to_general(
    d: &ash_loaded::Device,
    cb: vk::CommandBuffer,
    images: &[vk::Image],
    all: vk::ImageAspectFlags,
) {
    let barriers: Vec<_> = images
        .iter()
        .map(|&image| {
            vk::ImageMemoryBarrier::default()
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(vk::ImageLayout::GENERAL)
                .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(vk::ImageSubresourceRange {
                    aspect_mask: all,
                    base_mip_level: 0,
                    level_count: LEVELS,
                    base_array_layer: 0,
                    layer_count: LAYERS,
                })
        })
        .collect();
    // SAFETY: a recording command buffer and live images.
    unsafe {
        d.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TOP_OF_PIPE,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &barriers,
        );
    }
}

const CLEAR_COLOR: [f32; 4] = [1.0, 0.0, 0.25, 1.0];
const CLEAR_UINT: [u32; 4] = [1, 2, 3, 4];

/// The whole round on one driver; the downloaded bytes.
fn round(h: &Harness, pd: vk::PhysicalDevice, gpu: &Gpu, format: vk::Format) -> Vec<u8> {
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
    let (a, b) = (image(gpu, h, pd, format), image(gpu, h, pd, format));
    let info = ferrum_icd::format::info(format).unwrap();
    let (_, block) = plane(format, asp[0]);
    gpu.run(|d, cb| {
        to_general(d, cb, &[a, b], all);
        // SAFETY: recording commands on live handles with regions inside them.
        unsafe {
            d.cmd_copy_buffer_to_image(cb, up.buffer, a, vk::ImageLayout::GENERAL, &regions);
            d.cmd_copy_buffer_to_image(cb, up.buffer, b, vk::ImageLayout::GENERAL, &regions);
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
                d.cmd_clear_depth_stencil_image(cb, a, vk::ImageLayout::GENERAL, &v, &[range]);
            } else if !info.is_compressed() {
                let int = matches!(
                    info.numeric,
                    ferrum_icd::format::Numeric::Uint | ferrum_icd::format::Numeric::Sint
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
                d.cmd_clear_color_image(cb, a, vk::ImageLayout::GENERAL, &v, &ranges);
            }
            // A block-aligned sub-rectangle of level 0 layer 1 of `a` into layer 0 of `b`.
            for &aspect in &asp {
                let copy = vk::ImageCopy {
                    src_subresource: vk::ImageSubresourceLayers {
                        aspect_mask: aspect,
                        mip_level: 0,
                        base_array_layer: 1,
                        layer_count: 1,
                    },
                    src_offset: vk::Offset3D { x: block as i32, y: 0, z: 0 },
                    dst_subresource: vk::ImageSubresourceLayers {
                        aspect_mask: aspect,
                        mip_level: 0,
                        base_array_layer: 0,
                        layer_count: 1,
                    },
                    dst_offset: vk::Offset3D { x: 2 * block as i32, y: block as i32, z: 0 },
                    extent: vk::Extent3D { width: 2 * block, height: H - block, depth: 1 },
                };
                d.cmd_copy_image(
                    cb,
                    a,
                    vk::ImageLayout::GENERAL,
                    b,
                    vk::ImageLayout::GENERAL,
                    &[copy],
                );
            }
            transfer_to_transfer(d, cb);
            let mut back = regions.clone();
            for r in &mut back {
                r.buffer_offset += 0;
            }
            d.cmd_copy_image_to_buffer(cb, a, vk::ImageLayout::GENERAL, down.buffer, &back);
            for r in &mut back {
                r.buffer_offset += size;
            }
            d.cmd_copy_image_to_buffer(cb, b, vk::ImageLayout::GENERAL, down.buffer, &back);
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
            d.cmd_copy_image_to_buffer(cb, a, vk::ImageLayout::GENERAL, down.buffer, &[sub]);
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
    for f in ferrum_icd::format::FORMATS {
        if f.img_format == 0 || !lavapipe_copies(&h, lvp_pd, f.format) {
            continue;
        }
        if only.as_ref().is_some_and(|o| *o != format!("{:?}", f.format)) {
            continue;
        }
        tested += 1;
        let want = round(&h, lvp_pd, &lvp, f.format);
        let got = round(&h, ours_pd, &ours, f.format);
        if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
            let n = got.iter().zip(&want).filter(|(a, b)| a != b).count();
            failures.push(format!(
                "{:?}: {n} bytes differ, first at {i}: ferrum {:#x}, lavapipe {:#x}",
                f.format, got[i], want[i]
            ));
        }
    }
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
