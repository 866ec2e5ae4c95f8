//! The interpreter's image semantics against values worked out by hand from the Vulkan
//! texel-filtering equations.

use super::image::{run, Address, Args, Image, Sampler, TexelKind};
use crate::ir::{AtomicOp, ImageDim, ImageOp, ImageShape};

const D1: ImageShape = ImageShape { dim: ImageDim::D1, arrayed: false, ms: false };
const D2: ImageShape = ImageShape { dim: ImageDim::D2, arrayed: false, ms: false };

fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn sampler(linear: bool, address: Address) -> Sampler {
    Sampler {
        set: 0,
        binding: 0,
        index: 0,
        linear,
        mip_linear: false,
        address: [address; 3],
        compare: None,
        unnormalized: false,
        border: [0x4000_0000, 0, 0, 0],
    }
}

/// A 1D float image whose texel `i` has red `values[i]`.
fn ramp_1d(values: &[f32], levels: u32) -> Image {
    let mut img = Image::new((0, 0, 0), [values.len() as u32, 1, 1], 1, levels, TexelKind::Float);
    for (i, v) in values.iter().enumerate() {
        img.texels[i][0] = v.to_bits();
    }
    img
}

fn sample_r(img: &mut Image, s: &Sampler, shape: ImageShape, coord: &[f32], lod: f32) -> f32 {
    let a = Args {
        coord: coord.iter().map(|&c| f(c)).collect(),
        coord_bits: 32,
        lod: Some(f(lod)),
        ..Default::default()
    };
    f32::from_bits(run(ImageOp::Sample, shape, img, Some(s), &a, 4).unwrap()[0] as u32)
}

#[test]
fn linear_filter_weights_neighbours_by_distance_to_texel_centres() {
    let mut img = ramp_1d(&[0.0, 1.0], 1);
    let s = sampler(true, Address::ClampEdge);
    // u * 2 - 0.5: 0.25 -> centre of texel 0; 0.375 -> a quarter towards texel 1; 0.5 -> half.
    assert_eq!(sample_r(&mut img, &s, D1, &[0.25], 0.0), 0.0);
    assert_eq!(sample_r(&mut img, &s, D1, &[0.375], 0.0), 0.25);
    assert_eq!(sample_r(&mut img, &s, D1, &[0.5], 0.0), 0.5);
    // Clamped at the edge: beyond the last centre stays at its value.
    assert_eq!(sample_r(&mut img, &s, D1, &[1.3], 0.0), 1.0);
}

#[test]
fn address_modes_wrap_mirror_clamp_and_border() {
    let mut img = ramp_1d(&[10.0, 11.0, 12.0, 13.0], 1);
    // u = -0.1 is texel -1 (floor(-0.4)).
    let at = |img: &mut Image, a| sample_r(img, &sampler(false, a), D1, &[-0.1], 0.0);
    assert_eq!(at(&mut img, Address::Repeat), 13.0);
    assert_eq!(at(&mut img, Address::Mirror), 10.0);
    assert_eq!(at(&mut img, Address::ClampEdge), 10.0);
    assert_eq!(at(&mut img, Address::ClampBorder), 2.0);
    assert_eq!(at(&mut img, Address::MirrorClampEdge), 10.0);
    // u = 1.3 is texel 5: repeat -> 1, mirror -> 2 (2n - 1 - 5), mirror-clamp -> last.
    let far = |img: &mut Image, a| sample_r(img, &sampler(false, a), D1, &[1.3], 0.0);
    assert_eq!(far(&mut img, Address::Repeat), 11.0);
    assert_eq!(far(&mut img, Address::Mirror), 12.0);
    assert_eq!(far(&mut img, Address::MirrorClampEdge), 13.0);
}

#[test]
fn nearest_mip_selection_rounds_up_from_one_half() {
    // Level sizes 4, 2, 1; every texel of level l has red 100 + l.
    let mut img = ramp_1d(&[100.0; 4], 3);
    for l in 1..3 {
        let o = img.level_offset(l) as usize;
        let n = img.level_size(l)[0] as usize;
        for t in &mut img.texels[o..o + n] {
            t[0] = (100.0 + l as f32).to_bits();
        }
    }
    let s = sampler(false, Address::Repeat);
    assert_eq!(sample_r(&mut img, &s, D1, &[0.3], 0.5), 100.0);
    assert_eq!(sample_r(&mut img, &s, D1, &[0.3], 0.6), 101.0);
    assert_eq!(sample_r(&mut img, &s, D1, &[0.3], 1.4), 101.0);
    assert_eq!(sample_r(&mut img, &s, D1, &[0.3], 9.0), 102.0);
    // Linear mips blend the two nearest levels.
    let lin = Sampler { mip_linear: true, ..s };
    assert_eq!(sample_r(&mut img, &lin, D1, &[0.3], 1.25), 101.25);
}

#[test]
fn gather_returns_the_footprint_in_vulkan_order_and_compares() {
    let mut img = Image::new((0, 0, 0), [2, 2, 1], 1, 1, TexelKind::Float);
    for (i, v) in [1.0f32, 2.0, 3.0, 4.0].iter().enumerate() {
        img.texels[i][0] = v.to_bits();
    }
    let s = sampler(true, Address::ClampEdge);
    let a = Args { coord: vec![f(0.5), f(0.5)], coord_bits: 32, ..Default::default() };
    let g = run(ImageOp::Gather, D2, &mut img, Some(&s), &a, 4).unwrap();
    let g: Vec<f32> = g.iter().map(|&x| f32::from_bits(x as u32)).collect();
    // (i0, j1), (i1, j1), (i1, j0), (i0, j0) with texel (x, y) = 1 + x + 2y.
    assert_eq!(g, [3.0, 4.0, 2.0, 1.0]);
    // Compare LESS: dref 2.5 < texel.
    let c = Sampler { compare: Some(1), ..s };
    let a = Args { dref: Some(f(2.5)), ..a };
    let g = run(ImageOp::Gather, D2, &mut img, Some(&c), &a, 4).unwrap();
    let g: Vec<f32> = g.iter().map(|&x| f32::from_bits(x as u32)).collect();
    assert_eq!(g, [1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn cube_directions_pick_the_major_axis_face() {
    // Six 1x1 faces whose red is the face index.
    let mut img = Image::new((0, 0, 0), [1, 1, 1], 6, 1, TexelKind::Float);
    for (face, t) in img.texels.iter_mut().enumerate() {
        t[0] = (face as f32).to_bits();
    }
    let cube = ImageShape { dim: ImageDim::Cube, arrayed: false, ms: false };
    let s = sampler(false, Address::ClampEdge);
    for (dir, face) in [
        ([1.0, 0.2, -0.3], 0.0),
        ([-1.0, 0.2, -0.3], 1.0),
        ([0.1, 2.0, 0.3], 2.0),
        ([0.1, -2.0, 0.3], 3.0),
        ([0.1, 0.2, 0.5], 4.0),
        ([0.1, 0.2, -0.5], 5.0),
    ] {
        assert_eq!(sample_r(&mut img, &s, cube, &dir, 0.0), face, "{dir:?}");
    }
}

/// textureGrad on a cube: the direction's gradient is taken on the selected face by the
/// quotient rule, d(sc / |ma|), with d|ma| signed (a major axis shrinking in magnitude).
#[test]
fn cube_gradients_are_taken_on_the_face() {
    // 16x16 faces, 5 levels; every texel's red is its level.
    let mut img = Image::new((0, 0, 0), [16, 16, 1], 6, 5, TexelKind::Float);
    for l in 0..5 {
        let (a, b) = (img.level_offset(l) as usize, img.level_offset(l + 1) as usize);
        for t in &mut img.texels[a..b] {
            t[0] = (l as f32).to_bits();
        }
    }
    let cube = ImageShape { dim: ImageDim::Cube, arrayed: false, ms: false };
    let s = Sampler { mip_linear: false, ..sampler(false, Address::ClampEdge) };
    let level = |img: &mut Image, r: [f32; 3], dx: [f32; 3]| {
        let a = Args {
            coord: r.iter().map(|&c| f(c)).collect(),
            coord_bits: 32,
            ddx: dx.iter().map(|&c| f(c)).collect(),
            ddy: vec![f(0.0); 3],
            ..Default::default()
        };
        let v = run(ImageOp::Sample, cube, img, Some(&s), &a, 4).unwrap();
        f32::from_bits(v[0] as u32)
    };
    // +Z, |ma| = 2, moving along x by 1: ds = 1 / 4 = 4 texels, level 2.
    assert_eq!(level(&mut img, [0.4, 0.3, 2.0], [1.0, 0.0, 0.0]), 2.0);
    // −X at (−2, 0, 0.8): sc = z, |ma| = −x. dx = (1, 0, 0.6): dsc = 0.6, d|ma| = −1, so
    // ds = (0.6 · 2 + 0.8 · 1) / (2 · 4) = 0.25: 4 texels, level 2 (with |d ma| instead of
    // the signed d|ma| it would be 0.05: level 0).
    assert_eq!(level(&mut img, [-2.0, 0.0, 0.8], [1.0, 0.0, 0.6]), 2.0);
    // −Y at (0.8, −2, 0): sc = x, tc = −z. Only the major axis moves (d|ma| = 1): ds =
    // −0.8 / 8 = −0.1, 1.6 texels: LOD 0.68, level 1.
    assert_eq!(level(&mut img, [0.8, -2.0, 0.0], [0.0, -1.0, 0.0]), 1.0);
}

#[test]
fn storage_atomics_and_out_of_range_accesses() {
    let mut img = Image::new((0, 0, 0), [2, 2, 1], 1, 1, TexelKind::Uint);
    img.texels[3][0] = 5;
    let at = |x: i64, y: i64| vec![x as u64, y as u64];
    let args = |c, d: u64, cmp| Args {
        coord: c,
        coord_bits: 32,
        data: vec![d],
        cmp,
        ..Default::default()
    };
    let cas = ImageOp::Atomic(AtomicOp::CmpXchg);
    assert_eq!(run(cas, D2, &mut img, None, &args(at(1, 1), 9, Some(4)), 1).unwrap(), [5]);
    assert_eq!(img.texels[3][0], 5, "comparator differs: unchanged");
    assert_eq!(run(cas, D2, &mut img, None, &args(at(1, 1), 9, Some(5)), 1).unwrap(), [5]);
    assert_eq!(img.texels[3][0], 9);
    // Out of range: reads give zero, writes and atomics change nothing.
    let oob = args(vec![2, 0], 7, None);
    assert_eq!(run(ImageOp::Read, D2, &mut img, None, &oob, 4).unwrap(), [0, 0, 0, 0]);
    let before = img.texels.clone();
    run(ImageOp::Write, D2, &mut img, None, &oob, 0).unwrap();
    run(ImageOp::Atomic(AtomicOp::Add), D2, &mut img, None, &oob, 1).unwrap();
    assert_eq!(img.texels, before);
}

#[test]
fn size_queries_count_cubes_and_layers() {
    let img = Image::new((0, 0, 0), [8, 4, 1], 12, 3, TexelKind::Float);
    let mut img2 = img.clone();
    let cube_array = ImageShape { dim: ImageDim::Cube, arrayed: true, ms: false };
    let a = Args { lod: Some(1), ..Default::default() };
    assert_eq!(run(ImageOp::Size, cube_array, &mut img2, None, &a, 3).unwrap(), [4, 2, 2]);
    let arr = ImageShape { dim: ImageDim::D2, arrayed: true, ms: false };
    let a = Args { lod: Some(2), ..Default::default() };
    assert_eq!(run(ImageOp::Size, arr, &mut img2, None, &a, 3).unwrap(), [2, 1, 12]);
    assert_eq!(run(ImageOp::Levels, arr, &mut img2, None, &Args::default(), 1).unwrap(), [3]);
}
