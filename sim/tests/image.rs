//! MIMG through hand-assembled shaders, with T#/S# words written from
//! descriptors-gfx103.md and results checked against hand-computed texels and filter
//! formulas.

mod common;

use common::asm::{Asm, Int, Literal, Op};
use common::{raw_vsharp, Buffer, Dispatch, Gpu};
use ferrum_isa::{Inst, Mimg, Opcode};
use ferrum_sim::tex::surface::{texel_offset, Dim, SurfaceDesc};
use ferrum_winsys::{Error, LostReason};

/// T# fields (descriptors-gfx103.md §2), written independently of the simulator's decoder.
#[derive(Clone, Copy)]
struct T {
    va: u64,
    format: u32,
    width: u32,
    height: u32,
    depth: u32,
    ty: u32,
    sw_mode: u32,
    max_mip: u32,
    base_level: u32,
    last_level: u32,
    dst_sel: u32,
    base_array: u32,
}

impl T {
    fn new(va: u64, format: u32, width: u32, height: u32) -> T {
        T {
            va,
            format,
            width,
            height,
            depth: 0,
            ty: 9,
            sw_mode: 0,
            max_mip: 0,
            base_level: 0,
            last_level: 0,
            dst_sel: 0xfac,
            base_array: 0,
        }
    }

    fn words(&self) -> [u32; 8] {
        let w1 = (self.width - 1) & 3;
        [
            (self.va >> 8) as u32,
            (self.va >> 40) as u32 & 0xff | self.format << 20 | w1 << 30,
            (self.width - 1) >> 2 | (self.height - 1) << 14 | 1 << 31,
            self.dst_sel
                | self.base_level << 12
                | self.last_level << 16
                | self.sw_mode << 20
                | self.ty << 28,
            self.depth | self.base_array << 16,
            self.max_mip << 4 | 4 << 20,
            0,
            0,
        ]
    }
}

/// S# words: address modes (x, y, z), filters (mag/min: 0 point, 1 bilinear; mip: 0 none,
/// 1 point, 2 linear), compare function, border colour type, LOD range 0..15.
fn s_sharp(clamp: u32, xy: u32, mip: u32, compare: u32, border: u32) -> [u32; 4] {
    [
        clamp | clamp << 3 | clamp << 6 | compare << 12,
        15 << 20,
        xy << 20 | xy << 22 | mip << 26,
        border << 30,
    ]
}

struct Rig {
    gpu: Gpu,
    table: Buffer,
    input: Buffer,
    output: Buffer,
    image: Buffer,
    /// Instructions run between loading the address/data VGPRs and the MIMG instruction.
    pre: std::cell::RefCell<Vec<Inst>>,
}

impl Rig {
    fn new(image_bytes: u64) -> Rig {
        let gpu = Gpu::new();
        let table = gpu.buffer(4096);
        let input = gpu.buffer(4096);
        let output = gpu.buffer(4096);
        let image = gpu.buffer(image_bytes.max(65536));
        table.map.write_u32s(0x30, &raw_vsharp(output.va, 4096)).unwrap();
        table.map.write_u32s(0x40, &raw_vsharp(input.va, 4096)).unwrap();
        output.map.write_u32s(0, &[0xdead_beef; 1024]).unwrap();
        Rig { gpu, table, input, output, image, pre: Default::default() }
    }

    /// Runs `inst` (vaddr v1..v4, vdata v8..v11, T# s[4:11], S# s[12:15]) on 32 lanes whose
    /// address VGPRs come from `coords`, preceded by `pre` (stores: data in v8..v11 too);
    /// returns the four data VGPRs per lane.
    fn run(&self, t: &T, s: [u32; 4], inst: Mimg, coords: &[[u32; 4]]) -> Vec<[u32; 4]> {
        self.run_data(t, s, inst, coords, &[])
    }

    /// Like `run`, with `data` preloaded into v8..v11 (stores, atomics).
    fn run_data(
        &self,
        t: &T,
        s: [u32; 4],
        inst: Mimg,
        coords: &[[u32; 4]],
        data: &[[u32; 4]],
    ) -> Vec<[u32; 4]> {
        let flat: Vec<u32> = data.iter().flatten().copied().collect();
        self.input.map.write_u32s(0x800, &flat).unwrap();
        self.try_run(t, s, inst, coords, true).unwrap();
        let out = self.output.map.read_u32s(0, 4 * coords.len()).unwrap();
        out.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
    }

    fn try_run(
        &self,
        t: &T,
        s: [u32; 4],
        inst: Mimg,
        coords: &[[u32; 4]],
        wait: bool,
    ) -> ferrum_winsys::Result<bool> {
        self.table.map.write_u32s(0, &t.words()).unwrap();
        self.table.map.write_u32s(0x20, &s).unwrap();
        let flat: Vec<u32> = coords.iter().flatten().copied().collect();
        self.input.map.write_u32s(0, &flat).unwrap();
        let mut p = Asm::new();
        p.smem(Op::S_LOAD_DWORDX8, 4, 0, 0)
            .smem(Op::S_LOAD_DWORDX4, 12, 0, 0x20)
            .smem(Op::S_LOAD_DWORDX4, 16, 0, 0x30)
            .smem(Op::S_LOAD_DWORDX4, 20, 0, 0x40)
            .vop2(Op::V_LSHLREV_B32, 5, Int(4), 0)
            .vop2(Op::V_ADD_NC_U32, 6, Literal(0x800), 5)
            .waitcnt(63, 0)
            .mubuf(Op::BUFFER_LOAD_DWORDX4, 1, 5, 20, false)
            .mubuf(Op::BUFFER_LOAD_DWORDX4, 8, 6, 20, false)
            .waitcnt(0, 63);
        for &i in self.pre.borrow().iter() {
            p.i(i);
        }
        p.i(Inst::Mimg(inst));
        if wait {
            p.waitcnt(0, 63);
        }
        p.mubuf(Op::BUFFER_STORE_DWORDX4, 8, 5, 16, false).endpgm();
        let prog = self.gpu.program(&p.finish());
        let ud = [self.table.va as u32, (self.table.va >> 32) as u32];
        let d = Dispatch { vgprs: 16, ..Dispatch::one_group(prog.va, &ud, [32, 1, 1]) };
        let bufs = [&self.table, &self.input, &self.output, &self.image];
        self.gpu.dispatch(&d, &prog, &bufs)
    }
}

fn mimg(op: Opcode, dmask: u8, dim: u8) -> Mimg {
    let mut vaddr = [0u8; 13];
    vaddr[0] = 1;
    Mimg {
        op,
        vdata: 8,
        vaddr,
        nsa: false,
        srsrc: 4,
        ssamp: 12,
        dmask,
        dim,
        unorm: false,
        glc: false,
        slc: false,
        dlc: false,
        r128: false,
        a16: false,
        tfe: false,
        lwe: false,
        d16: false,
    }
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

fn expect_guilty(r: ferrum_winsys::Result<bool>) {
    match r {
        Err(Error::ContextLost(LostReason::Guilty)) => {}
        other => panic!("expected a guilty context loss, got {other:?}"),
    }
}

/// A linear 2D R8G8B8A8_UNORM image of 5×3 texels (pitch 64 texels = 256 bytes), texel
/// (x, y) = (x, y, 10x + y, 255).
fn rgba8_linear(rig: &Rig) -> T {
    for y in 0..3u32 {
        for x in 0..5u32 {
            let texel = x | y << 8 | (10 * x + y) << 16 | 255 << 24;
            rig.image.map.write_u32s((y * 256 + x * 4) as usize, &[texel]).unwrap();
        }
    }
    T::new(rig.image.va, 56, 5, 3)
}

#[test]
fn load_linear_unorm_with_dmask_swizzle_and_out_of_range() {
    let rig = Rig::new(0);
    let t = rgba8_linear(&rig);
    let coords = [[4, 2, 0, 0], [0, 0, 0, 0], [5, 0, 0, 0], [0, 3, 0, 0], [u32::MAX, 1, 0, 0]];
    let got = rig.run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &coords);
    let un = |v: u32| f(v as f32 / 255.0);
    assert_eq!(got[0], [un(4), un(2), un(42), f(1.0)]);
    assert_eq!(got[1], [0, 0, 0, f(1.0)]);
    for g in &got[2..] {
        assert_eq!(*g, [0; 4], "out of range loads return 0");
    }
    // dmask 0b1010 returns G and A in the first two registers; the rest are untouched.
    let got = rig.run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 0xa, 1), &coords[..1]);
    assert_eq!(got[0], [un(2), f(1.0), 0, 0]);
    // A B8G8R8A8 view: DST_SEL = (Z, Y, X, W).
    let bgra = T { dst_sel: 6 | 5 << 3 | 4 << 6 | 7 << 9, ..t };
    let got = rig.run(&bgra, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &coords[..1]);
    assert_eq!(got[0], [un(42), un(2), un(4), f(1.0)]);
}

#[test]
fn load_without_waitcnt_is_caught_and_malformed_t_sharp_faults() {
    let rig = Rig::new(0);
    let t = rgba8_linear(&rig);
    let coords = [[0, 0, 0, 0]];
    expect_guilty(rig.try_run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &coords, false));
    let rig = Rig::new(0);
    let t = rgba8_linear(&rig);
    // The same image with FORMAT = INVALID.
    let mut bad = t;
    bad.format = 0;
    expect_guilty(rig.try_run(&bad, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &coords, true));
}

/// 2D array, R32_UINT, 64 KiB R_X swizzle with a tile swizzle, 3 mips: every lane loads a
/// different (x, y, layer, mip) with image_load_mip; memory was filled through the
/// addrlib-checked address equations.
#[test]
fn load_mip_from_a_swizzled_array() {
    let rig = Rig::new(8 << 20);
    let (w, h, layers) = (70u32, 33u32, 3u32);
    let pbx = 0x4300;
    let desc = SurfaceDesc {
        sw_mode: 27,
        dim: Dim::D2,
        bpe_log2: 2,
        width: w,
        height: h,
        slices: layers,
        mips: 3,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: pbx,
    };
    let value = |x: u32, y: u32, z: u32, m: u32| x | y << 8 | z << 16 | m << 24;
    for m in 0..3 {
        for z in 0..layers {
            for y in 0..h.div_ceil(1 << m) {
                for x in 0..w.div_ceil(1 << m) {
                    let o = texel_offset(&desc, x, y, z, m, 0).unwrap();
                    rig.image.map.write_u32s(o as usize, &[value(x, y, z, m)]).unwrap();
                }
            }
        }
    }
    let t = T {
        ty: 13,
        sw_mode: 27,
        depth: layers - 1,
        max_mip: 2,
        last_level: 2,
        ..T::new(rig.image.va | pbx as u64, 20, w, h)
    };
    let coords: Vec<[u32; 4]> = (0..32u32)
        .map(|l| {
            let m = l % 3;
            [(l * 7) % w.div_ceil(1 << m), (l * 5) % h.div_ceil(1 << m), l % layers, m]
        })
        .collect();
    let got = rig.run(&t, [0; 4], mimg(Op::IMAGE_LOAD_MIP, 1, 5), &coords);
    for (c, g) in coords.iter().zip(&got) {
        assert_eq!(g[0], value(c[0], c[1], c[2], c[3]), "{c:?}");
    }
    // A view of levels 1..=2 and layers 1..=2: coordinates are relative to both.
    let view = T { base_level: 1, base_array: 1, ..t };
    let got = rig.run(&view, [0; 4], mimg(Op::IMAGE_LOAD_MIP, 1, 5), &[[3, 4, 1, 1], [0, 0, 2, 0]]);
    assert_eq!(got[0][0], value(3, 4, 2, 2));
    assert_eq!(got[1][0], 0, "layer 3 is beyond DEPTH (last layer 2)");
}

#[test]
fn store_then_load_and_dropped_out_of_range_stores() {
    let rig = Rig::new(0);
    let t = T::new(rig.image.va, 71, 4, 4); // R16G16B16A16_FLOAT, pitch 32 texels
    rig.image.map.write_u32s(0, &[0; 1024]).unwrap();
    let coords: Vec<[u32; 4]> = (0..6).map(|l| [l, 1 + l % 3, 0, 0]).collect();
    let data: Vec<[u32; 4]> =
        (0..6).map(|l| [f(1.5 + l as f32), f(-2.0), f(65520.0), f(1e-7)]).collect();
    rig.run_data(&t, [0; 4], mimg(Op::IMAGE_STORE, 0xf, 1), &coords, &data);
    let got = rig.run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &coords);
    for (l, g) in got.iter().enumerate().take(4) {
        // 65520 rounds to f16 infinity; 1e-7 to the nearest f16 denormal (2^-24 * 2).
        let want = [f(1.5 + l as f32), f(-2.0), f(f32::INFINITY), f(2.0 * 2f32.powi(-24))];
        assert_eq!(*g, want, "lane {l}");
        assert_eq!(f16_roundtrip(f(1e-7)), want[3]);
    }
    // Row 0 was never written and x = 4, 5 were dropped (not wrapped into the next row).
    assert_eq!(rig.image.map.read_u32s(0, 64).unwrap(), vec![0; 64]);
    assert_eq!(rig.image.map.read_u32s(256 + 4 * 8, 2).unwrap(), vec![0; 2]);
    // dmask 0b0011 stores R and G; B and A are written as 0.
    let mut two = mimg(Op::IMAGE_STORE, 0x3, 1);
    two.vdata = 8;
    rig.run_data(&t, [0; 4], two, &coords[..1], &[[f(0.25), f(0.5), f(9.0), f(9.0)]]);
    let got = rig.run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &coords[..1]);
    assert_eq!(got[0], [f(0.25), f(0.5), 0, 0]);
}

/// f32 → f16 → f32 as the store/load pair does (round to nearest even).
fn f16_roundtrip(v: u32) -> u32 {
    use ferrum_sim::tex::format::{f32_to_small_float, small_float_to_f32};
    small_float_to_f32(f32_to_small_float(f32::from_bits(v), 5, 10, true), 5, 10, true).to_bits()
}

/// Fills an R32_FLOAT 2D image (linear, `mips` levels, 4×4 at level 0) with
/// value(x, y, level) = x + 10 y + 100 level; returns its T#.
fn r32f(rig: &Rig, mips: u32) -> T {
    let desc = SurfaceDesc {
        sw_mode: 0,
        dim: Dim::D2,
        bpe_log2: 2,
        width: 4,
        height: 4,
        slices: 1,
        mips,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    for m in 0..mips {
        for y in 0..4 >> m {
            for x in 0..4 >> m {
                let o = texel_offset(&desc, x, y, 0, m, 0).unwrap() as usize;
                let v = x as f32 + 10.0 * y as f32 + 100.0 * m as f32;
                rig.image.map.write_u32s(o, &[v.to_bits()]).unwrap();
            }
        }
    }
    T {
        max_mip: mips - 1,
        last_level: mips - 1,
        dst_sel: 4 | 1 << 9,
        ..T::new(rig.image.va, 22, 4, 4)
    }
}

fn value(x: i32, y: i32, level: u32) -> f32 {
    x as f32 + 10.0 * y as f32 + 100.0 * level as f32
}

/// One lane per (s, t) with an explicit LOD.
fn st(points: &[(f32, f32)], lod: f32) -> Vec<[u32; 4]> {
    points.iter().map(|&(s, t)| [f(s), f(t), f(lod), 0]).collect()
}

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

#[test]
fn image_atomics_return_the_old_value() {
    let rig = Rig::new(0);
    rig.image.map.write_u32s(0, &[0; 64]).unwrap();
    let t = T { dst_sel: 4 | 1 << 9, ..T::new(rig.image.va, 20, 4, 4) };
    let coords: Vec<[u32; 4]> = (0..32).map(|l| [l % 2, 0, 0, 0]).collect();
    let data: Vec<[u32; 4]> = (0..32).map(|l| [l + 1, 0, 0, 0]).collect();
    let mut add = mimg(Op::IMAGE_ATOMIC_ADD, 1, 1);
    add.glc = true;
    let got = rig.run_data(&t, [0; 4], add, &coords, &data);
    let even: u32 = (0..32).filter(|l| l % 2 == 0).map(|l| l + 1).sum();
    let odd: u32 = (0..32).filter(|l| l % 2 == 1).map(|l| l + 1).sum();
    assert_eq!(rig.image.map.read_u32s(0, 2).unwrap(), vec![even, odd]);
    // Lanes run in order: each returned the sum of the lanes before it on its texel.
    assert_eq!(got[0][0], 0);
    assert_eq!(got[2][0], 1);
    assert_eq!(got[3][0], 2);
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

/// A16 coordinates (two per VGPR), D16 results (two per VGPR, f16 for float formats) and
/// NSA address lists.
#[test]
fn a16_d16_and_nsa_operands() {
    let rig = Rig::new(0);
    let t = rgba8_linear(&rig);
    let mut a16 = mimg(Op::IMAGE_LOAD, 0xf, 1);
    a16.a16 = true;
    a16.d16 = true;
    let got = rig.run(&t, [0; 4], a16, &[[4 | 2 << 16, 0, 0, 0]]);
    let h = |v: f32| ferrum_sim::tex::format::f32_to_small_float(v, 5, 10, true);
    let un = |v: u32| v as f32 / 255.0;
    assert_eq!(got[0][0], h(un(4)) | h(un(2)) << 16);
    assert_eq!(got[0][1], h(un(42)) | h(1.0) << 16);
    // NSA: x from v3, y from v1.
    let mut nsa = mimg(Op::IMAGE_LOAD, 0x1, 1);
    nsa.nsa = true;
    nsa.vaddr[0] = 3;
    nsa.vaddr[1] = 1;
    let got = rig.run(&t, [0; 4], nsa, &[[1, 0, 3, 0]]);
    assert_eq!(f32::from_bits(got[0][0]), un(3));
}

/// BC1 through MIMG: an 8x8 texel image of 2x2 blocks (linear: a block row is 256 bytes);
/// texel (5, 6) is texel (1, 2) of block (1, 1). Loads of block formats return decoded
/// texels.
#[test]
fn block_compressed_texels_through_image_load() {
    let rig = Rig::new(0);
    // Block (1, 1): color0 red, color1 blue, row 2 indices 3 2 1 0 (texel 1 -> index 2).
    let block = [0x00, 0xf8, 0x1f, 0x00, 0, 0, 0b0001_1011, 0];
    rig.image.map.write(256 + 8, &block).unwrap();
    let t = T::new(rig.image.va, 169, 8, 8);
    let got = rig.run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &[[5, 6, 0, 0], [8, 0, 0, 0]]);
    let v = got[0].map(f32::from_bits);
    assert_eq!(v, [2.0 / 3.0, 0.0, 1.0 / 3.0, 1.0]);
    assert_eq!(got[1], [0; 4], "x = 8 is outside the 8-texel-wide image");
}

/// 2D MSAA (4 samples, Z_X 64 KiB swizzle): image_load with a fragment index.
#[test]
fn multisampled_loads_by_fragment() {
    let rig = Rig::new(0);
    let desc = SurfaceDesc {
        sw_mode: 24,
        dim: Dim::D2,
        bpe_log2: 2,
        width: 9,
        height: 5,
        slices: 1,
        mips: 1,
        samples_log2: 2,
        pitch: None,
        pipe_bank_xor: 0,
    };
    for s in 0..4 {
        for y in 0..5 {
            for x in 0..9 {
                let o = texel_offset(&desc, x, y, 0, 0, s).unwrap() as usize;
                rig.image.map.write_u32s(o, &[x | y << 8 | s << 16]).unwrap();
            }
        }
    }
    let t = T {
        ty: 14,
        sw_mode: 24,
        max_mip: 2,
        last_level: 2,
        dst_sel: 4 | 1 << 9,
        ..T::new(rig.image.va, 20, 9, 5)
    };
    let coords: Vec<[u32; 4]> = (0..32).map(|l| [l % 9, l % 5, l % 4, 0]).collect();
    let got = rig.run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 1, 6), &coords);
    for (c, g) in coords.iter().zip(&got) {
        assert_eq!(g[0], c[0] | c[1] << 8 | c[2] << 16, "{c:?}");
    }
    let r = rig.run(&t, [0; 4], mimg(Op::IMAGE_GET_RESINFO, 0xf, 6), &[[0; 4]]);
    assert_eq!(r[0], [9, 5, 1, 4]);
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
    // Border texel of an integer format: opaque white is (1, 1, 1, 1) as integers; DST_SEL
    // still applies to the fetched texel, not to the border colour.
    assert_eq!(got[2], [1, 1, 1, 1]);
}

#[test]
fn an_image_in_unmapped_memory_is_a_vm_fault() {
    let rig = Rig::new(0);
    let t = T::new(0x7000_0000_0000, 56, 4, 4);
    expect_guilty(rig.try_run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &[[1, 1, 0, 0]], true));
}
