//! Scan conversion through the back end: the top-left fill rule on shared edges, sub-pixel
//! snapping per PA_SU_VTX_CNTL, scissors, sample coverage and quads with helper lanes.
//! Expectations come from the Vulkan rasterization rules, computed here independently.

mod common;

use common::asm::{Asm, Op};
use common::gfx::*;
use ferrum_isa::Operand::{Literal, Vgpr};
use ferrum_regs::gfx103::*;

/// Additive blending (ONE, ONE) of a constant 1.0 into a float target: each pixel ends up
/// holding the number of times it was shaded.
fn counting_scene() -> Scene {
    let mut s = Scene::new();
    s.target(4, 7, 0); // 32 FLOAT
    s.set(SPI_SHADER_COL_FORMAT, 1); // 32_R
    s.set(
        CB_BLEND0_CONTROL,
        CB_BLEND0_CONTROL::ENABLE.val(1)
            | CB_BLEND0_CONTROL::COLOR_SRCBLEND.val(1)
            | CB_BLEND0_CONTROL::COLOR_DESTBLEND.val(1)
            | CB_BLEND0_CONTROL::ALPHA_SRCBLEND.val(1)
            | CB_BLEND0_CONTROL::ALPHA_DESTBLEND.val(1),
    );
    let mut p = Asm::new();
    p.vop1(Op::V_MOV_B32, Vgpr(4), Literal(f(1.0)));
    export(&mut p, 0, [4, 0, 0, 0], false).endpgm();
    s.shader(&mut p, 8);
    s
}

fn counts(s: &Scene) -> Vec<f32> {
    (0..H).flat_map(|y| (0..W).map(move |x| (x, y))).map(|(x, y)| s.rgba_r(x, y)).collect()
}

trait R {
    fn rgba_r(&self, x: u32, y: u32) -> f32;
}

impl R for Scene {
    fn rgba_r(&self, x: u32, y: u32) -> f32 {
        f32::from_le_bytes(self.pixel_bytes(x, y).try_into().unwrap())
    }
}

#[test]
fn shared_edges_cover_every_pixel_exactly_once() {
    let mut s = counting_scene();
    // A 9x9 grid of vertices over the whole target, interior ones jittered; some land exactly
    // on pixel centres, some rows/columns stay on centre lines so edges run through centres.
    let n = 8;
    let mut rng = fastrand::Rng::with_seed(0x1234_5678);
    let mut grid = vec![[0f32; 2]; (n + 1) * (n + 1)];
    for j in 0..=n {
        for i in 0..=n {
            let (mut x, mut y) = ((i * 8) as f32, (j * 8) as f32);
            if i > 0 && i < n && j > 0 && j < n {
                match rng.u32(..) % 3 {
                    0 => {
                        x += 0.5;
                        y += 0.5;
                    }
                    1 => {
                        x += (rng.u32(..) % 1024) as f32 / 256.0 - 2.0;
                        y += (rng.u32(..) % 1024) as f32 / 256.0 - 2.0;
                    }
                    _ => x += 0.5,
                }
            }
            grid[j * (n + 1) + i] = [x, y];
        }
    }
    let mut prims = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let a = grid[j * (n + 1) + i];
            let b = grid[j * (n + 1) + i + 1];
            let c = grid[(j + 1) * (n + 1) + i];
            let d = grid[(j + 1) * (n + 1) + i + 1];
            // Alternate the diagonal and the winding.
            if (i + j) % 2 == 0 {
                prims.push(tri2([a, b, d], 0.5));
                prims.push(tri2([a, c, d], 0.5));
            } else {
                prims.push(tri2([b, a, c], 0.5));
                prims.push(tri2([b, d, c], 0.5));
            }
        }
    }
    // A fan around a pixel centre with spokes through pixel centres (axis-aligned edges and
    // 45-degree edges through centres), drawn on top of nothing else: use a second pass.
    s.draw(prims).unwrap();
    let c = counts(&s);
    for (i, v) in c.iter().enumerate() {
        assert_eq!(*v, 1.0, "pixel ({}, {}) shaded {v} times", i as u32 % W, i as u32 / W);
    }
}

#[test]
fn fan_through_pixel_centres_covers_each_once() {
    let mut s = counting_scene();
    let c = [32.5f32, 32.5];
    let ring: Vec<[f32; 2]> = [
        [0.0, 0.0],
        [16.5, 0.0],
        [32.5, 0.0],
        [64.0, 0.0],
        [64.0, 32.5],
        [64.0, 64.0],
        [32.5, 64.0],
        [0.0, 64.0],
        [0.0, 32.5],
        [0.0, 16.5],
    ]
    .to_vec();
    let prims =
        (0..ring.len()).map(|i| tri2([c, ring[i], ring[(i + 1) % ring.len()]], 0.0)).collect();
    s.draw(prims).unwrap();
    for (i, v) in counts(&s).iter().enumerate() {
        assert_eq!(*v, 1.0, "pixel ({}, {})", i as u32 % W, i as u32 / W);
    }
}

/// Vulkan's rule, evaluated here in exact rationals: is the centre of pixel (x, y) inside the
/// triangle (snapped to 1/256), with top-left tie breaking?
fn covered(t: [[f64; 2]; 3], x: u32, y: u32) -> bool {
    let p = [x as f64 + 0.5, y as f64 + 0.5];
    let area =
        (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[1][1] - t[0][1]) * (t[2][0] - t[0][0]);
    let t = if area < 0.0 { [t[0], t[2], t[1]] } else { t };
    (0..3).all(|i| {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        let e = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        e > 0.0 || (e == 0.0 && ((dy == 0.0 && dx > 0.0) || dy < 0.0))
    })
}

#[test]
fn vertices_snap_to_the_quant_mode_grid() {
    // x = 10.5 + 1/1024: 1/256 snapping moves it onto the centre of column 10 (a left edge
    // includes it), 1/1024 snapping keeps it right of the centre (excluded).
    let off = 1.0 / 1024.0;
    let t = [[10.5 + off, 4.0], [10.5 + off, 40.0], [30.5 + off, 40.0]];
    for (quant, grid) in [(5u32, 256.0f64), (6, 1024.0)] {
        let mut s = counting_scene();
        s.set(
            PA_SU_VTX_CNTL,
            PA_SU_VTX_CNTL::PIX_CENTER.val(1)
                | PA_SU_VTX_CNTL::ROUND_MODE.val(2)
                | PA_SU_VTX_CNTL::QUANT_MODE.val(quant),
        );
        s.draw(vec![tri2(t, 0.0)]).unwrap();
        let snapped =
            t.map(|[x, y]| [(x as f64 * grid).round() / grid, (y as f64 * grid).round() / grid]);
        for y in 0..H {
            for x in 0..W {
                let want = covered(snapped, x, y) as u32 as f32;
                assert_eq!(s.rgba_r(x, y), want, "quant {quant}: pixel ({x}, {y})");
            }
        }
        assert_eq!(s.rgba_r(10, 20), if quant == 5 { 1.0 } else { 0.0 });
    }
}

#[test]
fn random_triangles_match_the_reference_rule() {
    let mut rng = fastrand::Rng::with_seed(99);
    for _ in 0..20 {
        let mut s = counting_scene();
        let t: [[f32; 2]; 3] = core::array::from_fn(|_| {
            [(rng.u32(..) % (64 * 256)) as f32 / 256.0, (rng.u32(..) % (64 * 256)) as f32 / 256.0]
        });
        s.draw(vec![tri2(t, 0.0)]).unwrap();
        let tt = t.map(|[x, y]| [x as f64, y as f64]);
        for y in 0..H {
            for x in 0..W {
                assert_eq!(s.rgba_r(x, y), covered(tt, x, y) as u32 as f32, "{t:?} ({x}, {y})");
            }
        }
    }
}

#[test]
fn scissors_and_window_offset_clip() {
    let mut s = counting_scene();
    s.set(PA_SC_GENERIC_SCISSOR_TL, 5 | 6 << 16);
    s.set(PA_SC_GENERIC_SCISSOR_BR, 40 | 50 << 16);
    // The window scissor moves with the window offset (2, 3): [2+0, 3+0) .. (2+30, 3+30).
    s.set(PA_SC_WINDOW_OFFSET, 2 | 3 << 16);
    s.set(PA_SC_WINDOW_SCISSOR_TL, 0);
    s.set(PA_SC_WINDOW_SCISSOR_BR, 30 | 30 << 16);
    // The generic scissor opts out of the offset.
    s.set(PA_SC_GENERIC_SCISSOR_TL, 5 | 6 << 16 | 1 << 31);
    s.draw(vec![
        tri2([[0.0, 0.0], [64.0, 0.0], [0.0, 64.0]], 0.0),
        tri2([[64.0, 0.0], [64.0, 64.0], [0.0, 64.0]], 0.0),
    ])
    .unwrap();
    for y in 0..H {
        for x in 0..W {
            let inside = (5..32).contains(&x) && (6..33).contains(&y);
            assert_eq!(s.rgba_r(x, y), inside as u32 as f32, "({x}, {y})");
        }
    }
}

#[test]
fn the_counting_harness_sees_overlap() {
    let mut s = counting_scene();
    let t = tri2([[0.0, 0.0], [64.0, 0.0], [0.0, 64.0]], 0.0);
    s.draw(vec![t.clone(), t]).unwrap();
    assert_eq!(s.rgba_r(1, 1), 2.0);
    assert_eq!(s.rgba_r(63, 63), 0.0);
}

fn point(x: f32, y: f32, size: f32) -> ferrum_sim::gfx::SetupPrim {
    let mut p = tri2([[x, y], [x, y], [x, y]], 0.0);
    p.kind = ferrum_sim::gfx::PrimKind::Point;
    p.v.truncate(1);
    p.point_size = size;
    p
}

fn line(a: [f32; 2], b: [f32; 2], width: f32) -> ferrum_sim::gfx::SetupPrim {
    let mut p = tri2([a, b, b], 0.0);
    p.kind = ferrum_sim::gfx::PrimKind::Line;
    p.v.truncate(2);
    p.line_width = width;
    p
}

#[test]
fn points_are_squares_around_the_vertex() {
    let mut s = counting_scene();
    s.draw(vec![point(10.0, 10.0, 4.0), point(40.5, 30.5, 3.0)]).unwrap();
    for y in 0..H {
        for x in 0..W {
            let want = ((8..12).contains(&x) && (8..12).contains(&y))
                || ((39..42).contains(&x) && (29..32).contains(&y));
            assert_eq!(s.rgba_r(x, y), want as u32 as f32, "({x}, {y})");
        }
    }
}

#[test]
fn lines_are_rectangles_of_their_width() {
    let mut s = counting_scene();
    s.draw(vec![line([5.0, 20.5], [30.0, 20.5], 1.0), line([50.5, 2.0], [50.5, 12.0], 3.0)])
        .unwrap();
    for y in 0..H {
        for x in 0..W {
            let want = (y == 20 && (5..30).contains(&x))
                || ((49..52).contains(&x) && (2..12).contains(&y));
            assert_eq!(s.rgba_r(x, y), want as u32 as f32, "({x}, {y})");
        }
    }
}

#[test]
fn point_sprite_coordinates_run_from_the_top_left_corner() {
    let mut s = Scene::new();
    s.set(
        SPI_PS_IN_CONTROL,
        SPI_PS_IN_CONTROL::PS_W32_EN.val(1) | SPI_PS_IN_CONTROL::NUM_INTERP.val(1),
    );
    s.set(SPI_PS_INPUT_CNTL_0, SPI_PS_INPUT_CNTL_0::PT_SPRITE_TEX.val(1));
    let mut p = Asm::new();
    p.sop1(Op::S_MOV_B32, ferrum_isa::Operand::Special(ferrum_isa::Special::M0), common::asm::S(0));
    for c in 0..4u8 {
        vintrp(&mut p, Op::V_INTERP_P1_F32, 4 + c, 0, 0, c);
        vintrp(&mut p, Op::V_INTERP_P2_F32, 4 + c, 1, 0, c);
    }
    export(&mut p, 0, [4, 5, 6, 7], false).endpgm();
    s.shader(&mut p, 8);
    s.draw(vec![point(10.0, 20.0, 4.0)]).unwrap();
    for (x, y) in [(8u32, 18u32), (11, 18), (9, 21)] {
        let got = s.rgba(x, y);
        let want = [(x as f32 + 0.5 - 8.0) / 4.0, (y as f32 + 0.5 - 18.0) / 4.0, 0.0, 1.0];
        for c in 0..4 {
            assert!((got[c] - want[c]).abs() < 1e-6, "({x}, {y}): {got:?} vs {want:?}");
        }
    }
}

#[test]
fn huge_and_nan_coordinates_neither_panic_nor_draw_outside() {
    let mut s = counting_scene();
    let big = [[-1e30f32, -1e30], [1e30, -1e30], [0.0, 1e30]];
    s.draw(vec![tri2(big, 0.0), tri2([[f32::NAN, 0.0], [10.0, 0.0], [0.0, 10.0]], 0.0)]).unwrap();
    // The clamped triangle covers the whole target once.
    assert_eq!(s.rgba_r(32, 32), 1.0);
}
