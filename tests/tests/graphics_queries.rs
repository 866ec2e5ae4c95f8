//! Occlusion and pipeline-statistics queries through the loader, validation layer on, on
//! Ferrum and on lavapipe: results from vkGetQueryPoolResults and vkCmdCopyQueryPoolResults
//! (32/64-bit, WITH_AVAILABILITY, PARTIAL, WAIT, strides), vkCmdResetQueryPool and
//! vkResetQueryPool (VK_EXT_host_query_reset).
//!
//! Expected values are hand-computed: the draws are pixel-aligned rectangles (edges on pixel
//! boundaries, so no pixel centre lies on an edge and coverage is exact), so a precise
//! occlusion query counts exactly the covered pixels of a single-sampled target; statistics
//! are checked where the spec fixes them (input-assembly vertices and primitives, clipping
//! invocations, stages that do not run, compute invocations), and lavapipe must agree on
//! those.

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::{vk, Device};
use ferrum_tests::gpu::{transfer_to_host, Gpu};
use ferrum_tests::kernel::Kernel;
use ferrum_tests::shaders::compute_spirv;
use ferrum_tests::{entry_with_lavapipe, Harness};
use raster::{Rect, Target, H, W};

/// Occlusion queries of the test, in pool order.
const OCCLUSION: usize = 5;
/// Pixels of `Q0_RECT`.
const Q0_RECT: Rect = [4, 3, 20, 15];
const SMALL: Rect = [10, 5, 13, 9];
const OUTSIDE: Rect = [-10, -10, -2, -2];

/// Hand-computed occlusion counts: Q0 one rectangle; Q1 two instances of a 3×4 rectangle
/// and the whole target; Q2 a rectangle outside the viewport (clipped away); Q3 is
/// non-precise (only > 0 is fixed); Q4 is reset and never begun (unavailable).
fn expected_occlusion() -> [u64; 4] {
    let area = |r: Rect| ((r[2] - r[0]) * (r[3] - r[1])) as u64;
    [area(Q0_RECT), 2 * area(SMALL) + u64::from(W * H), 0, area(Q0_RECT)]
}

/// Pipeline statistics in Vulkan bit order.
const STATS: usize = 11;
const IA_VERTICES: usize = 0;
const IA_PRIMITIVES: usize = 1;
const VS_INVOCATIONS: usize = 2;
const CLIP_INVOCATIONS: usize = 5;
const CLIP_PRIMITIVES: usize = 6;
const FS_INVOCATIONS: usize = 7;
const CS_INVOCATIONS: usize = 10;

/// A trivial kernel: 4 invocations per group, 3 groups inside the statistics query.
const CS: &str = "#version 450
layout(local_size_x = 4) in;
void main() {}
";

struct Results {
    /// vkGetQueryPoolResults, 64-bit with availability: (value, available) per query.
    host64: Vec<[u64; 2]>,
    /// vkGetQueryPoolResults, 32-bit, WAIT, stride 4 (the first four queries).
    host32: Vec<u32>,
    /// vkCmdCopyQueryPoolResults of all queries: 64-bit with availability, stride 16 (WAIT
    /// but for Q4).
    copy64: Vec<[u64; 2]>,
    /// vkCmdCopyQueryPoolResults, 32-bit with availability, stride 12 (third word untouched).
    copy32: Vec<[u32; 3]>,
    /// vkCmdCopyQueryPoolResults, 32-bit, PARTIAL | WITH_AVAILABILITY, of Q4 only.
    partial: [u32; 2],
    /// Statistics: host 64-bit with availability, and the GPU copy of the same.
    stats_host: Vec<u64>,
    stats_copy: Vec<u64>,
    /// vkResetQueryPool then vkGetQueryPoolResults(Q0): NOT_READY and availability 0.
    after_host_reset: (vk::Result, [u64; 2]),
}

fn gpu(h: &Harness, pd: vk::PhysicalDevice) -> Gpu {
    let mut reset = vk::PhysicalDeviceHostQueryResetFeatures::default().host_query_reset(true);
    let core = vk::PhysicalDeviceFeatures::default()
        .occlusion_query_precise(true)
        .pipeline_statistics_query(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().features(core).push_next(&mut reset);
    Gpu::with_feature_chain(&h.instance, pd, 0, &[c"VK_EXT_host_query_reset"], &mut f2)
}

unsafe fn pool(d: &Device, ty: vk::QueryType, count: u32) -> vk::QueryPool {
    let info = vk::QueryPoolCreateInfo::default()
        .query_type(ty)
        .query_count(count)
        .pipeline_statistics(if ty == vk::QueryType::PIPELINE_STATISTICS {
            vk::QueryPipelineStatisticFlags::from_raw((1 << STATS) - 1)
        } else {
            vk::QueryPipelineStatisticFlags::empty()
        });
    // SAFETY: forwarded to the caller.
    unsafe { d.create_query_pool(&info, None) }.expect("vkCreateQueryPool")
}

/// Records the draws of every query.
unsafe fn record(
    d: &Device,
    cb: vk::CommandBuffer,
    t: &Target,
    occ: vk::QueryPool,
    st: vk::QueryPool,
) {
    let precise = vk::QueryControlFlags::PRECISE;
    // SAFETY: forwarded to the caller.
    unsafe {
        d.cmd_reset_query_pool(cb, occ, 0, OCCLUSION as u32);
        d.cmd_reset_query_pool(cb, st, 0, 1);
        d.cmd_begin_query(cb, st, 0, vk::QueryControlFlags::empty());
        t.begin(d, cb);
        d.cmd_begin_query(cb, occ, 0, precise);
        t.rect(d, cb, Q0_RECT, 1);
        d.cmd_end_query(cb, occ, 0);
        d.cmd_begin_query(cb, occ, 1, precise);
        t.rect(d, cb, SMALL, 2);
        t.rect(d, cb, [0, 0, W as i32, H as i32], 1);
        d.cmd_end_query(cb, occ, 1);
        d.cmd_begin_query(cb, occ, 2, precise);
        t.rect(d, cb, OUTSIDE, 1);
        d.cmd_end_query(cb, occ, 2);
        d.cmd_begin_query(cb, occ, 3, vk::QueryControlFlags::empty());
        t.rect(d, cb, Q0_RECT, 1);
        d.cmd_end_query(cb, occ, 3);
        d.cmd_end_render_pass(cb);
    }
}

fn run(h: &Harness, pd: vk::PhysicalDevice) -> Results {
    let gpu = gpu(h, pd);
    let d = &gpu.device;
    let host_reset = ash_loaded::ext::host_query_reset::Device::new(&h.instance, d);
    let t = Target::new(h, pd, &gpu);
    let kernel = Kernel::new(d, &compute_spirv(CS), &[], 0);
    let copies = gpu.host_buffer(4096);
    copies.write(0, &[0xab; 4096]);
    // SAFETY: valid commands on live handles; everything is destroyed after the GPU is idle.
    unsafe {
        let occ = pool(d, vk::QueryType::OCCLUSION, OCCLUSION as u32);
        let st = pool(d, vk::QueryType::PIPELINE_STATISTICS, 1);
        gpu.run(|d, cb| {
            record(d, cb, &t, occ, st);
            kernel.bind(cb, &[], &[]);
            d.cmd_dispatch(cb, 3, 1, 1);
            d.cmd_end_query(cb, st, 0);
            let wide = vk::QueryResultFlags::TYPE_64;
            let avail = vk::QueryResultFlags::WITH_AVAILABILITY;
            let b = copies.buffer;
            // WAIT for the queries that were run (without it a copy may see them still
            // unavailable); Q4 never becomes available, so it is copied without WAIT.
            let wait = vk::QueryResultFlags::WAIT;
            d.cmd_copy_query_pool_results(cb, occ, 0, 4, b, 0, 16, wide | avail | wait);
            d.cmd_copy_query_pool_results(cb, occ, 4, 1, b, 64, 16, wide | avail);
            d.cmd_copy_query_pool_results(cb, occ, 0, 4, b, 256, 12, avail | wait);
            d.cmd_copy_query_pool_results(cb, occ, 4, 1, b, 256 + 48, 12, avail);
            let partial = vk::QueryResultFlags::PARTIAL | avail;
            d.cmd_copy_query_pool_results(cb, occ, 4, 1, b, 512, 8, partial);
            d.cmd_copy_query_pool_results(cb, st, 0, 1, b, 1024, 0, wide | avail | wait);
            transfer_to_host(d, cb);
        });
        let mut host64 = vec![[0u64; 2]; OCCLUSION];
        let r = d.get_query_pool_results(
            occ,
            0,
            &mut host64,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY,
        );
        // Q4 was never begun: NOT_READY (ash maps it to an error).
        assert_eq!(r, Err(vk::Result::NOT_READY), "vkGetQueryPoolResults with Q4 unavailable");
        let mut host32 = vec![0u32; 4];
        d.get_query_pool_results(occ, 0, &mut host32, vk::QueryResultFlags::WAIT)
            .expect("vkGetQueryPoolResults WAIT");
        let mut stats_host = [[0u64; STATS + 1]; 1];
        d.get_query_pool_results(
            st,
            0,
            &mut stats_host,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY,
        )
        .expect("statistics results");
        let stats_host = stats_host[0].to_vec();
        let bytes = copies.bytes();
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
        let copy64 = (0..OCCLUSION).map(|i| [u64_at(16 * i), u64_at(16 * i + 8)]).collect();
        let copy32 = (0..OCCLUSION)
            .map(|i| [u32_at(256 + 12 * i), u32_at(260 + 12 * i), u32_at(264 + 12 * i)])
            .collect();
        let stats_copy = (0..=STATS).map(|i| u64_at(1024 + 8 * i)).collect();
        let results = Results {
            host64,
            host32,
            copy64,
            copy32,
            partial: [u32_at(512), u32_at(516)],
            stats_host,
            stats_copy,
            after_host_reset: {
                (host_reset.fp().reset_query_pool_ext)(d.handle(), occ, 0, 1);
                let mut v = [[7u64; 2]; 1];
                let r = d.get_query_pool_results(
                    occ,
                    0,
                    &mut v,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WITH_AVAILABILITY,
                );
                (r.err().unwrap_or(vk::Result::SUCCESS), v[0])
            },
        };
        d.destroy_query_pool(occ, None);
        d.destroy_query_pool(st, None);
        drop(kernel);
        t.destroy(d);
        gpu.destroy_buffer(copies);
        results
    }
}

fn check(name: &str, r: &Results) {
    let e = expected_occlusion();
    for i in [0, 1, 2] {
        assert_eq!(r.host64[i], [e[i], 1], "{name}: Q{i} (host, 64-bit)");
        assert_eq!(r.copy64[i], [e[i], 1], "{name}: Q{i} (copy, 64-bit)");
        assert_eq!(r.copy32[i], [e[i] as u32, 1, 0xabab_abab], "{name}: Q{i} (copy, 32-bit)");
        assert_eq!(u64::from(r.host32[i]), e[i], "{name}: Q{i} (host, 32-bit, WAIT)");
    }
    // Non-precise: any non-zero count when samples passed.
    assert!(r.host64[3][0] > 0 && r.host64[3][1] == 1, "{name}: Q3 {:?}", r.host64[3]);
    assert!(r.copy64[3][0] > 0 && r.copy64[3][1] == 1, "{name}: Q3 copy {:?}", r.copy64[3]);
    // Q4: unavailable; the host leaves its value alone, the copy writes availability 0.
    assert_eq!(r.host64[4][1], 0, "{name}: Q4 available on the host");
    assert_eq!(r.copy64[4][1], 0, "{name}: Q4 copy availability");
    assert_eq!(r.copy32[4][1], 0, "{name}: Q4 32-bit availability");
    assert_eq!(r.partial[1], 0, "{name}: Q4 PARTIAL availability");
    assert!(r.partial[0] == 0, "{name}: Q4 PARTIAL value {} (nothing drawn)", r.partial[0]);
    assert_eq!(r.after_host_reset.0, vk::Result::NOT_READY, "{name}: after vkResetQueryPool");
    assert_eq!(r.after_host_reset.1[1], 0, "{name}: availability after vkResetQueryPool");
    // Statistics: 6-vertex lists, instances 1 + 2 + 1 + 1 + 1 = 6 rectangles drawn.
    for (what, s) in [("host", &r.stats_host), ("copy", &r.stats_copy)] {
        assert_eq!(s[STATS], 1, "{name}: statistics availability ({what})");
        assert_eq!(s[IA_VERTICES], 6 * 6, "{name}: IA vertices ({what})");
        assert_eq!(s[IA_PRIMITIVES], 6 * 2, "{name}: IA primitives ({what})");
        assert!(s[VS_INVOCATIONS] >= 4 * 6, "{name}: VS invocations ({what}) {}", s[2]);
        assert_eq!(s[CLIP_INVOCATIONS], 6 * 2, "{name}: clipping invocations ({what})");
        for gs_tess in [3, 4, 8, 9] {
            assert_eq!(s[gs_tess], 0, "{name}: statistic {gs_tess} ({what})");
        }
        assert_eq!(s[CS_INVOCATIONS], 12, "{name}: CS invocations ({what})");
        // Fragment invocations: at least one per covered pixel; helpers may add more.
        let covered = e[0] + e[1] + e[3];
        assert!(s[FS_INVOCATIONS] >= covered, "{name}: FS invocations ({what}) {}", s[7]);
        assert!(s[CLIP_PRIMITIVES] >= 5 * 2, "{name}: clipping primitives ({what}) {}", s[6]);
    }
}

#[test]
fn queries_count_what_was_drawn() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let lvp = run(&h, h.physical_device_named("llvmpipe"));
    check("lavapipe", &lvp);
    let ours = run(&h, h.physical_device_named("Ferrum"));
    check("ferrum", &ours);
    // Exact where the sim's counts are defined: one fragment-shader invocation per covered
    // pixel (no helpers counted), clipped-away primitives not output.
    let e = expected_occlusion();
    // The value of an unavailable query copied without PARTIAL: Ferrum leaves it alone, as
    // vkGetQueryPoolResults does (lavapipe writes 0; the spec fixes neither for copies).
    assert_eq!(ours.copy64[4][0], 0xabab_abab_abab_abab, "ferrum: Q4 copy without PARTIAL");
    assert_eq!(ours.stats_host[FS_INVOCATIONS], e[0] + e[1] + e[3], "ferrum FS invocations");
    assert_eq!(ours.stats_host[VS_INVOCATIONS], 6 * 6, "ferrum VS invocations");
    for i in [IA_VERTICES, IA_PRIMITIVES, CLIP_INVOCATIONS, CS_INVOCATIONS] {
        assert_eq!(ours.stats_host[i], lvp.stats_host[i], "statistic {i}: ferrum vs lavapipe");
    }
    h.assert_clean();
}
