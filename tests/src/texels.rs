//! Deterministic texel data for format tests: pseudo-random bytes made valid for the
//! format (no NaN, infinity or denormal in float formats, depth in [0, 1]), so that two
//! drivers convert, sample and filter the same numbers; and the decoding of texels read back
//! (where each channel lies, what its bits mean).

use ash_loaded::vk;
use vulkan_ferrum::format::Numeric;

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

/// Where one channel of an uncompressed colour texel lies: its lowest bit and its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub shift: u32,
    pub bits: u32,
}

/// The R, G, B and A fields of an uncompressed colour format (absent channels `None`), read
/// from the format's name as the spec defines it: `_PACKnn` formats list their channels from
/// the most significant bit down, the others from the first byte up (so, read as one
/// little-endian number, from bit 0 up).
pub fn fields(format: vk::Format) -> [Option<Field>; 4] {
    let name = format!("{format:?}");
    let packed = name.contains("_PACK");
    let layout = name.split('_').next().unwrap_or("");
    let mut parsed: Vec<(char, u32)> = Vec::new();
    for c in layout.chars() {
        match (c.to_digit(10), parsed.last_mut()) {
            (Some(d), Some(last)) => last.1 = last.1 * 10 + d,
            _ => parsed.push((c, 0)),
        }
    }
    let total: u32 = parsed.iter().map(|p| p.1).sum();
    let mut at = if packed { total } else { 0 };
    let mut out = [None; 4];
    for (letter, bits) in parsed {
        let shift = if packed {
            at -= bits;
            at
        } else {
            at += bits;
            at - bits
        };
        if let Some(i) = "RGBA".find(letter) {
            out[i] = Some(Field { shift, bits });
        }
    }
    out
}

/// The bits of `field` in a texel stored as `bytes` (little-endian, at most 16 bytes).
pub fn field_bits(bytes: &[u8], field: Field) -> u64 {
    let mut word = [0u8; 16];
    word[..bytes.len()].copy_from_slice(bytes);
    let texel = u128::from_le_bytes(word);
    (texel >> field.shift) as u64 & (u64::MAX >> (64 - field.bits))
}

/// A half, single or unsigned 11/10-bit float field (`bits` wide) as a number.
pub fn float_value(raw: u64, bits: u32) -> f64 {
    match bits {
        32 => f64::from(f32::from_bits(raw as u32)),
        16 => {
            let (e, m) = ((raw >> 10 & 31) as i32, (raw & 1023) as f64);
            let v =
                if e == 0 { m * 2f64.powi(-24) } else { (1.0 + m / 1024.0) * 2f64.powi(e - 15) };
            if raw >> 15 == 1 {
                -v
            } else {
                v
            }
        }
        // Unsigned 11- and 10-bit floats: 5 exponent bits over the mantissa.
        _ => {
            let mb = bits - 5;
            let (e, m) = ((raw >> mb) as i32, (raw & ((1 << mb) - 1)) as f64);
            let scale = f64::from(1u32 << mb);
            if e == 0 {
                m / scale * 2f64.powi(-14)
            } else {
                (1.0 + m / scale) * 2f64.powi(e - 15)
            }
        }
    }
}

/// The value a field of a normalized or float format stands for (integers as themselves).
pub fn field_value(raw: u64, field: Field, numeric: Numeric) -> f64 {
    let max = ((1u64 << (field.bits - 1)) - 1) as f64;
    let signed = (raw << (64 - field.bits)) as i64 >> (64 - field.bits);
    match numeric {
        Numeric::Unorm | Numeric::Srgb => raw as f64 / (2.0 * max + 1.0),
        Numeric::Snorm => (signed as f64 / max).max(-1.0),
        Numeric::Sint => signed as f64,
        Numeric::Float => float_value(raw, field.bits),
        _ => raw as f64,
    }
}
