//! Copies between buffers and linear images and between linear images, differential against lavapipe and checked
//! against the spec's addressing of buffer regions computed on the host. Lavapipe shares the
//! process's loader configuration, so this runs in its own test binary.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, Gpu};
use ferrum_tests::Harness;

fn image_info(format: vk::Format, w: u32, h: u32) -> vk::ImageCreateInfo<'static> {
    vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: w, height: h, depth: 1 })
        .mip_levels(1)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::LINEAR)
}

/// Device-local (or any) memory for `req` on `pd`.
fn allocate(
    h: &Harness,
    pd: vk::PhysicalDevice,
    gpu: &Gpu,
    req: vk::MemoryRequirements,
) -> vk::DeviceMemory {
    // SAFETY: a live physical device.
    let memory = unsafe { h.instance.get_physical_device_memory_properties(pd) };
    let index = (0..memory.memory_type_count)
        .find(|&i| req.memory_type_bits & (1 << i) != 0)
        .expect("memory type");
    let info = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index);
    // SAFETY: a valid allocate info on a live device.
    unsafe { gpu.device.allocate_memory(&info, None) }.expect("vkAllocateMemory")
}

const W: u32 = 37;
const H: u32 = 11;

/// Buffer → linear image (whole), a sub-region over it from a padded buffer, image → buffer
/// with a row length wider than the image; returns the final buffer's bytes.
fn linear_copy_round(h: &Harness, pd: vk::PhysicalDevice, gpu: &Gpu) -> Vec<u8> {
    let d = &gpu.device;
    let whole = (W * H * 4) as usize;
    let (a, b, c) = (gpu.host_buffer(whole as u64), gpu.host_buffer(4096), gpu.host_buffer(8192));
    a.write(0, &(0..whole).map(|i| (i * 7 + 3) as u8).collect::<Vec<_>>());
    b.write(0, &(0..4096).map(|i| (i % 251) as u8 ^ 0x5a).collect::<Vec<_>>());
    c.write(0, &[0xee; 8192]);
    // SAFETY: valid create infos and commands on live handles; destroyed at the end.
    unsafe {
        let info = image_info(vk::Format::R8G8B8A8_UNORM, W, H)
            .usage(vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
        let image = d.create_image(&info, None).unwrap();
        let req = d.get_image_memory_requirements(image);
        let memory = allocate(h, pd, gpu, req);
        d.bind_image_memory(image, memory, 0).unwrap();
        let image2 = d.create_image(&info, None).unwrap();
        let memory2 = allocate(h, pd, gpu, req);
        d.bind_image_memory(image2, memory2, 0).unwrap();
        let sub = vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        };
        let full = vk::BufferImageCopy {
            image_subresource: sub,
            image_extent: vk::Extent3D { width: W, height: H, depth: 1 },
            ..Default::default()
        };
        let part = vk::BufferImageCopy {
            buffer_offset: 40,
            buffer_row_length: 24,
            buffer_image_height: 9,
            image_subresource: sub,
            image_offset: vk::Offset3D { x: 5, y: 3, z: 0 },
            image_extent: vk::Extent3D { width: 20, height: 6, depth: 1 },
        };
        let out = vk::BufferImageCopy { buffer_offset: 8, buffer_row_length: W + 3, ..full };
        let to_general = vk::ImageMemoryBarrier::default()
            .image(image)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::GENERAL)
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: 1,
            });
        let transfer = vk::PipelineStageFlags::TRANSFER;
        let dep = vk::DependencyFlags::empty();
        let general = vk::ImageLayout::GENERAL;
        let image_copy = vk::ImageCopy {
            src_subresource: sub,
            src_offset: vk::Offset3D { x: 2, y: 1, z: 0 },
            dst_subresource: sub,
            dst_offset: vk::Offset3D { x: 20, y: 5, z: 0 },
            extent: vk::Extent3D { width: 10, height: 4, depth: 1 },
        };
        gpu.run(|d, cb| {
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                transfer,
                dep,
                &[],
                &[],
                &[to_general, to_general.image(image2)],
            );
            d.cmd_copy_buffer_to_image(cb, a.buffer, image, general, &[full]);
            d.cmd_copy_buffer_to_image(cb, a.buffer, image2, general, &[full]);
            transfer_to_transfer(d, cb);
            d.cmd_copy_buffer_to_image(cb, b.buffer, image, vk::ImageLayout::GENERAL, &[part]);
            transfer_to_transfer(d, cb);
            d.cmd_copy_image(cb, image, general, image2, general, &[image_copy]);
            transfer_to_transfer(d, cb);
            d.cmd_copy_image_to_buffer(cb, image, general, c.buffer, &[out]);
            let out2 = vk::BufferImageCopy { buffer_offset: 4096, ..out };
            d.cmd_copy_image_to_buffer(cb, image2, general, c.buffer, &[out2]);
            transfer_to_host(d, cb);
        });
        let result = c.bytes().to_vec();
        d.destroy_image(image, None);
        d.free_memory(memory, None);
        d.destroy_image(image2, None);
        d.free_memory(memory2, None);
        for buf in [a, b, c] {
            gpu.destroy_buffer(buf);
        }
        result
    }
}

/// What [`linear_copy_round`] must produce, from the spec's addressing of buffer regions.
fn expected_round() -> Vec<u8> {
    let (w, h) = (W as usize, H as usize);
    let mut image: Vec<u8> = (0..w * h * 4).map(|i| (i * 7 + 3) as u8).collect();
    for y in 0..6 {
        for x in 0..20 {
            for k in 0..4 {
                let src = 40 + (y * 24 + x) * 4 + k;
                image[((3 + y) * w + 5 + x) * 4 + k] = (src % 251) as u8 ^ 0x5a;
            }
        }
    }
    let mut image2: Vec<u8> = (0..w * h * 4).map(|i| (i * 7 + 3) as u8).collect();
    for y in 0..4 {
        let (src, dst) = (((1 + y) * w + 2) * 4, ((5 + y) * w + 20) * 4);
        image2[dst..dst + 40].copy_from_slice(&image[src..src + 40]);
    }
    let mut out = vec![0xee; 8192];
    for (base, img) in [(8, &image), (4096, &image2)] {
        for y in 0..h {
            let at = base + y * (w + 3) * 4;
            out[at..at + w * 4].copy_from_slice(&img[y * w * 4..(y + 1) * w * 4]);
        }
    }
    out
}

#[test]
fn linear_buffer_image_copies_match_lavapipe_and_the_spec() {
    let h = Harness::with_entry(ferrum_tests::entry_with_lavapipe(), true, &[]);
    let expected = expected_round();
    for name in ["Ferrum", "llvmpipe"] {
        let pd = h.physical_device_named(name);
        let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
        let got = linear_copy_round(&h, pd, &gpu);
        let first = got.iter().zip(&expected).position(|(a, b)| a != b);
        assert!(first.is_none(), "{name}: byte {first:?} differs");
    }
    h.assert_clean();
}

/// Host-visible memory for `req` on `pd` (linear images the host writes and reads).
fn allocate_host(
    h: &Harness,
    pd: vk::PhysicalDevice,
    gpu: &Gpu,
    req: vk::MemoryRequirements,
) -> vk::DeviceMemory {
    // SAFETY: a live physical device.
    let memory = unsafe { h.instance.get_physical_device_memory_properties(pd) };
    let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let index = (0..memory.memory_type_count)
        .find(|&i| {
            req.memory_type_bits & (1 << i) != 0
                && memory.memory_types[i as usize].property_flags.contains(host)
        })
        .expect("a host-visible memory type for a linear image");
    let info = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index);
    // SAFETY: a valid allocate info on a live device.
    unsafe { gpu.device.allocate_memory(&info, None) }.expect("vkAllocateMemory")
}

/// One format of [`linear_host_writes_copies_and_clears`]: its texel size and a clear value
/// with the bytes it must store (in range, exactly representable).
struct LinearCase {
    format: vk::Format,
    bpe: usize,
    clear: vk::ClearColorValue,
    cleared: Vec<u8>,
}

fn linear_cases() -> Vec<LinearCase> {
    let float = |v: [f32; 4]| vk::ClearColorValue { float32: v };
    let uint = |v: [u32; 4]| vk::ClearColorValue { uint32: v };
    vec![
        LinearCase {
            format: vk::Format::R8_UNORM,
            bpe: 1,
            clear: float([1.0; 4]),
            cleared: vec![0xff],
        },
        LinearCase {
            format: vk::Format::R16_UINT,
            bpe: 2,
            clear: uint([0xbeef, 0, 0, 0]),
            cleared: vec![0xef, 0xbe],
        },
        LinearCase {
            format: vk::Format::R8G8B8A8_UNORM,
            bpe: 4,
            clear: float([1.0, 0.0, 1.0, 0.0]),
            cleared: vec![0xff, 0, 0xff, 0],
        },
        LinearCase {
            format: vk::Format::R16G16B16A16_UINT,
            bpe: 8,
            clear: uint([1, 0x2345, 0xffff, 0x8000]),
            cleared: vec![1, 0, 0x45, 0x23, 0xff, 0xff, 0, 0x80],
        },
        LinearCase {
            format: vk::Format::R32G32B32A32_UINT,
            bpe: 16,
            clear: uint([1, 0xdead_beef, u32::MAX, 0]),
            cleared: [1u32, 0xdead_beef, u32::MAX, 0]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
        },
    ]
}

const LW: u32 = 37;
const LH: u32 = 9;
/// The optimal image's region copied back over the cleared linear image (the last column and
/// row included).
const BACK: (u32, u32, u32, u32) = (LW - 20, LH - 5, 20, 5);

/// The texel pattern the host writes into the linear image, tightly packed.
fn pattern(bpe: usize) -> Vec<u8> {
    (0..LW as usize * LH as usize * bpe).map(|i| (i * 13 + 5) as u8 ^ (i >> 8) as u8).collect()
}

/// Host writes to a linear image through `vkGetImageSubresourceLayout`'s row pitch, a copy to
/// an optimal image, a clear of the linear image, a copy of part of the optimal image back,
/// then a copy of the linear image to a buffer; returns that buffer and the image as the host
/// reads it through its row pitch, both tightly packed.
fn linear_round(h: &Harness, pd: vk::PhysicalDevice, gpu: &Gpu, c: &LinearCase) -> [Vec<u8>; 2] {
    let d = &gpu.device;
    let row = LW as usize * c.bpe;
    let size = row * LH as usize;
    let out = gpu.host_buffer(size as u64);
    let usage = vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST;
    let extent = vk::Extent3D { width: LW, height: LH, depth: 1 };
    let color = vk::ImageAspectFlags::COLOR;
    let sub =
        vk::ImageSubresourceLayers { aspect_mask: color, layer_count: 1, ..Default::default() };
    let range = vk::ImageSubresourceRange {
        aspect_mask: color,
        level_count: 1,
        layer_count: 1,
        ..Default::default()
    };
    // SAFETY: valid create infos and commands on live handles; the mapping covers the image's
    // memory and every access stays within the reported layout; destroyed at the end.
    unsafe {
        let info = image_info(c.format, LW, LH)
            .usage(usage)
            .initial_layout(vk::ImageLayout::PREINITIALIZED);
        let linear = d.create_image(&info, None).unwrap();
        let req = d.get_image_memory_requirements(linear);
        let memory = allocate_host(h, pd, gpu, req);
        d.bind_image_memory(linear, memory, 0).unwrap();
        let layout = d.get_image_subresource_layout(
            linear,
            vk::ImageSubresource { aspect_mask: color, mip_level: 0, array_layer: 0 },
        );
        assert!(layout.row_pitch as usize >= row && layout.offset + layout.size <= req.size);
        let map = d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).unwrap()
            as *mut u8;
        let texels = pattern(c.bpe);
        for y in 0..LH as usize {
            let at = map.add(layout.offset as usize + y * layout.row_pitch as usize);
            std::ptr::copy_nonoverlapping(texels[y * row..].as_ptr(), at, row);
        }
        let info = image_info(c.format, LW, LH).usage(usage).tiling(vk::ImageTiling::OPTIMAL);
        let optimal = d.create_image(&info, None).unwrap();
        let optimal_memory = gpu.bind_image_memory(optimal);
        let general = vk::ImageLayout::GENERAL;
        let from_host = vk::ImageMemoryBarrier::default()
            .image(linear)
            .old_layout(vk::ImageLayout::PREINITIALIZED)
            .new_layout(general)
            .src_access_mask(vk::AccessFlags::HOST_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(range);
        let (dst_optimal, src_optimal) =
            (vk::ImageLayout::TRANSFER_DST_OPTIMAL, vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
        let to_dst = from_host
            .image(optimal)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(dst_optimal)
            .src_access_mask(vk::AccessFlags::empty())
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE);
        let to_src = to_dst
            .old_layout(dst_optimal)
            .new_layout(src_optimal)
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ);
        let whole = vk::ImageCopy {
            src_subresource: sub,
            dst_subresource: sub,
            extent,
            ..Default::default()
        };
        let (x, y, w, hh) = BACK;
        let back = vk::ImageCopy {
            src_offset: vk::Offset3D { x: x as i32, y: y as i32, z: 0 },
            dst_offset: vk::Offset3D { x: x as i32, y: y as i32, z: 0 },
            extent: vk::Extent3D { width: w, height: hh, depth: 1 },
            ..whole
        };
        let to_buffer = vk::BufferImageCopy {
            image_subresource: sub,
            image_extent: extent,
            ..Default::default()
        };
        gpu.run(|d, cb| {
            let (host, transfer) = (vk::PipelineStageFlags::HOST, vk::PipelineStageFlags::TRANSFER);
            let dep = vk::DependencyFlags::empty();
            d.cmd_pipeline_barrier(
                cb,
                host | transfer,
                transfer,
                dep,
                &[],
                &[],
                &[from_host, to_dst],
            );
            d.cmd_copy_image(cb, linear, general, optimal, dst_optimal, &[whole]);
            // Also orders the copy's reads of the linear image before the clear.
            d.cmd_pipeline_barrier(cb, transfer, transfer, dep, &[], &[], &[to_src]);
            d.cmd_clear_color_image(cb, linear, general, &c.clear, &[range]);
            transfer_to_transfer(d, cb);
            d.cmd_copy_image(cb, optimal, src_optimal, linear, general, &[back]);
            transfer_to_transfer(d, cb);
            d.cmd_copy_image_to_buffer(cb, linear, general, out.buffer, &[to_buffer]);
            transfer_to_host(d, cb);
        });
        let mut read = vec![0u8; size];
        for y in 0..LH as usize {
            let at = map.add(layout.offset as usize + y * layout.row_pitch as usize);
            std::ptr::copy_nonoverlapping(at, read[y * row..].as_mut_ptr(), row);
        }
        let result = out.bytes().to_vec();
        d.unmap_memory(memory);
        d.destroy_image(linear, None);
        d.free_memory(memory, None);
        d.destroy_image(optimal, None);
        d.free_memory(optimal_memory, None);
        gpu.destroy_buffer(out);
        [result, read]
    }
}

/// What [`linear_round`] must produce: the clear value everywhere but [`BACK`], which holds
/// the host's pattern again.
fn expected_linear(c: &LinearCase) -> Vec<u8> {
    let texels = pattern(c.bpe);
    let (bx, by, bw, bh) = BACK;
    let mut out = Vec::new();
    for y in 0..LH {
        for x in 0..LW {
            let inside = (bx..bx + bw).contains(&x) && (by..by + bh).contains(&y);
            let at = (y * LW + x) as usize * c.bpe;
            out.extend_from_slice(if inside { &texels[at..at + c.bpe] } else { &c.cleared });
        }
    }
    out
}

#[test]
fn linear_host_writes_copies_and_clears_match_lavapipe_and_the_spec() {
    let h = Harness::with_entry(ferrum_tests::entry_with_lavapipe(), true, &[]);
    for name in ["Ferrum", "llvmpipe"] {
        let pd = h.physical_device_named(name);
        let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
        for c in linear_cases() {
            let expected = expected_linear(&c);
            for (what, got) in ["copy", "host read"].iter().zip(linear_round(&h, pd, &gpu, &c)) {
                let first = got.iter().zip(&expected).position(|(a, b)| a != b);
                assert!(first.is_none(), "{name} {:?} {what}: byte {first:?} differs", c.format);
            }
        }
    }
    h.assert_clean();
}
