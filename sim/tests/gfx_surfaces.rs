//! Render targets in swizzled layouts: a 4x MSAA colour target (R_64KB_X) written per covered
//! sample and resolved with CB_COLOR_CONTROL.MODE = CB_RESOLVE, and a depth surface in
//! Z_64KB_X. Sample placement is checked through the texture unit's addressing
//! (`tex::surface::texel_offset`, itself checked against AMD's addrlib).

mod common;

use common::asm::Asm;
use common::gfx::*;
use ferrum_regs::gfx103::*;
use ferrum_sim::tex::surface::{texel_offset, Dim, SurfaceDesc};

const LOCS4: [(i32, i32); 4] = [(-2, -6), (6, -2), (-6, 2), (2, 6)];

fn desc(sw_mode: u32, bpe_log2: u32, samples_log2: u32) -> SurfaceDesc {
    SurfaceDesc {
        sw_mode,
        dim: Dim::D2,
        bpe_log2,
        width: W,
        height: H,
        slices: 1,
        mips: 1,
        samples_log2,
        pitch: None,
        pipe_bank_xor: 0,
    }
}

fn inside(t: [[f64; 2]; 3], px: f64, py: f64) -> bool {
    let e = |a: [f64; 2], b: [f64; 2]| (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
    let (e0, e1, e2) = (e(t[0], t[1]), e(t[1], t[2]), e(t[2], t[0]));
    (e0 > 0.0 && e1 > 0.0 && e2 > 0.0) || (e0 < 0.0 && e1 < 0.0 && e2 < 0.0)
}

fn msaa_scene() -> (Scene, common::Buffer) {
    let mut s = Scene::new();
    let msaa = s.gpu.buffer(256 << 10);
    s.set(PA_SC_MODE_CNTL_0, PA_SC_MODE_CNTL_0::MSAA_ENABLE.val(1));
    s.set(PA_SC_AA_CONFIG, PA_SC_AA_CONFIG::MSAA_NUM_SAMPLES.val(2));
    let mut word = 0u32;
    for (i, (x, y)) in LOCS4.iter().enumerate() {
        word |= ((*x as u32) & 0xf) << (8 * i) | ((*y as u32) & 0xf) << (8 * i + 4);
    }
    for px in 0..4 {
        s.set(PA_SC_AA_SAMPLE_LOCS_PIXEL_X0Y0_0 + 16 * px, word);
    }
    s.target(10, 0, 0); // RGBA8 UNORM
    s.set(CB_COLOR0_BASE, (msaa.va >> 8) as u32);
    s.set(
        CB_COLOR0_ATTRIB,
        CB_COLOR0_ATTRIB::NUM_SAMPLES.val(2) | CB_COLOR0_ATTRIB::NUM_FRAGMENTS.val(2),
    );
    s.set(CB_COLOR0_ATTRIB3, CB_COLOR0_ATTRIB3::COLOR_SW_MODE.val(27));
    (s, msaa)
}

#[test]
fn msaa_colour_is_written_per_covered_sample_and_resolves() {
    let (mut s, msaa) = msaa_scene();
    let mut p = Asm::new();
    export_const(&mut p, [f(1.0), f(0.5), f(0.0), f(1.0)]).endpgm();
    s.shader(&mut p, 8);
    let t = [[3.3f32, 2.7], [50.1, 20.6], [11.8, 47.2]];
    s.draw(vec![tri2(t, 0.0)]).unwrap();
    let tt =
        t.map(|[x, y]| [(x as f64 * 256.0).round() / 256.0, (y as f64 * 256.0).round() / 256.0]);
    let d = desc(27, 2, 2);
    let mut count = [[0u32; 64]; 64];
    for y in 0..H {
        for x in 0..W {
            for (i, (dx, dy)) in LOCS4.iter().enumerate() {
                let hit = inside(
                    tt,
                    x as f64 + 0.5 + *dx as f64 / 16.0,
                    y as f64 + 0.5 + *dy as f64 / 16.0,
                );
                let off = texel_offset(&d, x, y, 0, 0, i as u32).unwrap() as usize;
                let got = msaa.map.read_u32(off).unwrap();
                assert_eq!(got, if hit { 0xff00_80ff } else { 0 }, "({x}, {y}) sample {i}");
                count[y as usize][x as usize] += hit as u32;
            }
        }
    }
    // Resolve into target 1 (linear, the scene's colour buffer) over the whole screen.
    s.set(CB_COLOR_CONTROL, CB_COLOR_CONTROL::MODE.val(3) | CB_COLOR_CONTROL::ROP3.val(0xcc));
    s.set(CB_COLOR0_BASE + 0x3c, (s.color.va >> 8) as u32);
    s.set(CB_COLOR1_INFO, s.regs.get(CB_COLOR0_INFO));
    s.set(CB_COLOR1_ATTRIB2, s.regs.get(CB_COLOR0_ATTRIB2));
    for reg in [CB_COLOR1_VIEW, CB_COLOR1_ATTRIB, CB_COLOR1_ATTRIB3, CB_BLEND1_CONTROL] {
        s.set(reg, 0);
    }
    s.set(CB_COLOR1_BASE_EXT, (s.color.va >> 40) as u32);
    s.set(CB_TARGET_MASK, 0xff);
    s.set(CB_SHADER_MASK, 0xff);
    s.set(PA_SC_MODE_CNTL_0, 0);
    s.draw(vec![
        tri2([[0.0, 0.0], [64.0, 0.0], [0.0, 64.0]], 0.0),
        tri2([[64.0, 0.0], [64.0, 64.0], [0.0, 64.0]], 0.0),
    ])
    .unwrap();
    let un = |v: f64| (v * 255.0).round_ties_even() as u8;
    for y in 0..H {
        for x in 0..W {
            let n = count[y as usize][x as usize] as f64 / 4.0;
            // Samples hold 255 / 128 / 0 / 255; the resolve averages the decoded values.
            let got = s.pixel_bytes(x, y);
            assert_eq!(got[0], un(n), "({x}, {y}) red");
            assert_eq!(got[1], un(n * 128.0 / 255.0), "({x}, {y}) green");
            assert_eq!(got[2], 0);
            assert_eq!(got[3], un(n), "({x}, {y}) alpha");
        }
    }
}

#[test]
fn depth_in_z_64kb_x_is_where_the_addressing_says() {
    let mut s = Scene::new();
    let z = s.gpu.buffer(256 << 10);
    s.depth_target(false);
    s.set(DB_Z_INFO, DB_Z_INFO::FORMAT.val(3) | DB_Z_INFO::SW_MODE.val(24));
    s.set(DB_Z_READ_BASE, (z.va >> 8) as u32);
    s.set(DB_Z_WRITE_BASE, (z.va >> 8) as u32);
    s.set(
        DB_DEPTH_CONTROL,
        DB_DEPTH_CONTROL::Z_ENABLE.val(1)
            | DB_DEPTH_CONTROL::Z_WRITE_ENABLE.val(1)
            | DB_DEPTH_CONTROL::ZFUNC.val(7),
    );
    let mut p = Asm::new();
    export_const(&mut p, [0; 4]).endpgm();
    s.shader(&mut p, 8);
    // z = (x + y) / 128 as a plane.
    let v = |x: f32, y: f32| vtx(x, y, (x + y) / 128.0, 1.0, vec![]);
    s.draw(vec![
        tri([v(0.0, 0.0), v(64.0, 0.0), v(0.0, 64.0)]),
        tri([v(64.0, 0.0), v(64.0, 64.0), v(0.0, 64.0)]),
    ])
    .unwrap();
    let d = desc(24, 2, 0);
    for y in 0..H {
        for x in 0..W {
            let off = texel_offset(&d, x, y, 0, 0, 0).unwrap() as usize;
            let got = f32::from_bits(z.map.read_u32(off).unwrap());
            let want = (x as f64 + 0.5 + y as f64 + 0.5) / 128.0;
            assert!((got as f64 - want).abs() < 1e-6, "({x}, {y}): {got} vs {want}");
        }
    }
    // Base bits below the 64 KiB block are the tile swizzle, not an address: a mode without
    // pipe/bank XOR (S_64KB) with such bits is refused.
    s.set(DB_Z_INFO, DB_Z_INFO::FORMAT.val(3) | DB_Z_INFO::SW_MODE.val(9));
    s.set(DB_Z_READ_BASE, (z.va >> 8) as u32 | 1);
    s.set(DB_Z_WRITE_BASE, (z.va >> 8) as u32 | 1);
    assert!(s.draw(vec![tri([v(0.0, 0.0), v(64.0, 0.0), v(0.0, 64.0)])]).is_err());
}

#[test]
fn per_sample_shading_runs_once_per_covered_sample() {
    let (mut s, msaa) = msaa_scene();
    s.target(11, 4, 0); // 32_32 UINT
    s.set(CB_COLOR0_BASE, (msaa.va >> 8) as u32);
    s.set(
        CB_COLOR0_ATTRIB,
        CB_COLOR0_ATTRIB::NUM_SAMPLES.val(2) | CB_COLOR0_ATTRIB::NUM_FRAGMENTS.val(2),
    );
    s.set(CB_COLOR0_ATTRIB3, CB_COLOR0_ATTRIB3::COLOR_SW_MODE.val(27));
    s.set(DB_EQAA, DB_EQAA::PS_ITER_SAMPLES.val(2));
    s.inputs(1 << 1 | 1 << 13 | 1 << 14); // ANCILLARY in v2, SAMPLE_COVERAGE in v3
    s.set(SPI_SHADER_COL_FORMAT, 2); // 32_GR
    let mut p = Asm::new();
    export(&mut p, 0, [2, 3, 0, 0], false).endpgm();
    s.shader(&mut p, 8);
    let t = [[3.3f32, 2.7], [50.1, 20.6], [11.8, 47.2]];
    let c = s.draw(vec![tri2(t, 0.0)]).unwrap();
    let tt =
        t.map(|[x, y]| [(x as f64 * 256.0).round() / 256.0, (y as f64 * 256.0).round() / 256.0]);
    let d = desc(27, 3, 2);
    let mut samples = 0;
    for y in 0..H {
        for x in 0..W {
            for (i, (dx, dy)) in LOCS4.iter().enumerate() {
                let hit = inside(
                    tt,
                    x as f64 + 0.5 + *dx as f64 / 16.0,
                    y as f64 + 0.5 + *dy as f64 / 16.0,
                );
                let off = texel_offset(&d, x, y, 0, 0, i as u32).unwrap() as usize;
                let got = msaa.map.read_u32s(off, 2).unwrap();
                let want = if hit { [(i as u32) << 8, 1 << i] } else { [0, 0] };
                assert_eq!(
                    got, want,
                    "({x}, {y}) sample {i}: ANCILLARY sample id, one-sample coverage"
                );
                samples += hit as u64;
            }
        }
    }
    assert_eq!(c.ps_invocations, samples, "one invocation per covered sample");
}
