//! Compute pipelines through the loader, differential against lavapipe: push constants,
//! uniform, storage and dynamic storage buffers, a specialization constant, direct and
//! indirect dispatches. Validation is on; the bytes must be identical.

use ash_loaded::{vk, Device};
use ferrum_tests::gpu::{Gpu, HostBuffer};
use ferrum_tests::kernel::{binding, compute_to_host, whole, Kernel, KernelOptions, SetPool};
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::{entry_with_lavapipe, Harness};

const SHADER: &str = "#version 450
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint MUL = 1;
layout(set = 0, binding = 0) buffer Out { uint v[]; } outb;
layout(set = 0, binding = 1) uniform U { uvec4 k; } u;
layout(set = 1, binding = 0) buffer Dyn { uint d[]; } dyn;
layout(push_constant) uniform P { uint add; uint pad; uint base; } pc;
void main() {
    uint i = pc.base + gl_GlobalInvocationID.y * 128u + gl_GlobalInvocationID.x;
    outb.v[i] = i * MUL + pc.add + u.k.y + dyn.d[gl_LocalInvocationID.x % 8u]
        + gl_NumWorkGroups.x * 1000u + gl_WorkGroupID.y * 100000u;
}
";

/// The pipeline for [`SHADER`]: set 0 (storage + uniform), set 1 (dynamic storage) and 12
/// bytes of push constants.
fn shader_kernel<'d>(d: &'d Device, options: &KernelOptions<'_>) -> Kernel<'d> {
    let set0 = [
        binding(0, vk::DescriptorType::STORAGE_BUFFER, 1),
        binding(1, vk::DescriptorType::UNIFORM_BUFFER, 1),
    ];
    let set1 = [binding(0, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 1)];
    Kernel::with_options(d, &compute_spirv(SHADER), &[&set0, &set1], 12, options)
}

/// Runs the shader twice (direct 4x2x1 and indirect 3x1x1 into another region) and returns
/// the output buffer.
fn program(gpu: &Gpu) -> Vec<u8> {
    let d = &gpu.device;
    let out = gpu.host_buffer(4 * 1024);
    let ubo = gpu.host_buffer(256);
    let dynb = gpu.host_buffer(512);
    let indirect = gpu.host_buffer(64);
    ubo.write(0, &[1, 0, 0, 0, 7, 0, 0, 0]);
    let dyn_data: Vec<u8> = (0..128u32).flat_map(|i| (i * 3).to_le_bytes()).collect();
    dynb.write(0, &dyn_data);
    indirect.write(16, &[3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    let mut result = Vec::new();
    // SAFETY: valid create infos on live handles; every object is destroyed at the end, after
    // the GPU finished.
    unsafe {
        let spec_entries = [vk::SpecializationMapEntry { constant_id: 0, offset: 0, size: 4 }];
        let spec_data = 5u32.to_le_bytes();
        let spec = vk::SpecializationInfo::default().map_entries(&spec_entries).data(&spec_data);
        let kernel =
            shader_kernel(d, &KernelOptions { specialization: Some(&spec), ..Default::default() });
        let (pipeline, pl) = (kernel.pipeline, kernel.layout);
        let layouts = &kernel.set_layouts;

        let sizes = [
            vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: 1 },
            vk::DescriptorPoolSize { ty: vk::DescriptorType::UNIFORM_BUFFER, descriptor_count: 1 },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER_DYNAMIC,
                descriptor_count: 1,
            },
        ];
        let pool = d
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default().max_sets(2).pool_sizes(&sizes),
                None,
            )
            .unwrap();
        let sets = d
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(layouts),
            )
            .unwrap();
        let info = |b: &HostBuffer, offset, range| {
            [vk::DescriptorBufferInfo { buffer: b.buffer, offset, range }]
        };
        let (i_out, i_ubo, i_dyn) =
            (info(&out, 0, vk::WHOLE_SIZE), info(&ubo, 0, 16), info(&dynb, 0, 32));
        let writes = [
            vk::WriteDescriptorSet::default()
                .dst_set(sets[0])
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&i_out),
            vk::WriteDescriptorSet::default()
                .dst_set(sets[0])
                .dst_binding(1)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .buffer_info(&i_ubo),
            vk::WriteDescriptorSet::default()
                .dst_set(sets[1])
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC)
                .buffer_info(&i_dyn),
        ];
        d.update_descriptor_sets(&writes, &[]);

        gpu.run(|d, cb| {
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
            d.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::COMPUTE, pl, 0, &sets, &[64]);
            let pc: Vec<u8> = [11u32, 0, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
            d.cmd_push_constants(cb, pl, vk::ShaderStageFlags::COMPUTE, 0, &pc);
            d.cmd_dispatch(cb, 4, 2, 1);
            // A different dynamic offset and push values for the second dispatch.
            d.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::COMPUTE,
                pl,
                1,
                &sets[1..],
                &[128],
            );
            let pc: Vec<u8> = [22u32, 0, 512].iter().flat_map(|v| v.to_le_bytes()).collect();
            d.cmd_push_constants(cb, pl, vk::ShaderStageFlags::COMPUTE, 0, &pc);
            d.cmd_dispatch_indirect(cb, indirect.buffer, 16);
            compute_to_host(d, cb);
        });
        result.extend_from_slice(out.bytes());
        d.destroy_descriptor_pool(pool, None);
    }
    for b in [out, ubo, dynb, indirect] {
        gpu.destroy_buffer(b);
    }
    result
}

#[test]
fn compute_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp = {
        let gpu = Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[]);
        program(&gpu)
    };
    // Sanity: the reference wrote what the shader says (element 0: 0*5 + 11 + 7 + d[0] + 4000).
    let first = u32::from_le_bytes(lvp[..4].try_into().unwrap());
    assert_eq!(first, 11 + 7 + 3 * 16 + 4000);
    let ferrum_pd = h.physical_device_named("Ferrum");
    for family in [0, 1] {
        let gpu = Gpu::new(&h.instance, ferrum_pd, family, 1, &[]);
        let ours = program(&gpu);
        if let Some(i) = ours.iter().zip(&lvp).position(|(a, b)| a != b) {
            let w = i / 4 * 4;
            panic!(
                "family {family}: word {} differs: ferrum {:#x}, lavapipe {:#x}",
                w / 4,
                u32::from_le_bytes(ours[w..w + 4].try_into().unwrap()),
                u32::from_le_bytes(lvp[w..w + 4].try_into().unwrap())
            );
        }
    }
    h.assert_clean();
}

/// The demo's workload, small: identical bytes on Ferrum and lavapipe.
#[test]
fn mandelbrot_matches_lavapipe() {
    use ferrum_tests::mandelbrot::{render, View};
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let view = View { width: 64, height: 48, max_iter: 32 };
    let lvp = render(&Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[]), view);
    let ours = render(&Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 1, 1, &[]), view);
    // Not a blank image: the set's interior (black) and escaping points (coloured) both occur.
    let px: Vec<u32> =
        lvp.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    assert!(px.contains(&0xff00_0000) && px.iter().any(|&p| p != 0xff00_0000));
    assert!(ours == lvp, "Mandelbrot differs from lavapipe");
    h.assert_clean();
}

/// Creates (and destroys) a pipeline for [`SHADER`] through `cache`.
fn pipeline_through_cache(gpu: &Gpu, cache: vk::PipelineCache) {
    shader_kernel(&gpu.device, &KernelOptions { cache, ..Default::default() });
}

#[test]
fn pipeline_cache_round_trips_and_ignores_corrupt_data() {
    // This binary's loader sees lavapipe too (see `compute_matches_lavapipe`).
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let gpu = Gpu::new(&h.instance, h.physical_device_named("Ferrum"), 1, 1, &[]);
    let d = &gpu.device;
    // SAFETY: live handles; caches are destroyed at the end.
    unsafe {
        let empty = d.create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None).unwrap();
        let header_only = d.get_pipeline_cache_data(empty).unwrap();
        pipeline_through_cache(&gpu, empty);
        let blob = d.get_pipeline_cache_data(empty).unwrap();
        assert!(blob.len() > header_only.len() + 64, "the compiled shader is in the cache");
        assert_eq!(blob[..32], header_only[..32], "same header");

        let loaded = d
            .create_pipeline_cache(
                &vk::PipelineCacheCreateInfo::default().initial_data(&blob),
                None,
            )
            .unwrap();
        assert_eq!(
            d.get_pipeline_cache_data(loaded).unwrap(),
            blob,
            "entries survive the round trip"
        );
        pipeline_through_cache(&gpu, loaded);
        assert_eq!(d.get_pipeline_cache_data(loaded).unwrap(), blob, "a hit adds nothing");

        let mut corrupt = blob.clone();
        let last = corrupt.len() - 1;
        corrupt[last] ^= 0x55;
        let ignored = d
            .create_pipeline_cache(
                &vk::PipelineCacheCreateInfo::default().initial_data(&corrupt),
                None,
            )
            .unwrap();
        assert_eq!(
            d.get_pipeline_cache_data(ignored).unwrap(),
            header_only,
            "corrupt data is dropped"
        );
        pipeline_through_cache(&gpu, ignored);
        d.merge_pipeline_caches(ignored, &[loaded]).unwrap();
        assert_eq!(d.get_pipeline_cache_data(ignored).unwrap(), blob);
        for c in [empty, loaded, ignored] {
            d.destroy_pipeline_cache(c, None);
        }
    }
    h.assert_clean();
}

#[test]
fn pipeline_executable_properties_report_statistics_and_isa() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let exts = [c"VK_KHR_pipeline_executable_properties"];
    let pd = h.physical_device_named("Ferrum");
    // The feature must be enabled to use the commands.
    let prio = [1.0];
    let queues = [ferrum_tests::queue_info(1, &prio)];
    let names: Vec<_> = exts.iter().map(|e| e.as_ptr()).collect();
    let mut feature = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
        .pipeline_executable_info(true);
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&names)
        .push_next(&mut feature);
    // SAFETY: valid create infos; everything is destroyed at the end.
    unsafe {
        h.instance.get_physical_device_queue_family_properties(pd);
        let d = {
            let _loader = ferrum_tests::loader_lock();
            h.instance.create_device(pd, &info, None).unwrap()
        };
        let ext = {
            let _loader = ferrum_tests::loader_lock();
            ash_loaded::khr::pipeline_executable_properties::Device::new(&h.instance, &d)
        };
        let flags = vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
            | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR;
        let kernel = shader_kernel(&d, &KernelOptions { flags, ..Default::default() });
        let p = kernel.pipeline;
        let props = ext
            .get_pipeline_executable_properties(&vk::PipelineInfoKHR::default().pipeline(p))
            .unwrap();
        assert_eq!(props.len(), 1);
        assert_eq!((props[0].stages, props[0].subgroup_size), (vk::ShaderStageFlags::COMPUTE, 32));
        let exe = vk::PipelineExecutableInfoKHR::default().pipeline(p).executable_index(0);
        let stats = ext.get_pipeline_executable_statistics(&exe).unwrap();
        let stat = |name: &str| {
            stats
                .iter()
                .find(|s| s.name_as_c_str().unwrap().to_str().unwrap() == name)
                .map(|s| s.value.u64)
        };
        assert!(stat("Instructions").unwrap() > 5);
        assert!(stat("VGPRs").unwrap() >= 3);
        assert_eq!(stat("Code size").map(|b| b % 4), Some(0));
        let reprs = ext.get_pipeline_executable_internal_representations(&exe).unwrap();
        assert_eq!(reprs.len(), 1);
        assert!(reprs[0].data_size > 20, "ISA text");
        let mut text = vec![0u8; reprs[0].data_size];
        let mut repr = vk::PipelineExecutableInternalRepresentationKHR {
            data_size: text.len(),
            p_data: text.as_mut_ptr().cast(),
            ..Default::default()
        };
        let mut count = 1;
        let r = (ext.fp().get_pipeline_executable_internal_representations_khr)(
            d.handle(),
            &exe,
            &mut count,
            &mut repr,
        );
        assert_eq!(r, vk::Result::SUCCESS);
        let text = std::ffi::CStr::from_bytes_until_nul(&text).unwrap().to_str().unwrap();
        assert!(text.contains("s_endpgm") && text.contains("buffer_store_dword"), "{text}");
        drop(kernel);
        {
            let _loader = ferrum_tests::loader_lock();
            d.destroy_device(None);
        }
    }
    h.assert_clean();
}

const ARRAY_SHADER: &str = "#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform U { uvec4 k; } u[3];
layout(set = 0, binding = 1) buffer S { uint v[]; } s[2];
layout(push_constant) uniform P { uint which; } pc;
void main() {
    uint i = gl_LocalInvocationID.x;
    uint acc = 0u;
    // Dynamically uniform indices: a push constant and a loop counter.
    for (uint j = 0u; j < 3u; j++) { acc += u[j].k.x * (j + 1u); }
    s[pc.which].v[i] = acc + u[pc.which].k.y + s[1u - pc.which].v[i];
}
";

fn array_program(gpu: &Gpu) -> Vec<u8> {
    let d = &gpu.device;
    let ubos: Vec<HostBuffer> = (0..3).map(|_| gpu.host_buffer(256)).collect();
    let ssbos: Vec<HostBuffer> = (0..2).map(|_| gpu.host_buffer(64)).collect();
    for (i, b) in ubos.iter().enumerate() {
        let v: Vec<u8> = [10 + i as u32, 100 * (i as u32 + 1), 0, 0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        b.write(0, &v);
    }
    let init: Vec<u8> = (0..16u32).flat_map(|i| (i * 1000).to_le_bytes()).collect();
    ssbos[0].write(0, &init);
    let code = compute_spirv(ARRAY_SHADER);
    let bindings = [
        binding(0, vk::DescriptorType::UNIFORM_BUFFER, 3),
        binding(1, vk::DescriptorType::STORAGE_BUFFER, 2),
    ];
    let kernel = Kernel::new(d, &code, &[&bindings], 4);
    let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
    let uinfo: Vec<_> = ubos
        .iter()
        .map(|b| vk::DescriptorBufferInfo { buffer: b.buffer, offset: 0, range: 16 })
        .collect();
    let sinfo: Vec<_> = ssbos.iter().map(|b| whole(b.buffer)).collect();
    set.write_buffers(0, vk::DescriptorType::UNIFORM_BUFFER, &uinfo);
    set.write_buffers(1, vk::DescriptorType::STORAGE_BUFFER, &sinfo);
    gpu.run(|d, cb| {
        kernel.bind(cb, &[set.set], &[]);
        kernel.push(cb, &1u32.to_le_bytes());
        // SAFETY: a command buffer in the recording state.
        unsafe { d.cmd_dispatch(cb, 1, 1, 1) };
        compute_to_host(d, cb);
    });
    drop((set, kernel));
    let out = ssbos[1].bytes().to_vec();
    ubos.into_iter().chain(ssbos).for_each(|b| gpu.destroy_buffer(b));
    out
}

/// Arrays of uniform and storage buffers indexed by dynamically uniform values (the
/// `shader*BufferArrayDynamicIndexing` features), identical to lavapipe.
#[test]
fn descriptor_arrays_with_dynamic_indices_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let features = vk::PhysicalDeviceFeatures::default()
        .shader_uniform_buffer_array_dynamic_indexing(true)
        .shader_storage_buffer_array_dynamic_indexing(true);
    let run = |name: &str| {
        let pd = h.physical_device_named(name);
        // SAFETY: a live physical device and valid create infos.
        let gpu = unsafe {
            let supported = h.instance.get_physical_device_features(pd);
            assert_eq!(supported.shader_uniform_buffer_array_dynamic_indexing, vk::TRUE, "{name}");
            Gpu::with_features(&h.instance, pd, 0, &features)
        };
        array_program(&gpu)
    };
    let (lvp, ours) = (run("llvmpipe"), run("Ferrum"));
    let first = u32::from_le_bytes(lvp[..4].try_into().unwrap());
    assert_eq!(first, 10 + 2 * 11 + 3 * 12 + 200);
    assert!(ours == lvp, "descriptor array results differ from lavapipe");
    h.assert_clean();
}

const ROBUST_SHADER: &str = "#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer S { uint v[]; } s;
layout(set = 0, binding = 1) buffer D { uint v[]; } d;
layout(set = 0, binding = 2) uniform U { uvec4 k[16]; } u;
void main() {
    uint i = gl_GlobalInvocationID.x;
    // Half the reads and writes fall past the bound ranges (64 words each; the uniform range
    // covers 4 of the 16 vectors).
    d.v[i * 2u] = s.v[i * 3u] + 1u + u.k[i % 16u].x;
}
";

fn robust_program(gpu: &Gpu) -> Vec<u8> {
    let d = &gpu.device;
    // The descriptors cover 256 bytes of each; the memory behind them is larger, so an access
    // past the range would land in real memory if it were not dropped.
    let (src, dst, ubo) = (gpu.host_buffer(4096), gpu.host_buffer(4096), gpu.host_buffer(4096));
    let init: Vec<u8> = (0..1024u32).flat_map(|i| (i + 7).to_le_bytes()).collect();
    src.write(0, &init);
    ubo.write(0, &init);
    let code = compute_spirv(ROBUST_SHADER);
    let bindings = [
        binding(0, vk::DescriptorType::STORAGE_BUFFER, 1),
        binding(1, vk::DescriptorType::STORAGE_BUFFER, 1),
        binding(2, vk::DescriptorType::UNIFORM_BUFFER, 1),
    ];
    let kernel = Kernel::new(d, &code, &[&bindings], 0);
    let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
    let range =
        |b: &HostBuffer, range| [vk::DescriptorBufferInfo { buffer: b.buffer, offset: 0, range }];
    set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &range(&src, 256));
    set.write_buffers(1, vk::DescriptorType::STORAGE_BUFFER, &range(&dst, 256));
    set.write_buffers(2, vk::DescriptorType::UNIFORM_BUFFER, &range(&ubo, 64));
    gpu.run(|d, cb| {
        kernel.bind(cb, &[set.set], &[]);
        // SAFETY: a command buffer in the recording state.
        unsafe { d.cmd_dispatch(cb, 2, 1, 1) };
        compute_to_host(d, cb);
    });
    drop((set, kernel));
    let out = dst.bytes().to_vec();
    gpu.destroy_buffer(src);
    gpu.destroy_buffer(dst);
    gpu.destroy_buffer(ubo);
    out
}

/// Out-of-range accesses with `robustBufferAccess`: reads give 0 and writes are dropped,
/// identical to lavapipe (the V#'s NUM_RECORDS is the descriptor range).
#[test]
fn robust_buffer_access_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let features = vk::PhysicalDeviceFeatures::default().robust_buffer_access(true);
    let run = |name: &str| {
        let gpu = Gpu::with_features(&h.instance, h.physical_device_named(name), 0, &features);
        robust_program(&gpu)
    };
    let (lvp, ours) = (run("llvmpipe"), run("Ferrum"));
    let word = |b: &[u8], i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
    // In range: d[2i] = s[3i] + 1 for 2i < 64 and 3i < 64; nothing lands past word 63.
    // d[2] = s[3] + 1 + u.k[1].x = (3 + 7) + 1 + (4 + 7); u.k[5] is past the uniform range.
    assert_eq!(word(&lvp, 2), 3 + 7 + 1 + 4 + 7);
    assert_eq!(word(&lvp, 10), 15 + 7 + 1);
    assert!((64..1024).all(|i| word(&lvp, i) == 0), "lavapipe wrote past the range");
    assert!(ours == lvp, "robust buffer access differs from lavapipe");
    h.assert_clean();
}
