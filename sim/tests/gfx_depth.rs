//! Depth and stencil through the back end: every compare op, writes, bounds, the viewport
//! depth clamp, D16 quantisation, every stencil op on both faces, early vs late Z and the
//! occlusion count. Expectations are the Vulkan spec's rules, evaluated here.

mod common;

use common::asm::{Asm, Op};
use common::gfx::*;
use ferrum_isa::Operand::{Literal, Vgpr};
use ferrum_regs::gfx103::*;

fn scene() -> Scene {
    let mut s = Scene::new();
    s.target(4, 7, 0);
    s.set(SPI_SHADER_COL_FORMAT, 1);
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, Vgpr(4), Literal(f(1.0)));
    export(&mut p, 0, [4, 0, 0, 0], false).endpgm();
    s.shader(&mut p, 8);
    s.depth_target(true);
    s
}

fn shaded(s: &Scene, x: u32, y: u32) -> bool {
    f32::from_le_bytes(s.pixel_bytes(x, y).try_into().unwrap()) == 1.0
}

fn full_screen(z: f32) -> Vec<ferrum_sim::gfx::SetupPrim> {
    vec![
        tri2([[0.0, 0.0], [64.0, 0.0], [0.0, 64.0]], z),
        tri2([[64.0, 0.0], [64.0, 64.0], [0.0, 64.0]], z),
    ]
}

fn fill_depth(s: &Scene, d: impl Fn(u32, u32) -> f32) {
    for y in 0..H {
        for x in 0..W {
            s.depth.map.write_u32s(((y * W + x) * 4) as usize, &[d(x, y).to_bits()]).unwrap();
        }
    }
}

fn depth_at(s: &Scene, x: u32, y: u32) -> f32 {
    f32::from_bits(s.depth.map.read_u32(((y * W + x) * 4) as usize).unwrap())
}

fn reference(func: u32, a: f32, b: f32) -> bool {
    [false, a < b, a == b, a <= b, a > b, a != b, a >= b, true][func as usize]
}

#[test]
fn every_depth_compare_op_with_writes() {
    for func in 0..8 {
        let mut s = scene();
        fill_depth(&s, |x, _| x as f32 / 64.0);
        s.set(
            DB_DEPTH_CONTROL,
            DB_DEPTH_CONTROL::Z_ENABLE.val(1)
                | DB_DEPTH_CONTROL::Z_WRITE_ENABLE.val(1)
                | DB_DEPTH_CONTROL::ZFUNC.val(func),
        );
        let c = s.draw(full_screen(0.5)).unwrap();
        let mut passed = 0;
        for y in 0..H {
            for x in 0..W {
                let old = x as f32 / 64.0;
                let want = reference(func, 0.5, old);
                passed += want as u64;
                assert_eq!(shaded(&s, x, y), want, "func {func} ({x}, {y})");
                assert_eq!(depth_at(&s, x, y), if want { 0.5 } else { old }, "func {func} write");
            }
        }
        assert_eq!(c.zpass_samples, passed, "func {func} occlusion count");
    }
}

#[test]
fn interpolated_depth_is_the_plane_at_pixel_centres() {
    let mut s = scene();
    fill_depth(&s, |_, _| 0.5);
    s.set(DB_DEPTH_CONTROL, DB_DEPTH_CONTROL::Z_ENABLE.val(1) | DB_DEPTH_CONTROL::ZFUNC.val(1));
    // z = x / 64 across the screen.
    let v = |x: f32, y: f32| vtx(x, y, x / 64.0, 1.0, vec![]);
    s.draw(vec![
        tri([v(0.0, 0.0), v(64.0, 0.0), v(0.0, 64.0)]),
        tri([v(64.0, 0.0), v(64.0, 64.0), v(0.0, 64.0)]),
    ])
    .unwrap();
    for x in 0..W {
        assert_eq!(shaded(&s, x, 7), (x as f32 + 0.5) / 64.0 < 0.5, "x {x}");
    }
}

#[test]
fn depth_bounds_test_the_stored_value() {
    let mut s = scene();
    fill_depth(&s, |x, _| x as f32 / 64.0);
    s.set(DB_DEPTH_CONTROL, DB_DEPTH_CONTROL::DEPTH_BOUNDS_ENABLE.val(1));
    s.set(DB_DEPTH_BOUNDS_MIN, f(0.25));
    s.set(DB_DEPTH_BOUNDS_MAX, f(0.75));
    s.draw(full_screen(0.9)).unwrap();
    for x in 0..W {
        assert_eq!(shaded(&s, x, 0), (16..=48).contains(&x), "x {x}");
    }
}

#[test]
fn incoming_depth_is_clamped_to_the_viewport_range() {
    let mut s = scene();
    fill_depth(&s, |_, _| 1.0);
    s.set(
        DB_DEPTH_CONTROL,
        DB_DEPTH_CONTROL::Z_ENABLE.val(1)
            | DB_DEPTH_CONTROL::Z_WRITE_ENABLE.val(1)
            | DB_DEPTH_CONTROL::ZFUNC.val(7),
    );
    s.set(PA_SC_VPORT_ZMIN_0, f(0.2));
    s.set(PA_SC_VPORT_ZMAX_0, f(0.3));
    s.draw(full_screen(0.5)).unwrap();
    assert_eq!(depth_at(&s, 3, 3), 0.3);
    s.draw(full_screen(-4.0)).unwrap();
    assert_eq!(depth_at(&s, 3, 3), 0.2);
}

#[test]
fn d16_depth_is_quantised_before_the_compare() {
    let mut s = scene();
    s.set(DB_Z_INFO, DB_Z_INFO::FORMAT.val(1));
    // 0.5 * 65535 = 32767.5 rounds to even: 32768. Stored 32768 compares EQUAL.
    let words: Vec<u32> = vec![32768 | 32768 << 16; (W * H / 2) as usize];
    s.depth.map.write_u32s(0, &words).unwrap();
    s.set(DB_DEPTH_CONTROL, DB_DEPTH_CONTROL::Z_ENABLE.val(1) | DB_DEPTH_CONTROL::ZFUNC.val(2));
    s.draw(full_screen(0.5)).unwrap();
    assert!(shaded(&s, 10, 10));
    s.fill_color(&[0]);
    // 0.5 + 1/65535 would round back to 32768 (ties to even); 2/65535 lands on 32770.
    s.draw(full_screen(0.5 + 2.0 / 65535.0)).unwrap();
    assert!(!shaded(&s, 10, 10));
}

fn stencil_ref(op: u32, s: u8, reference: u8, opval: u8) -> u8 {
    match op {
        0 => s,
        1 => 0,
        2 => 255,
        3 => reference,
        4 => opval,
        5 => s.saturating_add(opval),
        6 => s.saturating_sub(opval),
        7 => !s,
        8 => s.wrapping_add(opval),
        9 => s.wrapping_sub(opval),
        10 => s & opval,
        11 => s | opval,
        12 => s ^ opval,
        13 => !(s & opval),
        14 => !(s | opval),
        _ => !(s ^ opval),
    }
}

#[test]
fn every_stencil_op_on_fail_zfail_and_zpass() {
    // Columns: stencil value x * 4 + 1 (x < 32: test LESS ref 100 vs value; depth fails for
    // odd rows). fail / zfail / zpass get three different ops.
    for op in 0..16u32 {
        let mut s = scene();
        for y in 0..H {
            let row: Vec<u8> = (0..W).map(|x| (x * 4 + 1) as u8).collect();
            s.stencil.map.write((y * 256) as usize, &row).unwrap();
        }
        fill_depth(&s, |_, y| if y % 2 == 0 { 1.0 } else { 0.0 });
        let (fail, zfail, zpass) = (op, (op + 5) % 16, (op + 11) % 16);
        s.set(
            DB_DEPTH_CONTROL,
            DB_DEPTH_CONTROL::STENCIL_ENABLE.val(1)
                | DB_DEPTH_CONTROL::Z_ENABLE.val(1)
                | DB_DEPTH_CONTROL::ZFUNC.val(1)
                | DB_DEPTH_CONTROL::STENCILFUNC.val(1),
        );
        s.set(
            DB_STENCIL_CONTROL,
            DB_STENCIL_CONTROL::STENCILFAIL.val(fail)
                | DB_STENCIL_CONTROL::STENCILZFAIL.val(zfail)
                | DB_STENCIL_CONTROL::STENCILZPASS.val(zpass),
        );
        // ref 100, compare mask 0xff, write mask 0x7f, op value 3.
        s.set(DB_STENCILREFMASK, 100 | 0xff << 8 | 0x7f << 16 | 3 << 24);
        s.draw(full_screen(0.5)).unwrap();
        let mut got = vec![0u8; (256 * H) as usize];
        s.stencil.map.read(0, &mut got).unwrap();
        for y in 0..H {
            for x in 0..W {
                let old = (x * 4 + 1) as u8;
                let stencil_pass = 100 < old;
                let z_pass = y % 2 == 0;
                let o = if !stencil_pass {
                    fail
                } else if z_pass {
                    zpass
                } else {
                    zfail
                };
                let new = stencil_ref(o, old, 100, 3);
                let want = (old & 0x80) | (new & 0x7f);
                assert_eq!(got[(y * 256 + x) as usize], want, "op {o} ({x}, {y})");
                assert_eq!(shaded(&s, x, y), stencil_pass && z_pass);
            }
        }
    }
}

#[test]
fn back_faces_use_the_back_stencil_state() {
    let mut s = scene();
    s.set(
        DB_DEPTH_CONTROL,
        DB_DEPTH_CONTROL::STENCIL_ENABLE.val(1)
            | DB_DEPTH_CONTROL::BACKFACE_ENABLE.val(1)
            | DB_DEPTH_CONTROL::STENCILFUNC.val(7)
            | DB_DEPTH_CONTROL::STENCILFUNC_BF.val(7),
    );
    s.set(
        DB_STENCIL_CONTROL,
        DB_STENCIL_CONTROL::STENCILZPASS.val(3) | DB_STENCIL_CONTROL::STENCILZPASS_BF.val(4),
    );
    s.set(DB_STENCILREFMASK, 7 | 0xff << 8 | 0xff << 16);
    s.set(DB_STENCILREFMASK_BF, 9 | 0xff << 8 | 0xff << 16 | 42 << 24);
    let mut prims = full_screen(0.5);
    prims[1].front_facing = false;
    s.draw(prims).unwrap();
    let mut got = vec![0u8; (256 * H) as usize];
    s.stencil.map.read(0, &mut got).unwrap();
    assert_eq!(got[0], 7, "front: REPLACE_TEST with the front reference");
    assert_eq!(got[(63 * 256 + 63) as usize], 42, "back: REPLACE_OP with the back op value");
}

#[test]
fn early_z_skips_the_shader_late_z_does_not() {
    for (order, invocations) in [(0u32, 64 * 64u64), (1, 32 * 64)] {
        let mut s = scene();
        fill_depth(&s, |x, _| if x < 32 { 1.0 } else { 0.0 });
        s.set(DB_DEPTH_CONTROL, DB_DEPTH_CONTROL::Z_ENABLE.val(1) | DB_DEPTH_CONTROL::ZFUNC.val(1));
        s.set(DB_SHADER_CONTROL, DB_SHADER_CONTROL::Z_ORDER.val(order));
        let c = s.draw(full_screen(0.5)).unwrap();
        assert_eq!(c.ps_invocations, invocations, "Z_ORDER {order}");
        assert_eq!(c.zpass_samples, 32 * 64);
        assert!(shaded(&s, 0, 0) && !shaded(&s, 40, 0));
    }
}

#[test]
fn mrtz_exports_replace_depth_and_stencil_reference() {
    let mut s = scene();
    fill_depth(&s, |_, _| 1.0);
    s.set(
        DB_DEPTH_CONTROL,
        DB_DEPTH_CONTROL::Z_ENABLE.val(1)
            | DB_DEPTH_CONTROL::Z_WRITE_ENABLE.val(1)
            | DB_DEPTH_CONTROL::ZFUNC.val(7)
            | DB_DEPTH_CONTROL::STENCIL_ENABLE.val(1)
            | DB_DEPTH_CONTROL::STENCILFUNC.val(7),
    );
    s.set(DB_STENCIL_CONTROL, DB_STENCIL_CONTROL::STENCILZPASS.val(3)); // REPLACE_TEST
    s.set(DB_STENCILREFMASK, 5 | 0xff << 8 | 0xff << 16);
    s.set(
        DB_SHADER_CONTROL,
        DB_SHADER_CONTROL::Z_EXPORT_ENABLE.val(1)
            | DB_SHADER_CONTROL::STENCIL_TEST_VAL_EXPORT_ENABLE.val(1),
    );
    s.set(SPI_SHADER_Z_FORMAT, 2); // 32_GR: depth in R, stencil reference in G
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, Vgpr(8), Literal(f(0.25)));
    p.vop1(Op::V_MOV_B32, Vgpr(9), Literal(77));
    p.i(ferrum_isa::Inst::Exp(ferrum_isa::Exp {
        target: 8,
        en: 3,
        src: [8, 9, 0, 0],
        compr: false,
        done: false,
        vm: false,
    }));
    p.vop1(Op::V_MOV_B32, Vgpr(4), Literal(f(1.0)));
    export(&mut p, 0, [4, 0, 0, 0], false).endpgm();
    s.shader(&mut p, 16);
    s.draw(full_screen(0.75)).unwrap();
    assert_eq!(depth_at(&s, 9, 9), 0.25, "the exported depth, not the interpolated 0.75");
    let mut st = [0u8; 1];
    s.stencil.map.read((9 * 256 + 9) as usize, &mut st).unwrap();
    assert_eq!(st[0], 77, "REPLACE_TEST with the exported reference");
}
