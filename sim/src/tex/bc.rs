//! Block-compressed formats BC1–BC5 (BC6H and BC7 in [`super::bc6h`] and [`super::bc7`]): 4×4 texels per
//! 8- or 16-byte block, decoded as the Khronos Data Format Specification describes them
//! (S3TC and RGTC chapters). BC1 "DXT1" blocks with color0 <= color1 have a transparent
//! black fourth colour; interpolation is done in floats from the endpoints' UNORM values.

use super::format::srgb_to_linear;
use super::{bc6h, bc7};

/// A BCn format and its number type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bc {
    Bc1 { srgb: bool },
    Bc2 { srgb: bool },
    Bc3 { srgb: bool },
    Bc4 { snorm: bool },
    Bc5 { snorm: bool },
    Bc6 { signed: bool },
    Bc7 { srgb: bool },
}

impl Bc {
    pub fn from_code(code: u32) -> Option<Bc> {
        Some(match code {
            169 | 170 => Bc::Bc1 { srgb: code == 170 },
            171 | 172 => Bc::Bc2 { srgb: code == 172 },
            173 | 174 => Bc::Bc3 { srgb: code == 174 },
            175 | 176 => Bc::Bc4 { snorm: code == 176 },
            177 | 178 => Bc::Bc5 { snorm: code == 178 },
            179 | 180 => Bc::Bc6 { signed: code == 180 },
            181 | 182 => Bc::Bc7 { srgb: code == 182 },
            _ => return None,
        })
    }

    pub fn bytes(&self) -> u32 {
        match self {
            Bc::Bc1 { .. } | Bc::Bc4 { .. } => 8,
            _ => 16,
        }
    }

    pub fn channels(&self) -> usize {
        match self {
            Bc::Bc4 { .. } => 1,
            Bc::Bc5 { .. } => 2,
            Bc::Bc6 { .. } => 3,
            _ => 4,
        }
    }

    /// Texel (i, j) (column, row) of a block, as register values (f32 bits).
    pub fn decode(&self, b: &[u8], i: u32, j: u32) -> [u32; 4] {
        let t = (4 * j + i) as usize;
        let rgba = match *self {
            Bc::Bc1 { srgb } => srgb_rgb(bc1(&b[..8], t, true), srgb),
            Bc::Bc2 { srgb } => {
                let mut c = bc1(&b[8..16], t, false);
                c[3] = ((b[t / 2] >> (4 * (t % 2))) & 15) as f32 / 15.0;
                srgb_rgb(c, srgb)
            }
            Bc::Bc3 { srgb } => {
                let mut c = bc1(&b[8..16], t, false);
                c[3] = rgtc(&b[..8], t, false);
                srgb_rgb(c, srgb)
            }
            Bc::Bc4 { snorm } => [rgtc(&b[..8], t, snorm), 0.0, 0.0, 1.0],
            Bc::Bc5 { snorm } => [rgtc(&b[..8], t, snorm), rgtc(&b[8..16], t, snorm), 0.0, 1.0],
            Bc::Bc6 { signed } => return bc6h::bc6h(b, t, signed),
            Bc::Bc7 { srgb } => srgb_rgb(bc7::bc7(b, t), srgb),
        };
        rgba.map(f32::to_bits)
    }
}

fn srgb_rgb(mut c: [f32; 4], srgb: bool) -> [f32; 4] {
    if srgb {
        for v in c.iter_mut().take(3) {
            *v = srgb_to_linear(*v as f64) as f32;
        }
    }
    c
}

fn rgb565(c: u16) -> [f32; 3] {
    [(c >> 11) as f32 / 31.0, ((c >> 5) & 63) as f32 / 63.0, (c & 31) as f32 / 31.0]
}

/// The colour part of BC1/2/3; `bc1_mode` allows the 3-colour + transparent mode.
fn bc1(b: &[u8], t: usize, bc1_mode: bool) -> [f32; 4] {
    let c0 = u16::from_le_bytes([b[0], b[1]]);
    let c1 = u16::from_le_bytes([b[2], b[3]]);
    let idx = (u32::from_le_bytes([b[4], b[5], b[6], b[7]]) >> (2 * t)) & 3;
    let (p0, p1) = (rgb565(c0), rgb565(c1));
    let lerp = |w0: f32, w1: f32, d: f32| {
        let c = |k: usize| (w0 * p0[k] + w1 * p1[k]) / d;
        [c(0), c(1), c(2), 1.0]
    };
    match (idx, c0 > c1 || !bc1_mode) {
        (0, _) => lerp(1.0, 0.0, 1.0),
        (1, _) => lerp(0.0, 1.0, 1.0),
        (2, true) => lerp(2.0, 1.0, 3.0),
        (3, true) => lerp(1.0, 2.0, 3.0),
        (2, false) => lerp(1.0, 1.0, 2.0),
        _ => [0.0; 4],
    }
}

/// One RGTC channel (BC3 alpha, BC4, BC5).
fn rgtc(b: &[u8], t: usize, snorm: bool) -> f32 {
    let bits = u64::from_le_bytes(b[..8].try_into().unwrap()) >> 16;
    let idx = ((bits >> (3 * t)) & 7) as i32;
    let (e0, e1) = if snorm {
        let f = |v: u8| (v as i8 as f32 / 127.0).max(-1.0);
        (f(b[0]), f(b[1]))
    } else {
        (b[0] as f32 / 255.0, b[1] as f32 / 255.0)
    };
    let six = if snorm { b[0] as i8 > b[1] as i8 } else { b[0] > b[1] };
    match idx {
        0 => e0,
        1 => e1,
        _ if six => ((8 - idx) as f32 * e0 + (idx - 1) as f32 * e1) / 7.0,
        6 => {
            if snorm {
                -1.0
            } else {
                0.0
            }
        }
        7 => 1.0,
        _ => ((6 - idx) as f32 * e0 + (idx - 1) as f32 * e1) / 5.0,
    }
}
