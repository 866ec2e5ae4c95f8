//! The whole legacy pipeline through the graphics ring: PM4 register writes, DRAW_INDEX_AUTO,
//! the front end's VS waves and primitive setup, and the back end's scan conversion, pixel
//! shader (VINTRP of the VS's PARAM0), and colour writes into memory.

mod common;
mod front;

use common::asm::{Asm, Op, S};
use common::gfx::{export, vintrp};
use ferrum_isa::Opcode;
use ferrum_isa::Operand::Special;
use ferrum_regs::gfx103 as r;
use ferrum_winsys::{Ib, Ip, Priority, Submission};
use front::{f, packet, set_regs, Draw, Scene, DRAW_INDEX_AUTO};
use std::time::Duration;

const W: u32 = 100;
const H: u32 = 100;

#[test]
fn a_triangle_through_vs_and_ps_lands_in_the_colour_buffer() {
    let clip = [[-0.8f32, -0.8], [0.9, -0.6], [-0.5, 0.9]];
    let verts: Vec<([f32; 4], [f32; 4])> =
        clip.iter().map(|&[x, y]| ([x, y, 0.5, 1.0], [0.0; 4])).collect();
    let scene = Scene::new(&verts, false);
    scene.gpu.kernel.set_graphics_backend(Box::new(ferrum_sim::gfx::backend::BackEnd));
    // PS: x = interpolated PARAM0.z (clip x), y = flat PARAM0.x (the provoking vertex id).
    let mut p = Asm::new();
    p.sop1(Op::S_MOV_B32, Special(ferrum_isa::Special::M0), S(0));
    vintrp(&mut p, Opcode::V_INTERP_P1_F32, 4, 0, 0, 2);
    vintrp(&mut p, Opcode::V_INTERP_P2_F32, 4, 1, 0, 2);
    vintrp(&mut p, Opcode::V_INTERP_MOV_F32, 5, 2, 0, 0);
    p.vop1(Op::V_MOV_B32, ferrum_isa::Operand::Vgpr(6), ferrum_isa::Operand::Literal(f(0.25)));
    p.vop1(Op::V_MOV_B32, ferrum_isa::Operand::Vgpr(7), ferrum_isa::Operand::Literal(f(1.0)));
    export(&mut p, 0, [4, 5, 6, 7], false).endpgm();
    let ps = scene.gpu.program(&p.finish());
    let color = scene.gpu.buffer((W.div_ceil(16) * 16 * H * 16) as u64);
    let mut pm = Vec::new();
    Draw { viewport: [0.0, 0.0, W as f32, H as f32, 0.0, 1.0], ..Default::default() }.emit(
        &mut pm,
        &scene.vs,
        &scene.table,
    );
    let full = W | H << 16;
    set_regs(&mut pm, r::PA_SC_SCREEN_SCISSOR_TL, &[0, full]);
    set_regs(&mut pm, r::PA_SC_WINDOW_SCISSOR_TL, &[0, full]);
    set_regs(&mut pm, r::PA_SC_GENERIC_SCISSOR_TL, &[0, full]);
    set_regs(&mut pm, r::PA_SU_VTX_CNTL, &[1 | 2 << 1 | 5 << 3]);
    for reg in [
        r::PA_SC_WINDOW_OFFSET,
        r::PA_SC_MODE_CNTL_0,
        r::PA_SC_AA_CONFIG,
        r::SPI_BARYC_CNTL,
        r::SPI_SHADER_Z_FORMAT,
        r::DB_SHADER_CONTROL,
        r::DB_DEPTH_CONTROL,
        r::CB_COLOR0_VIEW,
        r::CB_COLOR0_ATTRIB,
        r::CB_COLOR0_ATTRIB3,
        r::CB_BLEND0_CONTROL,
    ] {
        set_regs(&mut pm, reg, &[0]);
    }
    set_regs(&mut pm, r::PA_SC_AA_MASK_X0Y0_X1Y0, &[u32::MAX, u32::MAX]);
    set_regs(&mut pm, r::SPI_SHADER_PGM_LO_PS, &[(ps.va >> 8) as u32, (ps.va >> 40) as u32, 0, 0]);
    set_regs(&mut pm, r::SPI_PS_INPUT_ENA, &[2, 2]);
    set_regs(&mut pm, r::SPI_PS_IN_CONTROL, &[1 | 1 << 15]);
    set_regs(&mut pm, r::SPI_PS_INPUT_CNTL_0, &[r::SPI_PS_INPUT_CNTL_0::FLAT_SHADE.val(0)]);
    set_regs(&mut pm, r::SPI_SHADER_COL_FORMAT, &[9]);
    set_regs(&mut pm, r::CB_COLOR_CONTROL, &[1 << 4 | 0xcc << 16]);
    set_regs(&mut pm, r::CB_TARGET_MASK, &[0xf, 0xf]);
    set_regs(&mut pm, r::CB_COLOR0_BASE, &[(color.va >> 8) as u32]);
    set_regs(&mut pm, r::CB_COLOR0_INFO, &[14 << 2 | 7 << 8]);
    set_regs(&mut pm, r::CB_COLOR0_ATTRIB2, &[(H - 1) | (W - 1) << 14]);
    set_regs(&mut pm, r::CB_COLOR0_BASE_EXT, &[(color.va >> 40) as u32]);
    packet(&mut pm, DRAW_INDEX_AUTO, &[3, 2]);
    let ib = scene.gpu.buffer(((pm.len() * 4) as u64).max(4096));
    ib.map.write_u32s(0, &pm).unwrap();
    let handles: Vec<u32> =
        [&scene.vs, &scene.table, &ps, &color, &ib].iter().map(|b| b.bo.handle()).collect();
    let ibs = [Ib { va: ib.va, size_dw: pm.len() as u32, flags: 0 }];
    let ctx = scene.gpu.dev.create_context(Priority::Normal).unwrap();
    let fence = ctx.submit(&Submission::new(Ip::Gfx, &ibs, &handles)).unwrap();
    assert!(ctx.wait(fence, Some(Duration::from_secs(10))).unwrap(), "the draw faulted");
    let win = clip.map(|[x, y]| [(x as f64 + 1.0) * 50.0, (y as f64 + 1.0) * 50.0]);
    let pitch = W.div_ceil(16) * 16;
    let mut covered = 0;
    for y in 0..H {
        for x in 0..W {
            let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
            // Signed distance from each edge (pixels).
            let e = |a: [f64; 2], b: [f64; 2]| {
                let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
                (dx * (py - a[1]) - dy * (px - a[0])) / (dx * dx + dy * dy).sqrt()
            };
            let es = [e(win[0], win[1]), e(win[1], win[2]), e(win[2], win[0])];
            // Centres within 1/64 pixel of an edge depend on snapping and the tie rule,
            // which other tests check exactly.
            if es.iter().any(|v| v.abs() < 1.0 / 64.0) {
                continue;
            }
            let inside = es.iter().all(|&v| v > 0.0) || es.iter().all(|&v| v < 0.0);
            let off = ((y * pitch + x) * 16) as usize;
            let got = color.map.read_u32s(off, 4).unwrap();
            if inside {
                covered += 1;
                let want = px / 50.0 - 1.0;
                assert!((f32::from_bits(got[0]) as f64 - want).abs() < 1e-5, "({x}, {y}) x");
                assert_eq!(got[1], 0, "({x}, {y}): flat vertex id of the provoking vertex");
                assert_eq!(f32::from_bits(got[3]), 1.0);
            } else {
                assert_eq!(got, [0; 4], "({x}, {y}) outside");
            }
        }
    }
    assert!(covered > 1000);
}

#[test]
fn the_vs_render_target_index_selects_the_slice_after_slice_start() {
    // Layer 1 from the VS's misc vector (POS1.z as an integer) into a view of slices 1..=2:
    // slice 2 of a three-slice target.
    let clip = [[-1.0f32, -1.0], [3.0, -1.0], [-1.0, 3.0]];
    let misc = [0.0, 0.0, f32::from_bits(1), 0.0];
    let verts: Vec<([f32; 4], [f32; 4])> =
        clip.iter().map(|&[x, y]| ([x, y, 0.5, 1.0], misc)).collect();
    let scene = Scene::new(&verts, true);
    scene.gpu.kernel.set_graphics_backend(Box::new(ferrum_sim::gfx::backend::BackEnd));
    let mut p = Asm::new();
    common::gfx::export_const(&mut p, [f(0.5), f(0.25), f(0.125), f(1.0)]).endpgm();
    let ps = scene.gpu.program(&p.finish());
    let pitch = W.div_ceil(16) * 16;
    let slice = (pitch * H * 16) as usize;
    let color = scene.gpu.buffer(3 * slice as u64);
    let mut pm = Vec::new();
    use r::PA_CL_VS_OUT_CNTL as C;
    let vs_out_cntl = C::VS_OUT_MISC_VEC_ENA.val(1) | C::USE_VTX_RENDER_TARGET_INDX.val(1);
    let viewport = [0.0, 0.0, W as f32, H as f32, 0.0, 1.0];
    Draw { viewport, vs_out_cntl, pos1: true, ..Default::default() }.emit(
        &mut pm,
        &scene.vs,
        &scene.table,
    );
    let full = W | H << 16;
    set_regs(&mut pm, r::PA_SC_SCREEN_SCISSOR_TL, &[0, full]);
    set_regs(&mut pm, r::PA_SC_WINDOW_SCISSOR_TL, &[0, full]);
    set_regs(&mut pm, r::PA_SC_GENERIC_SCISSOR_TL, &[0, full]);
    set_regs(&mut pm, r::PA_SU_VTX_CNTL, &[1 | 2 << 1 | 5 << 3]);
    for reg in [
        r::PA_SC_WINDOW_OFFSET,
        r::PA_SC_MODE_CNTL_0,
        r::PA_SC_AA_CONFIG,
        r::SPI_BARYC_CNTL,
        r::SPI_SHADER_Z_FORMAT,
        r::DB_SHADER_CONTROL,
        r::DB_DEPTH_CONTROL,
        r::CB_COLOR0_ATTRIB,
        r::CB_BLEND0_CONTROL,
    ] {
        set_regs(&mut pm, reg, &[0]);
    }
    let view = r::CB_COLOR0_VIEW::SLICE_START.val(1) | r::CB_COLOR0_VIEW::SLICE_MAX.val(2);
    set_regs(&mut pm, r::CB_COLOR0_VIEW, &[view]);
    set_regs(&mut pm, r::CB_COLOR0_ATTRIB3, &[r::CB_COLOR0_ATTRIB3::MIP0_DEPTH.val(2)]);
    set_regs(&mut pm, r::PA_SC_AA_MASK_X0Y0_X1Y0, &[u32::MAX, u32::MAX]);
    set_regs(&mut pm, r::SPI_SHADER_PGM_LO_PS, &[(ps.va >> 8) as u32, (ps.va >> 40) as u32, 0, 0]);
    set_regs(&mut pm, r::SPI_PS_INPUT_ENA, &[2, 2]);
    set_regs(&mut pm, r::SPI_PS_IN_CONTROL, &[1 << 15]);
    set_regs(&mut pm, r::SPI_SHADER_COL_FORMAT, &[9]);
    set_regs(&mut pm, r::CB_COLOR_CONTROL, &[1 << 4 | 0xcc << 16]);
    set_regs(&mut pm, r::CB_TARGET_MASK, &[0xf, 0xf]);
    set_regs(&mut pm, r::CB_COLOR0_BASE, &[(color.va >> 8) as u32]);
    set_regs(&mut pm, r::CB_COLOR0_INFO, &[14 << 2 | 7 << 8]);
    set_regs(&mut pm, r::CB_COLOR0_ATTRIB2, &[(H - 1) | (W - 1) << 14]);
    set_regs(&mut pm, r::CB_COLOR0_BASE_EXT, &[(color.va >> 40) as u32]);
    packet(&mut pm, DRAW_INDEX_AUTO, &[3, 2]);
    let ib = scene.gpu.buffer(((pm.len() * 4) as u64).max(4096));
    ib.map.write_u32s(0, &pm).unwrap();
    let handles: Vec<u32> =
        [&scene.vs, &scene.table, &ps, &color, &ib].iter().map(|b| b.bo.handle()).collect();
    let ibs = [Ib { va: ib.va, size_dw: pm.len() as u32, flags: 0 }];
    let ctx = scene.gpu.dev.create_context(Priority::Normal).unwrap();
    let fence = ctx.submit(&Submission::new(Ip::Gfx, &ibs, &handles)).unwrap();
    assert!(ctx.wait(fence, Some(Duration::from_secs(10))).unwrap(), "the draw faulted");
    let want = [0.5f32, 0.25, 0.125, 1.0].map(f32::to_bits);
    for (x, y) in [(0u32, 0u32), (99, 99), (37, 61)] {
        let off = ((y * pitch + x) * 16) as usize;
        assert_eq!(color.map.read_u32s(off, 4).unwrap(), [0; 4], "slice 0 ({x}, {y})");
        assert_eq!(color.map.read_u32s(slice + off, 4).unwrap(), [0; 4], "slice 1 ({x}, {y})");
        assert_eq!(color.map.read_u32s(2 * slice + off, 4).unwrap(), want, "slice 2 ({x}, {y})");
    }
}
