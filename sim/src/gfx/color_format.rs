//! Colour-buffer formats: CB_COLORn_INFO.FORMAT / NUMBER_TYPE / COMP_SWAP, the conversion of a
//! pixel's four components to the bits stored in the surface and back.
//!
//! Channel widths are listed from bit 0 upward (the enum names list them from the most
//! significant channel down: COLOR_5_6_5 has 5 bits at bit 0). COMP_SWAP says which RGBA
//! component each channel holds, as Mesa's `ac_translate_colorswap` derives it from format
//! swizzles: 4 channels STD = RGBA, ALT = BGRA, STD_REV = ABGR, ALT_REV = ARGB; 2 channels
//! STD = RG, ALT = RA, STD_REV = GR, ALT_REV = AR; 1 channel STD = R, ALT_REV = A; 3 channels
//! STD = RGB, STD_REV = BGR. Conversions follow the Vulkan spec's fixed-point rules (round to
//! nearest, ties to even) and the sRGB transfer function.

use crate::core::wave::{f16_to_f32, f32_to_f16};

/// CB_COLORn_INFO.NUMBER_TYPE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Number {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Srgb,
    Float,
}

impl Number {
    pub fn from_field(v: u32) -> Number {
        [
            Number::Unorm,
            Number::Snorm,
            Number::Uscaled,
            Number::Sscaled,
            Number::Uint,
            Number::Sint,
            Number::Srgb,
            Number::Float,
        ][v as usize & 7]
    }

    /// Integer formats: no blending, values are raw integer bits.
    pub fn is_integer(self) -> bool {
        matches!(self, Number::Uint | Number::Sint)
    }
}

/// A colour format the CB can render to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColorFormat {
    /// Channel widths from bit 0 upward.
    pub widths: &'static [u32],
    pub number: Number,
    /// RGBA component (0..=3) held by each channel.
    pub comp: [u8; 4],
    /// Bytes per pixel sample.
    pub bytes: u32,
}

/// Channel widths of CB_COLORn_INFO.FORMAT values (ColorFormat enum of the register database).
fn widths(format: u32) -> Option<&'static [u32]> {
    Some(match format {
        1 => &[8],
        2 => &[16],
        3 => &[8, 8],
        4 => &[32],
        5 => &[16, 16],
        6 => &[11, 11, 10],
        7 => &[10, 11, 11],
        8 => &[2, 10, 10, 10],
        9 => &[10, 10, 10, 2],
        10 => &[8, 8, 8, 8],
        11 => &[32, 32],
        12 => &[16, 16, 16, 16],
        14 => &[32, 32, 32, 32],
        16 => &[5, 6, 5],
        17 => &[5, 5, 5, 1],
        18 => &[1, 5, 5, 5],
        19 => &[4, 4, 4, 4],
        _ => return None,
    })
}

impl ColorFormat {
    /// Decodes FORMAT, NUMBER_TYPE and COMP_SWAP; an error names what the CB cannot render.
    pub fn new(format: u32, number: u32, swap: u32) -> Result<ColorFormat, String> {
        let w = widths(format).ok_or_else(|| format!("CB FORMAT {format} is not renderable"))?;
        let number = Number::from_field(number);
        let comp: [u8; 4] = match (w.len(), swap) {
            (1, 0) => [0, 1, 2, 3],
            (1, 3) => [3, 1, 2, 0],
            (2, 0) => [0, 1, 2, 3],
            (2, 1) => [0, 3, 2, 1],
            (2, 2) => [1, 0, 2, 3],
            (2, 3) => [3, 0, 2, 1],
            (3, 0) => [0, 1, 2, 3],
            (3, 2) => [2, 1, 0, 3],
            (4, 0) => [0, 1, 2, 3],
            (4, 1) => [2, 1, 0, 3],
            (4, 2) => [3, 2, 1, 0],
            (4, 3) => [3, 0, 1, 2],
            (n, s) => return Err(format!("COMP_SWAP {s} is undefined for {n}-channel formats")),
        };
        let float_ok = w.iter().all(|&b| matches!(b, 10 | 11 | 16 | 32));
        if number == Number::Float && !float_ok {
            return Err(format!("FORMAT {format} has no float form"));
        }
        if number == Number::Srgb && w != [8, 8, 8, 8] && w != [8] && w != [8, 8] {
            return Err(format!("FORMAT {format} has no sRGB form"));
        }
        if matches!(number, Number::Uint | Number::Sint) && w.contains(&11) {
            return Err(format!("FORMAT {format} has no integer form"));
        }
        let bytes = w.iter().sum::<u32>() / 8;
        Ok(ColorFormat { widths: w, number, comp, bytes })
    }

    /// Whether the surface has component `c` (0..=3 = RGBA).
    pub fn has(&self, c: usize) -> bool {
        self.comp[..self.widths.len()].contains(&(c as u8))
    }

    /// Encodes RGBA (floats, or integer bits for UINT/SINT) into the pixel's bits.
    pub fn encode(&self, rgba: [u32; 4]) -> u128 {
        let mut bits = 0u128;
        let mut shift = 0;
        for (ch, &w) in self.widths.iter().enumerate() {
            let c = self.comp[ch] as usize;
            let v = encode_channel(rgba[c], w, self.number, c == 3) as u128;
            bits |= (v & mask(w) as u128) << shift;
            shift += w;
        }
        bits
    }

    /// Decodes the pixel's bits into RGBA (missing components read as 0, alpha as 1).
    pub fn decode(&self, bits: u128) -> [u32; 4] {
        let one = if self.number.is_integer() { 1 } else { 1f32.to_bits() };
        let mut rgba = [0, 0, 0, one];
        let mut shift = 0;
        for (ch, &w) in self.widths.iter().enumerate() {
            let c = self.comp[ch] as usize;
            let raw = ((bits >> shift) as u64 & mask(w)) as u32;
            rgba[c] = decode_channel(raw, w, self.number, c == 3);
            shift += w;
        }
        rgba
    }
}

fn mask(w: u32) -> u64 {
    (1u64 << w) - 1
}

/// Float to unsigned normalized with `w` bits (Vulkan: clamp, scale, round to nearest).
pub fn to_unorm(f: f32, w: u32) -> u32 {
    let max = mask(w) as f64;
    let f = if f.is_nan() { 0.0 } else { (f as f64).clamp(0.0, 1.0) };
    (f * max).round_ties_even() as u32
}

pub fn to_snorm(f: f32, w: u32) -> u32 {
    let max = (mask(w - 1)) as f64;
    let f = if f.is_nan() { 0.0 } else { (f as f64).clamp(-1.0, 1.0) };
    ((f * max).round_ties_even() as i64 as u64 & mask(w)) as u32
}

pub fn from_unorm(v: u32, w: u32) -> f32 {
    (v as f64 / mask(w) as f64) as f32
}

pub fn from_snorm(v: u32, w: u32) -> f32 {
    let s = ((v as i64) << (64 - w)) >> (64 - w);
    ((s as f64) / mask(w - 1) as f64).max(-1.0) as f32
}

/// Linear to sRGB-encoded (the Vulkan spec's transfer function).
pub fn linear_to_srgb(l: f32) -> f32 {
    let l = if l.is_nan() { 0.0 } else { l.clamp(0.0, 1.0) as f64 };
    let s = if l <= 0.003_130_8 { 12.92 * l } else { 1.055 * l.powf(1.0 / 2.4) - 0.055 };
    s as f32
}

pub fn srgb_to_linear(s: f32) -> f32 {
    let s = s as f64;
    let l = if s <= 0.040_45 { s / 12.92 } else { ((s + 0.055) / 1.055).powf(2.4) };
    l as f32
}

fn encode_channel(v: u32, w: u32, number: Number, alpha: bool) -> u32 {
    let f = f32::from_bits(v);
    match number {
        Number::Unorm => to_unorm(f, w),
        Number::Srgb if alpha => to_unorm(f, w),
        Number::Srgb => to_unorm(linear_to_srgb(f), w),
        Number::Snorm => to_snorm(f, w),
        Number::Uscaled => (f.max(0.0).min(mask(w) as f32).round_ties_even()) as u32,
        Number::Sscaled => {
            let lim = mask(w - 1) as f32;
            (f.clamp(-lim - 1.0, lim).round_ties_even() as i32 as u32) & mask(w) as u32
        }
        Number::Uint => v.min(mask(w) as u32),
        Number::Sint => {
            let lim = mask(w - 1) as i64;
            ((v as i32 as i64).clamp(-lim - 1, lim) as u64 & mask(w)) as u32
        }
        Number::Float => match w {
            32 => v,
            16 => f32_to_f16(f) as u32,
            _ => f32_to_small_float(f, w),
        },
    }
}

fn decode_channel(raw: u32, w: u32, number: Number, alpha: bool) -> u32 {
    match number {
        Number::Unorm => from_unorm(raw, w).to_bits(),
        Number::Srgb if alpha => from_unorm(raw, w).to_bits(),
        Number::Srgb => srgb_to_linear(from_unorm(raw, w)).to_bits(),
        Number::Snorm => from_snorm(raw, w).to_bits(),
        Number::Uscaled => (raw as f32).to_bits(),
        Number::Sscaled => ((((raw as i64) << (64 - w)) >> (64 - w)) as f32).to_bits(),
        Number::Uint => raw,
        Number::Sint => ((((raw as i64) << (64 - w)) >> (64 - w)) as i32) as u32,
        Number::Float => match w {
            32 => raw,
            16 => f16_to_f32(raw as u16).to_bits(),
            _ => small_float_to_f32(raw, w).to_bits(),
        },
    }
}

/// f32 to the unsigned 11-bit (6-bit mantissa) or 10-bit (5-bit mantissa) float of
/// B10G11R11_UFLOAT: 5-bit exponent, no sign, round to nearest even; negatives become 0.
pub fn f32_to_small_float(f: f32, w: u32) -> u32 {
    let man_bits = w - 5;
    if f.is_nan() {
        return (0x1f << man_bits) | 1;
    }
    if f <= 0.0 {
        return 0;
    }
    // Through f16 bits would double-round; do it directly.
    let x = f.to_bits();
    let exp = ((x >> 23) & 0xff) as i32 - 127 + 15;
    let man = x & 0x7f_ffff;
    if f.is_infinite() || exp >= 0x1f {
        return 0x1f << man_bits; // overflow to infinity
    }
    let drop = 23 - man_bits;
    let (m, shift) =
        if exp <= 0 { (man | 0x80_0000, drop + (1 - exp) as u32) } else { (man, drop) };
    if shift >= 32 {
        return 0;
    }
    let half = m >> shift;
    let rem = m & ((1 << shift) - 1);
    let mid = 1u32 << (shift - 1);
    let round = (rem > mid || (rem == mid && half & 1 != 0)) as u32;
    if exp <= 0 {
        half + round
    } else {
        ((exp as u32) << man_bits | half) + round
    }
}

pub fn small_float_to_f32(v: u32, w: u32) -> f32 {
    let man_bits = w - 5;
    let exp = (v >> man_bits) & 0x1f;
    let man = v & ((1 << man_bits) - 1);
    let scale = (1u32 << man_bits) as f32;
    match exp {
        0 => man as f32 / scale * 2f32.powi(-14),
        0x1f if man == 0 => f32::INFINITY,
        0x1f => f32::NAN,
        e => (1.0 + man as f32 / scale) * 2f32.powi(e as i32 - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgba8_swaps_place_components() {
        let rgba = [0.0f32, 1.0 / 255.0, 2.0 / 255.0, 1.0].map(f32::to_bits);
        let std = ColorFormat::new(10, 0, 0).unwrap();
        assert_eq!(std.encode(rgba), 0xff02_0100);
        let bgra = ColorFormat::new(10, 0, 1).unwrap();
        assert_eq!(bgra.encode(rgba), 0xff00_0102);
        assert_eq!(bgra.decode(0xff00_0102), rgba);
    }

    #[test]
    fn small_floats_round_trip_and_round() {
        for v in 0..(1u32 << 11) {
            let f = small_float_to_f32(v, 11);
            if !f.is_nan() {
                assert_eq!(f32_to_small_float(f, 11), v, "{v:#x}");
            }
        }
        assert_eq!(f32_to_small_float(1.0, 10), 15 << 5);
        assert_eq!(f32_to_small_float(-3.0, 11), 0);
        assert_eq!(f32_to_small_float(1e9, 11), 0x1f << 6);
    }

    #[test]
    fn unorm_and_snorm_round_to_nearest() {
        assert_eq!(to_unorm(0.5, 8), 128);
        assert_eq!(to_unorm(-1.0, 8), 0);
        assert_eq!(to_unorm(f32::NAN, 8), 0);
        assert_eq!(to_snorm(-1.0, 8), 0x81);
        assert_eq!(from_snorm(0x80, 8), -1.0);
        let s = ColorFormat::new(10, 6, 0).unwrap();
        assert_eq!(s.encode([0.5f32, 0.0, 1.0, 0.5].map(f32::to_bits)) & 0xff, 188);
    }
}
