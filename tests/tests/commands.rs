//! Command buffer mechanics through the loader: chained command streams, reset and
//! re-record, secondary command buffers.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, Gpu};
use ferrum_tests::Harness;

/// A command buffer larger than one chunk of the command stream (chained IBs), re-recorded
/// after a reset, and executed from secondaries.
#[test]
fn long_rerecorded_and_secondary_command_buffers() {
    let h = Harness::validated();
    let gpu = Gpu::new(&h.instance, h.physical_device(), 0, 1, &[]);
    let buf = gpu.host_buffer(4 * 4096);
    let cb = gpu.command_buffers(vk::CommandBufferLevel::PRIMARY, 1)[0];
    for round in 0..2u32 {
        // SAFETY: a resettable command buffer that is not pending; live buffer.
        unsafe {
            gpu.device.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default()).unwrap();
            // 4096 one-dword updates of 5 dwords each: ~20k dwords, several chained chunks.
            for i in 0..4096u32 {
                gpu.device.cmd_update_buffer(
                    cb,
                    buf.buffer,
                    4 * u64::from(i),
                    &(i * 3 + round).to_le_bytes(),
                );
            }
            transfer_to_host(&gpu.device, cb);
            gpu.device.end_command_buffer(cb).unwrap();
        }
        gpu.submit_wait(&[cb]);
        let words = buf.u32s();
        assert!(words.iter().enumerate().all(|(i, &w)| w == i as u32 * 3 + round), "round {round}");
    }

    // Two secondaries, called from one primary.
    let secondaries = gpu.command_buffers(vk::CommandBufferLevel::SECONDARY, 2);
    let inheritance = vk::CommandBufferInheritanceInfo::default();
    for (k, &sec) in secondaries.iter().enumerate() {
        let begin = vk::CommandBufferBeginInfo::default().inheritance_info(&inheritance);
        // SAFETY: fresh secondary command buffers; live buffer.
        unsafe {
            gpu.device.begin_command_buffer(sec, &begin).unwrap();
            gpu.device.cmd_fill_buffer(
                sec,
                buf.buffer,
                4096 * k as u64,
                4096,
                0x5ec0_0000 + k as u32,
            );
            gpu.device.end_command_buffer(sec).unwrap();
        }
    }
    gpu.run(|d, cb| {
        // SAFETY: executable secondaries of the same pool.
        unsafe {
            d.cmd_execute_commands(cb, &secondaries);
            d.cmd_update_buffer(cb, buf.buffer, 8192, &7u32.to_le_bytes());
            transfer_to_host(d, cb);
        }
    });
    let words = buf.u32s();
    assert!(words[..1024].iter().all(|&w| w == 0x5ec0_0000));
    assert!(words[1024..2048].iter().all(|&w| w == 0x5ec0_0001));
    assert_eq!(words[2048], 7);
    gpu.destroy_buffer(buf);
    h.assert_clean();
}
