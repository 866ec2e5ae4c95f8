//! Vulkan 1.1 as an application sees it through the loader: the reported versions, every 1.1
//! command under its core name (and the extension names only with their extensions), the
//! properties and features 1.1 requires, the core names working on a device that enabled no
//! extension, and the basic subgroup operations in compute against a reference that lavapipe
//! passes too.

use std::collections::HashMap;
use std::ffi::CStr;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::{
    binding, compute_to_host, run_with_one_buffer, whole, Kernel, KernelOptions, SetPool,
};
use ferrum_tests::shaders::{compute_spirv, glsl_spirv_for};
use ferrum_tests::{entry_with_lavapipe, Harness};

/// Every test here sees Ferrum and lavapipe (the loader's driver list is process-wide state).
fn ferrum(h: &Harness) -> vk::PhysicalDevice {
    h.physical_device_named("Ferrum")
}

#[test]
fn device_and_instance_report_vulkan_1_1() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    // SAFETY: a live physical device.
    let props = unsafe { h.instance.get_physical_device_properties(ferrum(&h)) };
    let version =
        (vk::api_version_major(props.api_version), vk::api_version_minor(props.api_version));
    assert_eq!(version, (1, 1));
    // SAFETY: a global query.
    let instance = unsafe { h.entry.try_enumerate_instance_version() }.unwrap().unwrap();
    assert!(instance >= vk::API_VERSION_1_1, "{instance:#x}");
    h.assert_clean();
}

/// The device commands Vulkan 1.1 added, by their core names.
const DEVICE_1_1: &[&CStr] = &[
    c"vkBindBufferMemory2",
    c"vkBindImageMemory2",
    c"vkGetDeviceGroupPeerMemoryFeatures",
    c"vkCmdSetDeviceMask",
    c"vkCmdDispatchBase",
    c"vkGetImageMemoryRequirements2",
    c"vkGetBufferMemoryRequirements2",
    c"vkGetImageSparseMemoryRequirements2",
    c"vkTrimCommandPool",
    c"vkGetDeviceQueue2",
    c"vkCreateSamplerYcbcrConversion",
    c"vkDestroySamplerYcbcrConversion",
    c"vkCreateDescriptorUpdateTemplate",
    c"vkDestroyDescriptorUpdateTemplate",
    c"vkUpdateDescriptorSetWithTemplate",
    c"vkGetDescriptorSetLayoutSupport",
];

/// The instance-level commands Vulkan 1.1 added.
const INSTANCE_1_1: &[&CStr] = &[
    c"vkEnumeratePhysicalDeviceGroups",
    c"vkGetPhysicalDeviceFeatures2",
    c"vkGetPhysicalDeviceProperties2",
    c"vkGetPhysicalDeviceFormatProperties2",
    c"vkGetPhysicalDeviceImageFormatProperties2",
    c"vkGetPhysicalDeviceQueueFamilyProperties2",
    c"vkGetPhysicalDeviceMemoryProperties2",
    c"vkGetPhysicalDeviceSparseImageFormatProperties2",
    c"vkGetPhysicalDeviceExternalBufferProperties",
    c"vkGetPhysicalDeviceExternalFenceProperties",
    c"vkGetPhysicalDeviceExternalSemaphoreProperties",
];

/// On a device with no extension enabled, `vkGetDeviceProcAddr` answers every 1.1 command by
/// its core name, no promoted extension's name, and no core name of a later version (the
/// spec's table: "requested core version ... command", "enabled extension ... command", any
/// other case NULL). Without layers: the validation layer answers these queries itself.
#[test]
fn core_names_of_1_1_are_there_and_extension_names_are_not() {
    let h = Harness::with_entry(entry_with_lavapipe(), false, &[]);
    let gpu = Gpu::new(&h.instance, ferrum(&h), 0, 1, &[]);
    let device_fn = |name: &CStr| {
        let _loader = ferrum_tests::loader_lock();
        // SAFETY: a live device and a valid name.
        unsafe { h.instance.get_device_proc_addr(gpu.device.handle(), name.as_ptr()) }
    };
    for &name in DEVICE_1_1 {
        assert!(device_fn(name).is_some(), "{name:?}");
    }
    for name in [
        c"vkTrimCommandPoolKHR",
        c"vkBindImageMemory2KHR",
        c"vkCmdDispatchBaseKHR",
        c"vkGetDescriptorSetLayoutSupportKHR",
        c"vkCreateDescriptorUpdateTemplateKHR",
        c"vkCreateSamplerYcbcrConversionKHR",
        // Vulkan 1.2 and 1.3 core names.
        c"vkResetQueryPool",
        c"vkQueueSubmit2",
    ] {
        assert!(device_fn(name).is_none(), "{name:?} on a 1.1 device without extensions");
    }
    // Instance-level commands are found through the instance, never through the device.
    for &name in INSTANCE_1_1 {
        // SAFETY: a live instance and a valid name.
        let f = unsafe { h.entry.get_instance_proc_addr(h.instance.handle(), name.as_ptr()) };
        assert!(f.is_some(), "{name:?}");
        assert!(device_fn(name).is_none(), "{name:?} through vkGetDeviceProcAddr");
    }
    drop(gpu);
}

/// The properties and features Vulkan 1.1 requires, through the core `...2` queries.
#[test]
fn vulkan_1_1_properties_and_features_are_those_required() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let pd = ferrum(&h);
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut sg = vk::PhysicalDeviceSubgroupProperties::default();
    let mut clip = vk::PhysicalDevicePointClippingProperties::default();
    let mut mv = vk::PhysicalDeviceMultiviewProperties::default();
    let mut prot = vk::PhysicalDeviceProtectedMemoryProperties::default();
    let mut m3 = vk::PhysicalDeviceMaintenance3Properties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default()
        .push_next(&mut id)
        .push_next(&mut sg)
        .push_next(&mut clip)
        .push_next(&mut mv)
        .push_next(&mut prot)
        .push_next(&mut m3);
    // SAFETY: a live physical device and a valid output chain.
    unsafe { h.instance.get_physical_device_properties2(pd, &mut p2) };
    let _ = p2;

    // IDs: nonzero UUIDs, the same from a second instance; no LUID on Linux.
    assert_ne!(id.device_uuid, [0; 16]);
    assert_ne!(id.driver_uuid, [0; 16]);
    assert_eq!(id.device_luid_valid, vk::FALSE);
    let again = Harness::with_entry(entry_with_lavapipe(), false, &[]);
    let mut id2 = vk::PhysicalDeviceIDProperties::default();
    let mut q = vk::PhysicalDeviceProperties2::default().push_next(&mut id2);
    // SAFETY: as above.
    unsafe { again.instance.get_physical_device_properties2(ferrum(&again), &mut q) };
    let _ = q;
    assert_eq!((id2.device_uuid, id2.driver_uuid), (id.device_uuid, id.driver_uuid));

    // Subgroups: the wave32 compute wave, BASIC at least (every advertised class runs in
    // the compiler's subgroup corpus; BASIC also below and in dEQP-VK.subgroups.basic).
    assert_eq!(sg.subgroup_size, 32);
    assert!(sg.supported_stages.contains(vk::ShaderStageFlags::COMPUTE));
    assert!(sg.supported_operations.contains(vk::SubgroupFeatureFlags::BASIC));

    assert!(
        clip.point_clipping_behavior == vk::PointClippingBehavior::ALL_CLIP_PLANES
            || clip.point_clipping_behavior == vk::PointClippingBehavior::USER_CLIP_PLANES_ONLY
    );
    // The spec's required limits.
    assert!(mv.max_multiview_view_count >= 6, "{}", mv.max_multiview_view_count);
    assert!(mv.max_multiview_instance_index >= (1 << 27) - 1);
    assert_eq!(prot.protected_no_fault, vk::FALSE);
    assert!(m3.max_per_set_descriptors >= 1024);
    assert!(m3.max_memory_allocation_size >= 1 << 30);

    let mut multiview = vk::PhysicalDeviceMultiviewFeatures::default();
    let mut protected = vk::PhysicalDeviceProtectedMemoryFeatures::default();
    let mut ycbcr = vk::PhysicalDeviceSamplerYcbcrConversionFeatures::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut multiview)
        .push_next(&mut protected)
        .push_next(&mut ycbcr);
    // SAFETY: as above.
    unsafe { h.instance.get_physical_device_features2(pd, &mut f2) };
    let _ = f2;
    // Multiview is required by 1.1; protected memory and Y'CbCr conversion are optional.
    assert_eq!(multiview.multiview, vk::TRUE);
    assert_eq!(protected.protected_memory, vk::FALSE);
    assert_eq!(ycbcr.sampler_ycbcr_conversion, vk::FALSE);

    // No external handle types: all-zero answers, and an image query naming one is refused.
    let info = vk::PhysicalDeviceExternalBufferInfo::default()
        .usage(vk::BufferUsageFlags::STORAGE_BUFFER)
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let mut ext = vk::ExternalBufferProperties::default();
    // SAFETY: as above.
    unsafe { h.instance.get_physical_device_external_buffer_properties(pd, &info, &mut ext) };
    let m = ext.external_memory_properties;
    assert!(m.external_memory_features.is_empty());
    assert!(m.export_from_imported_handle_types.is_empty());
    assert!(m.compatible_handle_types.is_empty());
    let image = vk::PhysicalDeviceImageFormatInfo2::default()
        .format(vk::Format::R8G8B8A8_UNORM)
        .ty(vk::ImageType::TYPE_2D)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::SAMPLED);
    let mut ycbcr_props = vk::SamplerYcbcrConversionImageFormatProperties::default();
    let mut ext_image = vk::ExternalImageFormatProperties::default();
    let mut out =
        vk::ImageFormatProperties2::default().push_next(&mut ycbcr_props).push_next(&mut ext_image);
    // SAFETY: as above.
    let plain =
        unsafe { h.instance.get_physical_device_image_format_properties2(pd, &image, &mut out) };
    assert_eq!(plain, Ok(()));
    let _ = out;
    assert_eq!(ycbcr_props.combined_image_sampler_descriptor_count, 1);
    let mut external = vk::PhysicalDeviceExternalImageFormatInfo::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
    let with_handle = image.push_next(&mut external);
    let mut out = vk::ImageFormatProperties2::default();
    // SAFETY: as above.
    let refused = unsafe {
        h.instance.get_physical_device_image_format_properties2(pd, &with_handle, &mut out)
    };
    assert_eq!(refused, Err(vk::Result::ERROR_FORMAT_NOT_SUPPORTED));
    h.assert_clean();
}

/// Each invocation writes its workgroup id at its global index.
const BASE_SHADER: &str = "#version 450
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() { o.v[gl_GlobalInvocationID.x] = 0x100u | gl_WorkGroupID.x; }
";

/// The core names run on a device that enabled no extension, validation on:
/// vkTrimCommandPool, vkGetDescriptorSetLayoutSupport, and vkCmdSetDeviceMask with
/// vkCmdDispatchBase (groups 3 and 4 of a base-3 dispatch; the words of groups 0..2 stay 0).
#[test]
fn core_names_work_without_extensions() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let gpu = Gpu::new(&h.instance, ferrum(&h), 0, 1, &[]);
    let d = &gpu.device;
    let out = gpu.host_buffer(64);
    out.write(0, &[0; 64]);
    let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1)];
    let code = compute_spirv(BASE_SHADER);
    let options =
        KernelOptions { flags: vk::PipelineCreateFlags::DISPATCH_BASE, ..Default::default() };
    {
        let kernel = Kernel::with_options(d, &code, &[&bindings], 0, &options);
        let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
        set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);
        // SAFETY: live handles; the pool is idle when trimmed.
        unsafe {
            d.trim_command_pool(gpu.pool, vk::CommandPoolTrimFlags::empty());
            let layout = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            let mut support = vk::DescriptorSetLayoutSupport::default();
            d.get_descriptor_set_layout_support(&layout, &mut support);
            assert_eq!(support.supported, vk::TRUE);
        }
        gpu.run(|d, cb| {
            kernel.bind(cb, &[set.set], &[]);
            // SAFETY: a recording command buffer of a one-device group.
            unsafe {
                d.cmd_set_device_mask(cb, 1);
                d.cmd_dispatch_base(cb, 3, 0, 0, 2, 1, 1);
            }
            compute_to_host(d, cb);
        });
    }
    let words = out.u32s();
    assert_eq!(&words[..10], &[0, 0, 0, 0, 0, 0, 0x103, 0x103, 0x104, 0x104]);
    assert!(words[10..].iter().all(|&w| w == 0));
    gpu.destroy_buffer(out);
    drop(gpu);
    h.assert_clean();
}

/// A multiple of lavapipe's subgroup sizes (4, 8 or 16 lanes by CPU), not of Ferrum's 32:
/// lavapipe (Mesa 22.3) rounds gl_NumSubgroups down when the last subgroup is partial.
const WORKGROUP: u32 = 80;
const WORKGROUPS: u32 = 3;

/// The basic subgroup class in a workgroup that does not fill its last wave32 subgroup (80
/// invocations): the built-ins, subgroupElect uniformly and in a divergent branch, and a
/// shared-memory exchange between the two lanes of a pair ordered by subgroupBarrier and
/// subgroupMemoryBarrierShared. The slot of an invocation is its place in its subgroup, so
/// the partner (invocation id ^ 1) is always in the same subgroup.
const SUBGROUP_SHADER: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 80) in;
layout(set = 0, binding = 0) buffer Out { uvec4 v[]; } o;
shared uint slots[256];
void main() {
    uint i = gl_LocalInvocationIndex;
    uint elected = subgroupElect() ? 1u : 0u;
    uint divergent = 0u;
    if (i % 3u == 1u) {
        divergent = subgroupElect() ? 2u : 0u;
    }
    uint base = gl_SubgroupID * gl_SubgroupSize;
    slots[base + gl_SubgroupInvocationID] = i + 1000u;
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    uint partner = gl_SubgroupInvocationID ^ 1u;
    uint got = slots[base + partner];
    o.v[gl_WorkGroupID.x * 80u + i] = uvec4(
        gl_SubgroupSize | (gl_NumSubgroups << 8) | (gl_SubgroupID << 16),
        gl_SubgroupInvocationID, elected | divergent, got);
}
";

/// Runs the subgroup shader on a device and returns one uvec4 per invocation.
fn run_subgroup_shader(gpu: &Gpu) -> Vec<[u32; 4]> {
    let code = glsl_spirv_for(SUBGROUP_SHADER, "comp", "vulkan1.1");
    let words = run_with_one_buffer(gpu, &code, WORKGROUPS, u64::from(WORKGROUP * WORKGROUPS) * 16);
    words.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
}

/// Checks the subgroup shader's output against the rules of the basic class for a device of
/// subgroup size `size`, without assuming how invocations are packed into subgroups.
fn check_subgroup_rules(out: &[[u32; 4]], size: u32) -> Result<(), String> {
    for wg in 0..WORKGROUPS as usize {
        let items = &out[wg * WORKGROUP as usize..(wg + 1) * WORKGROUP as usize];
        let num = items[0][0] >> 8 & 0xff;
        // (subgroup, invocation id) -> local index.
        let mut lanes: HashMap<(u32, u32), u32> = HashMap::new();
        for (i, v) in items.iter().enumerate() {
            let (sg_size, sg_num, sg_id) = (v[0] & 0xff, v[0] >> 8 & 0xff, v[0] >> 16);
            if (sg_size, sg_num) != (size, num) || sg_id >= num || v[1] >= size {
                return Err(format!("workgroup {wg} invocation {i}: {v:x?}, size {size}"));
            }
            if lanes.insert((sg_id, v[1]), i as u32).is_some() {
                return Err(format!("workgroup {wg}: two invocations are ({sg_id}, {})", v[1]));
            }
        }
        if num < WORKGROUP.div_ceil(size) || (0..num).any(|s| !lanes.keys().any(|k| k.0 == s)) {
            return Err(format!("workgroup {wg}: {num} subgroups of size {size}"));
        }
        for s in 0..num {
            let members: Vec<(u32, u32)> =
                lanes.iter().filter(|(k, _)| k.0 == s).map(|(k, &i)| (k.1, i)).collect();
            // Elect: exactly the active invocation with the lowest id, then among i % 3 == 1.
            let lowest = |pred: &dyn Fn(u32) -> bool| {
                members.iter().filter(|&&(_, i)| pred(i)).min().map(|&(_, i)| i)
            };
            let elected: Vec<u32> = members
                .iter()
                .filter(|&&(_, i)| items[i as usize][2] & 1 != 0)
                .map(|m| m.1)
                .collect();
            let divergent: Vec<u32> = members
                .iter()
                .filter(|&&(_, i)| items[i as usize][2] & 2 != 0)
                .map(|m| m.1)
                .collect();
            if elected != lowest(&|_| true).into_iter().collect::<Vec<_>>()
                || divergent != lowest(&|i| i % 3 == 1).into_iter().collect::<Vec<_>>()
            {
                return Err(format!(
                    "workgroup {wg} subgroup {s}: elected {elected:?}, {divergent:?}"
                ));
            }
            for &(id, i) in &members {
                let partner = lanes.get(&(s, id ^ 1)).copied().unwrap_or(u32::MAX);
                let want = if partner == u32::MAX { None } else { Some(partner + 1000) };
                if want.is_some_and(|w| items[i as usize][3] != w) {
                    return Err(format!(
                        "workgroup {wg} invocation {i}: partner value {:#x}",
                        items[i as usize][3]
                    ));
                }
            }
        }
    }
    Ok(())
}

fn subgroup_size(h: &Harness, pd: vk::PhysicalDevice) -> u32 {
    let mut sg = vk::PhysicalDeviceSubgroupProperties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut sg);
    // SAFETY: a live physical device and a valid output chain.
    unsafe { h.instance.get_physical_device_properties2(pd, &mut p2) };
    let _ = p2;
    assert!(sg.supported_operations.contains(vk::SubgroupFeatureFlags::BASIC));
    assert!(sg.supported_stages.contains(vk::ShaderStageFlags::COMPUTE));
    sg.subgroup_size
}

#[test]
fn subgroup_basic_follows_the_rules_on_ferrum_and_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    // The reference: lavapipe's output passes the same checks (at its own subgroup size).
    let lvp = h.physical_device_named("llvmpipe");
    let lvp_size = subgroup_size(&h, lvp);
    let reference = run_subgroup_shader(&Gpu::new(&h.instance, lvp, 0, 1, &[]));
    check_subgroup_rules(&reference, lvp_size).expect("lavapipe");

    let pd = h.physical_device_named("Ferrum");
    assert_eq!(subgroup_size(&h, pd), 32);
    // The graphics family and the compute-only family.
    for family in [0, 1] {
        let ours = run_subgroup_shader(&Gpu::new(&h.instance, pd, family, 1, &[]));
        check_subgroup_rules(&ours, 32).unwrap_or_else(|e| panic!("family {family}: {e}"));
        // Wave32 packs consecutive invocations: the bytes follow exactly.
        for (i, v) in ours.iter().enumerate() {
            let local = i as u32 % WORKGROUP;
            let (sid, id) = (local / 32, local % 32);
            assert_eq!(v[0], 32 | 3 << 8 | sid << 16, "invocation {i}");
            assert_eq!(v[1], id, "invocation {i}");
        }
    }
    h.assert_clean();
}
