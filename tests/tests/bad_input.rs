//! Invalid or unsupported requests get the right error, null destruction is a no-op, and
//! unknown names resolve to null — through the loader, as an application sees it.

use ash_loaded::vk::{self, Handle};
use ferrum_tests::{queue_info, Harness};

fn try_create_device(
    h: &Harness,
    info: &vk::DeviceCreateInfo<'_>,
) -> Result<ash_loaded::Device, vk::Result> {
    let pd = h.physical_device();
    // SAFETY: a live physical device; the create info is well-formed, just unsupported.
    unsafe {
        h.instance.get_physical_device_queue_family_properties(pd);
        let _loader = ferrum_tests::loader_lock();
        h.instance.create_device(pd, info, None)
    }
}

/// A device with one queue of family 0 and nothing else enabled.
fn one_queue_device(h: &Harness) -> ash_loaded::Device {
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
    try_create_device(h, &info).expect("vkCreateDevice")
}

// Requesting what the device does not offer is invalid usage the validation layer would
// report, so these run without layers.

#[test]
fn unsupported_device_extension_is_rejected() {
    let h = Harness::plain();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let exts = [c"VK_KHR_swapchain".as_ptr()];
    let info =
        vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_extension_names(&exts);
    assert_eq!(try_create_device(&h, &info).err(), Some(vk::Result::ERROR_EXTENSION_NOT_PRESENT));
}

#[test]
fn unsupported_core_feature_is_rejected() {
    let h = Harness::plain();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let features = vk::PhysicalDeviceFeatures::default().sparse_binding(true);
    let info =
        vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_features(&features);
    assert_eq!(try_create_device(&h, &info).err(), Some(vk::Result::ERROR_FEATURE_NOT_PRESENT));
}

#[test]
fn unsupported_chained_feature_is_rejected() {
    let h = Harness::plain();
    let prio = [1.0];
    let queues = [queue_info(0, &prio)];
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default().buffer_device_address(true);
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).push_next(&mut v12);
    assert_eq!(try_create_device(&h, &info).err(), Some(vk::Result::ERROR_FEATURE_NOT_PRESENT));

    // Every feature the driver reports as supported must be accepted back.
    let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut v11);
    let pd = h.physical_device();
    // SAFETY: live physical device, valid output chain. (Plain instance: core 1.1 name.)
    unsafe { h.instance.get_physical_device_features2(pd, &mut f2) };
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).push_next(&mut f2);
    let dev = try_create_device(&h, &info).expect("supported features are accepted");
    // SAFETY: a live device.
    unsafe {
        let _loader = ferrum_tests::loader_lock();
        dev.destroy_device(None)
    };
}

#[test]
fn destroying_null_handles_is_a_no_op() {
    let h = Harness::validated();
    // SAFETY: valid create info; destroying/freeing VK_NULL_HANDLE is valid usage.
    unsafe {
        let dev = one_queue_device(&h);
        dev.destroy_buffer(vk::Buffer::null(), None);
        dev.destroy_fence(vk::Fence::null(), None);
        dev.free_memory(vk::DeviceMemory::null(), None);
        {
            let _loader = ferrum_tests::loader_lock();
            dev.destroy_device(None);
        }
    }
    h.assert_clean();
}

#[test]
fn unknown_entry_points_resolve_to_null() {
    let h = Harness::validated();
    // SAFETY: live handles and NUL-terminated names.
    unsafe {
        let gipa = h.entry.static_fn().get_instance_proc_addr;
        assert!(gipa(h.instance.handle(), c"vkFerrumDoesNotExist".as_ptr()).is_none());
        assert!(gipa(h.instance.handle(), c"vkCreateInstance".as_ptr()).is_some());
        let dev = one_queue_device(&h);
        // Raw lookups walk the loader's device lists too (see `loader_lock`).
        let _loader = ferrum_tests::loader_lock();
        let gdpa = h.instance.fp_v1_0().get_device_proc_addr;
        assert!(gdpa(dev.handle(), c"vkFerrumDoesNotExist".as_ptr()).is_none());
        assert!(gdpa(dev.handle(), c"vkAllocateMemory".as_ptr()).is_some());
        assert!(!dev.handle().is_null());
        dev.destroy_device(None);
    }
    h.assert_clean();
}

/// A command of a core version above the device's (1.3's `vkCmdSetCullMode`) is null, not a
/// stub, while every 1.0 command exists (`images.rs` checks those). (Layers return their own
/// wrappers for core names, so this looks at the driver without them.)
#[test]
fn commands_above_the_device_version_resolve_to_null() {
    let h = Harness::plain();
    // SAFETY: live handles and NUL-terminated names.
    unsafe {
        let dev = one_queue_device(&h);
        // Raw lookups walk the loader's device lists too (see `loader_lock`).
        let _loader = ferrum_tests::loader_lock();
        let gdpa = h.instance.fp_v1_0().get_device_proc_addr;
        assert!(gdpa(dev.handle(), c"vkCmdSetCullMode".as_ptr()).is_none());
        assert!(gdpa(dev.handle(), c"vkCreateImage".as_ptr()).is_some());
        assert!(gdpa(dev.handle(), c"vkCreateBuffer".as_ptr()).is_some());
        dev.destroy_device(None);
    }
}

/// Broken SPIR-V fails pipeline creation with an error and a null handle, never a crash; the
/// device keeps working. (Invalid SPIR-V is invalid usage: no validation layer here.)
#[test]
fn bad_spirv_fails_pipeline_creation_cleanly() {
    let h = Harness::plain();
    let prio = [1.0];
    let queues = [queue_info(1, &prio)];
    let d = try_create_device(&h, &vk::DeviceCreateInfo::default().queue_create_infos(&queues))
        .expect("vkCreateDevice");
    let good = ferrum_tests::shaders::compute_spirv(
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n",
    );
    let mut truncated = good.clone();
    truncated.truncate(good.len() / 2);
    let mut scrambled = good.clone();
    for (i, w) in scrambled.iter_mut().enumerate().skip(5) {
        *w = w.wrapping_mul(0x9e37_79b9).rotate_left(i as u32 % 31);
    }
    let bad_magic: Vec<u32> = [0xdead_beef].iter().chain(&good[1..]).copied().collect();
    // SAFETY: live handles; every object is destroyed at the end.
    unsafe {
        let layout =
            d.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None).unwrap();
        for words in [truncated, scrambled, bad_magic, vec![0x0723_0203, 0x0001_0000, 0, 1, 0]] {
            let module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
                .expect("vkCreateShaderModule keeps the words");
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            let info = vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout);
            let (pipelines, err) = d
                .create_compute_pipelines(vk::PipelineCache::null(), &[info], None)
                .expect_err("broken SPIR-V must not compile");
            assert!(pipelines[0].is_null());
            assert_ne!(err, vk::Result::ERROR_DEVICE_LOST, "a compiler panic leaked");
            d.destroy_shader_module(module, None);
        }
        // The device still works: the good module compiles.
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&good), None)
            .unwrap();
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let info = vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout);
        let p = d.create_compute_pipelines(vk::PipelineCache::null(), &[info], None).unwrap()[0];
        d.destroy_pipeline(p, None);
        d.destroy_shader_module(module, None);
        d.destroy_pipeline_layout(layout, None);
        {
            let _loader = ferrum_tests::loader_lock();
            d.destroy_device(None);
        }
    }
}

/// State Vulkan says is ignored is never read (dEQP-VK.api.pipeline.
/// pipeline_invalid_pointers_unused_structs): with rasterization discarded, the viewport,
/// multisample, depth/stencil and colour blend pointers; in a subpass without attachments,
/// the depth/stencil and colour blend pointers; arrays of count 0 anywhere. They all point at
/// `~0` here, which faults if read. The pipelines draw, and the queue finishes.
#[test]
fn ignored_graphics_state_is_never_read() {
    let h = Harness::plain();
    let gpu = ferrum_tests::gpu::Gpu::new(&h.instance, h.physical_device(), 0, 1, &[]);
    let d = &gpu.device;
    let bad = usize::MAX as *const std::ffi::c_void;
    // SAFETY: live handles; the dangling pointers sit only where Vulkan ignores them.
    unsafe {
        let mut sub =
            [vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)];
        sub[0].p_input_attachments = bad.cast();
        sub[0].p_color_attachments = bad.cast();
        sub[0].p_preserve_attachments = bad.cast();
        let mut rp = vk::RenderPassCreateInfo::default().subpasses(&sub);
        rp.p_attachments = bad.cast();
        rp.p_dependencies = bad.cast();
        let pass = d.create_render_pass(&rp, None).expect("vkCreateRenderPass");
        let mut fb =
            vk::FramebufferCreateInfo::default().render_pass(pass).width(64).height(64).layers(1);
        fb.p_attachments = bad.cast();
        let fb = d.create_framebuffer(&fb, None).expect("vkCreateFramebuffer");
        let pl = vk::PipelineLayoutCreateInfo {
            p_set_layouts: bad.cast(),
            p_push_constant_ranges: bad.cast(),
            ..Default::default()
        };
        let layout = d.create_pipeline_layout(&pl, None).expect("vkCreatePipelineLayout");
        let vs = ferrum_tests::scene::module(
            d,
            "#version 450\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.5, 1.0); gl_PointSize = 1.0; }\n",
            "vert",
        );
        let stages = [vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vs)
            .name(c"main")];
        let vi = vk::PipelineVertexInputStateCreateInfo {
            p_vertex_attribute_descriptions: bad.cast(),
            ..Default::default()
        };
        let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::POINT_LIST);
        let viewports =
            [vk::Viewport { width: 64.0, height: 64.0, max_depth: 1.0, ..Default::default() }];
        let scissors =
            [vk::Rect2D { extent: vk::Extent2D { width: 64, height: 64 }, ..Default::default() }];
        let vp = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewports)
            .scissors(&scissors);
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let mut pipelines = Vec::new();
        for discard in [true, false] {
            let rs = vk::PipelineRasterizationStateCreateInfo::default()
                .rasterizer_discard_enable(discard)
                .line_width(1.0);
            let mut info = vk::GraphicsPipelineCreateInfo::default()
                .stages(&stages)
                .vertex_input_state(&vi)
                .input_assembly_state(&ia)
                .rasterization_state(&rs)
                .layout(layout)
                .render_pass(pass);
            info.p_depth_stencil_state = bad.cast();
            info.p_color_blend_state = bad.cast();
            if discard {
                info.p_viewport_state = bad.cast();
                info.p_multisample_state = bad.cast();
            } else {
                info.p_viewport_state = &vp;
                info.p_multisample_state = &ms;
            }
            let p = d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None);
            pipelines.push(p.map_err(|(_, e)| e).expect("vkCreateGraphicsPipelines")[0]);
        }
        gpu.run(|d, cb| {
            let begin = vk::RenderPassBeginInfo::default()
                .render_pass(pass)
                .framebuffer(fb)
                .render_area(scissors[0]);
            d.cmd_begin_render_pass(cb, &begin, vk::SubpassContents::INLINE);
            for &p in &pipelines {
                d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, p);
                d.cmd_draw(cb, 1, 1, 0, 0);
            }
            d.cmd_end_render_pass(cb);
        });
        for p in pipelines {
            d.destroy_pipeline(p, None);
        }
        d.destroy_shader_module(vs, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_framebuffer(fb, None);
        d.destroy_render_pass(pass, None);
    }
}
