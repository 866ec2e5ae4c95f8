//! MIMG loads, stores, atomics and queries through hand-assembled shaders, with T# words
//! written from descriptors-gfx103.md and results checked against hand-computed texels.

mod common;
mod tex;

use common::asm::Op;
use ferrum_sim::tex::surface::{texel_offset, Dim, SurfaceDesc};
use tex::*;

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
            // Level sizes round down (Vulkan's and the texture unit's mip size).
            [(l * 7) % (w >> m).max(1), (l * 5) % (h >> m).max(1), l % layers, m]
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

/// A 2D instruction on a 2D-array T# (how RADV describes a 2D view of one layer of a layered
/// image; the shader's DIM knows nothing of the view) sends no layer coordinate and reads
/// slice BASE_ARRAY.
#[test]
fn two_d_loads_of_an_array_t_sharp_read_its_base_layer() {
    let rig = Rig::new(8 << 20);
    let (w, h, layers) = (8u32, 4u32, 3u32);
    let desc = SurfaceDesc {
        sw_mode: 27,
        dim: Dim::D2,
        bpe_log2: 2,
        width: w,
        height: h,
        slices: layers,
        mips: 1,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    let value = |x: u32, y: u32, z: u32| x | y << 8 | z << 16 | 0xa0 << 24;
    for z in 0..layers {
        for y in 0..h {
            for x in 0..w {
                let o = texel_offset(&desc, x, y, z, 0, 0).unwrap();
                rig.image.map.write_u32s(o as usize, &[value(x, y, z)]).unwrap();
            }
        }
    }
    let array = T { ty: 13, sw_mode: 27, depth: layers - 1, ..T::new(rig.image.va, 20, w, h) };
    for base in 0..layers {
        let view = T { base_array: base, depth: base, ..array };
        let got = rig.run(&view, [0; 4], mimg(Op::IMAGE_LOAD, 1, 1), &[[3, 2, 0, 0], [7, 1, 0, 0]]);
        assert_eq!(got[0][0], value(3, 2, base), "layer {base}");
        assert_eq!(got[1][0], value(7, 1, base), "layer {base}");
    }
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

#[test]
fn an_image_in_unmapped_memory_is_a_vm_fault() {
    let rig = Rig::new(0);
    let t = T::new(0x7000_0000_0000, 56, 4, 4);
    expect_guilty(rig.try_run(&t, [0; 4], mimg(Op::IMAGE_LOAD, 0xf, 1), &[[1, 1, 0, 0]], true));
}
