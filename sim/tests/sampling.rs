//! MIMG sampling through hand-assembled shaders: address modes, filters, mips, LOD,
//! compare, gather, cubes and 3D, against filter formulas computed by hand.

mod common;
mod tex;

use common::asm::{Asm, Op};
use ferrum_sim::tex::surface::{texel_offset, Dim, SurfaceDesc};
use tex::*;

#[test]
fn nearest_sampling_in_every_address_mode() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 1);
    let pts = [(0.1, 0.1), (0.9, 0.6), (1.3, 0.4), (-0.2, 0.1), (2.2, -0.6)];
    let coords = st(&pts, 0.0);
    // (mode, texel coordinate mapping, border?)
    type Map = fn(i32) -> Option<i32>;
    let cases: [(u32, Map); 5] = [
        (0, |i| Some(i.rem_euclid(4))),
        (1, |i| Some(if i.rem_euclid(8) >= 4 { 7 - i.rem_euclid(8) } else { i.rem_euclid(8) })),
        (2, |i| Some(i.clamp(0, 3))),
        (3, |i| Some((if i < 0 { -1 - i } else { i }).clamp(0, 3))),
        (6, |i| (0..4).contains(&i).then_some(i)),
    ];
    for (mode, map) in cases {
        let got = rig.run(&t, s_sharp(mode, 0, 0, 0, 2), mimg(Op::IMAGE_SAMPLE_L, 1, 1), &coords);
        for (p, g) in pts.iter().zip(&got) {
            let (i, j) = ((p.0 * 4.0).floor() as i32, (p.1 * 4.0).floor() as i32);
            let want = match (map(i), map(j)) {
                (Some(x), Some(y)) => value(x, y, 0),
                _ => 1.0, // opaque white border
            };
            assert_eq!(f32::from_bits(g[0]), want, "mode {mode} at {p:?}");
        }
    }
}

#[test]
fn bilinear_weights_have_eight_fractional_bits() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 1);
    let pts = [(0.3, 0.6), (0.5, 0.5), (0.126, 0.874)];
    let got = rig.run(&t, s_sharp(2, 1, 0, 0, 0), mimg(Op::IMAGE_SAMPLE_L, 1, 1), &st(&pts, 0.0));
    for (p, g) in pts.iter().zip(&got) {
        // The image is linear in x and y, so bilinear filtering returns the (quantised)
        // sample position itself: u = 4s − 0.5 with 8 fractional bits.
        let q = |c: f32| ((4.0 * c as f64 - 0.5) * 256.0).floor() / 256.0;
        let want = q(p.0) + 10.0 * q(p.1);
        assert!(
            (f32::from_bits(g[0]) as f64 - want).abs() < 1e-4,
            "{p:?}: {}",
            f32::from_bits(g[0])
        );
    }
}

#[test]
fn mip_selection_trilinear_and_the_last_level() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 3);
    let p = [(0.6, 0.6)];
    let at = |s: [u32; 4], lod: f32| {
        let g = rig.run(&t, s, mimg(Op::IMAGE_SAMPLE_L, 1, 1), &st(&p, lod));
        f32::from_bits(g[0][0])
    };
    let point_mips = s_sharp(2, 0, 1, 0, 0);
    assert_eq!(at(point_mips, 0.0), value(2, 2, 0));
    assert_eq!(at(point_mips, 0.49), value(2, 2, 0));
    assert_eq!(at(point_mips, 0.51), value(1, 1, 1));
    assert_eq!(at(point_mips, 2.0), value(0, 0, 2), "last level (1x1)");
    assert_eq!(at(point_mips, 7.0), value(0, 0, 2), "clamped to the last level");
    // Linear mips with point texels: LOD 1.25 blends levels 1 and 2 with 8-bit weights.
    let lin = at(s_sharp(2, 0, 2, 0, 0), 1.25);
    assert_eq!(lin, 0.75 * value(1, 1, 1) + 0.25 * value(0, 0, 2));
    // No mip filter: always the base level.
    assert_eq!(at(s_sharp(2, 0, 0, 0, 0), 2.0), value(2, 2, 0));
    // A view whose base level is 1.
    let view = T { base_level: 1, ..t };
    let g = rig.run(&view, point_mips, mimg(Op::IMAGE_SAMPLE_L, 1, 1), &st(&p, 0.0));
    assert_eq!(f32::from_bits(g[0][0]), value(1, 1, 1));
}

#[test]
fn implicit_lod_from_quad_derivatives() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 3);
    // Quads whose lanes step 1 texel (LOD 0) and 2 texels (LOD 1) in x and y.
    let mut coords = Vec::new();
    for step in [0.25f32, 0.5] {
        for k in 0..4 {
            let (dx, dy) = ((k & 1) as f32, (k >> 1) as f32);
            coords.push([f(0.1 + step * dx), f(0.1 + step * dy), 0, 0]);
        }
    }
    let got = rig.run(&t, s_sharp(2, 0, 1, 0, 0), mimg(Op::IMAGE_SAMPLE, 1, 1), &coords);
    assert_eq!(f32::from_bits(got[0][0]), value(0, 0, 0));
    assert_eq!(f32::from_bits(got[3][0]), value(1, 1, 0));
    assert_eq!(f32::from_bits(got[4][0]), value(0, 0, 1));
}

#[test]
fn depth_compare_gather_and_queries() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 2);
    // image_sample_c_lz: address = (reference, s, t); LESS passes when reference < texel.
    let c: Vec<[u32; 4]> = [(11.5, 0.4, 0.4), (10.5, 0.4, 0.4)]
        .iter()
        .map(|&(r, s, t)| [f(r), f(s), f(t), 0])
        .collect();
    let got = rig.run(&t, s_sharp(2, 0, 0, 1, 0), mimg(Op::IMAGE_SAMPLE_C_LZ, 1, 1), &c);
    assert_eq!(f32::from_bits(got[0][0]), 0.0, "11.5 < 11 fails");
    assert_eq!(f32::from_bits(got[1][0]), 1.0, "10.5 < 11 passes");
    // image_gather4_lz: the 2x2 footprint of (0.5, 0.5) is texels 1..2 in x and y, returned
    // as (i0,j1), (i1,j1), (i1,j0), (i0,j0).
    let g = rig.run(
        &t,
        s_sharp(2, 1, 0, 0, 0),
        mimg(Op::IMAGE_GATHER4_LZ, 1, 1),
        &st(&[(0.5, 0.5)], 0.0),
    );
    let want = [value(1, 2, 0), value(2, 2, 0), value(2, 1, 0), value(1, 1, 0)];
    assert_eq!(g[0].map(f32::from_bits), want);
    // image_get_resinfo at levels 0, 1 and beyond the view.
    let r = rig.run(
        &t,
        [0; 4],
        mimg(Op::IMAGE_GET_RESINFO, 0xf, 1),
        &[[0; 4], [1, 0, 0, 0], [5, 0, 0, 0]],
    );
    assert_eq!(r[0], [4, 4, 1, 2]);
    assert_eq!(r[1], [2, 2, 1, 2]);
    assert_eq!(r[2], [0, 0, 0, 2]);
}

#[test]
fn unnormalized_coordinates_and_min_max_reduction() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 1);
    let mut inst = mimg(Op::IMAGE_SAMPLE_LZ, 1, 1);
    inst.unorm = true;
    let g = rig.run(&t, s_sharp(2, 0, 0, 0, 0), inst, &[[f(2.5), f(3.9), 0, 0]]);
    assert_eq!(f32::from_bits(g[0][0]), value(2, 3, 0));
    // FILTER_MODE max over the bilinear footprint of texels (1..2, 1..2).
    let mut s = s_sharp(2, 1, 0, 0, 0);
    s[0] |= 2 << 29;
    let g = rig.run(&t, s, mimg(Op::IMAGE_SAMPLE_LZ, 1, 1), &[[f(0.4), f(0.4), 0, 0]]);
    assert_eq!(f32::from_bits(g[0][0]), value(2, 2, 0));
}

/// Cube sampling from directions: the v_cube* helpers, 1 / |2 major| and + 1.5, as
/// compilers emit them, select the face and texel Vulkan's cube face table names.
#[test]
fn cube_faces_through_the_cube_helpers() {
    use ferrum_isa::Operand::{Literal as L, Vgpr as Vg};
    let rig = Rig::new(0);
    // A 2x2 cube, R32_FLOAT, linear: face f texel (x, y) = 100 f + x + 10 y.
    let desc = SurfaceDesc {
        sw_mode: 0,
        dim: Dim::D2,
        bpe_log2: 2,
        width: 2,
        height: 2,
        slices: 6,
        mips: 1,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    for face in 0..6 {
        for y in 0..2 {
            for x in 0..2 {
                let o = texel_offset(&desc, x, y, face, 0, 0).unwrap() as usize;
                let v = (100 * face + x + 10 * y) as f32;
                rig.image.map.write_u32s(o, &[v.to_bits()]).unwrap();
            }
        }
    }
    let t = T { ty: 11, dst_sel: 4 | 1 << 9, ..T::new(rig.image.va, 22, 2, 2) };
    {
        let mut pre = rig.pre.borrow_mut();
        let mut a = Asm::new();
        let dir = [Vg(1), Vg(2), Vg(3)];
        a.vop3(Op::V_CUBESC_F32, Vg(12), dir)
            .vop3(Op::V_CUBETC_F32, Vg(13), dir)
            .vop3(Op::V_CUBEMA_F32, Vg(14), dir)
            .vop3(Op::V_CUBEID_F32, Vg(3), dir)
            .vop2(Op::V_AND_B32, 14, L(0x7fff_ffff), 14)
            .vop1(Op::V_RCP_F32, Vg(14), Vg(14))
            .vop3(Op::V_FMA_F32, Vg(1), [Vg(12), Vg(14), L(1.5f32.to_bits())])
            .vop3(Op::V_FMA_F32, Vg(2), [Vg(13), Vg(14), L(1.5f32.to_bits())]);
        let words = a.finish();
        let mut at = 0;
        while at < words.len() {
            let (inst, len) = ferrum_isa::decode(&words[at..]).unwrap();
            pre.push(inst);
            at += len;
        }
    }
    let dirs: [[f32; 3]; 8] = [
        [1.0, 0.2, -0.3],
        [-1.0, -0.2, 0.3],
        [0.3, 1.0, 0.6],
        [0.3, -1.0, 0.6],
        [0.4, -0.6, 1.0],
        [0.4, 0.6, -1.0],
        [-0.9, 0.1, 0.95],
        [0.5, 0.5, 0.5],
    ];
    let coords: Vec<[u32; 4]> = dirs.iter().map(|d| [f(d[0]), f(d[1]), f(d[2]), 0]).collect();
    let got = rig.run(&t, s_sharp(2, 0, 0, 0, 0), mimg(Op::IMAGE_SAMPLE_L, 1, 3), &coords);
    for (d, g) in dirs.iter().zip(&got) {
        // Vulkan "Cube Map Face Selection": (face, sc, tc, ma).
        let [rx, ry, rz] = *d;
        let (face, sc, tc, ma) = if rz.abs() >= rx.abs() && rz.abs() >= ry.abs() {
            if rz >= 0.0 {
                (4, rx, -ry, rz)
            } else {
                (5, -rx, -ry, rz)
            }
        } else if ry.abs() >= rx.abs() {
            if ry >= 0.0 {
                (2, rx, rz, ry)
            } else {
                (3, rx, -rz, ry)
            }
        } else if rx >= 0.0 {
            (0, -rz, -ry, rx)
        } else {
            (1, rz, -ry, rx)
        };
        let s = 0.5 * (sc / ma.abs() + 1.0);
        let t = 0.5 * (tc / ma.abs() + 1.0);
        let (x, y) = ((s * 2.0).floor().min(1.0) as i32, (t * 2.0).floor().min(1.0) as i32);
        assert_eq!(f32::from_bits(g[0]), (100 * face + x + 10 * y) as f32, "{d:?}");
    }
}

/// 3D texture, 64 KiB S (thick) swizzle: trilinear-in-z sampling of slices 1 and 2.
#[test]
fn three_d_thick_swizzle_sampling() {
    let rig = Rig::new(0);
    let (w, h, d) = (8u32, 4u32, 4u32); // powers of two: coordinates exact in f32
    let desc = SurfaceDesc {
        sw_mode: 9,
        dim: Dim::D3,
        bpe_log2: 2,
        width: w,
        height: h,
        slices: d,
        mips: 1,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                let o = texel_offset(&desc, x, y, z, 0, 0).unwrap() as usize;
                rig.image.map.write_u32s(o, &[((x + 10 * y + 100 * z) as f32).to_bits()]).unwrap();
            }
        }
    }
    let t = T {
        ty: 10,
        sw_mode: 9,
        depth: d - 1,
        dst_sel: 4 | 1 << 9,
        ..T::new(rig.image.va, 22, w, h)
    };
    // Point sampling at texel centres, then bilinear with z halfway between slices 1 and 2.
    let s = |x: f32, n: u32| (x + 0.5) / n as f32;
    let c = [
        [f(s(3.0, w)), f(s(2.0, h)), f(s(1.0, d)), 0],
        [f(s(3.0, w)), f(s(2.0, h)), f(2.0 / 4.0), 0],
    ];
    let got = rig.run(&t, s_sharp(2, 0, 0, 0, 0), mimg(Op::IMAGE_SAMPLE_L, 1, 2), &c);
    assert_eq!(f32::from_bits(got[0][0]), 123.0);
    let got = rig.run(&t, s_sharp(2, 1, 0, 0, 0), mimg(Op::IMAGE_SAMPLE_L, 1, 2), &c);
    assert_eq!(f32::from_bits(got[1][0]), 173.0);
}

#[test]
fn texel_offsets_get_lod_and_compare_gather() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 3);
    // image_sample_lz_o: address = (offset, s, t); offsets are 6-bit signed per axis.
    let off = |x: i32, y: i32| (x as u32 & 63) | (y as u32 & 63) << 8;
    let c = [[off(1, -1), f(0.3), f(0.6), 0], [off(-2, 3), f(0.3), f(0.1), 0]];
    let got = rig.run(&t, s_sharp(0, 0, 0, 0, 0), mimg(Op::IMAGE_SAMPLE_LZ_O, 1, 1), &c);
    assert_eq!(f32::from_bits(got[0][0]), value(2, 1, 0));
    assert_eq!(f32::from_bits(got[1][0]), value(3, 3, 0), "wrapped: x = 1 - 2 = -1 -> 3");
    // image_get_lod over quads stepping 2 texels: LOD 1 (clamped and unclamped); the clamped
    // value respects the sampler's MAX_LOD (0.5 here).
    let mut coords = Vec::new();
    for k in 0..4 {
        coords.push([f(0.5 * (k & 1) as f32), f(0.5 * (k >> 1) as f32), 0, 0]);
    }
    let mut s = s_sharp(2, 1, 2, 0, 0);
    let g = rig.run(&t, s, mimg(Op::IMAGE_GET_LOD, 3, 1), &coords);
    assert_eq!([f32::from_bits(g[0][0]), f32::from_bits(g[0][1])], [1.0, 1.0]);
    s[1] = 128 << 12; // MAX_LOD 0.5
    let g = rig.run(&t, s, mimg(Op::IMAGE_GET_LOD, 3, 1), &coords);
    assert_eq!([f32::from_bits(g[0][0]), f32::from_bits(g[0][1])], [0.5, 1.0]);
    // image_gather4_c_lz: address = (reference, s, t); GREATER passes when ref > texel.
    let c = [[f(11.5), f(0.5), f(0.5), 0]];
    let g = rig.run(&t, s_sharp(2, 1, 0, 4, 0), mimg(Op::IMAGE_GATHER4_C_LZ, 1, 1), &c);
    // Footprint (i0,j1)=12, (i1,j1)=22, (i1,j0)=21, (i0,j0)=11.
    assert_eq!(g[0].map(f32::from_bits), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn integer_border_colours_and_one_d_arrays() {
    let rig = Rig::new(0);
    // R32_UINT 4x1 1D array with 3 layers: texel (x, layer) = 100 layer + x (pitch 64).
    for layer in 0..3u32 {
        for x in 0..4u32 {
            rig.image.map.write_u32s((layer * 256 + 4 * x) as usize, &[100 * layer + x]).unwrap();
        }
    }
    let t = T { ty: 12, depth: 2, dst_sel: 4 | 1 << 9, ..T::new(rig.image.va, 20, 4, 1) };
    // image_sample_lz on a 1D array: (s, layer); layer rounds to nearest and clamps.
    let c = [[f(0.6), f(1.4), 0, 0], [f(0.6), f(7.0), 0, 0], [f(1.6), f(0.0), 0, 0]];
    let got = rig.run(&t, s_sharp(6, 0, 0, 0, 2), mimg(Op::IMAGE_SAMPLE_LZ, 0xf, 4), &c);
    assert_eq!(got[0], [102, 0, 0, 1]);
    assert_eq!(got[1], [202, 0, 0, 1]);
    // Border texel of an integer format: opaque white is (1, 1, 1, 1) as integers, then
    // DST_SEL (X, 0, 0, 1) of the one-channel format applies to it as to a texel.
    assert_eq!(got[2], [1, 0, 0, 1]);
}

/// Seamless cube filtering: every texel just outside a face maps to an edge texel of
/// another face whose centre direction is within about a texel of the outside texel's.
#[test]
fn cube_neighbours_are_adjacent_texels() {
    use ferrum_sim::tex::sample::cube_neighbour;
    let n = 4u32;
    let dir = |face: u32, x: f64, y: f64| {
        let sc = 2.0 * (x + 0.5) / n as f64 - 1.0;
        let tc = 2.0 * (y + 0.5) / n as f64 - 1.0;
        let d = match face {
            0 => [1.0, -tc, -sc],
            1 => [-1.0, -tc, sc],
            2 => [sc, 1.0, tc],
            3 => [sc, -1.0, -tc],
            4 => [sc, -tc, 1.0],
            _ => [-sc, -tc, -1.0],
        };
        let l = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        d.map(|c| c / l)
    };
    for face in 0..6 {
        for k in 0..n as i64 {
            for (x, y) in [(-1, k), (n as i64, k), (k, -1), (k, n as i64)] {
                let (f, nx, ny) = cube_neighbour(face, x, y, n);
                assert_ne!(f, face);
                let (a, b) = (dir(face, x as f64, y as f64), dir(f, nx as f64, ny as f64));
                let dist =
                    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
                assert!(dist < 0.3, "face {face} ({x},{y}) -> face {f} ({nx},{ny}): {dist}");
            }
        }
    }
    // +X's left edge (sc = -1, rz = +1) continues on +Z's right edge, same row.
    assert_eq!(cube_neighbour(0, -1, 0, 2), (4, 1, 0));
}

/// Bilinear taps that cross a cube face edge read the neighbouring face, unless the S#
/// sets DISABLE_CUBE_WRAP (then the face wraps by itself with the S#'s address modes).
#[test]
fn seamless_cube_filtering_at_a_face_edge() {
    let rig = Rig::new(0);
    let desc = SurfaceDesc {
        sw_mode: 0,
        dim: Dim::D2,
        bpe_log2: 2,
        width: 2,
        height: 2,
        slices: 6,
        mips: 1,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    for face in 0..6 {
        for y in 0..2 {
            for x in 0..2 {
                let o = texel_offset(&desc, x, y, face, 0, 0).unwrap() as usize;
                let v = (100 * face + x + 10 * y) as f32;
                rig.image.map.write_u32s(o, &[v.to_bits()]).unwrap();
            }
        }
    }
    let t = T { ty: 11, dst_sel: 4 | 1 << 9, ..T::new(rig.image.va, 22, 2, 2) };
    // Face 0, face-local (0, 0.25): u = -0.5 (taps x = -1 and 0, half each), v = 0 (row 0).
    let c = [[f(1.0), f(1.25), f(0.0), 0]];
    let got = rig.run(&t, s_sharp(2, 1, 0, 0, 0), mimg(Op::IMAGE_SAMPLE_LZ, 1, 3), &c);
    assert_eq!(f32::from_bits(got[0][0]), 0.5 * 0.0 + 0.5 * 401.0);
    let mut s = s_sharp(2, 1, 0, 0, 0);
    s[0] |= 1 << 28;
    let got = rig.run(&t, s, mimg(Op::IMAGE_SAMPLE_LZ, 1, 3), &c);
    assert_eq!(f32::from_bits(got[0][0]), 0.0);
    // Without cube wrapping the face wraps by itself: REPEAT takes x = -1 from x = 1.
    let mut s = s_sharp(0, 1, 0, 0, 0);
    s[0] |= 1 << 28;
    let got = rig.run(&t, s, mimg(Op::IMAGE_SAMPLE_LZ, 1, 3), &c);
    assert_eq!(f32::from_bits(got[0][0]), 0.5 * 1.0 + 0.5 * 0.0);
}

/// Random descriptor words and coordinates never crash the texture unit: malformed
/// descriptors are errors, anything accepted is sampled, loaded and stored without panics.
#[test]
fn random_descriptors_and_coordinates_do_not_panic() {
    use ferrum_sim::tex::desc::{Ssharp, Tsharp};
    use ferrum_sim::tex::image::{Image, Memory, Texel};
    use ferrum_sim::tex::sample::{sample, Request};
    struct Zero;
    impl Memory for Zero {
        type Error = ();
        fn read(&mut self, _: u64, out: &mut [u8]) -> Result<(), ()> {
            out.fill(0x5a);
            Ok(())
        }
        fn write(&mut self, _: u64, _: &[u8]) -> Result<(), ()> {
            Ok(())
        }
    }
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut accepted, mut sampled) = (0, 0);
    for _ in 0..20000 {
        let mut w: [u32; 8] = std::array::from_fn(|_| next() as u32);
        // Bias towards valid descriptors: RESOURCE_LEVEL set, small sizes, valid selects,
        // levels and swizzle modes, common formats.
        w[2] |= 1 << 31;
        w[2] &= !(0x3ff << 14 | 0xffc);
        w[6] &= !(1 << 21);
        if next() % 2 == 0 {
            let formats = [1, 22, 56, 71, 77, 130, 132, 169, 181, 179];
            w[1] = (w[1] & !(0x1ff << 20)) | (formats[(next() % 10) as usize] << 20);
        }
        let max_mip = (next() % 8) as u32;
        let last = (next() as u32) % (max_mip + 1);
        let base = (next() as u32) % (last + 1);
        let sel = |k: u64| [0u32, 1, 4, 5, 6, 7][(k % 6) as usize];
        let modes = [0u32, 1, 2, 5, 6, 9, 10, 17, 18, 21, 22, 24, 25, 26, 27];
        w[3] = sel(next())
            | sel(next()) << 3
            | sel(next()) << 6
            | sel(next()) << 9
            | base << 12
            | last << 16
            | modes[(next() % 15) as usize] << 20
            | (8 + (next() % 8) as u32) << 28;
        w[4] &= 0x1f | 0x7 << 16;
        w[5] = (w[5] & !0xff) | max_mip << 4 | (next() % 2) as u32;
        let Ok(t) = Tsharp::parse(&w) else { continue };
        let Ok(img) = Image::new(t) else { continue };
        accepted += 1;
        let s: [u32; 4] = std::array::from_fn(|_| next() as u32);
        let p = Texel {
            x: next() as u32 % 64,
            y: next() as u32 % 64,
            z: next() as u32 % 8,
            level: next() as u32 % 16,
            sample: 0,
        };
        if img.contains(&p) {
            let _ = img.read(&mut Zero, &p);
            let _ = img.write(&mut Zero, &p, [1, 2, 3, 4]);
        }
        let Ok(s) = Ssharp::parse(&s) else { continue };
        let f = |x: u64| f32::from_bits(x as u32);
        let r = Request {
            coord: [f(next()), f(next()), f(next())],
            layer: Some(f(next())),
            lod: f(next()),
            min_lod: None,
            offset: [(next() % 64) as i32 - 32, 0, 0],
            compare: (next() % 2 == 0).then(|| f(next())),
            gather: (next() % 4 == 0).then_some((next() % 4) as usize),
            unnorm: next() % 2 == 0,
            border: None,
        };
        if !img.t.msaa() {
            let _ = sample(&img, &s, &mut Zero, &r);
            sampled += 1;
        }
    }
    assert!(accepted > 2000 && sampled > 1000, "{accepted} accepted, {sampled} sampled");
}

/// BORDER_COLOR_TYPE 3: the border colour is entry BORDER_COLOR_PTR (16 bytes, RGBA) of the
/// table at TA_CS_BC_BASE_ADDR.
#[test]
fn border_colour_from_the_table() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 1);
    // The table lives in the image buffer at +0x8000 (256-byte aligned); entry 3.
    let table = rig.image.va + 0x8000;
    let rgba = [f(0.25), f(-2.0), f(7.0), f(0.5)];
    rig.image.map.write_u32s(0x8000 + 3 * 16, &rgba).unwrap();
    rig.uconfig
        .borrow_mut()
        .extend([(0x30e00, (table >> 8) as u32), (0x30e04, (table >> 40) as u32)]);
    let mut s = s_sharp(6, 0, 0, 0, 3);
    s[3] |= 3;
    let coords = st(&[(1.5, 0.5), (0.1, 0.1)], 0.0);
    let xyzw = T { dst_sel: 0xfac, ..t };
    let got = rig.run(&xyzw, s, mimg(Op::IMAGE_SAMPLE_LZ, 0xf, 1), &coords);
    assert_eq!(got[0], rgba);
    assert_eq!(got[1], [f(0.0), 0, 0, f(1.0)]);
    // The one-channel format's own selects (X, 0, 0, 1) apply to the border colour too.
    let got = rig.run(&t, s, mimg(Op::IMAGE_SAMPLE_LZ, 0xf, 1), &coords);
    assert_eq!(got[0], [rgba[0], 0, 0, f(1.0)]);
}

/// The border colour is placed into the format's channels by BC_SWIZZLE and then read
/// through DST_SEL like a texel: a format stored B, G, R, A (DST_SEL Z, Y, X, W with
/// BC_SWIZZLE ZYXW) returns the colour unchanged, a view swizzle on top of the format's
/// selects swizzles it, and the fixed colours take the selects' constants.
#[test]
fn border_colour_goes_through_bc_swizzle_and_dst_sel() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 1);
    let table = rig.image.va + 0x8000;
    let rgba = [f(0.25), f(-2.0), f(7.0), f(0.5)];
    rig.image.map.write_u32s(0x8000, &rgba).unwrap();
    rig.uconfig
        .borrow_mut()
        .extend([(0x30e00, (table >> 8) as u32), (0x30e04, (table >> 40) as u32)]);
    let sel = |s: [u32; 4]| s[0] | s[1] << 3 | s[2] << 6 | s[3] << 9;
    let (zero, one, x, y, z, w) = (0, 1, 4, 5, 6, 7);
    let outside = st(&[(1.5, 0.5)], 0.0);
    let border = |dst: [u32; 4], bc: u32, s: [u32; 4]| {
        let t = T { dst_sel: sel(dst), bc_swizzle: bc, ..t };
        rig.run(&t, s, mimg(Op::IMAGE_SAMPLE_LZ, 0xf, 1), &outside)[0]
    };
    let table_s = s_sharp(6, 0, 0, 0, 3); // BORDER_COLOR_PTR 0: the entry written above
                                          // BGRA storage: BC_SWIZZLE ZYXW undoes the format's selects.
    assert_eq!(border([z, y, x, w], 4, table_s), rgba);
    // ARGB storage (A in X): BC_SWIZZLE WXYZ.
    assert_eq!(border([y, z, w, x], 3, table_s), rgba);
    // ABGR storage: WZYX; RAGB: XWYZ; GRAB: YXWZ.
    assert_eq!(border([w, z, y, x], 2, table_s), rgba);
    assert_eq!(border([x, z, w, y], 1, table_s), rgba);
    assert_eq!(border([y, x, w, z], 5, table_s), rgba);
    // An RGBA format viewed with the swizzle (A, B, G, R): the view swizzle applies.
    assert_eq!(border([w, z, y, x], 0, table_s), [rgba[3], rgba[2], rgba[1], rgba[0]]);
    // Transparent black through "rgb1" is opaque black; opaque white through "r0ba" keeps
    // a zero in green.
    assert_eq!(border([x, y, z, one], 0, s_sharp(6, 0, 0, 0, 0)), [0, 0, 0, f(1.0)]);
    let white = f(1.0);
    assert_eq!(border([x, zero, z, w], 0, s_sharp(6, 0, 0, 0, 2)), [white, 0, white, white]);
}

/// Texel replacement comes before the depth comparison: a border texel is compared like a
/// texel (opaque white is depth 1.0, transparent black 0.0).
#[test]
fn depth_compare_applies_to_the_border_colour() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 1);
    // image_sample_c_lz: (reference, s, t); LESS passes when reference < texel.
    let c = [[f(0.5), f(1.5), f(0.5), 0], [f(0.5), f(-0.5), f(0.5), 0]];
    let white = rig.run(&t, s_sharp(6, 0, 0, 1, 2), mimg(Op::IMAGE_SAMPLE_C_LZ, 1, 1), &c);
    assert_eq!([white[0][0], white[1][0]], [f(1.0), f(1.0)]);
    let black = rig.run(&t, s_sharp(6, 0, 0, 1, 0), mimg(Op::IMAGE_SAMPLE_C_LZ, 1, 1), &c);
    assert_eq!([black[0][0], black[1][0]], [0, 0]);
}

/// Explicit gradients (`_d`, 32-bit; `_d_g16`, 16-bit packed per direction) select the LOD;
/// NSA lists the address VGPRs.
#[test]
fn explicit_gradients_in_32_and_16_bits() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 3);
    let h = |v: f32| ferrum_sim::tex::format::f32_to_small_float(v, 5, 10, true);
    // Lane 0: gradient 0.5 in s and t (2 texels: LOD 1); lane 1: 0.25 (LOD 0).
    let grads = [[f(0.5), 0, 0, f(0.5)], [f(0.25), 0, 0, f(0.25)]];
    let st_data = [[f(0.6), f(0.6), 0, 0], [f(0.6), f(0.6), 0, 0]];
    let mut d = mimg(Op::IMAGE_SAMPLE_D, 1, 1);
    d.nsa = true;
    d.vaddr[..6].copy_from_slice(&[1, 2, 3, 4, 8, 9]);
    let got = rig.run_data(&t, s_sharp(2, 0, 1, 0, 0), d, &grads, &st_data);
    assert_eq!(f32::from_bits(got[0][0]), value(1, 1, 1));
    assert_eq!(f32::from_bits(got[1][0]), value(2, 2, 0));
    // G16: (ds/dh, dt/dh) in v1, (ds/dv, dt/dv) in v2, then s, t.
    let g16 = [[h(0.5), h(0.5) << 16, f(0.6), f(0.6)], [h(0.25), h(0.25) << 16, f(0.6), f(0.6)]];
    let mut d = mimg(Op::IMAGE_SAMPLE_D_G16, 1, 1);
    d.nsa = true;
    d.vaddr[..4].copy_from_slice(&[1, 2, 3, 4]);
    let got = rig.run(&t, s_sharp(2, 0, 1, 0, 0), d, &g16);
    assert_eq!(f32::from_bits(got[0][0]), value(1, 1, 1));
    assert_eq!(f32::from_bits(got[1][0]), value(2, 2, 0));
}

/// An 8x8 cube with 4 levels, R32_FLOAT, linear, in `rig`'s image: every texel of face f,
/// level m is 100 m + f, so a sample shows the face and level it read.
fn face_level_cube(rig: &Rig) -> T {
    let desc = SurfaceDesc {
        sw_mode: 0,
        dim: Dim::D2,
        bpe_log2: 2,
        width: 8,
        height: 8,
        slices: 6,
        mips: 4,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    for m in 0..4 {
        for face in 0..6 {
            for y in 0..8 >> m {
                for x in 0..8 >> m {
                    let o = texel_offset(&desc, x, y, face, m, 0).unwrap() as usize;
                    rig.image.map.write_u32s(o, &[((100 * m + face) as f32).to_bits()]).unwrap();
                }
            }
        }
    }
    T { ty: 11, max_mip: 3, last_level: 3, dst_sel: 4 | 1 << 9, ..T::new(rig.image.va, 22, 8, 8) }
}

/// Implicit LOD on a cube quad that straddles the +Z/+X edge: each lane differentiates the
/// direction field on its own face (the neighbour carried onto that face's plane), not the
/// jump between the two faces' unrelated coordinates.
#[test]
fn cube_quad_derivatives_across_a_face_edge() {
    let rig = Rig::new(0);
    let t = face_level_cube(&rig);
    // Lanes 0 and 2 on +Z at s = 15/16, lanes 1 and 3 on +X at s = 1/16 (the same distance
    // from the shared edge); rows 1 and 3 are 1/16 lower. Carried onto +Z, lane 1's
    // direction (1, 0, 7/8) lands at s = (8/7 + 1) / 2, so ds = 15/14 − 15/16 ≈ 0.134: about
    // one texel of the 8-texel face, LOD ≈ 0.1, level 0 with point mips. The raw
    // difference 1/16 − 15/16 would be 7 texels (LOD 2.8, level 3).
    let quad = [(15.0 / 16.0, 0.5, 4.0), (1.0 / 16.0, 0.5, 0.0)];
    let coords: Vec<[u32; 4]> = [0.0f32, 1.0 / 16.0]
        .iter()
        .flat_map(|dt| {
            quad.iter().map(move |&(s, t, face)| [f(1.0 + s), f(1.0 + t + dt), f(face), 0])
        })
        .collect();
    let got = rig.run(&t, s_sharp(2, 0, 1, 0, 0), mimg(Op::IMAGE_SAMPLE, 1, 3), &coords);
    let faces: Vec<f32> = got.iter().map(|g| f32::from_bits(g[0])).collect();
    assert_eq!(faces, [4.0, 0.0, 4.0, 0.0]);
}

/// Explicit gradients on a cube are face-space (s, t) derivatives, two per direction.
#[test]
fn cube_explicit_gradients_are_two_dimensional() {
    let rig = Rig::new(0);
    let t = face_level_cube(&rig);
    // (ds/dx, dt/dx) = (0.5, 0): 4 texels, LOD 2; (0, 0) in y. Face 1 at its centre.
    let grads = [[f(0.5), 0, 0, 0]];
    let coords = [[f(1.5), f(1.5), f(1.0), 0]];
    let mut d = mimg(Op::IMAGE_SAMPLE_D, 1, 3);
    d.nsa = true;
    d.vaddr[..7].copy_from_slice(&[1, 2, 3, 4, 8, 9, 10]);
    let got = rig.run_data(&t, s_sharp(2, 0, 1, 0, 0), d, &grads, &coords);
    assert_eq!(f32::from_bits(got[0][0]), 201.0);
}

/// `_cl`: the LOD clamp (OpImage* MinLod) raises the level the gradients select.
#[test]
fn lod_clamp_raises_the_gradient_level() {
    let rig = Rig::new(0);
    let t = r32f(&rig, 3);
    // (gradient, clamp) → level: (0.25, 1) → 1; (0.5, 2) → 2; (1.0, 0.5) → 2 (LOD 2).
    let grads = [[f(0.25), 0, 0, f(0.25)], [f(0.5), 0, 0, f(0.5)], [f(1.0), 0, 0, f(1.0)]];
    let st =
        [[f(0.6), f(0.6), f(1.0), 0], [f(0.6), f(0.6), f(2.0), 0], [f(0.6), f(0.6), f(0.5), 0]];
    let mut d = mimg(Op::IMAGE_SAMPLE_D_CL, 1, 1);
    d.nsa = true;
    d.vaddr[..7].copy_from_slice(&[1, 2, 3, 4, 8, 9, 10]);
    let got = rig.run_data(&t, s_sharp(2, 0, 1, 0, 0), d, &grads, &st);
    let levels: Vec<f32> = got.iter().map(|g| f32::from_bits(g[0])).collect();
    assert_eq!(levels, [value(1, 1, 1), value(0, 0, 2), value(0, 0, 2)]);
}
