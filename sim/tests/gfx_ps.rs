//! Pixel-shader waves: input VGPRs per SPI_PS_INPUT_ENA/ADDR, VINTRP interpolation
//! (perspective, linear, flat from the provoking vertex, default values), helper lanes in
//! derivatives through DPP quad permutes, discard through EXEC and the VM bit, MSAA sample
//! coverage and PA_SC_AA_MASK. Expected values are computed here from the Vulkan rules.

mod common;

use common::asm::{Asm, Op, S};
use common::gfx::*;
use ferrum_isa::Operand::{Literal, Special, Vgpr};
use ferrum_isa::{Dpp16, Ext, Inst, Opcode, Vop2};
use ferrum_regs::gfx103::*;

const M0: ferrum_isa::Operand = Special(ferrum_isa::Special::M0);

fn dpp(ctrl: u16) -> Ext {
    Ext::Dpp16(Dpp16 {
        ctrl,
        row_mask: 0xf,
        bank_mask: 0xf,
        bound_ctrl: false,
        fi: false,
        neg: 0,
        abs: 0,
    })
}

fn uint_target(s: &mut Scene) {
    s.target(4, 4, 0); // 32 UINT
    s.set(SPI_SHADER_COL_FORMAT, 1);
}

fn read_u32(s: &Scene, x: u32, y: u32) -> u32 {
    u32::from_le_bytes(s.pixel_bytes(x, y).try_into().unwrap())
}

/// Screen-space barycentrics of point (px, py) in triangle t.
fn bary(t: [[f64; 2]; 3], px: f64, py: f64) -> [f64; 3] {
    let area = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    };
    let p = [px, py];
    let a = area(t[0], t[1], t[2]);
    [area(p, t[1], t[2]) / a, area(t[0], p, t[2]) / a, area(t[0], t[1], p) / a]
}

fn close(a: f32, b: f64, what: &str) {
    assert!(((a as f64) - b).abs() <= 1e-5 * b.abs().max(1.0), "{what}: got {a}, want {b}");
}

#[test]
fn perspective_linear_flat_and_default_interpolation() {
    let mut s = Scene::new();
    s.inputs(1 << 1 | 1 << 5); // PERSP_CENTER (v0, v1), LINEAR_CENTER (v2, v3)
    s.set(
        SPI_PS_IN_CONTROL,
        SPI_PS_IN_CONTROL::PS_W32_EN.val(1) | SPI_PS_IN_CONTROL::NUM_INTERP.val(4),
    );
    s.set(SPI_PS_INPUT_CNTL_0, 0);
    s.set(SPI_PS_INPUT_CNTL_0 + 4, 1);
    s.set(SPI_PS_INPUT_CNTL_0 + 8, 2 | SPI_PS_INPUT_CNTL_0::FLAT_SHADE.val(1));
    s.set(SPI_PS_INPUT_CNTL_0 + 12, 0x20 | SPI_PS_INPUT_CNTL_0::DEFAULT_VAL.val(1));
    let mut p = Asm::new();
    p.sop1(Op::S_MOV_B32, M0, S(0));
    vintrp(&mut p, Opcode::V_INTERP_P1_F32, 4, 0, 0, 0);
    vintrp(&mut p, Opcode::V_INTERP_P2_F32, 4, 1, 0, 0);
    vintrp(&mut p, Opcode::V_INTERP_P1_F32, 5, 2, 1, 1);
    vintrp(&mut p, Opcode::V_INTERP_P2_F32, 5, 3, 1, 1);
    vintrp(&mut p, Opcode::V_INTERP_MOV_F32, 6, 2, 2, 2);
    vintrp(&mut p, Opcode::V_INTERP_MOV_F32, 7, 2, 3, 3);
    export(&mut p, 0, [4, 5, 6, 7], false).endpgm();
    s.shader(&mut p, 8);
    let pos = [[2.0f32, 3.0], [60.0, 10.0], [20.0, 61.0]];
    let w = [1.0f32, 4.0, 0.5];
    let a0 = [10.0f32, -30.0, 7.5];
    let a1 = [1.0f32, 2.0, 3.0];
    let a2 = [100.0f32, 200.0, 300.0];
    let v = |i: usize| {
        let bits = |x: f32| x.to_bits();
        vtx(
            pos[i][0],
            pos[i][1],
            0.0,
            1.0 / w[i],
            vec![[bits(a0[i]), 0, 0, 0], [0, bits(a1[i]), 0, 0], [0, 0, bits(a2[i]), 0]],
        )
    };
    let mut t = tri([v(0), v(1), v(2)]);
    t.provoking = 2;
    t.flat_params = t.v[2].params.clone();
    s.draw(vec![t]).unwrap();
    let tt = pos.map(|[x, y]| [x as f64, y as f64]);
    let mut seen = 0;
    for y in 0..H {
        for x in 0..W {
            let b = bary(tt, x as f64 + 0.5, y as f64 + 0.5);
            if b.iter().any(|&v| v <= 0.0) {
                continue;
            }
            seen += 1;
            let got = s.rgba(x, y);
            let d: f64 = (0..3).map(|i| b[i] / w[i] as f64).sum();
            let persp: f64 = (0..3).map(|i| b[i] / w[i] as f64 * a0[i] as f64).sum::<f64>() / d;
            let linear: f64 = (0..3).map(|i| b[i] * a1[i] as f64).sum();
            close(got[0], persp, &format!("perspective at ({x}, {y})"));
            close(got[1], linear, &format!("linear at ({x}, {y})"));
            assert_eq!(got[2], 300.0, "flat from the provoking vertex");
            assert_eq!(got[3], 1.0, "DEFAULT_VAL 1 = (0, 0, 0, 1)");
        }
    }
    assert!(seen > 500);
}

#[test]
fn position_face_and_fixed_point_inputs() {
    let mut s = Scene::new();
    // PERSP_CENTER (v0, v1), POS_X (v2), POS_Y (v3), POS_Z (v4), FRONT_FACE (v5), POS_FIXED_PT (v6);
    // LINEAR_SAMPLE is allocated (ADDR) but not enabled: it still takes v2, v3.
    let ena = 1 << 1 | 1 << 8 | 1 << 9 | 1 << 10 | 1 << 12 | 1 << 15;
    s.set(SPI_PS_INPUT_ENA, ena);
    s.set(SPI_PS_INPUT_ADDR, ena | 1 << 4);
    s.set(SPI_BARYC_CNTL, SPI_BARYC_CNTL::FRONT_FACE_ALL_BITS.val(1));
    s.target(14, 4, 0); // 32_32_32_32 UINT
    let mut p = Asm::new();
    export(&mut p, 0, [4, 5, 7, 8], false).endpgm();
    s.shader(&mut p, 16);
    let v = |x: f32, y: f32| vtx(x, y, x / 128.0, 1.0, vec![]);
    let mut back = tri([v(0.0, 0.0), v(64.0, 64.0), v(0.0, 64.0)]);
    back.front_facing = false;
    s.draw(vec![tri([v(0.0, 0.0), v(64.0, 0.0), v(64.0, 64.0)]), back]).unwrap();
    for (x, y) in [(40u32, 3u32), (3, 40)] {
        let b = s.pixel_bytes(x, y);
        let d: Vec<u32> = b.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(f32::from_bits(d[0]), x as f32 + 0.5, "POS_X");
        assert_eq!(f32::from_bits(d[1]), y as f32 + 0.5, "POS_Y");
        assert_eq!(d[2], if x > y { u32::MAX } else { 0 }, "FRONT_FACE with ALL_BITS");
        assert_eq!(d[3], x | y << 16, "POS_FIXED_PT");
    }
}

#[test]
fn helper_lanes_feed_derivatives() {
    let mut s = Scene::new();
    s.set(
        SPI_PS_IN_CONTROL,
        SPI_PS_IN_CONTROL::PS_W32_EN.val(1) | SPI_PS_IN_CONTROL::NUM_INTERP.val(1),
    );
    s.set(SPI_PS_INPUT_CNTL_0, 0);
    let mut p = Asm::new();
    // The wave starts with the covered pixels only: whole-quad mode turns the helpers on.
    let exec = Special(ferrum_isa::Special::ExecLo);
    p.sop1(Op::S_WQM_B32, exec, exec);
    p.sop1(Op::S_MOV_B32, M0, S(0));
    vintrp(&mut p, Opcode::V_INTERP_P1_F32, 4, 0, 0, 0);
    vintrp(&mut p, Opcode::V_INTERP_P2_F32, 4, 1, 0, 0);
    // ddx = v4[1,1,3,3] - v4[0,0,2,2]; ddy = v4[2,3,2,3] - v4[0,1,0,1]
    let vop2 = |p: &mut Asm, op, vdst, src0, vsrc1, ext| {
        p.i(Inst::Vop2(Vop2 { op, vdst, src0: Vgpr(src0), vsrc1, k: 0, ext }));
    };
    p.i(Inst::Vop1(ferrum_isa::Vop1 {
        op: Opcode::V_MOV_B32,
        vdst: Vgpr(6),
        src0: Vgpr(4),
        ext: dpp(0xa0),
    }));
    vop2(&mut p, Opcode::V_SUB_F32, 5, 4, 6, dpp(0xf5));
    p.i(Inst::Vop1(ferrum_isa::Vop1 {
        op: Opcode::V_MOV_B32,
        vdst: Vgpr(8),
        src0: Vgpr(4),
        ext: dpp(0x44),
    }));
    vop2(&mut p, Opcode::V_SUB_F32, 7, 4, 8, dpp(0xee));
    p.vop1(Op::V_MOV_B32, Vgpr(9), Literal(0));
    export(&mut p, 0, [5, 7, 4, 9], false).endpgm();
    s.shader(&mut p, 16);
    let a = |x: f32, y: f32| 3.0 * x + 5.0 * y;
    let v = |x: f32, y: f32| vtx(x, y, 0.0, 1.0, vec![[a(x, y).to_bits(), 0, 0, 0]]);
    let pos = [[1.0f32, 1.0], [61.0, 5.0], [7.0, 58.0]];
    s.draw(vec![tri(pos.map(|[x, y]| v(x, y)))]).unwrap();
    let tt = pos.map(|[x, y]| [x as f64, y as f64]);
    let mut edge_quads = 0;
    for y in 0..H {
        for x in 0..W {
            let inside =
                |x: u32, y: u32| bary(tt, x as f64 + 0.5, y as f64 + 0.5).iter().all(|&v| v > 0.0);
            if !inside(x, y) {
                continue;
            }
            let (qx, qy) = (x & !1, y & !1);
            if !(inside(qx, qy)
                && inside(qx + 1, qy)
                && inside(qx, qy + 1)
                && inside(qx + 1, qy + 1))
            {
                edge_quads += 1;
            }
            let got = s.rgba(x, y);
            // Differences of f32 values near 300: a few ulps of error.
            assert!((got[0] - 3.0).abs() < 1e-3, "ddx at ({x}, {y}): {}", got[0]);
            assert!((got[1] - 5.0).abs() < 1e-3, "ddy at ({x}, {y}): {}", got[1]);
        }
    }
    assert!(edge_quads > 50, "the triangle must have partially covered quads");
}

#[test]
fn discarded_lanes_are_not_written() {
    // Kill pixels with odd x: v_cmpx on POS_X's fraction trick: x = floor(pos_x); keep even.
    let mut s = Scene::new();
    uint_target(&mut s);
    s.inputs(1 << 1 | 1 << 15); // POS_FIXED_PT in v2
    s.set(DB_SHADER_CONTROL, DB_SHADER_CONTROL::KILL_ENABLE.val(1));
    let mut p = Asm::new();
    p.vop2(Op::V_AND_B32, 3, Literal(1), 2);
    p.vopc(Op::V_CMPX_EQ_U32, ferrum_isa::Operand::Int(0), 3);
    p.vop1(Op::V_MOV_B32, Vgpr(4), Literal(77));
    export(&mut p, 0, [4, 0, 0, 0], false).endpgm();
    s.shader(&mut p, 8);
    let c = s
        .draw(vec![
            tri2([[0.0, 0.0], [64.0, 0.0], [0.0, 64.0]], 0.0),
            tri2([[64.0, 0.0], [64.0, 64.0], [0.0, 64.0]], 0.0),
        ])
        .unwrap();
    for x in 0..W {
        assert_eq!(read_u32(&s, x, 5), if x % 2 == 0 { 77 } else { 0 }, "x {x}");
    }
    assert_eq!(c.ps_invocations, (W * H / 2) as u64);
}

#[test]
fn ending_without_export_is_refused_when_colour_is_bound() {
    let mut s = Scene::new();
    let mut p = Asm::new();
    p.endpgm();
    s.shader(&mut p, 8);
    assert!(s.draw(vec![tri2([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]], 0.0)]).is_err());
    // With no colour format, no depth export and no kill, it is allowed.
    s.set(SPI_SHADER_COL_FORMAT, 0);
    assert!(s.draw(vec![tri2([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]], 0.0)]).is_ok());
}

/// Vulkan's standard 4-sample locations, as offsets from the pixel centre in 1/16 pixel.
const LOCS4: [(i32, i32); 4] = [(-2, -6), (6, -2), (-6, 2), (2, 6)];

#[test]
fn msaa_sample_coverage_and_aa_mask() {
    for aa_mask in [0xffffu32, 0xfffd] {
        let mut s = Scene::new();
        uint_target(&mut s);
        s.inputs(1 << 1 | 1 << 14); // SAMPLE_COVERAGE in v2
        s.set(PA_SC_MODE_CNTL_0, PA_SC_MODE_CNTL_0::MSAA_ENABLE.val(1));
        s.set(PA_SC_AA_CONFIG, PA_SC_AA_CONFIG::MSAA_NUM_SAMPLES.val(2));
        let mut word = 0u32;
        for (i, (x, y)) in LOCS4.iter().enumerate() {
            word |= ((*x as u32) & 0xf) << (8 * i) | ((*y as u32) & 0xf) << (8 * i + 4);
        }
        for px in 0..4 {
            s.set(PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 16 * px, word);
        }
        s.set(PA_SC_AA_MASK_X0Y0_X1Y0, aa_mask | aa_mask << 16);
        s.set(PA_SC_AA_MASK_X0Y1_X1Y1, aa_mask | aa_mask << 16);
        let mut p = Asm::new();
        export(&mut p, 0, [2, 0, 0, 0], false).endpgm();
        s.shader(&mut p, 8);
        let t = [[3.3f32, 2.7], [50.1, 20.6], [11.8, 47.2]];
        s.draw(vec![tri2(t, 0.0)]).unwrap();
        let tt = t
            .map(|[x, y]| [(x as f64 * 256.0).round() / 256.0, (y as f64 * 256.0).round() / 256.0]);
        let mut partial = 0;
        for y in 0..H {
            for x in 0..W {
                let mut cov = 0u32;
                for (i, (dx, dy)) in LOCS4.iter().enumerate() {
                    let b = bary(
                        tt,
                        x as f64 + 0.5 + *dx as f64 / 16.0,
                        y as f64 + 0.5 + *dy as f64 / 16.0,
                    );
                    cov |= (b.iter().all(|&v| v > 0.0) as u32) << i;
                }
                cov &= aa_mask;
                partial += (cov != 0 && cov != (0xf & aa_mask)) as u32;
                // The single-sample target stores sample 0 only.
                let want = if cov & 1 != 0 { cov } else { 0 };
                assert_eq!(read_u32(&s, x, y), want, "mask {aa_mask:#x} ({x}, {y})");
            }
        }
        assert!(partial > 20);
    }
}

#[test]
fn strict_mode_refuses_back_end_state_never_written() {
    let mut s = Scene::new();
    let mut p = Asm::new();
    export_const(&mut p, [0; 4]).endpgm();
    s.shader(&mut p, 8);
    let draw = |s: &mut Scene| s.draw(vec![tri2([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]], 0.0)]);
    assert!(draw(&mut s).is_ok());
    // A fresh register file with the same values but SPI_BARYC_CNTL never written.
    let old = std::mem::take(&mut s.regs);
    for a in (0xb000u32..0xc000).chain(0x28000..0x30000).step_by(4) {
        if old.is_written(a) && a != SPI_BARYC_CNTL {
            s.regs.write(a, old.get(a));
        }
    }
    let e = draw(&mut s).unwrap_err().to_string();
    assert!(e.contains("SPI_BARYC_CNTL"), "{e}");
    // Depth enabled without the depth surface registers.
    s.set(SPI_BARYC_CNTL, 0);
    s.regs = {
        let mut r = ferrum_sim::cp::RegisterFile::default();
        for a in (0xb000u32..0xc000).chain(0x28000..0x30000).step_by(4) {
            if s.regs.is_written(a) && a != DB_Z_READ_BASE {
                r.write(a, s.regs.get(a));
            }
        }
        r
    };
    s.set(DB_DEPTH_CONTROL, DB_DEPTH_CONTROL::Z_ENABLE.val(1));
    s.set(DB_Z_INFO, DB_Z_INFO::FORMAT.val(3));
    let e = draw(&mut s).unwrap_err().to_string();
    assert!(e.contains("DB_Z_READ_BASE"), "{e}");
}

#[test]
fn centroid_barycentrics_move_to_a_covered_sample() {
    let mut s = Scene::new();
    // PERSP_CENTER (v0, v1) and PERSP_CENTROID (v2, v3); export the centre and centroid I.
    s.inputs(1 << 1 | 1 << 2);
    s.set(PA_SC_MODE_CNTL_0, PA_SC_MODE_CNTL_0::MSAA_ENABLE.val(1));
    s.set(PA_SC_AA_CONFIG, PA_SC_AA_CONFIG::MSAA_NUM_SAMPLES.val(2));
    let mut word = 0u32;
    for (i, (x, y)) in LOCS4.iter().enumerate() {
        word |= ((*x as u32) & 0xf) << (8 * i) | ((*y as u32) & 0xf) << (8 * i + 4);
    }
    for px in 0..4 {
        for k in 0..4 {
            s.set(
                PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 16 * px + 4 * k,
                if k == 0 { word } else { 0 },
            );
        }
    }
    let mut p = Asm::new();
    export(&mut p, 0, [0, 2, 1, 3], false).endpgm();
    s.shader(&mut p, 8);
    // A vertical left edge at x = 10.3125: in column 10, sample 2 (x offset -6/16) is left of
    // it, samples 0, 1, 3 are covered; the single-sample target stores sample 0's pixel.
    let e = 10.3125;
    let t = [[e as f32, 0.0], [60.0, 0.0], [e as f32, 60.0]];
    s.draw(vec![tri2(t, 0.0)]).unwrap();
    // Weight of vertex 1 (I) in this right triangle: (x - e) / (60 - e).
    let b = |px: f64| (px - e) / (60.0 - e);
    let got = s.rgba(10, 20);
    close(got[0], b(10.5), "centre I");
    // The first covered sample in centroid priority order (0..15) is sample 0 at (-2/16, -6/16).
    close(got[1], b(10.5 - 2.0 / 16.0), "centroid I");
    let inner = s.rgba(30, 10);
    close(inner[1], inner[0] as f64, "fully covered: centroid = centre");
}

/// 4x MSAA over the whole 64x64 target with a constant `mrt0` alpha and alpha to coverage as
/// RADV programs it: the samples that pass (no depth test) for each alpha.
fn alpha_to_coverage_samples(alpha: f32, dither: bool) -> u64 {
    let mut s = Scene::new();
    uint_target(&mut s);
    s.set(SPI_SHADER_COL_FORMAT, 9); // 32_ABGR: the alpha reaches the DB
    s.inputs(1 << 1);
    s.set(PA_SC_MODE_CNTL_0, PA_SC_MODE_CNTL_0::MSAA_ENABLE.val(1));
    s.set(PA_SC_AA_CONFIG, PA_SC_AA_CONFIG::MSAA_NUM_SAMPLES.val(2));
    for k in 0..16 {
        s.set(PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 4 * k, 0);
    }
    s.set(PA_SC_AA_MASK_X0Y0_X1Y0, u32::MAX);
    s.set(PA_SC_AA_MASK_X0Y1_X1Y1, u32::MAX);
    s.set(DB_EQAA, DB_EQAA::ALPHA_TO_MASK_NUM_SAMPLES.val(2));
    let offsets = if dither { [3, 1, 0, 2] } else { [2; 4] };
    s.set(
        DB_ALPHA_TO_MASK,
        DB_ALPHA_TO_MASK::ALPHA_TO_MASK_ENABLE.val(1)
            | DB_ALPHA_TO_MASK::ALPHA_TO_MASK_OFFSET0.val(offsets[0])
            | DB_ALPHA_TO_MASK::ALPHA_TO_MASK_OFFSET1.val(offsets[1])
            | DB_ALPHA_TO_MASK::ALPHA_TO_MASK_OFFSET2.val(offsets[2])
            | DB_ALPHA_TO_MASK::ALPHA_TO_MASK_OFFSET3.val(offsets[3])
            | DB_ALPHA_TO_MASK::OFFSET_ROUND.val(dither as u32),
    );
    let mut p = Asm::new();
    export_const(&mut p, [7, 0, 0, alpha.to_bits()]).endpgm();
    s.shader(&mut p, 8);
    let counts = s.draw(vec![tri2([[0.0, 0.0], [128.0, 0.0], [0.0, 128.0]], 0.0)]).unwrap();
    counts.zpass_samples
}

#[test]
fn alpha_to_coverage_counts_samples_by_alpha() {
    let pixels = (W * H) as u64;
    assert_eq!(alpha_to_coverage_samples(0.0, true), 0);
    assert_eq!(alpha_to_coverage_samples(1.0, true), 4 * pixels);
    assert_eq!(alpha_to_coverage_samples(0.5, true), 2 * pixels);
    // 4 x 0.3 = 1.2 samples; the dither thresholds 7/8, 3/8, 1/8, 5/8 of a quad's pixels
    // give 2, 1, 1, 1 samples: 5 per quad.
    assert_eq!(alpha_to_coverage_samples(0.3, true), 5 * pixels / 4);
    // Without dither (offsets 2, OFFSET_ROUND 0) rounding is to nearest: 1.2 → 1, 1.6 → 2.
    assert_eq!(alpha_to_coverage_samples(0.3, false), pixels);
    assert_eq!(alpha_to_coverage_samples(0.4, false), 2 * pixels);
}

#[test]
fn unmodelled_state_is_refused_not_ignored() {
    // (Polygon offset of point/line polygon modes without PARA_ENABLE is refused by the
    // front end's polygon-mode path: gfx_offset_layers.rs.)
    for (reg, v) in [(DB_EQAA, DB_EQAA::PS_ITER_SAMPLES.val(2))] {
        let mut s = Scene::new();
        let mut p = Asm::new();
        export_const(&mut p, [0; 4]).endpgm();
        s.shader(&mut p, 8);
        for o in [PA_SU_POLY_OFFSET_DB_FMT_CNTL, PA_SU_POLY_OFFSET_CLAMP]
            .into_iter()
            .chain([PA_SU_POLY_OFFSET_FRONT_SCALE, PA_SU_POLY_OFFSET_FRONT_OFFSET])
        {
            s.set(o, 0);
        }
        s.set(reg, v);
        let e = s.draw(vec![tri2([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]], 0.0)]).unwrap_err();
        assert!(e.to_string().contains("modelled"), "{e}");
    }
}
