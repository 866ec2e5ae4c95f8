//! Surface addressing against AMD's addrlib and against structural properties.
//!
//! `data/addrlib_navi21.txt` holds 3,000 texel offsets computed by AMD's addrlib itself
//! (built from PAL's copy by `sim/gen/addrlib_kat.cpp` for navi21's GB_ADDR_CONFIG) on random
//! shapes: every swizzle mode gfx10 has, 1D/2D/3D, 1–16 byte elements, mip chains with tails,
//! slices, MSAA and tile swizzles; the first coordinate of each shape is the last texel of
//! its mip and slice.

use std::collections::HashSet;

use ferrum_sim::tex::surface::{sw, texel_offset, Dim, SurfaceDesc};

fn desc(f: &[u64]) -> SurfaceDesc {
    SurfaceDesc {
        sw_mode: f[0] as u32,
        dim: [Dim::D1, Dim::D2, Dim::D3][f[1] as usize],
        bpe_log2: f[2] as u32,
        width: f[3] as u32,
        height: f[4] as u32,
        slices: f[5] as u32,
        mips: f[6] as u32,
        samples_log2: f[7] as u32,
        pitch: None,
        pipe_bank_xor: f[8] as u32,
    }
}

#[test]
fn offsets_match_addrlib() {
    let text = include_str!("data/addrlib_navi21.txt");
    let mut checked = 0;
    let mut modes = HashSet::new();
    for line in text.lines() {
        let f: Vec<u64> = line.split_whitespace().map(|v| v.parse().unwrap()).collect();
        let d = desc(&f);
        let (x, y, z, mip, s) = (f[9] as u32, f[10] as u32, f[11] as u32, f[12] as u32, f[13]);
        let got =
            texel_offset(&d, x, y, z, mip, s as u32).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(got, f[14], "{line}: {d:?}");
        modes.insert((d.sw_mode, d.dim));
        checked += 1;
    }
    assert!(checked >= 3000);
    // Every mode gfx10 has for 2D surfaces was exercised.
    for m in [0, 1, 2, 5, 6, 9, 10, 17, 18, 21, 22, 24, 25, 26, 27] {
        assert!(modes.contains(&(m, Dim::D2)), "mode {m} untested");
    }
}

/// Every element of a surface has its own, element-aligned offset inside the surface size
/// (a bijection), for every mode, element size and a mipped, layered shape.
#[test]
fn offsets_are_a_bijection() {
    let modes2d = [0, 1, 2, 5, 6, 9, 10, 17, 18, 21, 22, 24, 25, 26, 27];
    let modes3d = [0, 5, 9, 17, 21, 24, 25, 26, 27];
    for (dim, modes) in [(Dim::D2, &modes2d[..]), (Dim::D3, &modes3d[..])] {
        for &m in modes {
            for bpe_log2 in 0..5 {
                let d = SurfaceDesc {
                    sw_mode: m,
                    dim,
                    bpe_log2,
                    width: 37,
                    height: 21,
                    slices: 3,
                    mips: 6,
                    samples_log2: 0,
                    pitch: None,
                    pipe_bank_xor: 0,
                };
                let l = d.layout().unwrap();
                let mut seen = HashSet::new();
                for mip in 0..6 {
                    let (w, h, depth) = l.mip_size(mip);
                    for z in 0..depth {
                        for y in 0..h {
                            for x in 0..w {
                                let o = l.offset(x, y, z, mip, 0);
                                assert_eq!(o % (1 << bpe_log2), 0);
                                assert!(o < l.size, "{d:?} ({x},{y},{z}) mip {mip}: {o}");
                                assert!(seen.insert(o), "{d:?}: ({x},{y},{z}) mip {mip} aliases");
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Hand-computed: a 2D linear R8G8B8A8 surface with three mips: pitches 256/128/64 elements
/// (256-byte rows), mips stored smallest first (mip 2 at 0, mip 1 after it, mip 0 last).
#[test]
fn linear_layout_by_hand() {
    let d = SurfaceDesc {
        sw_mode: sw::LINEAR,
        dim: Dim::D2,
        bpe_log2: 2,
        width: 100,
        height: 10,
        slices: 2,
        mips: 3,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    // mip 2: 25x3 -> pitch 64, 3 rows = 768 bytes; mip 1: 50x5 -> pitch 64, 1280 bytes;
    // mip 0: 100x10 -> pitch 128, 5120 bytes. Slice = 7168 bytes.
    assert_eq!(texel_offset(&d, 0, 0, 0, 2, 0), Ok(0));
    assert_eq!(texel_offset(&d, 0, 0, 0, 1, 0), Ok(768));
    assert_eq!(texel_offset(&d, 0, 0, 0, 0, 0), Ok(2048));
    assert_eq!(texel_offset(&d, 99, 9, 1, 0, 0), Ok(7168 + 2048 + (9 * 128 + 99) * 4));
    assert!(texel_offset(&d, 100, 0, 0, 0, 0).is_err());
    // Custom pitch (GFX10.3 linear 2D): one mip, pitch 192 elements.
    let p = SurfaceDesc { mips: 1, pitch: Some(192), ..d };
    assert_eq!(texel_offset(&p, 3, 2, 1, 0, 0), Ok(192 * 10 * 4 + (2 * 192 + 3) * 4));
}

/// 64 KiB standard swizzle with 4-byte elements: the block is 128x128 elements; the
/// bits below 256 bytes are the 256-byte micro tile's (x0 x1 y0 y1 x2 y2 for 4-byte S).
#[test]
fn xor_modes_keep_the_micro_tile_and_apply_the_tile_swizzle() {
    let base = SurfaceDesc {
        sw_mode: sw::S_64KB,
        dim: Dim::D2,
        bpe_log2: 2,
        width: 300,
        height: 300,
        slices: 1,
        mips: 1,
        samples_log2: 0,
        pitch: None,
        pipe_bank_xor: 0,
    };
    for x_mode in [sw::S_64KB_X, sw::S_64KB_T] {
        let x = SurfaceDesc { sw_mode: x_mode, ..base };
        for (cx, cy) in [(0, 0), (5, 3), (7, 7), (130, 1)] {
            let a = texel_offset(&base, cx, cy, 0, 0, 0).unwrap();
            let b = texel_offset(&x, cx, cy, 0, 0, 0).unwrap();
            assert_eq!(a & 0xff, b & 0xff, "({cx},{cy})");
        }
        // 16 pipes: address bits 8..11 are pipe bits, 12..13 column bits (not swizzled),
        // 14..15 bank bits.
        let swz = SurfaceDesc { pipe_bank_xor: 0xff00, ..x };
        let a = texel_offset(&x, 9, 9, 0, 0, 0).unwrap();
        let b = texel_offset(&swz, 9, 9, 0, 0, 0).unwrap();
        assert_eq!(a ^ b, 0xcf00);
    }
    // A tile swizzle on a non-XOR mode, or beyond the block, is malformed.
    assert!(SurfaceDesc { pipe_bank_xor: 0x100, ..base }.layout().is_err());
    let x = SurfaceDesc { sw_mode: sw::S_4KB_X, ..base };
    assert!(SurfaceDesc { pipe_bank_xor: 0x1000, ..x }.layout().is_err());
    // Modes gfx10 does not have.
    assert!(SurfaceDesc { sw_mode: 3, ..base }.layout().is_err());
    assert!(SurfaceDesc { sw_mode: 6, dim: Dim::D3, ..base }.layout().is_err());
}

/// The driver learns the pipe/packer configuration the equations assume the way Mesa does:
/// AMDGPU_INFO_READ_MMR_REG of GB_ADDR_CONFIG (dword 0x263e).
#[test]
fn gb_addr_config_is_readable_through_the_kernel() {
    use ferrum_winsys::uapi;
    use ferrum_winsys::Kernel;
    let k = ferrum_sim::open(ferrum_sim::SimConfig::default());
    let read = |offset: u32, count: u32| {
        let mut out = [0u32; 4];
        let mut info =
            uapi::DrmAmdgpuInfo::new(uapi::AMDGPU_INFO_READ_MMR_REG, out.as_mut_ptr() as u64, 16);
        info.args.read_mmr_reg = uapi::DrmAmdgpuInfoReadMmrReg {
            dword_offset: offset,
            count,
            instance: 0xffff_ffff,
            flags: 0,
        };
        // SAFETY: `info` points at `out`, 16 writable bytes.
        unsafe { k.ioctl(uapi::DRM_IOCTL_AMDGPU_INFO, (&raw mut info).cast()) }.map(|_| out[0])
    };
    let v = read(0x263e, 1).unwrap();
    assert_eq!(v, ferrum_sim::tex::surface::GB_ADDR_CONFIG);
    assert_eq!(v & 7, 4, "NUM_PIPES: 16");
    assert_eq!(v >> 3 & 7, 0, "PIPE_INTERLEAVE_SIZE: 256 bytes");
    assert_eq!(v >> 8 & 7, 4, "NUM_PKRS: 16");
    assert!(read(0x263f, 1).is_err());
}
