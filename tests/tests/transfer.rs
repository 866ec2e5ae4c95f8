//! Buffer updates, fills and copies, differential against lavapipe: the same command
//! sequence runs on Ferrum (both queue families) and on Mesa's lavapipe, with the validation
//! layer on, and the resulting bytes must be identical.

use ash_loaded::vk;
use ferrum_tests::gpu::{transfer_to_host, transfer_to_transfer, Gpu};
use ferrum_tests::{entry_with_lavapipe, Harness};

const SIZE: u64 = 3 * 65536 + 52;

/// A deterministic pattern that differs between seeds.
fn pattern(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

/// Fills, updates and copies at odd sizes and offsets (including a copy larger than one CP
/// DMA packet would be for small chunks), and returns both buffers' final bytes.
fn program(gpu: &Gpu) -> Vec<u8> {
    let src = gpu.host_buffer(SIZE);
    let dst = gpu.host_buffer(SIZE);
    src.write(0, &pattern(SIZE as usize, 7));
    let update: Vec<u8> = pattern(65536, 9);
    gpu.run(|d, cb| {
        // SAFETY: a recording command buffer and live buffers; ranges inside the buffers.
        unsafe {
            d.cmd_fill_buffer(cb, dst.buffer, 0, vk::WHOLE_SIZE, 0xa5a5_5a5a);
            transfer_to_transfer(d, cb);
            d.cmd_update_buffer(cb, dst.buffer, 100, &update[..1000]);
            d.cmd_update_buffer(cb, dst.buffer, 70000, &update);
            transfer_to_transfer(d, cb);
            let regions = [
                vk::BufferCopy { src_offset: 7, dst_offset: 2001, size: 5000 },
                vk::BufferCopy { src_offset: 65536, dst_offset: 140_000, size: 55_555 },
                vk::BufferCopy { src_offset: 3, dst_offset: 9, size: 1 },
            ];
            d.cmd_copy_buffer(cb, src.buffer, dst.buffer, &regions);
            d.cmd_fill_buffer(cb, dst.buffer, 40_000, 4 * 1000, 0x0102_0304);
            transfer_to_transfer(d, cb);
            // Read back what was just written into the source buffer.
            let back = [vk::BufferCopy { src_offset: 1000, dst_offset: 11, size: 30_001 }];
            d.cmd_copy_buffer(cb, dst.buffer, src.buffer, &back);
            d.cmd_fill_buffer(cb, src.buffer, SIZE - 52, vk::WHOLE_SIZE, 0xffff_0000);
            transfer_to_host(d, cb);
        }
    });
    let mut out = dst.bytes().to_vec();
    out.extend_from_slice(src.bytes());
    gpu.destroy_buffer(src);
    gpu.destroy_buffer(dst);
    out
}

#[test]
fn update_fill_copy_match_lavapipe() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp = {
        let gpu = Gpu::new(&h.instance, h.physical_device_named("llvmpipe"), 0, 1, &[]);
        program(&gpu)
    };
    let ferrum_pd = h.physical_device_named("Ferrum");
    for family in [0, 1] {
        let gpu = Gpu::new(&h.instance, ferrum_pd, family, 1, &[]);
        let ours = program(&gpu);
        assert_eq!(ours.len(), lvp.len());
        if let Some(i) = ours.iter().zip(&lvp).position(|(a, b)| a != b) {
            panic!(
                "family {family}: byte {i} differs: ferrum {:#x}, lavapipe {:#x}",
                ours[i], lvp[i]
            );
        }
    }
    h.assert_clean();
}
