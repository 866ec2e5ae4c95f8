//! Polygon offset (PA_SU_POLY_OFFSET_*) and render-target array layers (CB_COLORn_VIEW /
//! the VS's render-target index) through the back end. Expectations are the Vulkan spec's
//! depth-bias equations evaluated by hand: o = slope * m + constant * r, with the SCALE
//! register per 1/16 pixel (16 * slope), r = 2^-16 for D16 and 2^(e - 23) for D32F.

mod common;

use common::asm::{Asm, Op};
use common::gfx::*;
use ferrum_isa::Operand::{Literal, Vgpr};
use ferrum_regs::gfx103::*;
use ferrum_sim::error::GpuError;
use ferrum_sim::gfx::SetupPrim;

/// A scene whose PS writes 1.0 to a 32-bit float target, depth written with ALWAYS.
fn scene() -> Scene {
    let mut s = Scene::new();
    s.target(4, 7, 0);
    s.set(SPI_SHADER_COL_FORMAT, 1);
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, Vgpr(4), Literal(f(1.0)));
    export(&mut p, 0, [4, 0, 0, 0], false).endpgm();
    s.shader(&mut p, 8);
    s.depth_target(false);
    s.set(
        DB_DEPTH_CONTROL,
        DB_DEPTH_CONTROL::Z_ENABLE.val(1)
            | DB_DEPTH_CONTROL::Z_WRITE_ENABLE.val(1)
            | DB_DEPTH_CONTROL::ZFUNC.val(7),
    );
    s.set(PA_SC_VPORT_ZMAX_0, f(1.0));
    s
}

/// Offset enabled on front faces (back faces too when `back`) with the given registers.
fn offset(s: &mut Scene, scale: f32, units: f32, clamp: f32, back: bool) {
    s.set(
        PA_SU_SC_MODE_CNTL,
        PA_SU_SC_MODE_CNTL::POLY_OFFSET_FRONT_ENABLE.val(1)
            | PA_SU_SC_MODE_CNTL::POLY_OFFSET_BACK_ENABLE.val(back as u32),
    );
    for (sc, of) in [
        (PA_SU_POLY_OFFSET_FRONT_SCALE, PA_SU_POLY_OFFSET_FRONT_OFFSET),
        (PA_SU_POLY_OFFSET_BACK_SCALE, PA_SU_POLY_OFFSET_BACK_OFFSET),
    ] {
        s.set(sc, f(scale));
        s.set(of, f(units));
    }
    s.set(PA_SU_POLY_OFFSET_CLAMP, f(clamp));
}

/// DB_FMT_CNTL for D32F (-23, float) as RADV programs it.
const FMT_D32F: u32 = 0xe9 | 1 << 8;
/// DB_FMT_CNTL for D16 (-16).
const FMT_D16: u32 = 0xf0;

fn plane(z: impl Fn(f32, f32) -> f32) -> Vec<SetupPrim> {
    let v = |x: f32, y: f32| vtx(x, y, z(x, y), 1.0, vec![]);
    vec![
        tri([v(0.0, 0.0), v(64.0, 0.0), v(0.0, 64.0)]),
        tri([v(64.0, 0.0), v(64.0, 64.0), v(0.0, 64.0)]),
    ]
}

fn depth_at(s: &Scene, x: u32, y: u32) -> f32 {
    f32::from_bits(s.depth.map.read_u32(((y * W + x) * 4) as usize).unwrap())
}

#[test]
fn d32f_constant_offset_is_units_of_the_exponent_ulp() {
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    // z = 0.5 has exponent -1: r = 2^(-1 - 23), one ulp of 0.5. Three units: three ulps.
    offset(&mut s, 0.0, 3.0, 0.0, false);
    s.draw(plane(|_, _| 0.5)).unwrap();
    assert_eq!(depth_at(&s, 5, 9).to_bits(), 0.5f32.to_bits() + 3);
    // z = 0.25 + tiny: the largest |z| (0.3, exponent -2) sets r = 2^-25.
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    offset(&mut s, 0.0, -4.0, 0.0, false);
    s.draw(vec![tri2([[0.0, 0.0], [64.0, 0.0], [0.0, 64.0]], 0.3)]).unwrap();
    assert_eq!(depth_at(&s, 1, 1), (0.3f64 as f32 as f64 - 4.0 * 2f64.powi(-25)) as f32);
}

#[test]
fn slope_offset_is_scale_over_16_times_the_max_slope() {
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    // z = x / 128 - y / 256: m = max(1/128, 1/256) = 1/128. Slope factor 2 (SCALE 32): 1/64.
    offset(&mut s, 32.0, 0.0, 0.0, false);
    s.draw(plane(|x, y| 0.25 + x / 128.0 - y / 256.0)).unwrap();
    for (x, y) in [(0u32, 0u32), (10, 7), (63, 63)] {
        let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
        let want = 0.25 + cx / 128.0 - cy / 256.0 + 1.0 / 64.0;
        assert!((depth_at(&s, x, y) - want).abs() < 1e-6, "({x}, {y})");
    }
}

#[test]
fn offset_is_clamped_by_sign_of_clamp() {
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    // Slope bias 1/32, positive clamp 1/128.
    offset(&mut s, 32.0, 0.0, 1.0 / 128.0, false);
    s.draw(plane(|x, _| 0.25 + x / 64.0)).unwrap();
    assert!((depth_at(&s, 3, 3) - (0.25 + 3.5 / 64.0 + 1.0 / 128.0)).abs() < 1e-6);
    // A negative clamp bounds a negative bias from below; a positive bias passes.
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    offset(&mut s, -32.0, 0.0, -1.0 / 128.0, false);
    s.draw(plane(|x, _| 0.25 + x / 64.0)).unwrap();
    assert!((depth_at(&s, 3, 3) - (0.25 + 3.5 / 64.0 - 1.0 / 128.0)).abs() < 1e-6);
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    offset(&mut s, 32.0, 0.0, -1.0 / 128.0, false);
    s.draw(plane(|x, _| 0.25 + x / 64.0)).unwrap();
    assert!((depth_at(&s, 3, 3) - (0.25 + 3.5 / 64.0 + 1.0 / 32.0)).abs() < 1e-6);
}

#[test]
fn d16_offset_is_units_of_two_to_the_minus_16_before_quantising() {
    for (units, want) in [(0.0f32, 32768u32), (2.0, 32769), (4.0, 32771), (-2.0, 32766)] {
        let mut s = scene();
        s.set(DB_Z_INFO, DB_Z_INFO::FORMAT.val(1));
        s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D16);
        // 0.5 * 65535 = 32767.5; + units * 65535 / 65536, rounded to nearest even.
        offset(&mut s, 0.0, units, 0.0, false);
        s.draw(plane(|_, _| 0.5)).unwrap();
        // Row 0 (a linear D16 row is 128 pixels: 256-byte pitch alignment), pixel 4.
        let word = s.depth.map.read_u32(4 * 2).unwrap();
        assert_eq!(word & 0xffff, want, "units {units}");
    }
}

#[test]
fn offset_then_viewport_depth_clamp() {
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    offset(&mut s, 0.0, 1e7, 0.0, false);
    s.draw(plane(|_, _| 0.9)).unwrap();
    assert_eq!(depth_at(&s, 0, 0), 1.0);
}

#[test]
fn back_faces_use_their_own_enable_and_registers() {
    let back = |p: Vec<SetupPrim>| {
        p.into_iter()
            .map(|mut t| {
                t.front_facing = false;
                t
            })
            .collect::<Vec<_>>()
    };
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    offset(&mut s, 0.0, 3.0, 0.0, false);
    s.draw(back(plane(|_, _| 0.5))).unwrap();
    assert_eq!(depth_at(&s, 5, 5), 0.5, "back offset disabled");
    offset(&mut s, 0.0, 3.0, 0.0, true);
    s.set(PA_SU_POLY_OFFSET_BACK_OFFSET, f(5.0));
    s.draw(back(plane(|_, _| 0.5))).unwrap();
    assert_eq!(depth_at(&s, 5, 5).to_bits(), 0.5f32.to_bits() + 5);
}

/// A line-mode edge (0, 32.5)-(64, 32.5) of the polygon z = 0.25 + x / 128 (slope 1/128),
/// whose vertices' largest |z| is 0.75.
fn polygon_edge() -> SetupPrim {
    let z = |x: f32| 0.25 + x / 128.0;
    let mut line = tri2([[0.0, 32.5], [64.0, 32.5], [0.0, 0.0]], 0.0);
    for v in &mut line.v {
        v.z = z(v.x);
    }
    line.polygon = Some(line.v.iter().map(|v| [v.x, v.y, v.z, v.inv_w]).collect());
    line.kind = ferrum_sim::gfx::PrimKind::Line;
    line.v.truncate(2);
    line.line_width = 1.0;
    line
}

#[test]
fn polygon_mode_lines_carry_their_polygons_offset() {
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    // Slope factor 2 (SCALE 32) on m = 1/128: 1/64, plus 3 units of r = 2^(-1 - 23) (the
    // polygon's largest |z|, 0.75, has exponent -1), at the centre (10.5, 32.5).
    offset(&mut s, 32.0, 3.0, 0.0, false);
    let su = s.regs.get(PA_SU_SC_MODE_CNTL);
    let para = PA_SU_SC_MODE_CNTL::POLY_OFFSET_PARA_ENABLE.val(1);
    s.set(PA_SU_SC_MODE_CNTL, su | PA_SU_SC_MODE_CNTL::POLY_MODE.val(1) | para);
    s.draw(vec![polygon_edge()]).unwrap();
    let want = 0.25 + 10.5 / 128.0 + 1.0 / 64.0 + 3.0 * 2f64.powi(-24);
    assert!((depth_at(&s, 10, 32) as f64 - want).abs() < 1e-6, "{}", depth_at(&s, 10, 32));
    // Without PARA_ENABLE what the face enable does to the edges is unknown: refused.
    s.set(PA_SU_SC_MODE_CNTL, su | PA_SU_SC_MODE_CNTL::POLY_MODE.val(1));
    assert!(matches!(s.draw(vec![polygon_edge()]), Err(GpuError::Unsupported(_))));
}

#[test]
fn offset_of_line_primitives_is_refused() {
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    offset(&mut s, 0.0, 3.0, 0.0, false);
    s.set(PA_SU_SC_MODE_CNTL, PA_SU_SC_MODE_CNTL::POLY_OFFSET_PARA_ENABLE.val(1));
    let mut line = tri2([[0.0, 0.0], [64.0, 0.0], [0.0, 64.0]], 0.5);
    line.kind = ferrum_sim::gfx::PrimKind::Line;
    line.v.truncate(2);
    line.line_width = 1.0;
    assert!(matches!(s.draw(vec![line]), Err(GpuError::Unsupported(_))));
}

#[test]
fn strict_mode_needs_the_offset_registers_of_enabled_faces() {
    let mut s = scene();
    s.set(PA_SU_POLY_OFFSET_DB_FMT_CNTL, FMT_D32F);
    s.set(PA_SU_POLY_OFFSET_CLAMP, 0);
    s.set(PA_SU_POLY_OFFSET_FRONT_SCALE, 0);
    s.set(PA_SU_SC_MODE_CNTL, PA_SU_SC_MODE_CNTL::POLY_OFFSET_FRONT_ENABLE.val(1));
    let e = s.draw(plane(|_, _| 0.5)).unwrap_err();
    assert!(e.to_string().contains("PA_SU_POLY_OFFSET_FRONT_OFFSET"), "{e}");
    s.set(PA_SU_POLY_OFFSET_FRONT_OFFSET, 0);
    s.draw(plane(|_, _| 0.5)).unwrap();
    s.set(
        PA_SU_SC_MODE_CNTL,
        PA_SU_SC_MODE_CNTL::POLY_OFFSET_FRONT_ENABLE.val(1)
            | PA_SU_SC_MODE_CNTL::POLY_OFFSET_BACK_ENABLE.val(1),
    );
    let e = s.draw(plane(|_, _| 0.5)).unwrap_err();
    assert!(e.to_string().contains("PA_SU_POLY_OFFSET_BACK_SCALE"), "{e}");
}

/// Bytes per slice of the 64x64 linear 32-bit target (pitch 64 pixels).
const SLICE: usize = 64 * 64 * 4;

fn color_at(s: &Scene, slice: usize, x: u32, y: u32) -> f32 {
    f32::from_bits(s.color.map.read_u32(slice * SLICE + ((y * W + x) * 4) as usize).unwrap())
}

#[test]
fn layers_land_in_slice_start_plus_layer_and_stop_at_slice_max() {
    let mut s = scene();
    s.set(DB_DEPTH_CONTROL, 0);
    s.set(CB_COLOR0_ATTRIB3, CB_COLOR0_ATTRIB3::MIP0_DEPTH.val(3));
    s.set(CB_COLOR0_VIEW, CB_COLOR0_VIEW::SLICE_START.val(1) | CB_COLOR0_VIEW::SLICE_MAX.val(2));
    for layer in [1u32, 0, 2, 7] {
        s.fill_color(&[0]);
        let mut p = plane(|_, _| 0.5);
        for t in &mut p {
            t.layer = layer;
        }
        s.draw(p).unwrap();
        for slice in 0..4usize {
            let want = if layer <= 1 && slice == 1 + layer as usize { 1.0 } else { 0.0 };
            for (x, y) in [(0, 0), (63, 63), (17, 40)] {
                assert_eq!(color_at(&s, slice, x, y), want, "layer {layer} slice {slice}");
            }
        }
    }
}

#[test]
fn depth_layers_follow_db_depth_view() {
    let mut s = scene();
    s.set(CB_COLOR_CONTROL, 0);
    s.set(DB_DEPTH_VIEW, DB_DEPTH_VIEW::SLICE_START.val(2) | DB_DEPTH_VIEW::SLICE_MAX.val(3));
    let mut p = plane(|_, _| 0.25);
    for t in &mut p {
        t.layer = 1;
    }
    let depth_slice = 64 * 64 * 4;
    // The scene's depth buffer holds one slice; slice 3 needs its own backing.
    let big = s.gpu.buffer(4 * depth_slice as u64);
    s.set(DB_Z_READ_BASE, (big.va >> 8) as u32);
    s.set(DB_Z_WRITE_BASE, (big.va >> 8) as u32);
    s.draw(p).unwrap();
    for slice in 0..4 {
        let z = f32::from_bits(big.map.read_u32(slice * depth_slice + (5 * 64 + 6) * 4).unwrap());
        assert_eq!(z, if slice == 3 { 0.25 } else { 0.0 }, "slice {slice}");
    }
}
