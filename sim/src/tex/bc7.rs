//! BC7 (BPTC UNORM) block decoding, as the Khronos Data Format Specification ("BPTC
//! Compressed Texture Image Formats") defines it: eight modes picked by the position of
//! the first set bit, up to three subsets with 64 partition shapes, optional p-bits,
//! rotation and separate colour/alpha index sets.

/// Per mode: subsets, partition bits, rotation bits, index-selection bit, colour bits, alpha
/// bits, per-endpoint p-bits, shared p-bits, index bits, secondary index bits.
const MODES: [[u32; 10]; 8] = [
    [3, 4, 0, 0, 4, 0, 1, 0, 3, 0],
    [2, 6, 0, 0, 6, 0, 0, 1, 3, 0],
    [3, 6, 0, 0, 5, 0, 0, 0, 2, 0],
    [2, 6, 0, 0, 7, 0, 1, 0, 2, 0],
    [1, 0, 2, 1, 5, 6, 0, 0, 2, 3],
    [1, 0, 2, 0, 7, 8, 0, 0, 2, 2],
    [1, 0, 0, 0, 7, 7, 1, 0, 4, 0],
    [2, 6, 0, 0, 5, 5, 1, 0, 2, 0],
];

/// Two-subset partitions: 2 bits per texel (texel 0 lowest) naming its subset.
pub(crate) const PARTITIONS_2: [u32; 64] = [
    0x50505050, 0x40404040, 0x54545454, 0x54505040, 0x50404000, 0x55545450, 0x55545040, 0x54504000,
    0x50400000, 0x55555450, 0x55544000, 0x54400000, 0x55555440, 0x55550000, 0x55555500, 0x55000000,
    0x55150100, 0x00004054, 0x15010000, 0x00405054, 0x00004050, 0x15050100, 0x05010000, 0x40505054,
    0x00404050, 0x05010100, 0x14141414, 0x05141450, 0x01155440, 0x00555500, 0x15014054, 0x05414150,
    0x44444444, 0x55005500, 0x11441144, 0x05055050, 0x05500550, 0x11114444, 0x41144114, 0x44111144,
    0x15055054, 0x01055040, 0x05041050, 0x05455150, 0x14414114, 0x50050550, 0x41411414, 0x00141400,
    0x00041504, 0x00105410, 0x10541000, 0x04150400, 0x50410514, 0x41051450, 0x05415014, 0x14054150,
    0x41050514, 0x41505014, 0x40011554, 0x54150140, 0x50505500, 0x00555050, 0x15151010, 0x54540404,
];

/// Three-subset partitions.
const PARTITIONS_3: [u32; 64] = [
    0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0, 0x5a5a5050,
    0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250,
    0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500,
    0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400, 0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200,
    0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50,
    0x500aa550, 0xaaaa4444, 0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600,
    0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
    0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
];

/// Anchor texel of subset 1 in two-subset partitions.
pub(crate) const ANCHOR_2: [u8; 64] = [
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8, 8, 15, 2, 8,
    2, 2, 8, 8, 2, 2, 15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6, 6, 2, 6, 8, 15, 15, 2,
    2, 15, 15, 15, 15, 15, 2, 2, 15,
];

/// Anchor texels of subsets 1 and 2 in three-subset partitions.
const ANCHOR_3A: [u8; 64] = [
    3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5,
    15, 15, 8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5, 5, 5, 8, 5, 10, 5,
    10, 8, 13, 15, 12, 3, 3,
];
const ANCHOR_3B: [u8; 64] = [
    15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6,
    10, 15, 15, 10, 8, 15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8, 15, 3, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
];

/// Interpolation weights (out of 64) for 2-, 3- and 4-bit indices.
pub(crate) fn weight(bits: u32, i: u32) -> u32 {
    const W2: [u32; 4] = [0, 21, 43, 64];
    const W3: [u32; 8] = [0, 9, 18, 27, 37, 46, 55, 64];
    const W4: [u32; 16] = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64];
    match bits {
        2 => W2[i as usize],
        3 => W3[i as usize],
        _ => W4[i as usize],
    }
}

/// LSB-first bit reader over a 128-bit block.
pub(crate) struct Bits {
    v: u128,
    pub pos: u32,
}

impl Bits {
    pub fn new(b: &[u8]) -> Bits {
        Bits { v: u128::from_le_bytes(b[..16].try_into().unwrap()), pos: 0 }
    }

    pub fn take(&mut self, n: u32) -> u32 {
        let r = ((self.v >> self.pos) & ((1u128 << n) - 1)) as u32;
        self.pos += n;
        r
    }
}

/// The subset texel `t` belongs to, and whether it is its subset's anchor.
pub(crate) fn subset(subsets: u32, partition: u32, t: u32) -> (u32, bool) {
    let p = partition as usize;
    match subsets {
        1 => (0, t == 0),
        2 => {
            let s = PARTITIONS_2[p] >> (2 * t) & 3;
            (s, t == 0 || (s == 1 && t == ANCHOR_2[p] as u32))
        }
        _ => {
            let s = PARTITIONS_3[p] >> (2 * t) & 3;
            let anchor = [0, ANCHOR_3A[p] as u32, ANCHOR_3B[p] as u32][s as usize];
            (s, t == anchor)
        }
    }
}

/// Reads the index of texel `t` from an index section starting at `start`, where every
/// texel has `bits` bits except anchors (one fewer).
pub(crate) fn index(
    b: &mut Bits,
    start: u32,
    bits: u32,
    t: u32,
    anchor: impl Fn(u32) -> bool,
) -> u32 {
    let mut pos = start;
    for k in 0..t {
        pos += bits - anchor(k) as u32;
    }
    b.pos = pos;
    b.take(bits - anchor(t) as u32)
}

fn expand(v: u32, bits: u32) -> u32 {
    (v << (8 - bits)) | (v >> (2 * bits - 8))
}

/// Texel `t` (row-major) of a BC7 block as RGBA in [0, 1].
pub fn bc7(block: &[u8], t: usize) -> [f32; 4] {
    let t = t as u32;
    let first = u128::from_le_bytes(block[..16].try_into().unwrap());
    if first & 0xff == 0 {
        return [0.0; 4]; // no mode bit: reserved, decodes to transparent black
    }
    let mode = (first as u32).trailing_zeros();
    let [ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2] = MODES[mode as usize];
    let mut b = Bits::new(block);
    b.pos = mode + 1;
    let partition = b.take(pb);
    let rotation = b.take(rb);
    let index_sel = b.take(isb);
    // Endpoints: [subset * 2 + end][channel].
    let mut e = [[0u32; 4]; 6];
    for c in 0..3 {
        for ep in e.iter_mut().take(2 * ns as usize) {
            ep[c] = b.take(cb);
        }
    }
    for ep in e.iter_mut().take(2 * ns as usize) {
        ep[3] = if ab > 0 { b.take(ab) } else { 255 };
    }
    let (cbits, abits) = if epb + spb > 0 { (cb + 1, ab + (ab > 0) as u32) } else { (cb, ab) };
    if epb + spb > 0 {
        let mut p = [0u32; 6];
        if epb == 1 {
            for pe in p.iter_mut().take(2 * ns as usize) {
                *pe = b.take(1);
            }
        } else {
            for s in 0..ns as usize {
                let v = b.take(1);
                p[2 * s] = v;
                p[2 * s + 1] = v;
            }
        }
        for (ep, pe) in e.iter_mut().zip(p).take(2 * ns as usize) {
            for v in ep.iter_mut().take(3) {
                *v = *v << 1 | pe;
            }
            if ab > 0 {
                ep[3] = ep[3] << 1 | pe;
            }
        }
    }
    for ep in e.iter_mut().take(2 * ns as usize) {
        for v in ep.iter_mut().take(3) {
            *v = expand(*v, cbits);
        }
        if ab > 0 {
            ep[3] = expand(ep[3], abits);
        }
    }
    let (s, _) = subset(ns, partition, t);
    let anchor = |k: u32| subset(ns, partition, k).1;
    let start = b.pos;
    let i1 = index(&mut b, start, ib, t, anchor);
    let (ci, cbits_i, ai, abits_i) = if ib2 > 0 {
        let start2 = start + 16 * ib - 1;
        let i2 = index(&mut b, start2, ib2, t, |k| k == 0);
        if index_sel == 1 {
            (i2, ib2, i1, ib)
        } else {
            (i1, ib, i2, ib2)
        }
    } else {
        (i1, ib, i1, ib)
    };
    let (e0, e1) = (e[2 * s as usize], e[2 * s as usize + 1]);
    let lerp = |c: usize, i: u32, bits: u32| {
        let w = weight(bits, i);
        ((64 - w) * e0[c] + w * e1[c] + 32) >> 6
    };
    let mut rgba =
        [lerp(0, ci, cbits_i), lerp(1, ci, cbits_i), lerp(2, ci, cbits_i), lerp(3, ai, abits_i)];
    if rotation > 0 {
        rgba.swap(3, rotation as usize - 1);
    }
    rgba.map(|v| v as f32 / 255.0)
}
