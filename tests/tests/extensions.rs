//! The cheap device extensions through the loader, validation on: VK_KHR_maintenance1
//! (vkTrimCommandPool), VK_KHR_get_memory_requirements2 with VK_KHR_dedicated_allocation,
//! VK_KHR_bind_memory2, VK_KHR_descriptor_update_template, VK_KHR_maintenance3 and
//! VK_EXT_pipeline_creation_cache_control; and `pAllocator` honoured for object storage.

use std::ffi::{c_void, CStr};
use std::sync::Mutex;

use ash_loaded::{khr, vk};
use ferrum_tests::gpu::{transfer_to_host, Gpu};
use ferrum_tests::kernel::{binding, compute_to_host, whole, Kernel, KernelOptions};
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::Harness;

const EXTENSIONS: &[&CStr] = &[
    c"VK_KHR_maintenance1",
    c"VK_KHR_get_memory_requirements2",
    c"VK_KHR_bind_memory2",
    c"VK_KHR_dedicated_allocation",
    c"VK_KHR_descriptor_update_template",
    c"VK_KHR_maintenance3",
    c"VK_EXT_pipeline_creation_cache_control",
];

fn gpu(h: &Harness) -> Gpu {
    Gpu::new(&h.instance, h.physical_device(), 0, 1, EXTENSIONS)
}

fn proc_addr(h: &Harness, g: &Gpu, name: &CStr) -> vk::PFN_vkVoidFunction {
    // SAFETY: a live device and a valid name.
    unsafe { (h.instance.fp_v1_0().get_device_proc_addr)(g.device.handle(), name.as_ptr()) }
}

#[test]
fn every_command_of_the_extensions_is_there() {
    let h = Harness::validated();
    let g = gpu(&h);
    for name in [
        c"vkTrimCommandPoolKHR",
        c"vkGetBufferMemoryRequirements2KHR",
        c"vkBindBufferMemory2KHR",
        c"vkGetImageMemoryRequirements2KHR",
        c"vkGetImageSparseMemoryRequirements2KHR",
        c"vkBindImageMemory2KHR",
        c"vkCreateDescriptorUpdateTemplateKHR",
        c"vkDestroyDescriptorUpdateTemplateKHR",
        c"vkUpdateDescriptorSetWithTemplateKHR",
        c"vkGetDescriptorSetLayoutSupportKHR",
    ] {
        assert!(proc_addr(&h, &g, name).is_some(), "{name:?}");
    }
    drop(g);
    h.assert_clean();
}

/// `vkGetDeviceProcAddr` answers an extension's command only on a device that enabled the
/// extension (the spec's table for the command: any case not listed returns NULL), whatever
/// Ferrum implements; core names stay. dEQP-VK.api.version_check.entry_points checks the same.
/// Without layers: the validation layer answers these queries itself.
#[test]
fn extension_commands_need_their_extension_enabled() {
    let h = Harness::plain();
    let bare = Gpu::new(&h.instance, h.physical_device(), 0, 1, &[]);
    let one = Gpu::new(&h.instance, h.physical_device(), 0, 1, &[c"VK_KHR_maintenance1"]);
    for name in [
        c"vkTrimCommandPoolKHR",
        c"vkGetBufferMemoryRequirements2KHR",
        c"vkBindBufferMemory2KHR",
        c"vkGetImageMemoryRequirements2KHR",
        c"vkGetImageSparseMemoryRequirements2KHR",
        c"vkCreateDescriptorUpdateTemplateKHR",
        c"vkGetDescriptorSetLayoutSupportKHR",
        c"vkCmdDispatchBaseKHR",
        c"vkGetSemaphoreCounterValueKHR",
        c"vkQueueSubmit2KHR",
    ] {
        assert!(proc_addr(&h, &bare, name).is_none(), "{name:?} without its extension");
    }
    assert!(proc_addr(&h, &one, c"vkTrimCommandPoolKHR").is_some());
    assert!(proc_addr(&h, &one, c"vkBindBufferMemory2KHR").is_none(), "not enabled on `one`");
    for name in [c"vkCmdDispatch", c"vkCreateBuffer", c"vkGetDeviceProcAddr"] {
        assert!(proc_addr(&h, &bare, name).is_some(), "{name:?}");
    }
    drop((bare, one));
    h.assert_clean();
}

/// Trimming keeps recorded and re-recorded command buffers working: a buffer recorded with
/// many commands is trimmed (executable), reset, trimmed again (initial), re-recorded and run.
#[test]
fn trimmed_pools_still_record_and_run() {
    let h = Harness::validated();
    let g = gpu(&h);
    let trim: vk::PFN_vkTrimCommandPool =
        // SAFETY: the loader returned this pointer for this very command.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkTrimCommandPoolKHR").unwrap()) };
    let out = g.host_buffer(4096);
    let cb = g.command_buffers(vk::CommandBufferLevel::PRIMARY, 1)[0];
    let d = &g.device;
    // SAFETY: a command buffer of this device, recorded, trimmed and submitted in order.
    unsafe {
        d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
        for i in 0..1024u32 {
            d.cmd_fill_buffer(cb, out.buffer, u64::from(i) * 4, 4, i);
        }
        d.end_command_buffer(cb).unwrap();
        trim(d.handle(), g.pool, vk::CommandPoolTrimFlags::empty());
        g.submit_wait(&[cb]);
        let words = out.u32s();
        assert!(words.iter().enumerate().all(|(i, &w)| w == i as u32));
        d.reset_command_buffer(cb, vk::CommandBufferResetFlags::empty()).unwrap();
        trim(d.handle(), g.pool, vk::CommandPoolTrimFlags::empty());
        d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
        d.cmd_fill_buffer(cb, out.buffer, 0, 4096, 0x5a5a_5a5a);
        transfer_to_host(d, cb);
        d.end_command_buffer(cb).unwrap();
        g.submit_wait(&[cb]);
        d.free_command_buffers(g.pool, &[cb]);
    }
    assert!(out.u32s().iter().all(|&w| w == 0x5a5a_5a5a));
    g.destroy_buffer(out);
    drop(g);
    h.assert_clean();
}

/// The `2` queries agree with the 1.0 ones, buffers neither need nor prefer a dedicated
/// allocation, and a dedicated allocation bound through vkBindBufferMemory2KHR works.
#[test]
fn memory_requirements2_dedicated_and_bind2() {
    let h = Harness::validated();
    let g = gpu(&h);
    let d = &g.device;
    let get2: vk::PFN_vkGetBufferMemoryRequirements2 =
        // SAFETY: the loader returned this pointer for this very command.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkGetBufferMemoryRequirements2KHR")) };
    let bind2: vk::PFN_vkBindBufferMemory2 =
        // SAFETY: as above.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkBindBufferMemory2KHR")) };
    // SAFETY: valid create infos and queries on live handles; everything is destroyed below.
    unsafe {
        let info =
            vk::BufferCreateInfo::default().size(1000).usage(vk::BufferUsageFlags::TRANSFER_DST);
        let buffer = d.create_buffer(&info, None).unwrap();
        let v1 = d.get_buffer_memory_requirements(buffer);
        let mut dedicated = vk::MemoryDedicatedRequirements {
            prefers_dedicated_allocation: vk::TRUE,
            requires_dedicated_allocation: vk::TRUE,
            ..Default::default()
        };
        let mut v2 = vk::MemoryRequirements2::default().push_next(&mut dedicated);
        let query = vk::BufferMemoryRequirementsInfo2::default().buffer(buffer);
        get2(d.handle(), &query, &mut v2);
        let r = v2.memory_requirements;
        assert_eq!(
            (r.size, r.alignment, r.memory_type_bits),
            (v1.size, v1.alignment, v1.memory_type_bits)
        );
        assert_eq!(dedicated.prefers_dedicated_allocation, vk::FALSE);
        assert_eq!(dedicated.requires_dedicated_allocation, vk::FALSE);

        let props = h.instance.get_physical_device_memory_properties(h.physical_device());
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let ty = (0..props.memory_type_count)
            .find(|&i| {
                v1.memory_type_bits & (1 << i) != 0
                    && props.memory_types[i as usize].property_flags.contains(host)
            })
            .unwrap();
        let mut ded = vk::MemoryDedicatedAllocateInfo::default().buffer(buffer);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(v1.size)
            .memory_type_index(ty)
            .push_next(&mut ded);
        let memory = d.allocate_memory(&alloc, None).unwrap();
        let bind = vk::BindBufferMemoryInfo::default().buffer(buffer).memory(memory);
        assert_eq!(bind2(d.handle(), 1, &bind), vk::Result::SUCCESS);
        g.run(|d, cb| {
            d.cmd_fill_buffer(cb, buffer, 0, vk::WHOLE_SIZE, 0x0102_0304);
            transfer_to_host(d, cb);
        });
        let ptr = d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).unwrap();
        let words = std::slice::from_raw_parts(ptr as *const u32, 250);
        assert!(words.iter().all(|&w| w == 0x0102_0304));
        d.unmap_memory(memory);
        d.destroy_buffer(buffer, None);
        d.free_memory(memory, None);
    }
    drop(g);
    h.assert_clean();
}

/// The image forms: vkGetImageMemoryRequirements2KHR agrees with the 1.0 query (no dedicated
/// allocation needed or preferred), and vkBindImageMemory2KHR binds a dedicated allocation.
#[test]
fn image_memory_requirements2_and_bind2() {
    let h = Harness::validated();
    let g = gpu(&h);
    let d = &g.device;
    let get2: vk::PFN_vkGetImageMemoryRequirements2 =
        // SAFETY: the loader returned this pointer for this very command.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkGetImageMemoryRequirements2KHR")) };
    let bind2: vk::PFN_vkBindImageMemory2 =
        // SAFETY: as above.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkBindImageMemory2KHR")) };
    // SAFETY: valid create infos and queries on live handles; everything is destroyed below.
    unsafe {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D { width: 67, height: 33, depth: 1 })
            .mip_levels(3)
            .array_layers(2)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::SAMPLED);
        let image = d.create_image(&info, None).unwrap();
        let v1 = d.get_image_memory_requirements(image);
        let mut dedicated = vk::MemoryDedicatedRequirements {
            prefers_dedicated_allocation: vk::TRUE,
            requires_dedicated_allocation: vk::TRUE,
            ..Default::default()
        };
        let mut v2 = vk::MemoryRequirements2::default().push_next(&mut dedicated);
        let query = vk::ImageMemoryRequirementsInfo2::default().image(image);
        get2(d.handle(), &query, &mut v2);
        let r = v2.memory_requirements;
        assert_eq!(
            (r.size, r.alignment, r.memory_type_bits),
            (v1.size, v1.alignment, v1.memory_type_bits)
        );
        assert!(v1.size >= 67 * 33 * 4 * 2, "the image's memory holds its level 0 at least");
        assert_eq!(dedicated.prefers_dedicated_allocation, vk::FALSE);
        assert_eq!(dedicated.requires_dedicated_allocation, vk::FALSE);
        let ty = v1.memory_type_bits.trailing_zeros();
        let mut ded = vk::MemoryDedicatedAllocateInfo::default().image(image);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(v1.size)
            .memory_type_index(ty)
            .push_next(&mut ded);
        let memory = d.allocate_memory(&alloc, None).unwrap();
        let bind = vk::BindImageMemoryInfo::default().image(image).memory(memory);
        assert_eq!(bind2(d.handle(), 1, &bind), vk::Result::SUCCESS);
        d.destroy_image(image, None);
        d.free_memory(memory, None);
    }
    drop(g);
    h.assert_clean();
}

const TEMPLATE_SHADER: &str = "#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint v[]; } a[2];
layout(set = 0, binding = 1) uniform U { uint k; } u;
void main() {
    uint i = gl_GlobalInvocationID.x;
    a[0].v[i] = u.k + i;
    a[1].v[i] = u.k * 2u + i;
}
";

/// Application data a template reads: descriptor infos at their own offsets and stride.
#[repr(C)]
struct TemplateData {
    uniform: vk::DescriptorBufferInfo,
    pad: u64,
    storage: [(vk::DescriptorBufferInfo, u64); 2],
}

/// A set written through an update template feeds a dispatch: the template's offsets and
/// stride pick the right infos out of the application's structure.
#[test]
fn update_templates_write_descriptors() {
    let h = Harness::validated();
    let g = gpu(&h);
    let d = &g.device;
    let (a0, a1, u) = (g.host_buffer(32), g.host_buffer(32), g.host_buffer(16));
    u.write(0, &1000u32.to_le_bytes());
    let bindings = [
        binding(0, vk::DescriptorType::STORAGE_BUFFER, 2),
        binding(1, vk::DescriptorType::UNIFORM_BUFFER, 1),
    ];
    let code = compute_spirv(TEMPLATE_SHADER);
    let kernel = Kernel::with_options(d, &code, &[&bindings], 0, &KernelOptions::default());
    let pool = ferrum_tests::kernel::SetPool::new(d, kernel.set_layouts[0], &bindings);
    let data = TemplateData {
        uniform: whole(u.buffer),
        pad: 0,
        storage: [(whole(a0.buffer), 0), (whole(a1.buffer), 0)],
    };
    let entries = [
        vk::DescriptorUpdateTemplateEntry {
            dst_binding: 0,
            dst_array_element: 0,
            descriptor_count: 2,
            descriptor_type: vk::DescriptorType::STORAGE_BUFFER,
            offset: std::mem::offset_of!(TemplateData, storage),
            stride: std::mem::size_of::<(vk::DescriptorBufferInfo, u64)>(),
        },
        vk::DescriptorUpdateTemplateEntry {
            dst_binding: 1,
            dst_array_element: 0,
            descriptor_count: 1,
            descriptor_type: vk::DescriptorType::UNIFORM_BUFFER,
            offset: 0,
            stride: 0,
        },
    ];
    let info = vk::DescriptorUpdateTemplateCreateInfo::default()
        .descriptor_update_entries(&entries)
        .template_type(vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET)
        .descriptor_set_layout(kernel.set_layouts[0]);
    let create: vk::PFN_vkCreateDescriptorUpdateTemplate =
        // SAFETY: the loader returned this pointer for this very command.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkCreateDescriptorUpdateTemplateKHR")) };
    let update: vk::PFN_vkUpdateDescriptorSetWithTemplate =
        // SAFETY: as above.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkUpdateDescriptorSetWithTemplateKHR")) };
    let destroy: vk::PFN_vkDestroyDescriptorUpdateTemplate =
        // SAFETY: as above.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkDestroyDescriptorUpdateTemplateKHR")) };
    // SAFETY: valid infos on live handles; `data` outlives the update.
    unsafe {
        let mut template = vk::DescriptorUpdateTemplate::null();
        assert_eq!(create(d.handle(), &info, std::ptr::null(), &mut template), vk::Result::SUCCESS);
        update(d.handle(), pool.set, template, &data as *const TemplateData as *const c_void);
        destroy(d.handle(), template, std::ptr::null());
    }
    g.run(|d, cb| {
        kernel.bind(cb, &[pool.set], &[]);
        // SAFETY: a recording command buffer with the pipeline and set bound.
        unsafe { d.cmd_dispatch(cb, 1, 1, 1) };
        compute_to_host(d, cb);
    });
    assert_eq!(a0.u32s(), (0..8).map(|i| 1000 + i).collect::<Vec<_>>());
    assert_eq!(a1.u32s(), (0..8).map(|i| 2000 + i).collect::<Vec<_>>());
    drop(pool);
    drop(kernel);
    for b in [a0, a1, u] {
        g.destroy_buffer(b);
    }
    drop(g);
    h.assert_clean();
}

/// vkGetDescriptorSetLayoutSupport says yes exactly to what vkCreateDescriptorSetLayout
/// creates: buffers, samplers and input attachments yes, inline uniform blocks (an extension
/// Ferrum does not have) no.
#[test]
fn layout_support_matches_creation() {
    let h = Harness::plain();
    let g = gpu(&h);
    let get: vk::PFN_vkGetDescriptorSetLayoutSupport =
        // SAFETY: the loader returned this pointer for this very command.
        unsafe { std::mem::transmute(proc_addr(&h, &g, c"vkGetDescriptorSetLayoutSupportKHR")) };
    for (ty, expected) in [
        (vk::DescriptorType::STORAGE_BUFFER, true),
        (vk::DescriptorType::SAMPLER, true),
        (vk::DescriptorType::INPUT_ATTACHMENT, true),
        (vk::DescriptorType::INLINE_UNIFORM_BLOCK, false),
    ] {
        let bindings = [binding(0, ty, 4)];
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        let mut support = vk::DescriptorSetLayoutSupport::default();
        // SAFETY: a valid create info and output structure.
        unsafe { get(g.device.handle(), &info, &mut support) };
        assert_eq!(support.supported == vk::TRUE, expected, "{ty:?}");
        // SAFETY: as above; a created layout is destroyed at once.
        let created = unsafe { g.device.create_descriptor_set_layout(&info, None) };
        assert_eq!(created.is_ok(), expected, "{ty:?}");
        if let Ok(l) = created {
            // SAFETY: created just above.
            unsafe { g.device.destroy_descriptor_set_layout(l, None) };
        }
    }
}

/// FAIL_ON_PIPELINE_COMPILE_REQUIRED returns VK_PIPELINE_COMPILE_REQUIRED (and a null handle)
/// until the pipeline is in the cache; EARLY_RETURN_ON_FAILURE leaves later entries null.
#[test]
fn pipeline_creation_cache_control() {
    let h = Harness::validated();
    let mut cache_control = vk::PhysicalDevicePipelineCreationCacheControlFeatures::default()
        .pipeline_creation_cache_control(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut cache_control);
    let g = Gpu::with_feature_chain(&h.instance, h.physical_device(), 0, EXTENSIONS, &mut f2);
    let d = &g.device;
    let code = compute_spirv(TEMPLATE_SHADER);
    let bindings = [
        binding(0, vk::DescriptorType::STORAGE_BUFFER, 2),
        binding(1, vk::DescriptorType::UNIFORM_BUFFER, 1),
    ];
    // The kernel (compiled without a cache) provides the module and layout.
    let kernel = Kernel::new(d, &code, &[&bindings], 0);
    // SAFETY: valid create infos on live handles; everything is destroyed below.
    unsafe {
        let cache = d.create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None).unwrap();
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(kernel.module)
            .name(c"main");
        let fail = vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED;
        let early = fail | vk::PipelineCreateFlags::EARLY_RETURN_ON_FAILURE;
        let info = |flags| {
            vk::ComputePipelineCreateInfo::default().stage(stage).layout(kernel.layout).flags(flags)
        };
        let (got, err) =
            d.create_compute_pipelines(cache, &[info(early), info(fail)], None).unwrap_err();
        assert_eq!(err, vk::Result::PIPELINE_COMPILE_REQUIRED);
        assert!(got.iter().all(|p| *p == vk::Pipeline::null()));
        let p = d.create_compute_pipelines(cache, &[info(vk::PipelineCreateFlags::empty())], None);
        d.destroy_pipeline(p.unwrap()[0], None);
        let hit = d.create_compute_pipelines(cache, &[info(fail)], None).unwrap()[0];
        assert_ne!(hit, vk::Pipeline::null());
        d.destroy_pipeline(hit, None);
        d.destroy_pipeline_cache(cache, None);
    }
    drop(kernel);
    drop(g);
    h.assert_clean();
}

/// Allocation callbacks that record live allocations and refuse after a budget.
#[derive(Default)]
struct Recorder {
    budget: Mutex<usize>,
    live: Mutex<Vec<(usize, std::alloc::Layout, vk::SystemAllocationScope)>>,
}

unsafe extern "system" fn rec_alloc(
    user: *mut c_void,
    size: usize,
    align: usize,
    scope: vk::SystemAllocationScope,
) -> *mut c_void {
    // SAFETY: the user data is the test's Recorder.
    let rec = unsafe { &*(user as *const Recorder) };
    let mut budget = rec.budget.lock().unwrap();
    if *budget == 0 {
        return std::ptr::null_mut();
    }
    *budget -= 1;
    let layout = std::alloc::Layout::from_size_align(size, align).unwrap();
    // SAFETY: a non-zero size (Vulkan never asks for zero bytes here).
    let p = unsafe { std::alloc::alloc(layout) };
    rec.live.lock().unwrap().push((p as usize, layout, scope));
    p.cast()
}

unsafe extern "system" fn rec_realloc(
    _: *mut c_void,
    _: *mut c_void,
    _: usize,
    _: usize,
    _: vk::SystemAllocationScope,
) -> *mut c_void {
    panic!("Ferrum does not reallocate object storage");
}

unsafe extern "system" fn rec_free(user: *mut c_void, p: *mut c_void) {
    if p.is_null() {
        return;
    }
    // SAFETY: the user data is the test's Recorder.
    let rec = unsafe { &*(user as *const Recorder) };
    let mut live = rec.live.lock().unwrap();
    let i = live.iter().position(|e| e.0 == p as usize).expect("free of unknown memory");
    let (_, layout, _) = live.swap_remove(i);
    // SAFETY: allocated by rec_alloc with this layout.
    unsafe { std::alloc::dealloc(p.cast(), layout) };
}

impl Recorder {
    fn callbacks(&self) -> vk::AllocationCallbacks<'_> {
        vk::AllocationCallbacks::default()
            .user_data(self as *const Self as *mut c_void)
            .pfn_allocation(Some(rec_alloc))
            .pfn_reallocation(Some(rec_realloc))
            .pfn_free(Some(rec_free))
    }
}

/// Objects created with callbacks live in their memory (object scope, aligned) and give it
/// back when destroyed; a refusing callback makes creation fail with
/// VK_ERROR_OUT_OF_HOST_MEMORY and leaves nothing allocated.
#[test]
fn allocation_callbacks_hold_object_storage() {
    let h = Harness::validated();
    let g = gpu(&h);
    let d = &g.device;
    let rec = Recorder { budget: Mutex::new(3), ..Default::default() };
    let cb = rec.callbacks();
    // SAFETY: valid create infos; the callbacks outlive every object made with them.
    unsafe {
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), Some(&cb)).unwrap();
        let event = d.create_event(&vk::EventCreateInfo::default(), Some(&cb)).unwrap();
        let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(0);
        let pool = d.create_command_pool(&pool_info, Some(&cb)).unwrap();
        {
            let live = rec.live.lock().unwrap();
            assert_eq!(live.len(), 3);
            for (p, layout, scope) in live.iter() {
                assert_eq!(*scope, vk::SystemAllocationScope::OBJECT);
                assert_eq!(p % layout.align(), 0);
            }
        }
        // The budget is spent: a fence and command buffers (from the pool's callbacks) fail.
        let err = d.create_fence(&vk::FenceCreateInfo::default(), Some(&cb)).unwrap_err();
        assert_eq!(err, vk::Result::ERROR_OUT_OF_HOST_MEMORY);
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(2);
        assert_eq!(
            d.allocate_command_buffers(&alloc).unwrap_err(),
            vk::Result::ERROR_OUT_OF_HOST_MEMORY
        );
        assert_eq!(rec.live.lock().unwrap().len(), 3);
        // One more allocation allowed: two command buffers still fail, and the first is freed.
        *rec.budget.lock().unwrap() = 1;
        assert_eq!(
            d.allocate_command_buffers(&alloc).unwrap_err(),
            vk::Result::ERROR_OUT_OF_HOST_MEMORY
        );
        assert_eq!(rec.live.lock().unwrap().len(), 3);
        d.destroy_fence(fence, Some(&cb));
        d.destroy_event(event, Some(&cb));
        d.destroy_command_pool(pool, Some(&cb));
    }
    assert!(rec.live.lock().unwrap().is_empty());
    drop(g);
    h.assert_clean();
}

/// VK_KHR_format_feature_flags2 through the loader: VkFormatProperties3 chained to
/// vkGetPhysicalDeviceFormatProperties2 repeats the legacy flags and adds storage without a
/// format (storage formats) and depth comparison (sampled depth formats), nothing else.
#[test]
fn format_properties3_extend_the_legacy_flags() {
    let h = Harness::new(true, &[khr::get_physical_device_properties2::NAME]);
    let p2_ext = khr::get_physical_device_properties2::Instance::new(&h.entry, &h.instance);
    let pd = h.physical_device();
    let f2 = vk::FormatFeatureFlags2::from_raw;
    let unformatted = vk::FormatFeatureFlags2::STORAGE_READ_WITHOUT_FORMAT
        | vk::FormatFeatureFlags2::STORAGE_WRITE_WITHOUT_FORMAT;
    for format in [vk::Format::R8G8B8A8_UNORM, vk::Format::R32_UINT, vk::Format::D32_SFLOAT] {
        let mut p3 = vk::FormatProperties3::default();
        let mut p2 = vk::FormatProperties2::default().push_next(&mut p3);
        // SAFETY: a live physical device and valid output structures.
        unsafe { p2_ext.get_physical_device_format_properties2(pd, format, &mut p2) };
        let legacy = p2.format_properties;
        let optimal = f2(u64::from(legacy.optimal_tiling_features.as_raw()));
        let buffer = f2(u64::from(legacy.buffer_features.as_raw()));
        let mut want = optimal;
        if optimal.contains(vk::FormatFeatureFlags2::STORAGE_IMAGE) {
            want |= unformatted;
        }
        if format == vk::Format::D32_SFLOAT {
            want |= vk::FormatFeatureFlags2::SAMPLED_IMAGE_DEPTH_COMPARISON;
        }
        assert_eq!(p3.optimal_tiling_features, want, "{format:?}");
        let mut want = buffer;
        if buffer.contains(vk::FormatFeatureFlags2::STORAGE_TEXEL_BUFFER) {
            want |= unformatted;
        }
        assert_eq!(p3.buffer_features, want, "{format:?}");
        assert!(optimal.contains(vk::FormatFeatureFlags2::SAMPLED_IMAGE), "{format:?}");
    }
    h.assert_clean();
}
