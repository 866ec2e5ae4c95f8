//! Blending (CB_BLENDn_CONTROL, CB_BLEND_RED..ALPHA) and logic operations (CB_COLOR_CONTROL
//! ROP3), per the Vulkan spec's equations, which are the hardware's: factors from the BlendOp
//! enum, combine functions from CombFunc (min and max ignore the factors).

/// One render target's CB_BLENDn_CONTROL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlendControl {
    pub color_src: u32,
    pub color_func: u32,
    pub color_dst: u32,
    pub alpha_src: u32,
    pub alpha_func: u32,
    pub alpha_dst: u32,
    pub separate_alpha: bool,
    pub enable: bool,
}

impl BlendControl {
    pub fn from_reg(v: u32) -> Result<BlendControl, String> {
        let b = BlendControl {
            color_src: v & 0x1f,
            color_func: (v >> 5) & 7,
            color_dst: (v >> 8) & 0x1f,
            alpha_src: (v >> 16) & 0x1f,
            alpha_func: (v >> 21) & 7,
            alpha_dst: (v >> 24) & 0x1f,
            separate_alpha: v & (1 << 29) != 0,
            enable: v & (1 << 30) != 0,
        };
        if b.enable {
            for f in [b.color_src, b.color_dst, b.alpha_src, b.alpha_dst] {
                if f > 20 {
                    return Err(format!("CB_BLEND_CONTROL blend factor {f} is undefined"));
                }
            }
            for f in [b.color_func, b.alpha_func] {
                if f > 4 {
                    return Err(format!("CB_BLEND_CONTROL combine function {f} is undefined"));
                }
            }
        }
        Ok(b)
    }
}

/// Inputs of one blend: source (and dual-source second colour), destination, constant.
pub struct BlendInputs {
    pub src: [f32; 4],
    pub src1: [f32; 4],
    pub dst: [f32; 4],
    pub constant: [f32; 4],
}

/// The value of factor `f` for component `c` (3 = alpha).
fn factor(f: u32, c: usize, x: &BlendInputs) -> f32 {
    let (s, s1, d, k) = (&x.src, &x.src1, &x.dst, &x.constant);
    match f {
        0 => 0.0,
        1 => 1.0,
        2 => s[c],
        3 => 1.0 - s[c],
        4 => s[3],
        5 => 1.0 - s[3],
        6 => d[3],
        7 => 1.0 - d[3],
        8 => d[c],
        9 => 1.0 - d[c],
        10 => {
            if c == 3 {
                1.0
            } else {
                s[3].min(1.0 - d[3])
            }
        }
        // BOTH_SRC_ALPHA / BOTH_INV_SRC_ALPHA are legacy D3D9 modes: as the source factor
        // they stand for (As, 1-As); the destination factor is implied.
        11 => s[3],
        12 => 1.0 - s[3],
        13 => k[c],
        14 => 1.0 - k[c],
        15 => s1[c],
        16 => 1.0 - s1[c],
        17 => s1[3],
        18 => 1.0 - s1[3],
        19 => k[3],
        20 => 1.0 - k[3],
        _ => 0.0,
    }
}

fn combine(func: u32, s: f32, sf: f32, d: f32, df: f32) -> f32 {
    match func {
        0 => s * sf + d * df,
        1 => s * sf - d * df,
        2 => s.min(d),
        3 => s.max(d),
        4 => d * df - s * sf,
        _ => 0.0,
    }
}

/// Blends RGBA per `b`.
pub fn blend(b: &BlendControl, x: &BlendInputs) -> [f32; 4] {
    let mut out = [0f32; 4];
    for (c, o) in out.iter_mut().enumerate() {
        let alpha = c == 3;
        let (sf, func, df) = if alpha && b.separate_alpha {
            (b.alpha_src, b.alpha_func, b.alpha_dst)
        } else {
            (b.color_src, b.color_func, b.color_dst)
        };
        // BOTH_* as source factor override the destination factor.
        let df = match sf {
            11 => 12,
            12 => 11,
            _ => df,
        };
        *o = combine(func, x.src[c], factor(sf, c, x), x.dst[c], factor(df, c, x));
    }
    out
}

/// ROP3 with the pattern bit 0 (the 3D engine has no brush): the result for source bit s and
/// destination bit d is bit (4p + 2s + d) of the code. The 16 Vulkan logic ops use codes
/// whose two nibbles are equal (COPY = 0xCC, XOR = 0x66), so the pattern cannot matter.
pub fn rop3(code: u32, s: u32, d: u32) -> u32 {
    let mut r = 0u32;
    for (sbit, dbit) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        let idx = (sbit << 1) | dbit;
        if code >> idx & 1 != 0 {
            let sm = if sbit == 1 { s } else { !s };
            let dm = if dbit == 1 { d } else { !d };
            r |= sm & dm;
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rop3_codes_match_their_names() {
        let (s, d) = (0b1100u32, 0b1010u32);
        let m = 0xf;
        assert_eq!(rop3(0x00, s, d) & m, 0);
        assert_eq!(rop3(0xcc, s, d) & m, s);
        assert_eq!(rop3(0xaa, s, d) & m, d);
        assert_eq!(rop3(0x88, s, d) & m, s & d);
        assert_eq!(rop3(0xee, s, d) & m, s | d);
        assert_eq!(rop3(0x66, s, d) & m, s ^ d);
        assert_eq!(rop3(0x33, s, d) & m, !s & m);
        assert_eq!(rop3(0x55, s, d) & m, !d & m);
        assert_eq!(rop3(0x44, s, d) & m, s & !d);
        assert_eq!(rop3(0xdd, s, d) & m, (s | !d) & m);
        assert_eq!(rop3(0xff, s, d) & m, m);
    }
}
