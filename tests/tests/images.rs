//! Images, views, samplers, buffer views and the format queries, through the loader.
//!
//! The format queries run with validation on. Only a few formats advertise image features
//! (sampling and storage, see `format::properties::PROVEN`), and copies or linear tiling none,
//! so most images here are outside valid usage as far as the validation layer is concerned;
//! the object tests therefore run on a plain instance and check what the driver does with well-formed requests that the hardware
//! supports, and that bad requests fail with an error instead of a crash.

use std::ffi::CStr;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::Harness;

/// The Vulkan 1.0 core formats (VkFormat 1..=184).
fn core_formats() -> impl Iterator<Item = vk::Format> {
    (1..=184).map(vk::Format::from_raw)
}

#[test]
fn every_core_device_command_resolves() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let names: &[&CStr] = &[
        c"vkCreateImage",
        c"vkDestroyImage",
        c"vkGetImageMemoryRequirements",
        c"vkBindImageMemory",
        c"vkGetImageSubresourceLayout",
        c"vkCreateImageView",
        c"vkCreateBufferView",
        c"vkCreateSampler",
        c"vkGetImageSparseMemoryRequirements",
        c"vkQueueBindSparse",
        c"vkCreateRenderPass",
        c"vkCreateFramebuffer",
        c"vkCreateGraphicsPipelines",
        c"vkCmdCopyBufferToImage",
        c"vkCmdBlitImage",
        c"vkCmdClearColorImage",
        c"vkCmdDraw",
        c"vkCmdBeginRenderPass",
        c"vkCmdSetViewport",
        c"vkCmdResolveImage",
        c"vkCmdBeginQuery",
        c"vkGetDeviceMemoryCommitment",
        c"vkGetRenderAreaGranularity",
    ];
    for name in names {
        // SAFETY: a live device and a valid name.
        let f = unsafe {
            let _loader = ferrum_tests::loader_lock();
            h.instance.get_device_proc_addr(gpu.device.handle(), name.as_ptr())
        };
        assert!(f.is_some(), "{name:?} is NULL");
    }
    drop(gpu);
    h.assert_clean();
}

#[test]
fn format_queries_match_the_driver_table_and_each_other() {
    let h = Harness::validated();
    let pd = h.physical_device();
    for format in core_formats() {
        // SAFETY: a live physical device.
        let p = unsafe { h.instance.get_physical_device_format_properties(pd, format) };
        let table = vulkan_ferrum::format::properties::format_properties(format);
        assert_eq!(p.optimal_tiling_features.as_raw(), table.optimal_tiling_features.as_raw());
        assert_eq!(p.linear_tiling_features.as_raw(), table.linear_tiling_features.as_raw());
        assert_eq!(p.buffer_features.as_raw(), table.buffer_features.as_raw());
        for (tiling, features) in [
            (vk::ImageTiling::OPTIMAL, p.optimal_tiling_features),
            (vk::ImageTiling::LINEAR, p.linear_tiling_features),
        ] {
            // SAFETY: as above.
            let r = unsafe {
                h.instance.get_physical_device_image_format_properties(
                    pd,
                    format,
                    vk::ImageType::TYPE_2D,
                    tiling,
                    vk::ImageUsageFlags::SAMPLED,
                    vk::ImageCreateFlags::empty(),
                )
            };
            let sampled = features.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE);
            assert_eq!(r.is_ok(), sampled, "{format:?} {tiling:?}: {r:?}");
            if !sampled {
                assert_eq!(r.err(), Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));
            }
        }
    }
    h.assert_clean();
}

fn image_info(format: vk::Format, w: u32, h: u32, levels: u32) -> vk::ImageCreateInfo<'static> {
    vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: w, height: h, depth: 1 })
        .mip_levels(levels)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::SAMPLED)
}

/// Memory of a type with `want` for `req`, bound by the caller.
fn allocate(
    h: &Harness,
    gpu: &Gpu,
    req: vk::MemoryRequirements,
    want: vk::MemoryPropertyFlags,
) -> vk::DeviceMemory {
    // SAFETY: a live physical device.
    let memory = unsafe { h.instance.get_physical_device_memory_properties(h.physical_device()) };
    let types = &memory.memory_types[..memory.memory_type_count as usize];
    let index = (0..types.len())
        .find(|&i| req.memory_type_bits & (1 << i) != 0 && types[i].property_flags.contains(want))
        .expect("memory type") as u32;
    let info = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index);
    // SAFETY: a valid allocate info on a live device.
    unsafe { gpu.device.allocate_memory(&info, None) }.expect("vkAllocateMemory")
}

#[test]
fn images_views_samplers_and_buffer_views() {
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let d = &gpu.device;
    // SAFETY: valid create infos on live handles; everything is destroyed at the end.
    unsafe {
        let info = image_info(vk::Format::R8G8B8A8_UNORM, 256, 256, 9)
            .array_layers(6)
            .flags(vk::ImageCreateFlags::CUBE_COMPATIBLE | vk::ImageCreateFlags::MUTABLE_FORMAT);
        let image = d.create_image(&info, None).unwrap();
        let req = d.get_image_memory_requirements(image);
        // Per layer: level 0 (4 blocks), level 1 (1 block) and the tail (1 block) of 64 KiB.
        assert_eq!((req.size, req.alignment), (6 * 6 * 65_536, 65_536));
        let memory = allocate(&h, &gpu, req, vk::MemoryPropertyFlags::DEVICE_LOCAL);
        d.bind_image_memory(image, memory, 0).unwrap();
        let range = |levels, layers| vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: levels,
            base_array_layer: 0,
            layer_count: layers,
        };
        let view = |ty, format, r| {
            let vi = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(ty)
                .format(format)
                .subresource_range(r);
            d.create_image_view(&vi, None)
        };
        let rgba = vk::Format::R8G8B8A8_UNORM;
        let views = [
            view(vk::ImageViewType::CUBE, rgba, range(vk::REMAINING_MIP_LEVELS, 6)).unwrap(),
            view(vk::ImageViewType::TYPE_2D_ARRAY, rgba, range(1, vk::REMAINING_ARRAY_LAYERS))
                .unwrap(),
            // Reinterpretation within the 32-bit class of a mutable image.
            view(vk::ImageViewType::TYPE_2D, vk::Format::R32_UINT, range(1, 1)).unwrap(),
            view(vk::ImageViewType::CUBE_ARRAY, rgba, range(1, 6)).unwrap(),
        ];
        // Outside the compatibility class, outside the image, wrong view type: errors.
        assert!(view(vk::ImageViewType::TYPE_2D, vk::Format::R16_UINT, range(1, 1)).is_err());
        assert!(view(vk::ImageViewType::TYPE_2D, rgba, range(10, 1)).is_err());
        let huge = vk::ImageSubresourceRange { base_mip_level: u32::MAX, ..range(2, 1) };
        assert_eq!(
            view(vk::ImageViewType::TYPE_2D, rgba, huge).err(),
            Some(vk::Result::ERROR_UNKNOWN),
            "an overflowing range is refused, not a panic (which would report device loss)"
        );
        assert!(view(vk::ImageViewType::TYPE_3D, rgba, range(1, 1)).is_err());

        let sampler_info = vk::SamplerCreateInfo::default()
            .mag_filter(vk::Filter::LINEAR)
            .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_BORDER)
            .border_color(vk::BorderColor::FLOAT_OPAQUE_WHITE)
            .max_lod(vk::LOD_CLAMP_NONE);
        let sampler = d.create_sampler(&sampler_info, None).unwrap();
        let aniso = sampler_info.anisotropy_enable(true).max_anisotropy(16.0);
        assert_eq!(
            d.create_sampler(&aniso, None).err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );

        let buf = gpu.host_buffer(4096);
        let bv = vk::BufferViewCreateInfo::default()
            .buffer(buf.buffer)
            .format(vk::Format::R32G32B32A32_SFLOAT)
            .range(vk::WHOLE_SIZE);
        let buffer_view = d.create_buffer_view(&bv, None).unwrap();
        let bad = bv.format(vk::Format::D32_SFLOAT);
        assert_eq!(
            d.create_buffer_view(&bad, None).err(),
            Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED)
        );

        d.destroy_buffer_view(buffer_view, None);
        gpu.destroy_buffer(buf);
        d.destroy_sampler(sampler, None);
        for v in views {
            d.destroy_image_view(v, None);
        }
        d.destroy_image(image, None);
        d.free_memory(memory, None);
        // Null destruction is a no-op.
        d.destroy_image(vk::Image::null(), None);
        d.destroy_sampler(vk::Sampler::null(), None);
    }
}

#[test]
fn linear_images_are_host_mapped_at_their_subresource_layout() {
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let d = &gpu.device;
    // SAFETY: valid create infos on live handles; everything is destroyed at the end.
    unsafe {
        let info = image_info(vk::Format::R16_UINT, 130, 7, 1).tiling(vk::ImageTiling::LINEAR);
        let image = d.create_image(&info, None).unwrap();
        let req = d.get_image_memory_requirements(image);
        let memory = allocate(&h, &gpu, req, vk::MemoryPropertyFlags::HOST_VISIBLE);
        d.bind_image_memory(image, memory, 0).unwrap();
        let sub =
            vk::ImageSubresource { aspect_mask: vk::ImageAspectFlags::COLOR, ..Default::default() };
        let layout = d.get_image_subresource_layout(image, sub);
        // 260 bytes of texels per row, padded to 256-byte multiples.
        assert_eq!((layout.offset, layout.row_pitch, layout.size), (0, 512, 7 * 512));
        let ptr = d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).unwrap();
        let bytes = std::slice::from_raw_parts_mut(ptr.cast::<u8>(), req.size as usize);
        for y in 0..7usize {
            let row = &mut bytes[y * 512..y * 512 + 260];
            for (x, t) in row.chunks_exact_mut(2).enumerate() {
                t.copy_from_slice(&((y * 1000 + x) as u16).to_le_bytes());
            }
        }
        d.unmap_memory(memory);
        let ptr = d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).unwrap();
        let bytes = std::slice::from_raw_parts(ptr.cast::<u8>(), req.size as usize);
        let at = |x: usize, y: usize| {
            u16::from_le_bytes([bytes[y * 512 + 2 * x], bytes[y * 512 + 2 * x + 1]])
        };
        assert_eq!((at(0, 0), at(129, 6), at(5, 3)), (0, 6129, 3005));
        d.unmap_memory(memory);
        d.destroy_image(image, None);
        d.free_memory(memory, None);
    }
}

#[test]
fn bad_image_requests_fail_without_crashing() {
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let d = &gpu.device;
    let refused = |info: vk::ImageCreateInfo<'_>| {
        // SAFETY: a live device; the request is well-formed but unsupported.
        let r = unsafe { d.create_image(&info, None) };
        assert!(r.is_err(), "{info:?} was accepted");
    };
    // Formats that are no attachment offer one sample only.
    refused(
        image_info(vk::Format::E5B9G9R9_UFLOAT_PACK32, 4, 4, 1)
            .samples(vk::SampleCountFlags::TYPE_4),
    );
    refused(image_info(vk::Format::R64G64_SFLOAT, 4, 4, 1));
    refused(image_info(vk::Format::D16_UNORM, 4, 4, 1).tiling(vk::ImageTiling::LINEAR));
    refused(image_info(vk::Format::R8_UNORM, 32768, 1, 1));
    // SAFETY: a live physical device.
    let r = unsafe {
        h.instance.get_physical_device_image_format_properties(
            h.physical_device(),
            vk::Format::R64G64_SFLOAT,
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            vk::ImageUsageFlags::SAMPLED,
            vk::ImageCreateFlags::empty(),
        )
    };
    assert_eq!(r.err(), Some(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));
    // A clear of a null image fails without crashing: the command buffer reports it.
    let cb = gpu.command_buffers(vk::CommandBufferLevel::PRIMARY, 1)[0];
    // SAFETY: a live command buffer in the initial state; handles are null, which the driver
    // must survive.
    unsafe {
        d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
        d.cmd_clear_color_image(
            cb,
            vk::Image::null(),
            vk::ImageLayout::GENERAL,
            &vk::ClearColorValue::default(),
            &[],
        );
        assert!(d.end_command_buffer(cb).is_err());
    }
}

#[test]
fn swizzled_copies_past_the_image_or_buffer_are_refused() {
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let d = &gpu.device;
    // SAFETY: valid create infos on live handles; destroyed at the end.
    unsafe {
        let image = d.create_image(&image_info(vk::Format::R8_UINT, 8, 8, 1), None).unwrap();
        let req = d.get_image_memory_requirements(image);
        let memory = allocate(&h, &gpu, req, vk::MemoryPropertyFlags::empty());
        d.bind_image_memory(image, memory, 0).unwrap();
        let buf = gpu.host_buffer(64);
        let cbs = gpu.command_buffers(vk::CommandBufferLevel::PRIMARY, 3);
        let region = vk::BufferImageCopy {
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                layer_count: 1,
                ..Default::default()
            },
            image_extent: vk::Extent3D { width: 8, height: 8, depth: 1 },
            ..Default::default()
        };
        // The whole 8×8 image from the 64-byte buffer records; one texel more in either
        // resource is refused when the command buffer ends.
        let wide = vk::BufferImageCopy {
            image_extent: vk::Extent3D { width: 9, height: 8, depth: 1 },
            buffer_row_length: 9,
            ..region
        };
        let late = vk::BufferImageCopy { buffer_offset: 1, ..region };
        for (cb, r, ok) in [(cbs[0], region, true), (cbs[1], wide, false), (cbs[2], late, false)] {
            d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
            d.cmd_copy_buffer_to_image(cb, buf.buffer, image, vk::ImageLayout::GENERAL, &[r]);
            let want = if ok { None } else { Some(vk::Result::ERROR_UNKNOWN) };
            assert_eq!(d.end_command_buffer(cb).err(), want, "{r:?}");
        }
        gpu.destroy_buffer(buf);
        d.destroy_image(image, None);
        d.free_memory(memory, None);
    }
}
