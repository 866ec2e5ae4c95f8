//! vkCmdDrawIndirectCount and vkCmdDrawIndexedIndirectCount (VK_KHR_draw_indirect_count)
//! through the loader, validation layer on, on Ferrum and lavapipe: the number of draws
//! executed is min(count in memory, maxDrawCount), counted by precise occlusion queries
//! around each call. Every command draws the same pixel-aligned rectangle with its own
//! instance count (1, 2, 4, 8), so the samples passed are area × the instances of the
//! executed commands (hand-computed): count 0; a count below the maximum; a count above it;
//! all four; the indexed form with a 20-byte and a padded 32-byte stride. A second test
//! checks vkCmdDrawIndirect with several draws (multiDrawIndirect) and firstInstance
//! (drawIndirectFirstInstance): instances from 100 on are drawn outside the target.

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::{khr, vk};
use ferrum_tests::gpu::Gpu;
use ferrum_tests::{entry_with_lavapipe, Harness};
use raster::{Rect, Target};

const RECT: Rect = [4, 3, 20, 15];
const AREA: u64 = 16 * 12;
const INSTANCES: [u32; 4] = [1, 2, 4, 8];

/// (indexed, count in memory, maxDrawCount, stride)
const CASES: [(bool, u32, u32, u32); 6] = [
    (false, 0, 4, 16),
    (false, 2, 4, 16),
    (false, 9, 3, 16),
    (false, 4, 4, 16),
    (true, 3, 4, 20),
    (true, 9, 4, 32),
];

fn expected(count: u32, max: u32) -> u64 {
    let n = count.min(max) as usize;
    AREA * INSTANCES[..n].iter().map(|&i| u64::from(i)).sum::<u64>()
}

/// The commands of one case's stride: Vk(Indexed)DrawIndirectCommand per instance count.
fn commands(indexed: bool, stride: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for &inst in &INSTANCES {
        let words: Vec<u32> = if indexed { vec![6, inst, 0, 0, 0] } else { vec![6, inst, 0, 0] };
        let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.resize(stride as usize, 0xee);
        out.extend(bytes);
    }
    out
}

fn run(h: &Harness, pd: vk::PhysicalDevice) -> Vec<u64> {
    let core = vk::PhysicalDeviceFeatures::default().occlusion_query_precise(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().features(core);
    let gpu =
        Gpu::with_feature_chain(&h.instance, pd, 0, &[khr::draw_indirect_count::NAME], &mut f2);
    let d = &gpu.device;
    let count_ext = khr::draw_indirect_count::Device::new(&h.instance, d);
    let t = Target::new(h, pd, &gpu);
    let args = gpu.host_buffer(4096);
    let counts = gpu.host_buffer(256);
    let indices = gpu.host_buffer(64);
    let idx: Vec<u8> = (0u32..6).flat_map(|i| i.to_le_bytes()).collect();
    indices.write(0, &idx);
    for (i, &(indexed, count, _, stride)) in CASES.iter().enumerate() {
        args.write(512 * i, &commands(indexed, stride));
        counts.write(16 * i, &count.to_le_bytes());
    }
    // SAFETY: valid commands on live handles; everything is destroyed after the GPU is idle.
    unsafe {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::OCCLUSION)
            .query_count(CASES.len() as u32);
        let pool = d.create_query_pool(&info, None).expect("vkCreateQueryPool");
        gpu.run(|d, cb| {
            d.cmd_reset_query_pool(cb, pool, 0, CASES.len() as u32);
            t.begin(d, cb);
            t.push_rect(d, cb, RECT, [0.0, 1.0, 0.0, 1.0]);
            d.cmd_bind_index_buffer(cb, indices.buffer, 0, vk::IndexType::UINT32);
            for (i, &(indexed, _, max, stride)) in CASES.iter().enumerate() {
                let (a, c) = ((512 * i) as u64, (16 * i) as u64);
                d.cmd_begin_query(cb, pool, i as u32, vk::QueryControlFlags::PRECISE);
                if indexed {
                    count_ext.cmd_draw_indexed_indirect_count(
                        cb,
                        args.buffer,
                        a,
                        counts.buffer,
                        c,
                        max,
                        stride,
                    );
                } else {
                    count_ext.cmd_draw_indirect_count(
                        cb,
                        args.buffer,
                        a,
                        counts.buffer,
                        c,
                        max,
                        stride,
                    );
                }
                d.cmd_end_query(cb, pool, i as u32);
            }
            d.cmd_end_render_pass(cb);
        });
        let mut results = vec![0u64; CASES.len()];
        let flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT;
        d.get_query_pool_results(pool, 0, &mut results, flags).expect("vkGetQueryPoolResults");
        d.destroy_query_pool(pool, None);
        t.destroy(d);
        gpu.destroy_buffer(args);
        gpu.destroy_buffer(counts);
        gpu.destroy_buffer(indices);
        results
    }
}

#[test]
fn count_draws_execute_min_of_count_and_max() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let want: Vec<u64> = CASES.iter().map(|&(_, c, m, _)| expected(c, m)).collect();
    for name in ["llvmpipe", "Ferrum"] {
        let got = run(&h, h.physical_device_named(name));
        assert_eq!(got, want, "{name}: samples passed per case {CASES:?}");
    }
    h.assert_clean();
}

/// vkCmdDrawIndirect of four commands {6 vertices, 4 instances, firstInstance f}: instances
/// f..f+4 below 100 are visible.
const FIRST_INSTANCES: [u32; 4] = [0, 98, 100, 97];

fn multi_draw(h: &Harness, pd: vk::PhysicalDevice) -> u64 {
    let core = vk::PhysicalDeviceFeatures::default()
        .occlusion_query_precise(true)
        .multi_draw_indirect(true)
        .draw_indirect_first_instance(true);
    let gpu = Gpu::with_features(&h.instance, pd, 0, &core);
    let d = &gpu.device;
    let t = Target::new(h, pd, &gpu);
    let args = gpu.host_buffer(256);
    let words: Vec<u8> = FIRST_INSTANCES
        .iter()
        .flat_map(|&f| [6u32, 4, 0, f])
        .flat_map(|w| w.to_le_bytes())
        .collect();
    args.write(0, &words);
    // SAFETY: valid commands on live handles; everything is destroyed after the GPU is idle.
    unsafe {
        let info =
            vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::OCCLUSION).query_count(1);
        let pool = d.create_query_pool(&info, None).expect("vkCreateQueryPool");
        gpu.run(|d, cb| {
            d.cmd_reset_query_pool(cb, pool, 0, 1);
            t.begin(d, cb);
            t.push_rect(d, cb, RECT, [0.0, 1.0, 0.0, 1.0]);
            d.cmd_begin_query(cb, pool, 0, vk::QueryControlFlags::PRECISE);
            d.cmd_draw_indirect(cb, args.buffer, 0, 4, 16);
            d.cmd_end_query(cb, pool, 0);
            d.cmd_end_render_pass(cb);
        });
        let mut results = [0u64; 1];
        let flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT;
        d.get_query_pool_results(pool, 0, &mut results, flags).expect("vkGetQueryPoolResults");
        d.destroy_query_pool(pool, None);
        t.destroy(d);
        gpu.destroy_buffer(args);
        results[0]
    }
}

#[test]
fn multi_draw_indirect_honours_first_instance() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let visible: u64 =
        FIRST_INSTANCES.iter().map(|&f| (f..f + 4).filter(|&i| i < 100).count() as u64).sum();
    for name in ["llvmpipe", "Ferrum"] {
        let got = multi_draw(&h, h.physical_device_named(name));
        assert_eq!(got, AREA * visible, "{name}: samples passed");
    }
    h.assert_clean();
}
