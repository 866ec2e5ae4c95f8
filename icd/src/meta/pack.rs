//! Clear values packed into texel bits on the host, by the Vulkan spec's format layouts and
//! conversion rules ("Format Definition", "Fixed-Point Data Conversions", "Shared Exponent").
//!
//! The clear kernels store raw bits through an unsigned-integer view of the surface, so one
//! kernel serves every format (including the sRGB, packed and shared-exponent ones the texture
//! unit cannot store) and the conversion happens once per command instead of per texel.

use ash::vk;
use ash::vk::Format as F;
use ferrum_compiler::ir::ops::f32_to_f16;

use crate::format::{FormatInfo, Numeric};

/// One channel in a texel: API channel (0 = R .. 3 = A), lowest bit, width in bits.
type Chan = (usize, u32, u32);

const fn rgba(n: u32) -> [Chan; 4] {
    [(0, 0, n), (1, n, n), (2, 2 * n, n), (3, 3 * n, n)]
}

/// Where each channel lives in the texel (bit 0 = the lowest bit of the first byte). Array
/// formats hold R in the first bytes; `_PACK` formats name channels from the top bit down.
pub(super) fn channels(format: F) -> Option<Vec<Chan>> {
    let name = format!("{format:?}");
    let v: Vec<Chan> = match format {
        F::R4G4_UNORM_PACK8 => vec![(0, 4, 4), (1, 0, 4)],
        F::R4G4B4A4_UNORM_PACK16 => vec![(0, 12, 4), (1, 8, 4), (2, 4, 4), (3, 0, 4)],
        F::B4G4R4A4_UNORM_PACK16 => vec![(2, 12, 4), (1, 8, 4), (0, 4, 4), (3, 0, 4)],
        F::R5G6B5_UNORM_PACK16 => vec![(0, 11, 5), (1, 5, 6), (2, 0, 5)],
        F::B5G6R5_UNORM_PACK16 => vec![(2, 11, 5), (1, 5, 6), (0, 0, 5)],
        F::R5G5B5A1_UNORM_PACK16 => vec![(0, 11, 5), (1, 6, 5), (2, 1, 5), (3, 0, 1)],
        F::B5G5R5A1_UNORM_PACK16 => vec![(2, 11, 5), (1, 6, 5), (0, 1, 5), (3, 0, 1)],
        F::A1R5G5B5_UNORM_PACK16 => vec![(3, 15, 1), (0, 10, 5), (1, 5, 5), (2, 0, 5)],
        F::A2R10G10B10_UNORM_PACK32 | F::A2R10G10B10_UINT_PACK32 => {
            vec![(3, 30, 2), (0, 20, 10), (1, 10, 10), (2, 0, 10)]
        }
        F::A2B10G10R10_UNORM_PACK32
        | F::A2B10G10R10_SNORM_PACK32
        | F::A2B10G10R10_UINT_PACK32
        | F::A2B10G10R10_SINT_PACK32 => vec![(3, 30, 2), (2, 20, 10), (1, 10, 10), (0, 0, 10)],
        F::B10G11R11_UFLOAT_PACK32 => vec![(2, 22, 10), (1, 11, 11), (0, 0, 11)],
        F::B8G8R8A8_UNORM
        | F::B8G8R8A8_SNORM
        | F::B8G8R8A8_UINT
        | F::B8G8R8A8_SINT
        | F::B8G8R8A8_SRGB => vec![(2, 0, 8), (1, 8, 8), (0, 16, 8), (3, 24, 8)],
        // A8B8G8R8_PACK32 puts R in the low byte: the same layout as R8G8B8A8.
        _ if name.starts_with("A8B8G8R8_") || name.starts_with("R8G8B8A8_") => rgba(8).to_vec(),
        _ if name.starts_with("R16G16B16A16_") => rgba(16).to_vec(),
        _ if name.starts_with("R32G32B32A32_") => rgba(32).to_vec(),
        _ if name.starts_with("R8G8_") => rgba(8)[..2].to_vec(),
        _ if name.starts_with("R16G16_") => rgba(16)[..2].to_vec(),
        _ if name.starts_with("R32G32_") && !name.starts_with("R32G32B32_") => {
            rgba(32)[..2].to_vec()
        }
        _ if name.starts_with("R8_") => rgba(8)[..1].to_vec(),
        _ if name.starts_with("R16_") => rgba(16)[..1].to_vec(),
        _ if name.starts_with("R32_") => rgba(32)[..1].to_vec(),
        _ => return None,
    };
    Some(v)
}

/// Rounds a float into an unsigned `n`-bit normalized value (NaN becomes 0).
fn unorm(f: f32, n: u32) -> u64 {
    let max = ((1u64 << n) - 1) as f32;
    if f.is_nan() {
        0
    } else {
        (f.clamp(0.0, 1.0) * max).round() as u64
    }
}

/// Rounds a float into a signed `n`-bit normalized value, two's complement in `n` bits.
fn snorm(f: f32, n: u32) -> u64 {
    let max = ((1u64 << (n - 1)) - 1) as f32;
    let v = if f.is_nan() { 0 } else { (f.clamp(-1.0, 1.0) * max).round() as i64 };
    (v as u64) & ((1u64 << n) - 1)
}

/// The sRGB transfer function's encoding (linear to non-linear).
fn srgb_encode(l: f32) -> f32 {
    if l.is_nan() {
        0.0
    } else if l <= 0.003_130_8 {
        12.92 * l.max(0.0)
    } else {
        1.055 * l.min(1.0).powf(1.0 / 2.4) - 0.055
    }
}

/// An unsigned float with a 5-bit exponent (bias 15) and `man` mantissa bits, rounded to
/// nearest even: the 11- and 10-bit channels of B10G11R11. Negative values become 0, values
/// past the largest finite one become it (Mesa's conversion does the same), NaN stays NaN.
fn ufloat(f: f32, man: u32) -> u64 {
    let exp_mask = 0x1fu64 << man;
    if f.is_nan() {
        return exp_mask | 1;
    }
    if f <= 0.0 {
        return 0;
    }
    if f.is_infinite() {
        return exp_mask;
    }
    let bits = f.to_bits();
    let e = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let m = u64::from(bits & 0x7f_ffff) | (1 << 23);
    // Shift the 24-bit significand to `man` fraction bits, denormals shifting further.
    let shift = (23 - man as i32) + if e <= 0 { 1 - e } else { 0 };
    if shift >= 40 {
        return 0;
    }
    let half = 1u64 << (shift - 1);
    let rest = m & ((1u64 << shift) - 1);
    let mut q = m >> shift;
    if rest > half || (rest == half && q & 1 == 1) {
        q += 1;
    }
    // q includes the implicit bit for normals; rounding may carry into the exponent.
    let v = if e <= 0 { q } else { ((e as u64) << man) + q - (1 << man) };
    let max_finite = exp_mask - 1;
    v.min(max_finite)
}

/// E5B9G9R9 by the spec's shared-exponent algorithm ("Shared Exponent Conversion").
fn e5b9g9r9(c: [f32; 3]) -> u32 {
    const N: i32 = 9;
    const B: i32 = 15;
    let max_value = ((1 << N) - 1) as f32 / (1 << N) as f32 * 2f32.powi(31 - B);
    let c = c.map(|x| if x.is_nan() { 0.0 } else { x.clamp(0.0, max_value) });
    let max_c = c[0].max(c[1]).max(c[2]);
    let exp_p =
        (-B - 1).max(if max_c > 0.0 { max_c.log2().floor() as i32 } else { -B - 1 }) + 1 + B;
    let max_s = (max_c / 2f32.powi(exp_p - B - N) + 0.5).floor() as i32;
    let exp_s = if max_s < (1 << N) { exp_p } else { exp_p + 1 };
    let s = c.map(|x| (x / 2f32.powi(exp_s - B - N) + 0.5).floor() as u32 & 0x1ff);
    s[0] | (s[1] << 9) | (s[2] << 18) | ((exp_s as u32) << 27)
}

/// The bits of `channel`'s value in a `bits`-wide field of a `numeric` format.
fn convert(numeric: Numeric, channel: usize, bits: u32, v: &vk::ClearColorValue) -> u64 {
    // SAFETY: every member of the union is 16 plain bytes.
    let (f, u) = unsafe { (v.float32[channel], v.uint32[channel]) };
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    match numeric {
        Numeric::Unorm => unorm(f, bits),
        Numeric::Srgb if channel < 3 => unorm(srgb_encode(f), bits),
        Numeric::Srgb => unorm(f, bits),
        Numeric::Snorm => snorm(f, bits),
        Numeric::Float if bits == 32 => u64::from(f.to_bits()),
        Numeric::Float if bits == 16 => u64::from(f32_to_f16(f)),
        Numeric::Float => ufloat(f, bits - 5),
        // Integer values outside the channel's range clamp to it (as Mesa's format packing
        // does; the spec leaves them undefined).
        Numeric::Sint | Numeric::Sscaled => {
            let half = 1i64 << (bits - 1);
            (i64::from(u as i32).clamp(-half, half - 1) as u64) & mask
        }
        _ => u64::from(u).min(mask),
    }
}

/// One texel of a colour `format` holding `value`, as the dwords of its bytes in memory order
/// (unused dwords 0); `None` for formats without a colour clear (depth, compressed, 96-bit).
pub fn pack_color(f: &FormatInfo, value: &vk::ClearColorValue) -> Option<[u32; 4]> {
    if f.format == F::E5B9G9R9_UFLOAT_PACK32 {
        // SAFETY: every member of the union is 16 plain bytes.
        let c = unsafe { value.float32 };
        return Some([e5b9g9r9([c[0], c[1], c[2]]), 0, 0, 0]);
    }
    if f.is_depth_stencil() || f.is_compressed() {
        return None;
    }
    let mut bytes = [0u8; 16];
    for (ch, lo, bits) in channels(f.format)? {
        let v = convert(f.numeric, ch, bits, value);
        // Channels are byte-aligned or lie inside one dword: place them bit by bit via u128.
        let cur = u128::from_le_bytes(bytes);
        bytes = (cur | (u128::from(v) << lo)).to_le_bytes();
    }
    let mut out = [0u32; 4];
    for (i, w) in out.iter_mut().enumerate() {
        *w = u32::from_le_bytes([
            bytes[4 * i],
            bytes[4 * i + 1],
            bytes[4 * i + 2],
            bytes[4 * i + 3],
        ]);
    }
    Some(out)
}

/// The depth plane's texel for `depth` (D16: 16-bit unorm; D32: the float's bits).
pub fn pack_depth(f: &FormatInfo, depth: f32) -> Option<u32> {
    match f.format {
        F::D16_UNORM => Some(unorm(depth, 16) as u32),
        F::D32_SFLOAT | F::D32_SFLOAT_S8_UINT => Some(depth.to_bits()),
        _ => None,
    }
}

#[cfg(test)]
#[path = "pack_tests.rs"]
mod tests;
