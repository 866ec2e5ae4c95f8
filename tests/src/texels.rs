//! Deterministic texel data for format tests: pseudo-random bytes made valid for the
//! format (no NaN, infinity or denormal in float formats, depth in [0, 1]), so that two
//! drivers convert, sample and filter the same numbers.

use ash_loaded::vk;

/// How large float texels may be.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// Signed and up to a few hundred (binary16: any normal exponent).
    Wide,
    /// In [0, 2), for filters and conversions whose tolerance is absolute.
    Unit,
}

/// A finite, normal binary16 number from pseudo-random bits.
fn half(bits: u16, range: Range) -> u16 {
    match range {
        Range::Wide => bits & 0x83ff | (1 + (bits >> 10 & 0x1f) % 29) << 10,
        Range::Unit => bits & 0x03ff | (1 + (bits >> 10 & 0x1f) % 15) << 10,
    }
}

/// An unsigned float of `mant` mantissa bits and a 5-bit exponent (B10G11R11), normal and
/// finite (below 2 for `Unit`).
fn small_float(bits: u32, mant: u32, range: Range) -> u32 {
    let exps = if range == Range::Unit { 15 } else { 30 };
    let exp = 1 + (bits >> mant & 0x1f) % exps;
    bits & ((1 << mant) - 1) | exp << mant
}

/// `bytes` bytes of texel data for `format`.
pub fn pattern(format: vk::Format, bytes: usize, range: Range) -> Vec<u8> {
    use vk::Format as F;
    let mut state = 0x2545_f491_u32 ^ format.as_raw() as u32;
    let mut raw: Vec<u8> = (0..bytes)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect();
    let words = |raw: &mut Vec<u8>, f: &dyn Fn(u32, usize) -> u32| {
        for (i, c) in raw.chunks_exact_mut(4).enumerate() {
            let v = f(u32::from_le_bytes(c.try_into().unwrap()), i);
            c.copy_from_slice(&v.to_le_bytes());
        }
    };
    match format {
        F::R16_SFLOAT | F::R16G16_SFLOAT | F::R16G16B16A16_SFLOAT => {
            for c in raw.chunks_exact_mut(2) {
                let v = half(u16::from_le_bytes([c[0], c[1]]), range);
                c.copy_from_slice(&v.to_le_bytes());
            }
        }
        F::R32_SFLOAT | F::R32G32_SFLOAT | F::R32G32B32_SFLOAT | F::R32G32B32A32_SFLOAT => {
            words(&mut raw, &|b, i| match range {
                Range::Wide => ((b % 20001) as f32 / 64.0 - 150.0 + i as f32 * 1e-3).to_bits(),
                Range::Unit => ((b % 1001) as f32 / 1000.0).to_bits(),
            })
        }
        F::D32_SFLOAT => words(&mut raw, &|b, _| ((b % 1001) as f32 / 1000.0).to_bits()),
        F::B10G11R11_UFLOAT_PACK32 => words(&mut raw, &|b, _| {
            small_float(b, 6, range)
                | small_float(b >> 11, 6, range) << 11
                | small_float(b >> 22, 5, range) << 22
        }),
        // The shared exponent at most 15 (bias 15): values below 1.
        F::E5B9G9R9_UFLOAT_PACK32 if range == Range::Unit => {
            words(&mut raw, &|b, _| b & 0x07ff_ffff | (((b >> 27) % 16) << 27))
        }
        _ => {}
    }
    raw
}
