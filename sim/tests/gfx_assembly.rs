//! The graphics front end's vertex and primitive stream: every list/strip/fan topology with
//! both provoking-vertex conventions, primitive restart, index sizes, instancing and the
//! indexed, indirect and multi-draw packets. Expectations are Vulkan's topology rules
//! (vkspec "Primitive Topologies"), which the hardware implements.

mod common;
mod front;

use ferrum_regs::gfx103::{
    self as r, enums::VGT_DI_PRIM_TYPE as pt, enums::VGT_INDEX_TYPE_MODE as it,
};
use front::{ids, packet, Draw, Scene};

fn scene() -> Scene {
    // 16 distinct vertices well inside the view volume.
    let verts: Vec<_> = (0..16)
        .map(|i| {
            let x = -0.9 + 0.11 * i as f32;
            let y = ((i * 7) % 16) as f32 * 0.1 - 0.8;
            ([x, y, 0.5, 1.0], [0.0; 4])
        })
        .collect();
    Scene::new(&verts, false)
}

fn topo(prim_type: u32, last: bool) -> Draw {
    let su_mode = r::PA_SU_SC_MODE_CNTL::PROVOKING_VTX_LAST.val(last as u32);
    Draw { prim_type, su_mode, ..Draw::default() }
}

/// (vertex ids, provoking vertex id, flat-param vertex id, primitive id) per primitive.
fn prims(s: &Scene, d: &Draw, count: u32) -> Vec<(Vec<u32>, u32, u32, u32)> {
    let b = s.auto(d, count).expect("draw faulted");
    b.iter()
        .flat_map(|b| b.prims.iter())
        .map(|p| {
            let v: Vec<u32> = p.v.iter().map(|v| v.params[0][0]).collect();
            (v.clone(), v[p.provoking], p.flat_params[0][0], p.prim_id)
        })
        .collect()
}

#[test]
fn lists_and_strips_follow_vulkan_order() {
    let s = scene();
    let cases: &[(u32, u32, &[&[u32]])] = &[
        (pt::DI_PT_POINTLIST, 3, &[&[0], &[1], &[2]]),
        (pt::DI_PT_LINELIST, 5, &[&[0, 1], &[2, 3]]),
        (pt::DI_PT_LINESTRIP, 4, &[&[0, 1], &[1, 2], &[2, 3]]),
        (pt::DI_PT_TRILIST, 7, &[&[0, 1, 2], &[3, 4, 5]]),
        (pt::DI_PT_TRISTRIP, 5, &[&[0, 1, 2], &[1, 3, 2], &[2, 3, 4]]),
        (pt::DI_PT_TRIFAN, 5, &[&[1, 2, 0], &[2, 3, 0], &[3, 4, 0]]),
    ];
    for &(prim_type, count, want) in cases {
        let got = prims(&s, &topo(prim_type, false), count);
        let verts: Vec<&[u32]> = got.iter().map(|p| p.0.as_slice()).collect();
        assert_eq!(verts, want, "prim type {prim_type}");
        for (k, p) in got.iter().enumerate() {
            assert_eq!(p.3, k as u32, "primitive ids count up");
        }
    }
}

#[test]
fn provoking_vertex_first_and_last() {
    let s = scene();
    // (prim type, count, provoking vertex per primitive: first convention, last convention)
    let cases: &[(u32, u32, &[u32], &[u32])] = &[
        (pt::DI_PT_LINESTRIP, 3, &[0, 1], &[1, 2]),
        (pt::DI_PT_TRILIST, 6, &[0, 3], &[2, 5]),
        // Strip triangle i: first = vertex i, last = vertex i + 2.
        (pt::DI_PT_TRISTRIP, 5, &[0, 1, 2], &[2, 3, 4]),
        // Fan triangle i: first = vertex i + 1, last = vertex i + 2.
        (pt::DI_PT_TRIFAN, 5, &[1, 2, 3], &[2, 3, 4]),
    ];
    for &(prim_type, count, first, last) in cases {
        for (is_last, want) in [(false, first), (true, last)] {
            let got = prims(&s, &topo(prim_type, is_last), count);
            let pv: Vec<u32> = got.iter().map(|p| p.1).collect();
            assert_eq!(pv, want, "prim type {prim_type}, last = {is_last}");
            let flat: Vec<u32> = got.iter().map(|p| p.2).collect();
            assert_eq!(flat, want, "flat parameters come from the provoking vertex");
        }
    }
}

#[test]
fn line_strips_mark_their_first_segment() {
    let s = scene();
    let b = s.auto(&topo(pt::DI_PT_LINESTRIP, false), 4).unwrap();
    let starts: Vec<bool> = b[0].prims.iter().map(|p| p.line_strip_start).collect();
    assert_eq!(starts, [true, false, false]);
}

#[test]
fn primitive_restart_cuts_strips_and_fans() {
    let s = scene();
    let restart = Some(0xffff_ffff);
    let d = Draw { restart, ..topo(pt::DI_PT_TRISTRIP, false) };
    let got = ids(&s.indexed(&d, &[0, 1, 2, 3, 0xffff, 4, 5, 6, 7]).unwrap());
    let v: Vec<Vec<u32>> = got.into_iter().map(|p| p.0).collect();
    assert_eq!(v, [vec![0, 1, 2], vec![1, 3, 2], vec![4, 5, 6], vec![5, 7, 6]]);

    let d = Draw { restart, ..topo(pt::DI_PT_TRIFAN, false) };
    let got = ids(&s.indexed(&d, &[9, 1, 2, 3, 0xffff, 4, 5, 6]).unwrap());
    let v: Vec<Vec<u32>> = got.into_iter().map(|p| p.0).collect();
    assert_eq!(v, [vec![1, 2, 9], vec![2, 3, 9], vec![5, 6, 4]]);

    // A list drops the incomplete primitive before the restart.
    let d = Draw { restart, ..topo(pt::DI_PT_TRILIST, false) };
    let got = ids(&s.indexed(&d, &[0, 1, 0xffff, 2, 3, 4]).unwrap());
    assert_eq!(got.into_iter().map(|p| p.0).collect::<Vec<_>>(), [vec![2, 3, 4]]);

    // Without restart, 0xffff is an ordinary (out-of-table) index.
    let d = topo(pt::DI_PT_POINTLIST, false);
    let got = ids(&s.indexed(&d, &[0xffff]).unwrap());
    assert_eq!(got[0].0, [0xffff]);
}

#[test]
fn restart_index_compares_the_index_size_bits() {
    let s = scene();
    // RESET_INDX 0xffffffff without MATCH_ALL_BITS matches 0xff in 8-bit indices.
    let d = Draw {
        restart: Some(0xffff_ffff),
        index_type: it::VGT_INDEX_8,
        ..topo(pt::DI_PT_LINESTRIP, false)
    };
    let got = ids(&s.indexed(&d, &[1, 2, 0xff, 3, 4]).unwrap());
    assert_eq!(got.into_iter().map(|p| p.0).collect::<Vec<_>>(), [vec![1, 2], vec![3, 4]]);
    // A custom restart index in 32-bit indices.
    let d = Draw { restart: Some(7), index_type: it::VGT_INDEX_32, ..d };
    let got = ids(&s.indexed(&d, &[1, 2, 7, 3, 0x1_0000]).unwrap());
    assert_eq!(got.into_iter().map(|p| p.0).collect::<Vec<_>>(), [vec![1, 2], vec![3, 0x1_0000]]);
}

#[test]
fn index_sizes_and_max_size() {
    let s = scene();
    for (ty, idx) in
        [(it::VGT_INDEX_8, 200u32), (it::VGT_INDEX_16, 40000), (it::VGT_INDEX_32, 1 << 20)]
    {
        let d = Draw { index_type: ty, ..topo(pt::DI_PT_POINTLIST, false) };
        let got = ids(&s.indexed(&d, &[3, idx, 5]).unwrap());
        let v: Vec<u32> = got.iter().map(|p| p.0[0]).collect();
        assert_eq!(v, [3, idx, 5], "index type {ty}");
    }
    // Indices beyond VGT_DMA_MAX_SIZE read as 0.
    let d = Draw { index_type: it::VGT_INDEX_16, ..topo(pt::DI_PT_POINTLIST, false) };
    s.extra.map.write(0, &[4, 0, 5, 0, 6, 0, 7, 0]).unwrap();
    let va = s.extra.va;
    let mut tail = Vec::new();
    packet(&mut tail, front::DRAW_INDEX_2, &[2, va as u32, (va >> 32) as u32, 4, 0]);
    let got = ids(&s.draw(&d, &tail).unwrap());
    assert_eq!(got.iter().map(|p| p.0[0]).collect::<Vec<_>>(), [4, 5, 0, 0]);
}

#[test]
fn instances_run_the_vs_per_instance() {
    let s = scene();
    let d = Draw { instances: 3, ..topo(pt::DI_PT_TRILIST, false) };
    let b = s.auto(&d, 3).unwrap();
    assert_eq!(b.len(), 3, "one batch per instance");
    for (i, batch) in b.iter().enumerate() {
        let p = &batch.prims[0];
        assert_eq!(p.instance, i as u32);
        // PARAM0.y is v3, the instance id.
        assert!(p.v.iter().all(|v| v.params[0][1] == i as u32));
    }
    let d = Draw { instances: 0, ..d };
    assert!(s.auto(&d, 3).unwrap().is_empty(), "zero instances draw nothing");
    assert!(s.auto(&topo(pt::DI_PT_TRILIST, false), 0).unwrap().is_empty());
}

/// SET_BASE(1) to `extra` + 1024 where the indirect arguments live.
fn set_base(tail: &mut Vec<u32>, s: &Scene) -> u64 {
    let base = s.extra.va + 1024;
    packet(tail, front::SET_BASE, &[1, base as u32, (base >> 32) as u32]);
    base
}

/// COPY_DATA register -> memory.
fn copy_reg(tail: &mut Vec<u32>, reg: u32, va: u64) {
    packet(tail, 0x40, &[(5 << 8) | (1 << 20), reg / 4, 0, va as u32, (va >> 32) as u32]);
}

#[test]
fn draw_indirect_writes_base_vertex_and_instance_registers() {
    let s = scene();
    let d = topo(pt::DI_PT_TRILIST, false);
    // VkDrawIndirectCommand {vertexCount 3, instanceCount 2, firstVertex 5, firstInstance 7}.
    s.extra.map.write_u32s(1024, &[3, 2, 5, 7]).unwrap();
    let mut tail = Vec::new();
    set_base(&mut tail, &s);
    let ud2 = (r::SPI_SHADER_USER_DATA_VS_0 + 8 - 0xb000) / 4;
    packet(&mut tail, front::DRAW_INDIRECT, &[0, ud2, ud2 + 1, 2]);
    copy_reg(&mut tail, r::SPI_SHADER_USER_DATA_VS_0 + 8, s.extra.va + 4096);
    copy_reg(&mut tail, r::SPI_SHADER_USER_DATA_VS_0 + 12, s.extra.va + 4100);
    let b = s.draw(&d, &tail).unwrap();
    assert_eq!(b.len(), 2, "two instances");
    // The hardware does not add firstVertex: the VS sees ids from 0 and reads the base from
    // its user SGPR.
    assert_eq!(ids(&b)[0], (vec![0, 1, 2], 0));
    assert_eq!(s.extra.map.read_u32s(4096, 2).unwrap(), [5, 7]);
}

#[test]
fn draw_index_indirect_reads_from_index_base() {
    let s = scene();
    let d = Draw { index_type: it::VGT_INDEX_32, ..topo(pt::DI_PT_LINELIST, false) };
    s.extra.map.write_u32s(0, &[10, 11, 12, 13, 14, 15]).unwrap();
    // {indexCount 4, instanceCount 1, firstIndex 1, vertexOffset 100, firstInstance 0}
    s.extra.map.write_u32s(1024, &[4, 1, 1, 100, 0]).unwrap();
    let mut tail = Vec::new();
    set_base(&mut tail, &s);
    let va = s.extra.va;
    packet(&mut tail, front::INDEX_BASE, &[va as u32, (va >> 32) as u32]);
    packet(&mut tail, front::INDEX_BUFFER_SIZE, &[4]);
    let ud2 = (r::SPI_SHADER_USER_DATA_VS_0 + 8 - 0xb000) / 4;
    packet(&mut tail, front::DRAW_INDEX_INDIRECT, &[0, ud2, 0, 0]);
    copy_reg(&mut tail, r::SPI_SHADER_USER_DATA_VS_0 + 8, va + 4096);
    let got = ids(&s.draw(&d, &tail).unwrap());
    // Indices 11, 12, 13 and then one past INDEX_BUFFER_SIZE (reads 0).
    assert_eq!(got.into_iter().map(|p| p.0).collect::<Vec<_>>(), [vec![11, 12], vec![13, 0]]);
    assert_eq!(s.extra.map.read_u32s(4096, 1).unwrap(), [100]);
}

#[test]
fn multi_draw_indirect_with_count_and_draw_index() {
    let s = scene();
    let d = topo(pt::DI_PT_POINTLIST, false);
    // Three commands, stride 32; the count buffer says 2.
    for (k, first) in [(0u64, 0u32), (1, 1), (2, 2)] {
        s.extra.map.write_u32s(1024 + 32 * k as usize, &[k as u32 + 1, 1, first, 0]).unwrap();
    }
    s.extra.map.write_u32s(2048, &[2]).unwrap();
    let count_va = s.extra.va + 2048;
    let mut tail = Vec::new();
    set_base(&mut tail, &s);
    let ud = |i: u32| (r::SPI_SHADER_USER_DATA_VS_0 + 4 * i - 0xb000) / 4;
    let flags = ud(4) | 1 << 31 | 1 << 30;
    let body = [0, ud(2), ud(3), flags, 3, count_va as u32, (count_va >> 32) as u32, 32, 2];
    packet(&mut tail, front::DRAW_INDIRECT_MULTI, &body);
    copy_reg(&mut tail, r::SPI_SHADER_USER_DATA_VS_0 + 16, s.extra.va + 4096);
    let b = s.draw(&d, &tail).unwrap();
    let points: Vec<usize> = b.iter().map(|b| b.prims.len()).collect();
    assert_eq!(points, [1, 2], "two draws of 1 and 2 points");
    assert_eq!(s.extra.map.read_u32s(4096, 1).unwrap(), [1], "draw index of the last draw");
}

#[test]
fn draw_index_offset_2_starts_inside_the_index_buffer() {
    let s = scene();
    let d = Draw { index_type: it::VGT_INDEX_16, ..topo(pt::DI_PT_POINTLIST, false) };
    s.extra.map.write(0, &[1, 0, 2, 0, 3, 0, 4, 0]).unwrap();
    let va = s.extra.va;
    let mut tail = Vec::new();
    packet(&mut tail, front::INDEX_BASE, &[va as u32, (va >> 32) as u32]);
    // MAX_SIZE 3 from the base, offset 1, count 3: indices 2, 3, then past the max.
    packet(&mut tail, front::DRAW_INDEX_OFFSET_2, &[3, 1, 3, 0]);
    let got = ids(&s.draw(&d, &tail).unwrap());
    assert_eq!(got.iter().map(|p| p.0[0]).collect::<Vec<_>>(), [2, 3, 0]);
}

#[test]
fn pipeline_statistics_and_zpass_done() {
    let s = scene();
    let d = Draw { instances: 2, ..topo(pt::DI_PT_TRISTRIP, false) };
    let stats = s.extra.va + 8192;
    let zpass = s.extra.va + 12288;
    let mut tail = Vec::new();
    packet(&mut tail, 0x46, &[25]); // PIPELINESTAT_START
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[5, 2]);
    packet(&mut tail, 0x46, &[30 | 2 << 8, stats as u32, (stats >> 32) as u32]);
    packet(&mut tail, 0x46, &[21 | 1 << 8, zpass as u32, (zpass >> 32) as u32]);
    s.draw(&d, &tail).unwrap();
    let words = s.extra.map.read_u32s(8192, 22).unwrap();
    let c: Vec<u64> = words.chunks(2).map(|w| u64::from(w[0]) | u64::from(w[1]) << 32).collect();
    // PS, C primitives, C invocations, VS, GS invocations, GS primitives, IA primitives,
    // IA vertices, HS, DS, CS: 5 vertices and 3 triangles per instance, nothing clipped.
    assert_eq!(c, [0, 6, 6, 10, 0, 0, 6, 10, 0, 0, 0]);
    // Every render backend writes a valid (bit 63) count, 16 bytes apart.
    let z = s.extra.map.read_u32s(12288, 64).unwrap();
    for rb in 0..16 {
        assert_eq!((z[4 * rb], z[4 * rb + 1]), (0, 1 << 31), "RB {rb}");
    }
}

/// A back end that reports 7 passing samples and 3 PS invocations per batch.
struct Counting;

impl ferrum_sim::gfx::Rasterizer for Counting {
    fn rasterize(
        &mut self,
        batch: &ferrum_sim::gfx::PrimBatch,
        _regs: &ferrum_sim::cp::RegisterFile,
        _env: &ferrum_sim::cp::Env<'_>,
    ) -> Result<ferrum_sim::gfx::BackEndCounts, ferrum_sim::GpuError> {
        Ok(ferrum_sim::gfx::BackEndCounts {
            zpass_samples: 7,
            ps_invocations: 3,
            c_primitives: batch.prims.len() as u64,
        })
    }
}

#[test]
fn back_end_counts_reach_the_queries() {
    let s = scene();
    s.gpu.kernel.set_graphics_backend(Box::new(Counting));
    let d = Draw { instances: 2, ..topo(pt::DI_PT_TRILIST, false) };
    let (stats, z0, z1) = (s.extra.va + 8192, s.extra.va + 12288, s.extra.va + 12296);
    let mut tail = Vec::new();
    packet(&mut tail, 0x46, &[21 | 1 << 8, z0 as u32, (z0 >> 32) as u32]);
    packet(&mut tail, 0x46, &[25]);
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[3, 2]);
    packet(&mut tail, 0x46, &[26]); // PIPELINESTAT_STOP: the second draw is not counted
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[3, 2]);
    packet(&mut tail, 0x46, &[30 | 2 << 8, stats as u32, (stats >> 32) as u32]);
    packet(&mut tail, 0x46, &[21 | 1 << 8, z1 as u32, (z1 >> 32) as u32]);
    s.draw(&d, &tail).unwrap();
    let w = s.extra.map.read_u32s(8192, 2).unwrap();
    assert_eq!(w, [6, 0], "PS invocations of the counted draw's two instances");
    let z = s.extra.map.read_u32s(12288, 4).unwrap();
    // Begin/end of an occlusion query: the end minus the begin is both draws' samples.
    assert_eq!(u64::from(z[2]) - u64::from(z[0]), 28);
    assert_eq!(z[3], 1 << 31);
}

#[test]
fn event_write_eop_writes_its_data_after_the_draw() {
    let s = scene();
    let va = s.extra.va + 16384;
    let mut tail = Vec::new();
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[3, 2]);
    // BOTTOM_OF_PIPE_TS, EVENT_INDEX 5; DATA_SEL 2 (64-bit data), then DATA_SEL 1 (32-bit).
    let hi = |sel: u32| (va >> 32) as u32 | sel << 29;
    packet(&mut tail, 0x47, &[40 | 5 << 8, va as u32, hi(2), 0x1234_5678, 0x9abc_def0]);
    packet(&mut tail, 0x47, &[40 | 5 << 8, va as u32 + 8, hi(1), 0x55, 0x66]);
    assert_eq!(s.draw(&topo(pt::DI_PT_TRILIST, false), &tail).unwrap().len(), 1);
    assert_eq!(s.extra.map.read_u32s(16384, 4).unwrap(), [0x1234_5678, 0x9abc_def0, 0x55, 0]);
}

#[test]
fn index_offset_and_clamp() {
    let s = scene();
    // The offset applies after the restart comparison; ids clamp to 2..=9.
    let d = Draw {
        index_offset: 3,
        index_range: (2, 9),
        restart: Some(0xffff),
        ..topo(pt::DI_PT_LINESTRIP, false)
    };
    let got = ids(&s.indexed(&d, &[0, 4, 0xffff, 6, 7]).unwrap());
    assert_eq!(got.into_iter().map(|p| p.0).collect::<Vec<_>>(), [vec![3, 7], vec![9, 9]]);
    let auto = Draw { index_offset: 10, ..topo(pt::DI_PT_POINTLIST, false) };
    let got = ids(&s.auto(&auto, 2).unwrap());
    assert_eq!(got.into_iter().map(|p| p.0[0]).collect::<Vec<_>>(), [10, 11]);
}

#[test]
fn vs_waves_on_several_threads_match_one_thread() {
    let verts: Vec<_> = (0..16)
        .map(|i| ([-0.9 + 0.11 * i as f32, 0.3 - 0.05 * i as f32, 0.5, 1.0], [0.0; 4]))
        .collect();
    let run = |threads: usize| {
        let gpu = common::Gpu::with_config(ferrum_sim::SimConfig {
            threads,
            host_memory_limit: 256 << 20,
            ..Default::default()
        });
        let s = Scene::with(gpu, &verts, &front::vertex_shader(false));
        // 3000 vertices: 94 waves, split over the threads.
        s.auto(&topo(pt::DI_PT_TRISTRIP, false), 3000).unwrap()
    };
    let one = run(1);
    assert_eq!(one[0].prims.len(), 2998);
    assert_eq!(run(4), one);
}

#[test]
fn primitive_id_in_the_vs_gives_each_primitive_its_own_vertices() {
    let verts: Vec<_> = (0..16).map(|i| ([0.05 * i as f32, 0.1, 0.5, 1.0], [0.0; 4])).collect();
    // PARAM0 = (vertex id, primitive id (v2), x, y).
    let s = Scene::with(
        common::Gpu::new(),
        &verts,
        &front::vertex_shader_exporting(false, [0, 2, 4, 5]),
    );
    let mut tail = Vec::new();
    front::set_regs(&mut tail, r::VGT_GS_MODE, &[r::VGT_GS_MODE::MODE.val(1)]);
    front::set_regs(&mut tail, r::VGT_PRIMITIVEID_EN, &[1]);
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[5, 2]);
    let b = s.draw(&topo(pt::DI_PT_TRISTRIP, false), &tail).unwrap();
    let got: Vec<Vec<(u32, u32)>> = b[0]
        .prims
        .iter()
        .map(|p| p.v.iter().map(|v| (v.params[0][0], v.params[0][1])).collect())
        .collect();
    assert_eq!(
        got,
        [vec![(0, 0), (1, 0), (2, 0)], vec![(1, 1), (3, 1), (2, 1)], vec![(2, 2), (3, 2), (4, 2)],]
    );
}
