//! Device loss: a GPU hang (the simulator's watchdog: a runaway shader's instruction budget,
//! or the clock for a wait that never ends) and a VM fault each lose the device;
//! every later command that must report it returns VK_ERROR_DEVICE_LOST, the process goes on,
//! and a new device on the same physical device works.

use std::time::{Duration, Instant};

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, Gpu};
use ferrum_tests::kernel::{binding, whole, Kernel, SetPool};
use ferrum_tests::Harness;

/// The wall clock behind the counted budget: it alone ends a wait that never ends.
const CLOCK: Duration = Duration::from_millis(2000);

/// A short hang detection, so a deliberate hang costs little: runaway waves stop after 2^16
/// instructions (milliseconds), the clock after [`CLOCK`]. Set before the first instance loads
/// the driver (every test in this binary calls it first).
fn short_watchdog() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::env::set_var("FERRUM_SIM_WAVE_BUDGET", "65536");
        std::env::set_var("FERRUM_SIM_WATCHDOG_MS", CLOCK.as_millis().to_string());
    });
}

/// Everything that must report the loss does.
fn assert_lost(gpu: &Gpu, fence: vk::Fence) {
    let d = &gpu.device;
    // SAFETY: live handles of a lost device.
    unsafe {
        assert_eq!(d.get_fence_status(fence), Err(vk::Result::ERROR_DEVICE_LOST));
        assert_eq!(d.queue_wait_idle(gpu.queue), Err(vk::Result::ERROR_DEVICE_LOST));
        assert_eq!(d.device_wait_idle(), Err(vk::Result::ERROR_DEVICE_LOST));
        let submit = d.queue_submit(gpu.queue, &[], fence);
        assert_eq!(submit, Err(vk::Result::ERROR_DEVICE_LOST));
    }
}

/// Submits `cb`, expects the wait to report the loss and everything after it too (see
/// [`assert_lost`]); returns how long the loss took to be reported.
fn submit_and_lose(gpu: &Gpu, cb: vk::CommandBuffer) -> Duration {
    let d = &gpu.device;
    // SAFETY: an executable command buffer of this device; the fence is destroyed here.
    unsafe {
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).unwrap();
        let cbs = [cb];
        d.queue_submit(gpu.queue, &[vk::SubmitInfo::default().command_buffers(&cbs)], fence)
            .unwrap();
        let start = Instant::now();
        assert_eq!(d.wait_for_fences(&[fence], true, u64::MAX), Err(vk::Result::ERROR_DEVICE_LOST));
        let took = start.elapsed();
        assert_lost(gpu, fence);
        d.destroy_fence(fence, None);
        took
    }
}

/// A fresh device on the same physical device does real work.
fn new_device_works(h: &Harness) {
    let gpu = Gpu::new(&h.instance, h.physical_device(), 0, 1, &[]);
    let buf = gpu.host_buffer(256);
    gpu.run(|d, cb| {
        // SAFETY: recording; live buffer.
        unsafe { d.cmd_fill_buffer(cb, buf.buffer, 0, 256, 0x600d) };
        transfer_to_host(d, cb);
    });
    assert!(buf.u32s().iter().all(|&w| w == 0x600d));
    gpu.destroy_buffer(buf);
}

#[test]
fn a_hang_loses_the_device() {
    short_watchdog();
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let d = &gpu.device;
    // SAFETY: live handles; the event is never set, so the CP waits until the watchdog fires.
    unsafe {
        let never = d.create_event(&vk::EventCreateInfo::default(), None).unwrap();
        let cb = gpu.record(|d, cb| {
            d.cmd_wait_events(
                cb,
                &[never],
                vk::PipelineStageFlags::HOST,
                vk::PipelineStageFlags::TRANSFER,
                &[],
                &[],
                &[],
            )
        });
        let took = submit_and_lose(&gpu, cb);
        assert!(took >= CLOCK && took < CLOCK * 3, "the clock took {took:?}");
        d.destroy_event(never, None);
    }
    drop(gpu);
    new_device_works(&h);
}

#[test]
fn a_vm_fault_loses_the_device() {
    short_watchdog();
    // Deliberately invalid usage (memory freed while a buffer still uses it): no validation.
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 0, 1, &[]);
    let d = &gpu.device;
    let src = gpu.host_buffer(4096);
    let dst = gpu.host_buffer(4096);
    // SAFETY: the freed memory makes the copy read an unmapped GPU address, which is the
    // point of the test; the driver must survive it.
    unsafe {
        d.free_memory(src.memory, None);
        let cb = gpu.record(|d, cb| {
            let r = vk::BufferCopy { src_offset: 0, dst_offset: 0, size: 4096 };
            d.cmd_copy_buffer(cb, src.buffer, dst.buffer, &[r]);
        });
        submit_and_lose(&gpu, cb);
        d.destroy_buffer(src.buffer, None);
    }
    gpu.destroy_buffer(dst);
    drop(gpu);
    new_device_works(&h);
}

/// A shader that never ends: its instruction budget, long before the clock, loses the
/// device.
#[test]
fn an_endless_shader_loses_the_device() {
    short_watchdog();
    let h = Harness::plain();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 1, 1, &[]);
    let d = &gpu.device;
    let buf = gpu.host_buffer(256);
    let code = ferrum_tests::shaders::compute_spirv(
        "#version 450
        layout(local_size_x = 32) in;
        layout(set = 0, binding = 0) buffer B { uint v[]; } b;
        void main() {
            // v[0] stays 0, so the loop never exits.
            while (b.v[0] != 12345u) { b.v[1 + gl_LocalInvocationID.x] += 1u; }
        }",
    );
    // SAFETY: valid create infos; the hang is the point of the test.
    unsafe {
        let bindings = [binding(0, vk::DescriptorType::STORAGE_BUFFER, 1)];
        let kernel = Kernel::new(d, &code, &[&bindings], 0);
        let set = SetPool::new(d, kernel.set_layouts[0], &bindings);
        set.write_buffers(0, vk::DescriptorType::STORAGE_BUFFER, &[whole(buf.buffer)]);
        let cb = gpu.record(|d, cb| {
            kernel.bind(cb, &[set.set], &[]);
            d.cmd_dispatch(cb, 1, 1, 1);
        });
        let took = submit_and_lose(&gpu, cb);
        assert!(took < CLOCK / 2, "the budget took {took:?}: the clock's turn");
        drop((set, kernel));
    }
    gpu.destroy_buffer(buf);
    drop(gpu);
    new_device_works(&h);
}

/// A shader storing through a buffer device address that no memory backs: the GPU's page
/// fault loses the device.
#[test]
fn a_write_through_a_bad_device_address_loses_the_device() {
    short_watchdog();
    // Writing through an unbacked address is the invalid usage under test: no validation.
    let h = Harness::plain();
    let pd = h.physical_device();
    let mut bda =
        vk::PhysicalDeviceBufferDeviceAddressFeatures::default().buffer_device_address(true);
    let mut features = vk::PhysicalDeviceFeatures2::default().push_next(&mut bda);
    let ext = [c"VK_KHR_buffer_device_address"];
    let gpu = Gpu::with_feature_chain(&h.instance, pd, 0, &ext, &mut features);
    let d = &gpu.device;
    let code = ferrum_tests::shaders::compute_spirv(
        "#version 450
        #extension GL_EXT_buffer_reference : require
        layout(local_size_x = 32) in;
        layout(buffer_reference, std430) buffer Out { uint v[]; };
        layout(push_constant) uniform P { Out dst; };
        void main() { dst.v[gl_LocalInvocationID.x] = 0xbadu; }",
    );
    // Far above every allocation the test made, page aligned, inside the 48-bit VA space.
    let bad_address: u64 = 0x7f00_dead_0000;
    // SAFETY: valid create infos; the fault is the point of the test.
    unsafe {
        let kernel = Kernel::new(d, &code, &[], 8);
        let cb = gpu.record(|d, cb| {
            kernel.bind(cb, &[], &[]);
            kernel.push(cb, &bad_address.to_le_bytes());
            d.cmd_dispatch(cb, 1, 1, 1);
        });
        submit_and_lose(&gpu, cb);
        drop(kernel);
    }
    drop(gpu);
    new_device_works(&h);
}
