//! Expected values computed by hand from addrlib's rules (see the module docs).

use super::*;

fn desc(ty: vk::ImageType, bpe: u32, w: u32, h: u32, d: u32, levels: u32) -> SurfaceDesc {
    SurfaceDesc {
        ty,
        bpe,
        width: w,
        height: h,
        depth: d,
        layers: 1,
        levels,
        samples: 1,
        mode: SwizzleMode::S64KX,
    }
}

const T2D: vk::ImageType = vk::ImageType::TYPE_2D;
const T3D: vk::ImageType = vk::ImageType::TYPE_3D;

#[test]
fn thin_block_dimensions_give_width_the_odd_bit() {
    let dims = |bpe| Surface::new(desc(T2D, bpe, 1, 1, 1, 1)).block;
    assert_eq!(dims(1), [256, 256, 1]);
    assert_eq!(dims(2), [256, 128, 1]);
    assert_eq!(dims(4), [128, 128, 1]);
    assert_eq!(dims(8), [128, 64, 1]);
    assert_eq!(dims(16), [64, 64, 1]);
}

#[test]
fn thick_block_dimensions_match_addrlibs_64k_table() {
    // Block64K_Log2_3d: {6,5,5}, {5,5,5}, {5,5,4}, {5,4,4}, {4,4,4}.
    let dims = |bpe| Surface::new(desc(T3D, bpe, 1, 1, 1, 1)).block;
    assert_eq!(dims(1), [64, 32, 32]);
    assert_eq!(dims(2), [32, 32, 32]);
    assert_eq!(dims(4), [32, 32, 16]);
    assert_eq!(dims(8), [32, 16, 16]);
    assert_eq!(dims(16), [16, 16, 16]);
    // _R is thin even for 3D.
    let r = Surface::new(SurfaceDesc { mode: SwizzleMode::R64KX, ..desc(T3D, 4, 1, 1, 1, 1) });
    assert_eq!(r.block, [128, 128, 1]);
}

#[test]
fn single_level_pads_to_whole_blocks() {
    let s = Surface::new(desc(T2D, 4, 256, 256, 1, 1));
    assert_eq!((s.layer_size, s.size, s.alignment), (262_144, 262_144, 65_536));
    // A 1×1 texel still takes a whole 64 KiB block (no tail for one level).
    let s = Surface::new(desc(T2D, 4, 1, 1, 1, 1));
    assert_eq!((s.levels[0].pitch, s.levels[0].height, s.size), (128, 128, 65_536));
    // 130 wide needs two blocks across.
    let s = Surface::new(SurfaceDesc { layers: 3, ..desc(T2D, 4, 130, 5, 1, 1) });
    assert_eq!((s.levels[0].pitch, s.layer_size, s.size), (256, 131_072, 393_216));
    // Thick 3D: 64^3 at 4 bytes is exactly 16 blocks.
    let s = Surface::new(desc(T3D, 4, 64, 64, 64, 1));
    assert_eq!(s.size, 64 * 64 * 64 * 4);
    // Depth 17 pads to the block's 16 slices: 32.
    let s = Surface::new(desc(T3D, 4, 32, 32, 17, 1));
    assert_eq!(s.size, 2 * 65_536);
}

#[test]
fn mip_chain_puts_the_tail_first_and_level_0_last() {
    // 256² at 4 bytes, 9 levels: tail holds levels <= 64×128 with <= 12 levels left: 2..8.
    let s = Surface::new(desc(T2D, 4, 256, 256, 1, 9));
    assert_eq!(s.first_tail_level, 2);
    assert_eq!(s.layer_size, 262_144 + 65_536 + 65_536);
    assert_eq!(s.levels[1].offset, 65_536);
    assert_eq!(s.levels[0].offset, 131_072);
    let tail: Vec<u64> = s.levels[2..].iter().map(|l| l.offset).collect();
    assert_eq!(tail, [32_768, 16_384, 8_192, 4_096, 2_048, 1_536, 1_280]);
    assert!(s.levels[2..].iter().all(|l| l.in_tail));
    // Two layers: each layer repeats the whole chain.
    let s2 = Surface::new(SurfaceDesc { layers: 2, ..desc(T2D, 4, 256, 256, 1, 9) });
    assert_eq!(s2.size, 2 * s.layer_size);
}

#[test]
fn mip_chain_without_a_tail() {
    // 1024×1 at 1 byte, 2 levels: level 1 (512 wide) exceeds the tail's 128: no tail.
    let s = Surface::new(desc(T2D, 1, 1024, 1, 1, 2));
    assert_eq!(s.first_tail_level, 2);
    assert_eq!(s.levels[1].offset, 0);
    // Level 1 is 512×256 padded: two blocks.
    assert_eq!(s.levels[0].offset, 131_072);
    assert_eq!(s.size, 4 * 65_536 + 2 * 65_536);
}

#[test]
fn whole_chain_in_the_tail() {
    // 16×16 at 4 bytes with 5 levels all fit: the chain is one block, level 0 at 32 KiB.
    let s = Surface::new(desc(T2D, 4, 16, 16, 1, 5));
    assert_eq!((s.first_tail_level, s.size), (0, 65_536));
    assert_eq!(s.levels[0].offset, 32_768);
    // Level 4 is the fifth in the tail: m = 12 - 1 - 4 = 7, 16 << 7.
    assert_eq!(s.levels[4].offset, 2_048);
}

#[test]
fn linear_pitch_is_256_byte_aligned() {
    let lin = |bpe, w, h| {
        Surface::new(SurfaceDesc { mode: SwizzleMode::Linear, ..desc(T2D, bpe, w, h, 1, 1) })
    };
    let s = lin(1, 100, 10);
    assert_eq!((s.levels[0].pitch, s.size, s.alignment), (256, 2_560, 256));
    let s = lin(4, 64, 3);
    assert_eq!((s.levels[0].pitch, s.size), (64, 768));
    let s = lin(16, 17, 1);
    assert_eq!((s.levels[0].pitch, s.size), (32, 512));
    let s = lin(4, 16384, 16384);
    assert_eq!(s.size, 16384 * 16384 * 4);
}

/// Invariants on many random shapes: levels are padded to whole blocks, never overlap each
/// other or the tail, fit in their layer, and the tail levels fit the tail.
#[test]
fn random_shapes_keep_levels_apart() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = |n: u32| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as u32) % n
    };
    for _ in 0..2000 {
        let bpe = 1 << next(5);
        let thick3d = next(3) == 0;
        let (w, h) = (1 + next(3000), 1 + next(700));
        let d = if thick3d { 1 + next(100) } else { 1 };
        let max_levels = 32 - w.max(h).max(d).leading_zeros();
        let levels = 1 + next(max_levels);
        let ty = if thick3d { T3D } else { T2D };
        let s = Surface::new(SurfaceDesc { layers: 1 + next(3), ..desc(ty, bpe, w, h, d, levels) });
        assert_eq!(s.size % s.alignment, 0);
        let bytes = |l: &Level, level: u32| {
            let _ = level;
            // Thick levels: one slab of `block[2]` slices (the slab holds the whole chain).
            u64::from(l.pitch) * u64::from(l.height) * u64::from(bpe) * u64::from(s.block[2])
        };
        let extent = s.layer_size * u64::from(s.block[2]);
        let tail_bytes = if s.first_tail_level < levels { BLOCK_BYTES } else { 0 };
        let mut spans = vec![];
        for (i, l) in s.levels.iter().enumerate() {
            let i = i as u32;
            if l.in_tail {
                assert!(mip_extent(w, i) <= l.pitch && mip_extent(h, i) <= l.height);
                assert!(l.offset < BLOCK_BYTES, "{s:?}");
                continue;
            }
            assert!(l.pitch >= mip_extent(w, i) && l.pitch % s.block[0] == 0);
            assert!(l.height >= mip_extent(h, i) && l.height % s.block[1] == 0);
            assert!(l.offset >= tail_bytes, "level {i} overlaps the tail: {s:?}");
            assert!(l.offset + bytes(l, i) <= extent, "level {i} past the end: {s:?}");
            spans.push((l.offset, l.offset + bytes(l, i)));
        }
        spans.sort();
        assert!(spans.windows(2).all(|p| p[0].1 <= p[1].0), "levels overlap: {s:?}");
        // Level 0 is the last thing in a layer with mips (GFX10 order).
        if levels > 1 && s.first_tail_level > 0 {
            assert_eq!(spans.last().unwrap().1, extent);
        }
    }
}

/// Disagreements the driver/simulator cross-check found, each settled by addrlib's own answer
/// (`sim/tests/data/addrlib_navi21.txt`, generated by AMD's addrlib).
///
/// Thick 3D surfaces are slab-major: every slab of `block[2]` slices holds the tail block and
/// one slab of every level. addrlib places texel (5, 34, 28) of mip 0 of a 6×35×29, 6-level,
/// 8-byte `_S` surface at 732,424: slab 1 (393,216 bytes on), 196,608 into the slab, where
/// level 0 follows the tail block (64 KiB) and level 1 (32×32×16 × 8 bytes).
#[test]
fn thick_levels_are_placed_per_slab() {
    let s = Surface::new(desc(T3D, 8, 6, 35, 29, 6));
    assert_eq!(s.block, [32, 16, 16]);
    assert_eq!(s.first_tail_level, 2);
    assert_eq!((s.levels[1].offset, s.levels[0].offset), (65_536, 196_608));
    let slab = s.layer_size * u64::from(s.block[2]);
    assert_eq!(slab, 393_216);
    let level0 = slab + s.levels[0].offset;
    let level0_slab = u64::from(s.levels[0].pitch * s.levels[0].height) * 8 * 16;
    assert!((level0..level0 + level0_slab).contains(&732_424));
    assert_eq!(s.size, 2 * slab);
}

/// addrlib's dsMipmapHtileFix (navi21): a `_Z` surface of 2-byte elements has a tail half as
/// wide, so mip 0 of a 128×19 D16 surface is not in the tail. addrlib puts texel (63, 9) of
/// mip 1, layer 5 (of 6, 5 levels) at 678,318: in layer 5's tail block, 128 KiB per layer.
#[test]
fn z_tail_is_narrower_for_small_elements() {
    let d = SurfaceDesc { layers: 6, mode: SwizzleMode::Z64KX, ..desc(T2D, 2, 128, 19, 1, 5) };
    let s = Surface::new(d);
    assert_eq!(s.first_tail_level, 1);
    assert_eq!((s.layer_size, s.size), (131_072, 786_432));
    assert!((5 * s.layer_size..5 * s.layer_size + BLOCK_BYTES).contains(&678_318));
    // 1-byte elements (S8): a quarter-width, half-height tail: 128×128 of a 256×256 block.
    let s8 = SurfaceDesc { bpe: 1, ..d };
    assert_eq!(Surface::new(SurfaceDesc { width: 65, height: 64, ..s8 }).first_tail_level, 1);
    assert_eq!(Surface::new(SurfaceDesc { width: 64, height: 64, ..s8 }).first_tail_level, 0);
    // `_S` keeps the half-width tail.
    let s = Surface::new(SurfaceDesc { mode: SwizzleMode::S64KX, ..d });
    assert_eq!(s.first_tail_level, 0);
}

/// Levels are allocated at addrlib's `ShiftCeil` size, not the API's `max(1, x >> l)`: a
/// 513-wide 4-byte surface has a 129-element (not 128) level 2, two 128-element blocks wide.
#[test]
fn levels_are_allocated_at_the_rounded_up_size() {
    let s = Surface::new(desc(T2D, 4, 513, 513, 1, 3));
    assert_eq!(s.first_tail_level, 3);
    assert_eq!((s.levels[2].pitch, s.levels[2].height), (256, 256));
    assert_eq!((alloc_extent(513, 2), mip_extent(513, 2)), (129, 128));
    assert_eq!((alloc_extent(1, 5), alloc_extent(7, 31)), (1, 1));
}

/// 3D `_Z` surfaces are thin (addrlib gfx10: only `_S` and `_D` are thick): addrlib puts texel
/// (8, 2) of mip 1, slice 2 of a 25×15×31, 2-level, 16-byte `_Z` surface at 189,312, in slice
/// 2's 64 KiB tail block; `_D` is thick like `_S`.
#[test]
fn z_3d_is_thin_and_d_3d_is_thick() {
    let d = SurfaceDesc { mode: SwizzleMode::Z64KX, ..desc(T3D, 16, 25, 15, 31, 2) };
    let s = Surface::new(d);
    assert_eq!((s.block, s.first_tail_level), ([64, 64, 1], 0));
    assert_eq!((s.layer_size, s.size), (BLOCK_BYTES, 31 * BLOCK_BYTES));
    assert!((2 * BLOCK_BYTES..3 * BLOCK_BYTES).contains(&189_312));
    let s = Surface::new(SurfaceDesc { mode: SwizzleMode::D64KX, ..d });
    assert_eq!(s.block, [16, 16, 16]);
}
