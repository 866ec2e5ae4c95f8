//! Strict mode and failure behaviour of the graphics ring: writes to registers GFX10.3 does
//! not have, field values out of range, draws with state never written, VS programs that
//! break the export rules, VM faults and runaway shaders. Every failing case has a passing
//! twin that differs only in the one thing under test.

mod common;
mod front;

use std::time::Duration;

use common::asm::{Asm, Int, Op};
use common::Gpu;
use ferrum_isa::{Exp, Inst};
use ferrum_regs::gfx103::{self as r, enums::VGT_DI_PRIM_TYPE as pt};
use ferrum_sim::SimConfig;
use front::{packet, set_regs, Draw, Scene};

fn verts() -> Vec<([f32; 4], [f32; 4])> {
    (0..3).map(|i| ([0.1 * i as f32, 0.2, 0.5, 1.0], [0.0; 4])).collect()
}

fn scene() -> Scene {
    Scene::new(&verts(), false)
}

/// Draw state, then `extra` packets, then a 3-vertex auto draw. Register state survives
/// across submissions on a queue (as on hardware), so the tests of missing state use a fresh
/// device per case.
fn draw_after(s: &Scene, d: &Draw, extra: &[u32]) -> bool {
    let mut tail = extra.to_vec();
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[3, 2]);
    s.draw(d, &tail).is_some()
}

#[test]
fn writes_to_missing_registers_fail() {
    let s = scene();
    let d = Draw::default();
    let mut bad = Vec::new();
    set_regs(&mut bad, 0x28018, &[0]);
    assert!(!draw_after(&s, &d, &bad), "0x28018 is no GFX10.3 context register");
    let mut good = Vec::new();
    set_regs(&mut good, r::DB_COUNT_CONTROL, &[0]);
    assert!(draw_after(&s, &d, &good));
}

#[test]
fn field_values_out_of_range_fail() {
    let s = scene();
    // Bit 31 of PA_SU_SC_MODE_CNTL belongs to no field.
    assert!(!draw_after(&s, &Draw { su_mode: 1 << 31, ..Draw::default() }, &[]));
    assert!(draw_after(&s, &Draw { su_mode: 1 << 19, ..Draw::default() }, &[]));
    // 0x3f is no VGT_DI_PRIM_TYPE.
    assert!(!draw_after(&s, &Draw { prim_type: 0x3f, ..Draw::default() }, &[]));
    // A topology the hardware has but the simulator does not model is refused, too.
    assert!(!draw_after(&s, &Draw { prim_type: pt::DI_PT_RECTLIST, ..Draw::default() }, &[]));
}

#[test]
fn draws_need_their_state_written() {
    assert!(draw_after(&scene(), &Draw::default(), &[]), "the full state draws");
    for reg in [
        r::SPI_SHADER_PGM_LO_VS,
        r::SPI_SHADER_USER_DATA_VS_0,
        r::VGT_SHADER_STAGES_EN,
        r::SPI_SHADER_POS_FORMAT,
        r::SPI_VS_OUT_CONFIG,
        r::PA_CL_VS_OUT_CNTL,
        r::PA_CL_CLIP_CNTL,
        r::PA_SU_SC_MODE_CNTL,
        r::PA_CL_VTE_CNTL,
        r::PA_CL_GB_VERT_CLIP_ADJ,
        r::PA_CL_VPORT_XSCALE,
        r::VGT_PRIMITIVE_TYPE,
        r::VGT_NUM_INSTANCES,
        r::GE_MAX_VTX_INDX,
    ] {
        let d = Draw { skip: vec![reg], ..Draw::default() };
        assert!(!draw_after(&scene(), &d, &[]), "a draw without {reg:#x} must fail");
    }
    // Points need the point size, lines the line width; triangles need neither.
    let points =
        Draw { prim_type: pt::DI_PT_POINTLIST, skip: vec![r::PA_SU_POINT_SIZE], ..Draw::default() };
    assert!(!draw_after(&scene(), &points, &[]));
    let lines =
        Draw { prim_type: pt::DI_PT_LINELIST, skip: vec![r::PA_SU_LINE_CNTL], ..Draw::default() };
    assert!(!draw_after(&scene(), &lines, &[]));
    let tris = Draw { skip: vec![r::PA_SU_LINE_CNTL, r::PA_SU_POINT_SIZE], ..Draw::default() };
    assert!(draw_after(&scene(), &tris, &[]));
    // An enabled user clip plane needs its coefficients.
    let clip_cntl = r::PA_CL_CLIP_CNTL::UCP_ENA_0.val(1);
    let no_ucp = Draw { clip_cntl, skip: vec![r::PA_CL_UCP_0_X], ..Draw::default() };
    assert!(!draw_after(&scene(), &no_ucp, &[]));
    assert!(draw_after(&scene(), &Draw { clip_cntl, ..Draw::default() }, &[]));
}

#[test]
fn indexed_draws_need_index_state() {
    let d = Draw::default();
    assert!(scene().indexed(&d, &[0, 1, 2]).is_some());
    let no_type = Draw { skip: vec![r::VGT_INDEX_TYPE], ..d.clone() };
    assert!(scene().indexed(&no_type, &[0, 1, 2]).is_none());
    let restart = Draw { restart: Some(0xffff), ..d.clone() };
    assert!(scene().indexed(&restart, &[0, 1, 2]).is_some());
    let no_index = Draw { skip: vec![r::VGT_MULTI_PRIM_IB_RESET_INDX], ..restart };
    assert!(scene().indexed(&no_index, &[0, 1, 2]).is_none(), "restart without its index");
    // DRAW_INDEX_OFFSET_2 before any INDEX_BASE.
    let mut tail = Vec::new();
    packet(&mut tail, front::DRAW_INDEX_OFFSET_2, &[3, 0, 3, 0]);
    assert!(scene().draw(&d, &tail).is_none());
}

#[test]
fn clear_state_forgets_context_registers() {
    let s = scene();
    let d = Draw::default();
    // CLEAR_STATE after the state: context registers must be written again.
    let mut tail = Vec::new();
    packet(&mut tail, 0x12, &[0]);
    assert!(!draw_after(&s, &d, &tail));
}

#[test]
fn without_strict_mode_missing_state_reads_zero() {
    let gpu = Gpu::with_config(SimConfig {
        strict: false,
        host_memory_limit: 256 << 20,
        watchdog: Duration::from_millis(500),
        ..Default::default()
    });
    let s = Scene::with(gpu, &verts(), &front::vertex_shader(false));
    let d = Draw { skip: vec![r::VGT_NUM_INSTANCES, r::PA_SU_POINT_SIZE], ..Draw::default() };
    let mut tail = Vec::new();
    set_regs(&mut tail, 0x28018, &[0]);
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[3, 2]);
    let b = s.draw(&d, &tail).expect("non-strict draws run");
    assert_eq!(b.len(), 1, "NUM_INSTANCES defaults to one instance");
}

fn exp(target: u8, done: bool) -> Inst {
    Inst::Exp(Exp { target, en: 0xf, src: [0, 0, 0, 0], compr: false, done, vm: false })
}

fn with_vs(program: &[u32]) -> bool {
    let s = Scene::with(Gpu::new(), &verts(), program);
    draw_after(&s, &Draw::default(), &[])
}

#[test]
fn vs_export_rules() {
    let prog = |body: &[Inst]| {
        let mut a = Asm::new();
        a.vop1(Op::V_MOV_B32, ferrum_isa::Operand::Vgpr(0), Int(0));
        for i in body {
            a.i(*i);
        }
        a.endpgm();
        a.finish()
    };
    assert!(with_vs(&prog(&[exp(12, true), exp(32, false)])), "position + param0");
    assert!(!with_vs(&prog(&[exp(32, false)])), "no position export");
    assert!(!with_vs(&prog(&[exp(12, false), exp(32, false)])), "position without DONE");
    assert!(!with_vs(&prog(&[exp(12, true), exp(33, false)])), "param1 beyond VS_EXPORT_COUNT");
    assert!(!with_vs(&prog(&[exp(12, true), exp(0, false)])), "colour export from a VS");
    assert!(!with_vs(&prog(&[exp(13, true), exp(12, true)])), "pos1 not enabled");
    assert!(!with_vs(&prog(&[exp(10, true)])), "reserved target");
}

/// The misc vector and the distance vectors may leave out components (Mesa exports only the
/// misc fields a shader writes), but never one PA_CL_VS_OUT_CNTL makes the PA read.
#[test]
fn position_exports_enable_at_least_what_the_pa_reads() {
    use r::PA_CL_VS_OUT_CNTL as C;
    let exp_en = |target: u8, en: u8, done: bool| {
        Inst::Exp(Exp { target, en, src: [0, 0, 0, 0], compr: false, done, vm: false })
    };
    let with = |en: u8, vs_out_cntl: u32| {
        let mut a = Asm::new();
        a.vop1(Op::V_MOV_B32, ferrum_isa::Operand::Vgpr(0), Int(0));
        a.i(exp_en(12, 0xf, false)).i(exp_en(13, en, true)).endpgm();
        let s = Scene::with(Gpu::new(), &verts(), &a.finish());
        draw_after(&s, &Draw { vs_out_cntl, pos1: true, ..Default::default() }, &[])
    };
    let misc = C::VS_OUT_MISC_VEC_ENA.val(1);
    let size = misc | C::USE_VTX_POINT_SIZE.val(1);
    assert!(with(0b0001, size), "point size alone in x");
    assert!(!with(0b0001, size | C::USE_VTX_EDGE_FLAG.val(1)), "edge flag read, y not exported");
    assert!(with(0b0101, size | C::USE_VTX_RENDER_TARGET_INDX.val(1)), "size and layer");
    assert!(!with(0b0001, size | C::USE_VTX_VIEWPORT_INDX.val(1)), "viewport read, w not exported");
    let dist = C::VS_OUT_CCDIST0_VEC_ENA.val(1);
    assert!(with(0b0011, dist | C::CLIP_DIST_ENA_0.val(1) | C::CULL_DIST_ENA_1.val(1)));
    assert!(!with(0b0001, dist | C::CLIP_DIST_ENA_0.val(1) | C::CULL_DIST_ENA_1.val(1)));
    assert!(with(0, dist), "no distance enabled: nothing read");
}

#[test]
fn vs_faults_and_hangs_lose_the_context_not_the_device() {
    // A load from an unmapped address.
    let mut a = Asm::new();
    a.vop1(Op::V_MOV_B32, ferrum_isa::Operand::Vgpr(1), Int(0));
    a.global64(Op::GLOBAL_LOAD_DWORD, 2, 1, 0).waitcnt(0, 63);
    a.i(exp(12, true)).i(exp(32, false)).endpgm();
    assert!(!with_vs(&a.finish()));
    // An endless loop runs into the watchdog.
    let mut a = Asm::new();
    let top = a.label();
    a.bind(top);
    a.branch(Op::S_BRANCH, top);
    assert!(!with_vs(&a.finish()));
    // The device still draws.
    assert!(draw_after(&scene(), &Draw::default(), &[]));
}

#[test]
fn huge_draws_are_refused_not_allocated() {
    let s = scene();
    let mut tail = Vec::new();
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[u32::MAX, 2]);
    assert!(s.draw(&Draw::default(), &tail).is_none());
}

#[test]
fn index_buffers_fault_like_any_memory_access() {
    let d = Draw::default();
    // `at(extra)`: the index buffer address in a fresh device whose `extra` buffer is given.
    let draw_at = |at: &dyn Fn(u64) -> u64, max: u32| {
        let s = scene();
        let va = at(s.extra.va);
        let mut tail = Vec::new();
        packet(&mut tail, front::DRAW_INDEX_2, &[max, va as u32, (va >> 32) as u32, 3, 0]);
        s.draw(&d, &tail).is_some()
    };
    assert!(draw_at(&|extra| extra, 3), "mapped");
    // An unmapped index buffer is a VM fault, unless MAX_SIZE says nothing is read.
    assert!(!draw_at(&|_| 0x7f_0000_0000, 3));
    assert!(draw_at(&|_| 0x7f_0000_0000, 0));
    // 16-bit indices at an odd address.
    assert!(!draw_at(&|extra| extra + 1, 3));
}

#[test]
fn endless_instancing_runs_into_the_watchdog() {
    // 64K vertices in each of 4G instances: far beyond the 500 ms budget.
    let s = scene();
    let d = Draw { instances: u32::MAX, ..Draw::default() };
    let mut tail = Vec::new();
    packet(&mut tail, front::DRAW_INDEX_AUTO, &[1 << 16, 2]);
    let start = std::time::Instant::now();
    assert!(s.draw(&d, &tail).is_none());
    assert!(start.elapsed() < Duration::from_secs(5), "stopped by the watchdog");
}
