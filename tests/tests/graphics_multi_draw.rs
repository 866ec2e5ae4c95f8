//! vkCmdDrawMultiEXT and vkCmdDrawMultiIndexedEXT (VK_EXT_multi_draw) through the loader,
//! validation layer on, on Ferrum and lavapipe: precise occlusion queries around each call
//! count the samples of the draws executed. Every draw makes the same pixel-aligned
//! rectangle (vertices 6k..6k+5 of the support pipeline); instances numbered 100 and up land
//! outside the target, so with instanceCount 2 and firstInstance 99 each draw shows once.
//! The cases: draws with zero vertices among others, a padded stride, the indexed form with
//! per-draw vertex offsets, and with one shared pVertexOffset that halves each rectangle; the
//! hand-computed count is area × the non-empty draws.

#[path = "support/raster.rs"]
mod raster;

use ash_loaded::vk;
use ferrum_tests::gpu::Gpu;
use ferrum_tests::{entry_with_lavapipe, Harness};
use raster::{Rect, Target};

const RECT: Rect = [4, 3, 20, 15];
const AREA: u64 = 16 * 12;

/// Samples passed per case.
fn run(h: &Harness, pd: vk::PhysicalDevice) -> Vec<u64> {
    let core = vk::PhysicalDeviceFeatures::default().occlusion_query_precise(true);
    let mut multi = vk::PhysicalDeviceMultiDrawFeaturesEXT::default().multi_draw(true);
    let mut f2 = vk::PhysicalDeviceFeatures2::default().features(core).push_next(&mut multi);
    let gpu = Gpu::with_feature_chain(&h.instance, pd, 0, &[c"VK_EXT_multi_draw"], &mut f2);
    let d = &gpu.device;
    // SAFETY: the device enabled VK_EXT_multi_draw, so both commands are non-null.
    let (draw_multi, draw_multi_indexed) = unsafe {
        let gdpa = |name: &std::ffi::CStr| {
            h.instance.get_device_proc_addr(d.handle(), name.as_ptr()).expect("multi-draw command")
        };
        (
            std::mem::transmute::<unsafe extern "system" fn(), vk::PFN_vkCmdDrawMultiEXT>(gdpa(
                c"vkCmdDrawMultiEXT",
            )),
            std::mem::transmute::<unsafe extern "system" fn(), vk::PFN_vkCmdDrawMultiIndexedEXT>(
                gdpa(c"vkCmdDrawMultiIndexedEXT"),
            ),
        )
    };
    let t = Target::new(h, pd, &gpu);
    let indices = gpu.host_buffer(256);
    let idx: Vec<u8> = (0u32..24).flat_map(|i| i.to_le_bytes()).collect();
    indices.write(0, &idx);
    let info = |first_vertex, vertex_count| vk::MultiDrawInfoEXT { first_vertex, vertex_count };
    // Three non-empty draws of four, 8-byte elements.
    let plain = [info(0, 6), info(6, 0), info(12, 6), info(18, 6)];
    // Two non-empty of three, elements padded to 16 bytes.
    let mut padded = Vec::new();
    for i in [info(6, 6), info(0, 6), info(0, 0)] {
        padded.extend([i.first_vertex, i.vertex_count, 0xdead, 0xbeef]);
    }
    let indexed = |first_index, index_count, vertex_offset| vk::MultiDrawIndexedInfoEXT {
        first_index,
        index_count,
        vertex_offset,
    };
    // Vertex offsets that keep every index inside 0..24.
    let per_draw = [indexed(0, 6, 6), indexed(6, 6, 0), indexed(12, 0, 0)];
    // Offset 2 turns each rectangle into a degenerate triangle and its upper-left half
    // (vertices 5, 0, 1): 96 of the 192 pixels, no pixel centre on the diagonal.
    let shared_offset = 2i32;
    let cases = 4u32;
    // SAFETY: valid commands on live handles; everything is destroyed after the GPU is idle.
    unsafe {
        let qinfo = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::OCCLUSION)
            .query_count(cases);
        let pool = d.create_query_pool(&qinfo, None).expect("vkCreateQueryPool");
        gpu.run(|d, cb| {
            d.cmd_reset_query_pool(cb, pool, 0, cases);
            t.begin(d, cb);
            t.push_rect(d, cb, RECT, [0.0, 1.0, 0.0, 1.0]);
            d.cmd_bind_index_buffer(cb, indices.buffer, 0, vk::IndexType::UINT32);
            let q = vk::QueryControlFlags::PRECISE;
            d.cmd_begin_query(cb, pool, 0, q);
            draw_multi(cb, plain.len() as u32, plain.as_ptr(), 2, 99, 8);
            d.cmd_end_query(cb, pool, 0);
            d.cmd_begin_query(cb, pool, 1, q);
            draw_multi(cb, 3, padded.as_ptr().cast(), 2, 99, 16);
            d.cmd_end_query(cb, pool, 1);
            d.cmd_begin_query(cb, pool, 2, q);
            let n = per_draw.len() as u32;
            draw_multi_indexed(cb, n, per_draw.as_ptr(), 2, 99, 12, std::ptr::null());
            d.cmd_end_query(cb, pool, 2);
            d.cmd_begin_query(cb, pool, 3, q);
            draw_multi_indexed(cb, n, per_draw.as_ptr(), 2, 99, 12, &shared_offset);
            d.cmd_end_query(cb, pool, 3);
            d.cmd_end_render_pass(cb);
        });
        let mut results = vec![0u64; cases as usize];
        let flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT;
        d.get_query_pool_results(pool, 0, &mut results, flags).expect("vkGetQueryPoolResults");
        d.destroy_query_pool(pool, None);
        t.destroy(d);
        gpu.destroy_buffer(indices);
        results
    }
}

#[test]
fn multi_draws_execute_every_non_empty_draw() {
    let h = Harness::with_entry(entry_with_lavapipe(), true, &[]);
    let want = vec![3 * AREA, 2 * AREA, 2 * AREA, 2 * (AREA / 2)];
    for name in ["llvmpipe", "Ferrum"] {
        let got = run(&h, h.physical_device_named(name));
        assert_eq!(got, want, "{name}: samples passed per case");
    }
    h.assert_clean();
}
