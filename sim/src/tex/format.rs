//! Data formats of images and typed buffers (the `GFX10_FORMAT` enum of the T# and V#
//! FORMAT fields): element size, and conversion between an element's bytes and the four
//! 32-bit register values the texture unit returns or takes.
//!
//! Interface (shared with the colour/depth back ends):
//! * [`Format::from_code`] → `Option<Format>`: `None` for values this model does not convert.
//! * [`Format::bytes`] (bytes per element; per 4×4 block for BCn), [`Format::block`],
//!   [`Format::is_integer`].
//! * [`Format::decode`]`(&[u8]) -> [u32; 4]`: one element to registers — floats as f32 bits,
//!   integers zero/sign-extended; channels the format lacks read (0, 0, 0, 1).
//! * [`Format::decode_texel`] does the same for texel (i, j) of a BCn block.
//! * [`Format::encode`]`([u32; 4], &mut [u8])`: registers to one element (stores and render
//!   targets), rounding as the hardware does (`None` for BCn).
//!
//! Channel sizes are listed from bit 0 upward (GFX10 names list them from the most
//! significant channel down). Conversions follow the Vulkan "Fixed-Point Data Conversions"
//! and small-float rules: UNORM c / (2^n − 1), SNORM max(c / (2^(n−1) − 1), −1), encode with
//! round-to-nearest-even after clamping; 16/11/10-bit floats with denormals, infinities and
//! NaN; sRGB decoded with the exact transfer function; E5B9G9R9 as the shared-exponent rules.

use std::sync::OnceLock;

use super::bc;

/// How a channel's bits relate to register values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
    /// UNORM with the sRGB transfer function on channels 0–2.
    Srgb,
}

/// The shape of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Channels packed from bit 0 upward.
    Plain(&'static [u32], Num),
    /// 5_9_9_9_FLOAT: three 9-bit mantissas and a shared 5-bit exponent.
    SharedExp,
    /// 32_FLOAT_CLAMP: a 32-bit float clamped to [0, 1] when read.
    FloatClamp,
    /// X24_8_32: a 32-bit float (or uint) depth, then 8 stencil bits in the next dword.
    DepthStencil64 { float: bool },
    /// Block-compressed 4×4 texels.
    Bc(bc::Bc),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub code: u32,
    pub kind: Kind,
}

const PLAIN: &[(u32, &[u32], Num)] = &[
    (1, &[8], Num::Unorm),
    (2, &[8], Num::Snorm),
    (3, &[8], Num::Uscaled),
    (4, &[8], Num::Sscaled),
    (5, &[8], Num::Uint),
    (6, &[8], Num::Sint),
    (7, &[16], Num::Unorm),
    (8, &[16], Num::Snorm),
    (9, &[16], Num::Uscaled),
    (10, &[16], Num::Sscaled),
    (11, &[16], Num::Uint),
    (12, &[16], Num::Sint),
    (13, &[16], Num::Float),
    (14, &[8, 8], Num::Unorm),
    (15, &[8, 8], Num::Snorm),
    (16, &[8, 8], Num::Uscaled),
    (17, &[8, 8], Num::Sscaled),
    (18, &[8, 8], Num::Uint),
    (19, &[8, 8], Num::Sint),
    (20, &[32], Num::Uint),
    (21, &[32], Num::Sint),
    (22, &[32], Num::Float),
    (23, &[16, 16], Num::Unorm),
    (24, &[16, 16], Num::Snorm),
    (25, &[16, 16], Num::Uscaled),
    (26, &[16, 16], Num::Sscaled),
    (27, &[16, 16], Num::Uint),
    (28, &[16, 16], Num::Sint),
    (29, &[16, 16], Num::Float),
    (30, &[11, 11, 10], Num::Unorm),
    (31, &[11, 11, 10], Num::Snorm),
    (32, &[11, 11, 10], Num::Uscaled),
    (33, &[11, 11, 10], Num::Sscaled),
    (34, &[11, 11, 10], Num::Uint),
    (35, &[11, 11, 10], Num::Sint),
    (36, &[11, 11, 10], Num::Float),
    (37, &[10, 11, 11], Num::Unorm),
    (38, &[10, 11, 11], Num::Snorm),
    (39, &[10, 11, 11], Num::Uscaled),
    (40, &[10, 11, 11], Num::Sscaled),
    (41, &[10, 11, 11], Num::Uint),
    (42, &[10, 11, 11], Num::Sint),
    (43, &[10, 11, 11], Num::Float),
    (44, &[2, 10, 10, 10], Num::Unorm),
    (45, &[2, 10, 10, 10], Num::Snorm),
    (46, &[2, 10, 10, 10], Num::Uscaled),
    (47, &[2, 10, 10, 10], Num::Sscaled),
    (48, &[2, 10, 10, 10], Num::Uint),
    (49, &[2, 10, 10, 10], Num::Sint),
    (50, &[10, 10, 10, 2], Num::Unorm),
    (51, &[10, 10, 10, 2], Num::Snorm),
    (52, &[10, 10, 10, 2], Num::Uscaled),
    (53, &[10, 10, 10, 2], Num::Sscaled),
    (54, &[10, 10, 10, 2], Num::Uint),
    (55, &[10, 10, 10, 2], Num::Sint),
    (56, &[8, 8, 8, 8], Num::Unorm),
    (57, &[8, 8, 8, 8], Num::Snorm),
    (58, &[8, 8, 8, 8], Num::Uscaled),
    (59, &[8, 8, 8, 8], Num::Sscaled),
    (60, &[8, 8, 8, 8], Num::Uint),
    (61, &[8, 8, 8, 8], Num::Sint),
    (62, &[32, 32], Num::Uint),
    (63, &[32, 32], Num::Sint),
    (64, &[32, 32], Num::Float),
    (65, &[16, 16, 16, 16], Num::Unorm),
    (66, &[16, 16, 16, 16], Num::Snorm),
    (67, &[16, 16, 16, 16], Num::Uscaled),
    (68, &[16, 16, 16, 16], Num::Sscaled),
    (69, &[16, 16, 16, 16], Num::Uint),
    (70, &[16, 16, 16, 16], Num::Sint),
    (71, &[16, 16, 16, 16], Num::Float),
    (72, &[32, 32, 32], Num::Uint),
    (73, &[32, 32, 32], Num::Sint),
    (74, &[32, 32, 32], Num::Float),
    (75, &[32, 32, 32, 32], Num::Uint),
    (76, &[32, 32, 32, 32], Num::Sint),
    (77, &[32, 32, 32, 32], Num::Float),
    (128, &[8], Num::Srgb),
    (129, &[8, 8], Num::Srgb),
    (130, &[8, 8, 8, 8], Num::Srgb),
    (133, &[5, 6, 5], Num::Unorm),
    (134, &[5, 5, 5, 1], Num::Unorm),
    (135, &[1, 5, 5, 5], Num::Unorm),
    (136, &[4, 4, 4, 4], Num::Unorm),
    (137, &[4, 4], Num::Unorm),
    (141, &[24, 8], Num::Unorm),
    (142, &[24, 8], Num::Uint),
    (143, &[8, 24], Num::Unorm),
    (144, &[8, 24], Num::Uint),
];

impl Format {
    /// The format with this `GFX10_FORMAT` value, if the model converts it.
    pub fn from_code(code: u32) -> Option<Format> {
        let kind = match code {
            132 => Kind::SharedExp,
            140 => Kind::FloatClamp,
            145 => Kind::DepthStencil64 { float: false },
            146 => Kind::DepthStencil64 { float: true },
            169..=182 => Kind::Bc(bc::Bc::from_code(code)?),
            _ => {
                let &(_, w, n) = PLAIN.iter().find(|(c, _, _)| *c == code)?;
                Kind::Plain(w, n)
            }
        };
        Some(Format { code, kind })
    }

    /// Bytes per element (per 4×4 block for BCn).
    pub fn bytes(&self) -> u32 {
        match self.kind {
            Kind::Plain(w, _) => w.iter().sum::<u32>().div_ceil(8),
            Kind::SharedExp | Kind::FloatClamp => 4,
            Kind::DepthStencil64 { .. } => 8,
            Kind::Bc(b) => b.bytes(),
        }
    }

    /// Texels per element in x and y (4×4 for BCn, else 1×1).
    pub fn block(&self) -> (u32, u32) {
        match self.kind {
            Kind::Bc(_) => (4, 4),
            _ => (1, 1),
        }
    }

    /// Whether registers hold integers (no filtering, border colours as integers).
    pub fn is_integer(&self) -> bool {
        matches!(self.kind, Kind::Plain(_, Num::Uint | Num::Sint))
            || self.kind == Kind::DepthStencil64 { float: false }
    }

    /// Number of channels the format stores.
    pub fn channels(&self) -> usize {
        match self.kind {
            Kind::Plain(w, _) => w.len(),
            Kind::SharedExp => 3,
            Kind::FloatClamp => 1,
            Kind::DepthStencil64 { .. } => 2,
            Kind::Bc(b) => b.channels(),
        }
    }

    /// One element (not BCn) to register values.
    pub fn decode(&self, raw: &[u8]) -> [u32; 4] {
        let mut out = [0, 0, 0, if self.is_integer() { 1 } else { 1f32.to_bits() }];
        match self.kind {
            Kind::Plain(widths, num) => {
                let bits = le(raw, self.bytes() as usize);
                let mut shift = 0;
                for (c, &n) in widths.iter().enumerate() {
                    let v = ((bits >> shift) & mask128(n)) as u32;
                    out[c] = decode_channel(v, n, num, c);
                    shift += n;
                }
            }
            Kind::SharedExp => {
                let v = le(raw, 4) as u32;
                let scale = 2f32.powi((v >> 27) as i32 - 15 - 9);
                for (c, o) in out.iter_mut().take(3).enumerate() {
                    *o = (((v >> (9 * c)) & 0x1ff) as f32 * scale).to_bits();
                }
            }
            Kind::FloatClamp => {
                let f = f32::from_bits(le(raw, 4) as u32);
                out[0] = if f.is_nan() { 0 } else { f.clamp(0.0, 1.0).to_bits() };
            }
            Kind::DepthStencil64 { float } => {
                let v = le(raw, 8);
                out[0] = v as u32;
                let s = (v >> 32) as u32 & 0xff;
                out[1] = if float { (s as f32).to_bits() } else { s };
            }
            Kind::Bc(b) => return b.decode(raw, 0, 0),
        }
        out
    }

    /// Texel (i, j) of a 4×4 block (BCn), or the element itself.
    pub fn decode_texel(&self, raw: &[u8], i: u32, j: u32) -> [u32; 4] {
        match self.kind {
            Kind::Bc(b) => b.decode(raw, i, j),
            _ => self.decode(raw),
        }
    }

    /// Register values to one element; `None` for formats that cannot be written (BCn).
    pub fn encode(&self, v: [u32; 4], out: &mut [u8]) -> Option<()> {
        let bits: u128 = match self.kind {
            Kind::Plain(widths, num) => {
                let mut bits = 0u128;
                let mut shift = 0;
                for (c, &n) in widths.iter().enumerate() {
                    bits |= (encode_channel(v[c], n, num, c) as u128 & mask128(n)) << shift;
                    shift += n;
                }
                bits
            }
            Kind::SharedExp => encode_shared_exp([v[0], v[1], v[2]].map(f32::from_bits)) as u128,
            Kind::FloatClamp => v[0] as u128,
            Kind::DepthStencil64 { float } => {
                let s = if float { f32::from_bits(v[1]) as u32 } else { v[1] };
                v[0] as u128 | ((s & 0xff) as u128) << 32
            }
            Kind::Bc(_) => return None,
        };
        let n = self.bytes() as usize;
        out[..n].copy_from_slice(&bits.to_le_bytes()[..n]);
        Some(())
    }
}

fn mask128(n: u32) -> u128 {
    (1u128 << n) - 1
}

fn le(raw: &[u8], n: usize) -> u128 {
    let mut b = [0u8; 16];
    b[..n].copy_from_slice(&raw[..n]);
    u128::from_le_bytes(b)
}

fn sext(v: u32, n: u32) -> i32 {
    if n >= 32 {
        v as i32
    } else {
        ((v << (32 - n)) as i32) >> (32 - n)
    }
}

fn decode_channel(v: u32, n: u32, num: Num, c: usize) -> u32 {
    // 8-bit normalised channels (most textures and targets) from tables of the exact
    // conversions below: a division in f64, and for sRGB a power, per texel channel dominated
    // texture sampling.
    static UNORM8: OnceLock<[u32; 256]> = OnceLock::new();
    static SRGB8: OnceLock<[u32; 256]> = OnceLock::new();
    let table = |t: &'static OnceLock<[u32; 256]>, num| {
        t.get_or_init(|| std::array::from_fn(|v| convert_channel(v as u32, 8, num, 0)))
    };
    match (num, n) {
        (Num::Unorm, 8) => table(&UNORM8, Num::Unorm)[v as usize & 0xff],
        (Num::Srgb, 8) if c < 3 => table(&SRGB8, Num::Srgb)[v as usize & 0xff],
        (Num::Srgb, 8) => table(&UNORM8, Num::Unorm)[v as usize & 0xff],
        _ => convert_channel(v, n, num, c),
    }
}

fn convert_channel(v: u32, n: u32, num: Num, c: usize) -> u32 {
    let max = ((1u64 << n) - 1) as f64;
    match num {
        Num::Unorm => ((v as f64 / max) as f32).to_bits(),
        Num::Srgb if c < 3 => (srgb_to_linear(v as f64 / max) as f32).to_bits(),
        Num::Srgb => ((v as f64 / max) as f32).to_bits(),
        Num::Snorm => {
            let m = ((1u64 << (n - 1)) - 1) as f64;
            ((sext(v, n) as f64 / m).max(-1.0) as f32).to_bits()
        }
        Num::Uscaled => (v as f32).to_bits(),
        Num::Sscaled => (sext(v, n) as f32).to_bits(),
        Num::Uint => v,
        Num::Sint => sext(v, n) as u32,
        Num::Float => match n {
            32 => v,
            16 => small_float_to_f32(v, 5, 10, true).to_bits(),
            11 => small_float_to_f32(v, 5, 6, false).to_bits(),
            10 => small_float_to_f32(v, 5, 5, false).to_bits(),
            _ => f32::NAN.to_bits(),
        },
    }
}

fn encode_channel(v: u32, n: u32, num: Num, c: usize) -> u64 {
    let f = f32::from_bits(v) as f64;
    let max = ((1u64 << n) - 1) as f64;
    let sat = |f: f64| if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
    match num {
        Num::Unorm => (sat(f) * max).round_ties_even() as u64,
        Num::Srgb if c < 3 => (linear_to_srgb(sat(f)) * max).round_ties_even() as u64,
        Num::Srgb => (sat(f) * max).round_ties_even() as u64,
        Num::Snorm => {
            let m = ((1u64 << (n - 1)) - 1) as f64;
            let f = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
            (f * m).round_ties_even() as i64 as u64
        }
        // Scaled formats convert with saturation to the channel's range.
        Num::Uscaled => (if f.is_nan() { 0.0 } else { f.clamp(0.0, max) }).round_ties_even() as u64,
        Num::Sscaled => {
            let m = ((1u64 << (n - 1)) - 1) as f64;
            (if f.is_nan() { 0.0 } else { f.clamp(-m - 1.0, m) }).round_ties_even() as i64 as u64
        }
        Num::Uint | Num::Sint => v as u64,
        Num::Float => match n {
            32 => v as u64,
            16 => f32_to_small_float(f32::from_bits(v), 5, 10, true) as u64,
            11 => f32_to_small_float(f32::from_bits(v), 5, 6, false) as u64,
            10 => f32_to_small_float(f32::from_bits(v), 5, 5, false) as u64,
            _ => 0,
        },
    }
}

/// The sRGB EOTF (sRGB-encoded value in [0, 1] to linear).
pub fn srgb_to_linear(s: f64) -> f64 {
    if s <= 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

/// The inverse: linear in [0, 1] to sRGB-encoded.
pub fn linear_to_srgb(l: f64) -> f64 {
    if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// A float with `e` exponent bits (bias 2^(e−1) − 1), `m` mantissa bits and an optional sign
/// bit on top, to f32 (exactly representable).
pub fn small_float_to_f32(v: u32, e: u32, m: u32, signed: bool) -> f32 {
    let exp = (v >> m) & ((1 << e) - 1);
    let man = v & ((1 << m) - 1);
    let bias = (1 << (e - 1)) - 1;
    let mag = if exp == (1 << e) - 1 {
        if man == 0 {
            f32::INFINITY
        } else {
            f32::NAN
        }
    } else if exp == 0 {
        man as f32 * 2f32.powi(1 - bias - m as i32)
    } else {
        (man | 1 << m) as f32 * 2f32.powi(exp as i32 - bias - m as i32)
    };
    if signed && (v >> (e + m)) & 1 != 0 {
        -mag
    } else {
        mag
    }
}

/// f32 to a small float (see [`small_float_to_f32`]), rounding to nearest even; overflow
/// becomes infinity; unsigned formats take negative values (and −∞) as 0 and keep NaN.
pub fn f32_to_small_float(f: f32, e: u32, m: u32, signed: bool) -> u32 {
    let sign = if signed && f.is_sign_negative() { 1u32 << (e + m) } else { 0 };
    let inf = ((1u32 << e) - 1) << m;
    if f.is_nan() {
        return sign | inf | 1 << (m - 1);
    }
    if !signed && f <= 0.0 {
        return 0;
    }
    let a = f.abs() as f64;
    let bias = (1i32 << (e - 1)) - 1;
    // Quantum of the value's binade (the denormal quantum below the normal range).
    let exp = if a == 0.0 { 1 - bias } else { (a.log2().floor() as i32).max(1 - bias) };
    let q = 2f64.powi(exp - m as i32);
    let n = (a / q).round_ties_even();
    let (exp, n) = if n >= (2u64 << m) as f64 { (exp + 1, n / 2.0) } else { (exp, n) };
    if exp > bias {
        return sign | inf;
    }
    let n = n as u32;
    if n < 1 << m {
        // Denormal (exponent field 0).
        sign | n
    } else {
        sign | ((exp + bias) as u32) << m | (n & ((1 << m) - 1))
    }
}

/// RGB to E5B9G9R9 (Vulkan "Shared Exponent" encoding).
pub fn encode_shared_exp(rgb: [f32; 3]) -> u32 {
    const N: i32 = 9;
    const B: i32 = 15;
    const EMAX: i32 = 31;
    let max_val = ((1 << N) - 1) as f64 / (1 << N) as f64 * 2f64.powi(EMAX - B);
    let c = rgb.map(|v| if v.is_nan() { 0.0 } else { (v as f64).clamp(0.0, max_val) });
    let cmax = c[0].max(c[1]).max(c[2]);
    let mut exp =
        if cmax == 0.0 { -B - 1 } else { (cmax.log2().floor() as i32).max(-B - 1) } + 1 + B;
    let mut scale = 2f64.powi(exp - B - N);
    if (cmax / scale + 0.5).floor() as i32 == 1 << N {
        exp += 1;
        scale *= 2.0;
    }
    let m = c.map(|v| (v / scale + 0.5).floor() as u32);
    m[0] | m[1] << 9 | m[2] << 18 | (exp as u32) << 27
}
