//! Copies between buffers and linear images and between linear images, differential against lavapipe and checked
//! against the spec's addressing of buffer regions computed on the host. Lavapipe shares the
//! process's loader configuration, so this runs in its own test binary.

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
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
        let barrier = vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE);
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
            d.cmd_pipeline_barrier(cb, transfer, transfer, dep, &[barrier], &[], &[]);
            d.cmd_copy_buffer_to_image(cb, b.buffer, image, vk::ImageLayout::GENERAL, &[part]);
            d.cmd_pipeline_barrier(cb, transfer, transfer, dep, &[barrier], &[], &[]);
            d.cmd_copy_image(cb, image, general, image2, general, &[image_copy]);
            d.cmd_pipeline_barrier(cb, transfer, transfer, dep, &[barrier], &[], &[]);
            d.cmd_copy_image_to_buffer(cb, image, general, c.buffer, &[out]);
            let out2 = vk::BufferImageCopy { buffer_offset: 4096, ..out };
            d.cmd_copy_image_to_buffer(cb, image2, general, c.buffer, &[out2]);
            let host = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            d.cmd_pipeline_barrier(
                cb,
                transfer,
                vk::PipelineStageFlags::HOST,
                dep,
                &[host],
                &[],
                &[],
            );
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
    let h = Harness::with_entry(ferrum_tests::entry_with_lavapipe(), false, &[]);
    let expected = expected_round();
    for name in ["Ferrum", "llvmpipe"] {
        let pd = h.physical_device_named(name);
        let gpu = Gpu::new(&h.instance, pd, 0, 1, &[]);
        let got = linear_copy_round(&h, pd, &gpu);
        let first = got.iter().zip(&expected).position(|(a, b)| a != b);
        assert!(first.is_none(), "{name}: byte {first:?} differs");
    }
}
