use super::*;

fn vp(x: f32, y: f32, w: f32, h: f32, n: f32, f: f32) -> vk::Viewport {
    vk::Viewport { x, y, width: w, height: h, min_depth: n, max_depth: f }
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

#[test]
fn viewport_transform_registers() {
    let regs = viewports(&[vp(10.0, 20.0, 100.0, 50.0, 0.25, 0.75)]);
    // PA_CL_VPORT_XSCALE.. ZOFFSET at 0x2843c..0x28450, then ZMIN/ZMAX at 0x282d0.
    assert_eq!(
        regs.0,
        vec![
            (0x2843c, f(50.0)),
            (0x28440, f(60.0)),
            (0x28444, f(25.0)),
            (0x28448, f(45.0)),
            (0x2844c, f(0.5)),
            (0x28450, f(0.25)),
            (0x282d0, f(0.25)),
            (0x282d4, f(0.75)),
        ]
    );
}

#[test]
fn negative_height_and_reversed_depth() {
    let regs = viewports(&[vp(0.0, 64.0, 64.0, -64.0, 1.0, 0.0)]);
    assert_eq!(regs.get(0x28444), Some(f(-32.0)));
    assert_eq!(regs.get(0x28448), Some(f(32.0)));
    assert_eq!(regs.get(0x2844c), Some(f(-1.0)));
    assert_eq!(regs.get(0x28450), Some(f(1.0)));
    assert_eq!(regs.get(0x282d0), Some(f(0.0)));
    assert_eq!(regs.get(0x282d4), Some(f(1.0)));
}

#[test]
fn second_viewport_uses_its_stride() {
    let v = vp(0.0, 0.0, 2.0, 2.0, 0.0, 1.0);
    let regs = viewports(&[v, vp(0.0, 0.0, 4.0, 4.0, 0.0, 1.0)]);
    assert_eq!(regs.get(0x28454), Some(f(2.0)), "PA_CL_VPORT_XSCALE_1");
    assert_eq!(regs.get(0x282dc), Some(f(1.0)), "PA_SC_VPORT_ZMAX_1");
    assert_eq!(viewports(&[v; 20]).len(), 16 * 8, "at most 16 viewports");
}

#[test]
fn scissor_is_intersected_with_viewport() {
    let s = vk::Rect2D {
        offset: vk::Offset2D { x: 5, y: 6 },
        extent: vk::Extent2D { width: 100, height: 100 },
    };
    let regs = scissors(&[vp(0.0, 0.0, 50.5, 40.0, 0.0, 1.0)], &[s]);
    // TL: x 5, y 6, WINDOW_OFFSET_DISABLE; BR exclusive: min(105, ceil(50.5)) = 51, 40.
    assert_eq!(regs.0, vec![(0x28250, 5 | 6 << 16 | 1 << 31), (0x28254, 51 | 40 << 16)]);
}

#[test]
fn max_scissor_clamps_to_16384() {
    let s = vk::Rect2D {
        offset: vk::Offset2D { x: 0, y: 0 },
        extent: vk::Extent2D { width: i32::MAX as u32, height: u32::MAX },
    };
    let big = vp(0.0, 0.0, 16384.0, 16384.0, 0.0, 1.0);
    let regs = scissors(&[big], &[s]);
    assert_eq!(regs.0[1], (0x28254, 16384 | 16384 << 16));
    // A viewport with negative height covers the rows above y.
    let flipped = scissors(&[vp(0.0, 16384.0, 16384.0, -16384.0, 0.0, 1.0)], &[s]);
    assert_eq!(flipped.0, vec![(0x28250, 1 << 31), (0x28254, 16384 | 16384 << 16)]);
    // A scissor outside the viewport becomes empty, never inverted.
    let off = vk::Rect2D {
        offset: vk::Offset2D { x: 100, y: 100 },
        extent: vk::Extent2D { width: 5, height: 5 },
    };
    let empty = scissors(&[vp(0.0, 0.0, 10.0, 10.0, 0.0, 1.0)], &[off]);
    assert_eq!(empty.0, vec![(0x28250, 100 | 100 << 16 | 1 << 31), (0x28254, 100 | 100 << 16)]);
}

#[test]
fn render_area_sets_screen_window_generic() {
    let area = vk::Rect2D {
        offset: vk::Offset2D { x: 0, y: 0 },
        extent: vk::Extent2D { width: 640, height: 480 },
    };
    let regs = render_area(&area);
    assert_eq!(regs.get(0x28200), Some(0));
    assert_eq!(regs.get(0x28030), Some(0));
    assert_eq!(regs.get(0x28034), Some(640 | 480 << 16));
    assert_eq!(regs.get(0x28204), Some(1 << 31));
    assert_eq!(regs.get(0x28208), Some(640 | 480 << 16));
    assert_eq!(regs.get(0x28240), Some(1 << 31));
    assert_eq!(regs.get(0x28244), Some(640 | 480 << 16));
}

#[test]
fn guard_band_for_triangles_lines_and_tiny_viewports() {
    let regs = guard_band(&[vp(0.0, 0.0, 1000.0, 500.0, 0.0, 1.0)], RastPrim::Triangles);
    // x: scale 500, offset 500 -> (32767 - 500) / 500; y: scale 250, offset 250.
    assert_eq!(regs.get(0x28bf0), Some(f((32767.0 - 500.0) / 500.0)));
    assert_eq!(regs.get(0x28be8), Some(f((32767.0 - 250.0) / 250.0)));
    assert_eq!(regs.get(0x28bf4), Some(f(1.0)));
    assert_eq!(regs.get(0x28bec), Some(f(1.0)));
    let lines = guard_band(&[vp(0.0, 0.0, 1000.0, 500.0, 0.0, 1.0)], RastPrim::Lines(4.0));
    assert_eq!(lines.get(0x28bf4), Some(f(1.0 + 2.0 / 500.0)));
    assert_eq!(lines.get(0x28bec), Some(f(1.0 + 2.0 / 250.0)));
    // A zero-sized viewport takes its half extent as 0.5 pixel.
    let tiny = guard_band(&[vp(3.0, 3.0, 0.0, 0.0, 0.0, 1.0)], RastPrim::Triangles);
    assert_eq!(tiny.get(0x28bf0), Some(f((32767.0 - 3.0) / 0.5)));
    // Negative height: the band uses |scale|.
    let flip = guard_band(&[vp(0.0, 500.0, 1000.0, -500.0, 0.0, 1.0)], RastPrim::Triangles);
    assert_eq!(flip.get(0x28be8), Some(f((32767.0 - 250.0) / 250.0)));
}

#[test]
fn vte_enables_all_and_w0() {
    assert_eq!(vte_cntl(), 0x43f);
}
