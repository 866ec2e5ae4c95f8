//! BC6H (BPTC float) block decoding, as the Khronos Data Format Specification ("BPTC
//! Compressed Texture Image Formats") defines it: 14 modes of one or two regions, endpoints
//! scattered over the block by a per-mode bit map, optionally stored as deltas, unquantised
//! to 16 bits, interpolated and finished into half floats. Reserved modes decode to 0.

use super::bc7::{subset, weight, Bits};

/// A mode's layout: `fields` are (endpoint, channel, first bit, bit count, reversed) in
/// block order after the mode bits; endpoints 0/1 are region 0's, 2/3 region 1's.
struct Mode {
    transformed: bool,
    partition_bits: u32,
    endpoint_bits: u32,
    delta_bits: [u32; 3],
    fields: &'static [(usize, usize, u32, u32, u32)],
}

/// Indexed by the mode number as read (2 bits when the low bit pair is 00/01, else 5 bits),
/// compacted: 0, 1, then 5-bit value v at 2 + (v >> 2) * 2 + (v & 1).
const MODES: [Option<Mode>; 18] = [
    // 00
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 10,
        delta_bits: [5, 5, 5],
        fields: &[
            (2, 1, 4, 1, 0),
            (2, 2, 4, 1, 0),
            (3, 2, 4, 1, 0),
            (0, 0, 0, 10, 0),
            (0, 1, 0, 10, 0),
            (0, 2, 0, 10, 0),
            (1, 0, 0, 5, 0),
            (3, 1, 4, 1, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 5, 0),
            (3, 2, 0, 1, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 5, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 5, 0),
            (3, 2, 2, 1, 0),
            (3, 0, 0, 5, 0),
            (3, 2, 3, 1, 0),
        ],
    }),
    // 01
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 7,
        delta_bits: [6, 6, 6],
        fields: &[
            (2, 1, 5, 1, 0),
            (3, 1, 4, 1, 0),
            (3, 1, 5, 1, 0),
            (0, 0, 0, 7, 0),
            (3, 2, 0, 1, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 4, 1, 0),
            (0, 1, 0, 7, 0),
            (2, 2, 5, 1, 0),
            (3, 2, 2, 1, 0),
            (2, 1, 4, 1, 0),
            (0, 2, 0, 7, 0),
            (3, 2, 3, 1, 0),
            (3, 2, 5, 1, 0),
            (3, 2, 4, 1, 0),
            (1, 0, 0, 6, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 6, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 6, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 6, 0),
            (3, 0, 0, 6, 0),
        ],
    }),
    // 00010
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 11,
        delta_bits: [5, 4, 4],
        fields: &[
            (0, 0, 0, 10, 0),
            (0, 1, 0, 10, 0),
            (0, 2, 0, 10, 0),
            (1, 0, 0, 5, 0),
            (0, 0, 10, 1, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 4, 0),
            (0, 1, 10, 1, 0),
            (3, 2, 0, 1, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 4, 0),
            (0, 2, 10, 1, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 5, 0),
            (3, 2, 2, 1, 0),
            (3, 0, 0, 5, 0),
            (3, 2, 3, 1, 0),
        ],
    }),
    // 00011
    Some(Mode {
        transformed: false,
        partition_bits: 0,
        endpoint_bits: 10,
        delta_bits: [10, 10, 10],
        fields: &[
            (0, 0, 0, 10, 0),
            (0, 1, 0, 10, 0),
            (0, 2, 0, 10, 0),
            (1, 0, 0, 10, 0),
            (1, 1, 0, 10, 0),
            (1, 2, 0, 10, 0),
        ],
    }),
    // 00110
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 11,
        delta_bits: [4, 5, 4],
        fields: &[
            (0, 0, 0, 10, 0),
            (0, 1, 0, 10, 0),
            (0, 2, 0, 10, 0),
            (1, 0, 0, 4, 0),
            (0, 0, 10, 1, 0),
            (3, 1, 4, 1, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 5, 0),
            (0, 1, 10, 1, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 4, 0),
            (0, 2, 10, 1, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 4, 0),
            (3, 2, 0, 1, 0),
            (3, 2, 2, 1, 0),
            (3, 0, 0, 4, 0),
            (2, 1, 4, 1, 0),
            (3, 2, 3, 1, 0),
        ],
    }),
    // 00111
    Some(Mode {
        transformed: true,
        partition_bits: 0,
        endpoint_bits: 11,
        delta_bits: [9, 9, 9],
        fields: &[
            (0, 0, 0, 10, 0),
            (0, 1, 0, 10, 0),
            (0, 2, 0, 10, 0),
            (1, 0, 0, 9, 0),
            (0, 0, 10, 1, 0),
            (1, 1, 0, 9, 0),
            (0, 1, 10, 1, 0),
            (1, 2, 0, 9, 0),
            (0, 2, 10, 1, 0),
        ],
    }),
    // 01010
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 11,
        delta_bits: [4, 4, 5],
        fields: &[
            (0, 0, 0, 10, 0),
            (0, 1, 0, 10, 0),
            (0, 2, 0, 10, 0),
            (1, 0, 0, 4, 0),
            (0, 0, 10, 1, 0),
            (2, 2, 4, 1, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 4, 0),
            (0, 1, 10, 1, 0),
            (3, 2, 0, 1, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 5, 0),
            (0, 2, 10, 1, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 4, 0),
            (3, 2, 1, 1, 0),
            (3, 2, 2, 1, 0),
            (3, 0, 0, 4, 0),
            (3, 2, 4, 1, 0),
            (3, 2, 3, 1, 0),
        ],
    }),
    // 01011
    Some(Mode {
        transformed: true,
        partition_bits: 0,
        endpoint_bits: 12,
        delta_bits: [8, 8, 8],
        fields: &[
            (0, 0, 0, 10, 0),
            (0, 1, 0, 10, 0),
            (0, 2, 0, 10, 0),
            (1, 0, 0, 8, 0),
            (0, 0, 10, 2, 1),
            (1, 1, 0, 8, 0),
            (0, 1, 10, 2, 1),
            (1, 2, 0, 8, 0),
            (0, 2, 10, 2, 1),
        ],
    }),
    // 01110
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 9,
        delta_bits: [5, 5, 5],
        fields: &[
            (0, 0, 0, 9, 0),
            (2, 2, 4, 1, 0),
            (0, 1, 0, 9, 0),
            (2, 1, 4, 1, 0),
            (0, 2, 0, 9, 0),
            (3, 2, 4, 1, 0),
            (1, 0, 0, 5, 0),
            (3, 1, 4, 1, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 5, 0),
            (3, 2, 0, 1, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 5, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 5, 0),
            (3, 2, 2, 1, 0),
            (3, 0, 0, 5, 0),
            (3, 2, 3, 1, 0),
        ],
    }),
    // 01111
    Some(Mode {
        transformed: true,
        partition_bits: 0,
        endpoint_bits: 16,
        delta_bits: [4, 4, 4],
        fields: &[
            (0, 0, 0, 10, 0),
            (0, 1, 0, 10, 0),
            (0, 2, 0, 10, 0),
            (1, 0, 0, 4, 0),
            (0, 0, 10, 6, 1),
            (1, 1, 0, 4, 0),
            (0, 1, 10, 6, 1),
            (1, 2, 0, 4, 0),
            (0, 2, 10, 6, 1),
        ],
    }),
    // 10010
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 8,
        delta_bits: [6, 5, 5],
        fields: &[
            (0, 0, 0, 8, 0),
            (3, 1, 4, 1, 0),
            (2, 2, 4, 1, 0),
            (0, 1, 0, 8, 0),
            (3, 2, 2, 1, 0),
            (2, 1, 4, 1, 0),
            (0, 2, 0, 8, 0),
            (3, 2, 3, 1, 0),
            (3, 2, 4, 1, 0),
            (1, 0, 0, 6, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 5, 0),
            (3, 2, 0, 1, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 5, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 6, 0),
            (3, 0, 0, 6, 0),
        ],
    }),
    None, // 10011 (reserved)
    // 10110
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 8,
        delta_bits: [5, 6, 5],
        fields: &[
            (0, 0, 0, 8, 0),
            (3, 2, 0, 1, 0),
            (2, 2, 4, 1, 0),
            (0, 1, 0, 8, 0),
            (2, 1, 5, 1, 0),
            (2, 1, 4, 1, 0),
            (0, 2, 0, 8, 0),
            (3, 1, 5, 1, 0),
            (3, 2, 4, 1, 0),
            (1, 0, 0, 5, 0),
            (3, 1, 4, 1, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 6, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 5, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 5, 0),
            (3, 2, 2, 1, 0),
            (3, 0, 0, 5, 0),
            (3, 2, 3, 1, 0),
        ],
    }),
    None, // 10111 (reserved)
    // 11010
    Some(Mode {
        transformed: true,
        partition_bits: 5,
        endpoint_bits: 8,
        delta_bits: [5, 5, 6],
        fields: &[
            (0, 0, 0, 8, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 4, 1, 0),
            (0, 1, 0, 8, 0),
            (2, 2, 5, 1, 0),
            (2, 1, 4, 1, 0),
            (0, 2, 0, 8, 0),
            (3, 2, 5, 1, 0),
            (3, 2, 4, 1, 0),
            (1, 0, 0, 5, 0),
            (3, 1, 4, 1, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 5, 0),
            (3, 2, 0, 1, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 6, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 5, 0),
            (3, 2, 2, 1, 0),
            (3, 0, 0, 5, 0),
            (3, 2, 3, 1, 0),
        ],
    }),
    None, // 11011 (reserved)
    // 11110
    Some(Mode {
        transformed: false,
        partition_bits: 5,
        endpoint_bits: 6,
        delta_bits: [6, 6, 6],
        fields: &[
            (0, 0, 0, 6, 0),
            (3, 1, 4, 1, 0),
            (3, 2, 0, 1, 0),
            (3, 2, 1, 1, 0),
            (2, 2, 4, 1, 0),
            (0, 1, 0, 6, 0),
            (2, 1, 5, 1, 0),
            (2, 2, 5, 1, 0),
            (3, 2, 2, 1, 0),
            (2, 1, 4, 1, 0),
            (0, 2, 0, 6, 0),
            (3, 1, 5, 1, 0),
            (3, 2, 3, 1, 0),
            (3, 2, 5, 1, 0),
            (3, 2, 4, 1, 0),
            (1, 0, 0, 6, 0),
            (2, 1, 0, 4, 0),
            (1, 1, 0, 6, 0),
            (3, 1, 0, 4, 0),
            (1, 2, 0, 6, 0),
            (2, 2, 0, 4, 0),
            (2, 0, 0, 6, 0),
            (3, 0, 0, 6, 0),
        ],
    }),
    None, // 11111 (reserved)
];

fn sext(v: i32, bits: u32) -> i32 {
    (v << (32 - bits)) >> (32 - bits)
}

fn unquantize(v: i32, bits: u32, signed: bool) -> i32 {
    if !signed {
        let max = (1 << bits) - 1;
        return if bits >= 15 || v == 0 {
            v
        } else if v == max {
            0xffff
        } else {
            ((v << 16) + 0x8000) >> bits
        };
    }
    if bits >= 16 {
        return v;
    }
    let (neg, a) = (v < 0, v.abs());
    let q = if a == 0 {
        0
    } else if a >= (1 << (bits - 1)) - 1 {
        0x7fff
    } else {
        ((a << 15) + 0x4000) >> (bits - 1)
    };
    if neg {
        -q
    } else {
        q
    }
}

/// Interpolated 16-bit value to f16 bits.
fn finish(v: i32, signed: bool) -> u16 {
    if !signed {
        return ((v * 31) >> 6) as u16;
    }
    if v < 0 {
        (((-v * 31) >> 5) as u16) | 0x8000
    } else {
        ((v * 31) >> 5) as u16
    }
}

/// Texel `t` (row-major) of a BC6H block as register values (f32 bits; alpha 1).
pub fn bc6h(block: &[u8], t: usize, signed: bool) -> [u32; 4] {
    let t = t as u32;
    let mut b = Bits::new(block);
    let low = b.take(2);
    let slot = if low < 2 {
        low as usize
    } else {
        let v = low | b.take(3) << 2;
        2 + (v as usize >> 2) * 2 + (v as usize & 1)
    };
    let one = 1f32.to_bits();
    let Some(mode) = &MODES[slot] else { return [0, 0, 0, one] };
    let mut e = [[0i32; 3]; 4];
    for &(ep, c, off, n, rev) in mode.fields {
        let mut v = b.take(n);
        if rev == 1 {
            v = v.reverse_bits() >> (32 - n);
        }
        e[ep][c] |= (v as i32) << off;
    }
    let partition = b.take(mode.partition_bits);
    let regions = if mode.partition_bits > 0 { 2 } else { 1 };
    let eb = mode.endpoint_bits;
    if signed {
        e[0] = e[0].map(|v| sext(v, eb));
    }
    let base = e[0];
    for ep in e.iter_mut().take(2 * regions).skip(1) {
        for (c, v) in ep.iter_mut().enumerate() {
            if mode.transformed {
                *v = (base[c] + sext(*v, mode.delta_bits[c])) & ((1 << eb) - 1);
            }
            if signed {
                *v = sext(*v, eb);
            }
        }
    }
    let index_bits = if regions == 2 { 3 } else { 4 };
    let subsets = regions as u32;
    let (s, _) = subset(subsets, partition, t);
    let start = b.pos;
    let i = super::bc7::index(&mut b, start, index_bits, t, |k| subset(subsets, partition, k).1);
    let w = weight(index_bits, i) as i32;
    let (e0, e1) = (e[2 * s as usize], e[2 * s as usize + 1]);
    let mut out = [0u32; 4];
    for c in 0..3 {
        let (a, z) = (unquantize(e0[c], eb, signed), unquantize(e1[c], eb, signed));
        let v = ((64 - w) * a + w * z + 32) >> 6;
        out[c] = super::format::small_float_to_f32(finish(v, signed) as u32, 5, 10, true).to_bits();
    }
    out[3] = one;
    out
}
