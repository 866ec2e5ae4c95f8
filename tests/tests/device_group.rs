//! `VK_KHR_device_group_creation` and `VK_KHR_device_group` through the loader: each physical
//! device is a group of one, and `vkCmdDispatchBase` (with a device mask and a device-group
//! submit) gives the same bytes as lavapipe. Validation is on except where the call itself is
//! invalid on a one-device group.

use std::ffi::CStr;

use ash_loaded::{khr, vk};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::kernel::{binding, compute_to_host, whole, Kernel, KernelOptions, SetPool};
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::{entry_with_lavapipe, Harness};

const GROUP_CREATION: &CStr = c"VK_KHR_device_group_creation";
const DEVICE_GROUP: &CStr = c"VK_KHR_device_group";

/// Every invocation records where it ran; the dispatch covers only part of the buffer, so the
/// untouched words (left as zero) check that nothing ran outside the base region.
const SHADER: &str = "#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Out { uvec4 v[]; } outb;
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint i = g.z * 256u + g.y * 32u + g.x;
    outb.v[i] = uvec4(gl_WorkGroupID.x | (gl_WorkGroupID.y << 8) | (gl_WorkGroupID.z << 16),
                      gl_NumWorkGroups.x | (gl_NumWorkGroups.y << 8) | (gl_NumWorkGroups.z << 16),
                      gl_LocalInvocationIndex, 0xabcd0000u | i);
}
";

fn has_extension(props: &[vk::ExtensionProperties], name: &CStr) -> bool {
    props.iter().any(|p| p.extension_name_as_c_str() == Ok(name))
}

#[test]
fn loader_shows_both_extensions_and_groups_of_one() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[GROUP_CREATION]);
    // SAFETY: live instance and physical device; enumeration through the loader.
    unsafe {
        let instance_exts = h.entry.enumerate_instance_extension_properties(None).unwrap();
        assert!(has_extension(&instance_exts, GROUP_CREATION));
        let pd = h.physical_device_named("Ferrum");
        let device_exts = h.instance.enumerate_device_extension_properties(pd).unwrap();
        assert!(has_extension(&device_exts, DEVICE_GROUP), "loader hid VK_KHR_device_group");
        // The KHR alias, resolved by the loader from the enabled extension.
        let dgc = khr::device_group_creation::Instance::new(&h.entry, &h.instance);
        let n = dgc.enumerate_physical_device_groups_len().unwrap();
        let mut groups = vec![vk::PhysicalDeviceGroupProperties::default(); n];
        dgc.enumerate_physical_device_groups(&mut groups).unwrap();
        let ours: Vec<_> = groups
            .iter()
            .filter(|g| g.physical_devices[..g.physical_device_count as usize].contains(&pd))
            .collect();
        assert_eq!(ours.len(), 1, "Ferrum's device is in exactly one group");
        assert_eq!(ours[0].physical_device_count, 1);
        assert_eq!(ours[0].subset_allocation, vk::FALSE);
        // The core name too (the instance is 1.1).
        assert_eq!(h.instance.enumerate_physical_device_groups_len().unwrap(), n);
    }
    h.assert_clean();
}

#[test]
fn device_group_create_info_naming_the_device_is_accepted() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[GROUP_CREATION]);
    let pd = h.physical_device_named("Ferrum");
    let members = [pd];
    let mut group = vk::DeviceGroupDeviceCreateInfo::default().physical_devices(&members);
    let prios = [1.0];
    let queues =
        [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&prios)];
    let names = [DEVICE_GROUP.as_ptr()];
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&names)
        .push_next(&mut group);
    // SAFETY: valid create infos on live handles; the device is destroyed here.
    unsafe {
        h.instance.get_physical_device_queue_family_properties(pd);
        let device = {
            let _loader = ferrum_tests::loader_lock();
            h.instance.create_device(pd, &info, None).expect("vkCreateDevice")
        };
        // A single-device allocation may name its device mask.
        let mut flags = vk::MemoryAllocateFlagsInfo::default()
            .flags(vk::MemoryAllocateFlags::DEVICE_MASK)
            .device_mask(1);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(4096)
            .memory_type_index(0)
            .push_next(&mut flags);
        let memory = device.allocate_memory(&alloc, None).expect("vkAllocateMemory");
        device.free_memory(memory, None);
        {
            let _loader = ferrum_tests::loader_lock();
            device.destroy_device(None);
        }
    }
    h.assert_clean();
}

/// Calls that are invalid on a group of one (peer memory needs two devices; mask 2 names a
/// device that does not exist) get honest answers without validation in the way.
#[test]
fn one_device_group_has_no_peer_memory_and_rejects_foreign_masks() {
    let h = Harness::with_entry(entry_with_lavapipe(), false, &[GROUP_CREATION]);
    let pd = h.physical_device_named("Ferrum");
    let gpu = Gpu::new(&h.instance, pd, 0, 1, &[DEVICE_GROUP]);
    let dg = {
        let _loader = ferrum_tests::loader_lock();
        khr::device_group::Device::new(&h.instance, &gpu.device)
    };
    // SAFETY: a live device; the command buffer is recorded and freed here.
    unsafe {
        let peer = dg.get_device_group_peer_memory_features(0, 0, 0);
        assert_eq!(peer, vk::PeerMemoryFeatureFlags::empty());
        let cb = gpu.command_buffers(vk::CommandBufferLevel::PRIMARY, 1)[0];
        gpu.device.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
        dg.cmd_set_device_mask(cb, 2);
        // The recording error surfaces when recording ends, as for other invalid commands.
        assert_eq!(gpu.device.end_command_buffer(cb), Err(vk::Result::ERROR_UNKNOWN));
        // An initial mask naming device 1 is refused at begin; device 0 is accepted.
        let mut group = vk::DeviceGroupCommandBufferBeginInfo::default().device_mask(2);
        let begin = vk::CommandBufferBeginInfo::default().push_next(&mut group);
        let refused = gpu.device.begin_command_buffer(cb, &begin);
        assert_eq!(refused, Err(vk::Result::ERROR_UNKNOWN));
        let mut group = vk::DeviceGroupCommandBufferBeginInfo::default().device_mask(1);
        let begin = vk::CommandBufferBeginInfo::default().push_next(&mut group);
        gpu.device.begin_command_buffer(cb, &begin).unwrap();
        gpu.device.end_command_buffer(cb).unwrap();
        gpu.device.free_command_buffers(gpu.pool, &[cb]);
    }
}

/// Records `vkCmdDispatchBase` over a sub-grid and returns the output buffer's bytes.
fn dispatch_base_program(h: &Harness, gpu: &Gpu) -> Vec<u8> {
    let d = &gpu.device;
    let dg = {
        let _loader = ferrum_tests::loader_lock();
        khr::device_group::Device::new(&h.instance, d)
    };
    let out = gpu.host_buffer(16 * 1024);
    let code = compute_spirv(SHADER);
    // SAFETY: valid create infos on live handles; everything is destroyed after the GPU finished.
    let bytes = unsafe {
        let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1)];
        let flags = vk::PipelineCreateFlags::DISPATCH_BASE;
        let kernel = Kernel::with_options(
            d,
            &code,
            &[&bindings],
            0,
            &KernelOptions { flags, ..Default::default() },
        );
        let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
        set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(out.buffer)]);

        let cb = gpu.record(|d, cb| {
            dg.cmd_set_device_mask(cb, 1);
            kernel.bind(cb, &[set.set], &[]);
            // Groups x 2..5, y 1..3, z 1..2 of a (4, 2, 1) workgroup.
            dg.cmd_dispatch_base(cb, (2, 1, 1), (3, 2, 1));
            compute_to_host(d, cb);
        });
        let masks = [1];
        let mut group = vk::DeviceGroupSubmitInfo::default().command_buffer_device_masks(&masks);
        let cbs = [cb];
        let submit = vk::SubmitInfo::default().command_buffers(&cbs).push_next(&mut group);
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        d.queue_submit(gpu.queue, &[submit], fence).expect("vkQueueSubmit");
        d.wait_for_fences(&[fence], true, u64::MAX).expect("vkWaitForFences");
        d.destroy_fence(fence, None);
        d.free_command_buffers(gpu.pool, &[cb]);
        out.bytes().to_vec()
    };
    gpu.destroy_buffer(out);
    bytes
}

#[test]
fn dispatch_base_matches_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[GROUP_CREATION]);
    let lvp = {
        let gpu = Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[DEVICE_GROUP]);
        dispatch_base_program(&h, &gpu)
    };
    let words: Vec<u32> =
        lvp.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    // Sanity on the reference: invocation (8, 2, 1) is group (2, 1, 1), counts (3, 2, 1).
    let i = 256 + 2 * 32 + 8;
    assert_eq!(&words[i * 4..i * 4 + 4], &[0x1_01_02, 0x1_02_03, 0, 0xabcd_0000 | i as u32]);
    assert_eq!(&words[..4], &[0; 4], "group (0, 0, 0) is outside the base region");
    for family in [0, 1] {
        let pd = h.physical_device_named("Ferrum");
        let gpu = Gpu::new(&h.instance, pd, family, 1, &[DEVICE_GROUP]);
        let ours = dispatch_base_program(&h, &gpu);
        if let Some(w) = ours.chunks(4).zip(lvp.chunks(4)).position(|(a, b)| a != b) {
            panic!(
                "family {family}: word {w} differs: ferrum {:x?}, lavapipe {:x?}",
                &ours[w * 4..w * 4 + 4],
                &lvp[w * 4..w * 4 + 4]
            );
        }
    }
    h.assert_clean();
}
