//! Buffer data formats (`GFX10_FORMAT`) the simulator can convert: channel widths from channel 0
//! (lowest bits) upward and the numeric type. Generated from the `GFX10_FORMAT` enum of Mesa's
//! `gfx10-rsrc.json` (names encode the channel sizes from the most significant channel down).

/// How a channel's bits become a 32-bit register value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
}

/// (format value, channel bit widths, numeric type).
pub const FORMATS: &[(u32, &[u32], Num)] = &[
    (1, &[8], Num::Unorm),                 // 8_UNORM
    (2, &[8], Num::Snorm),                 // 8_SNORM
    (3, &[8], Num::Uscaled),               // 8_USCALED
    (4, &[8], Num::Sscaled),               // 8_SSCALED
    (5, &[8], Num::Uint),                  // 8_UINT
    (6, &[8], Num::Sint),                  // 8_SINT
    (7, &[16], Num::Unorm),                // 16_UNORM
    (8, &[16], Num::Snorm),                // 16_SNORM
    (9, &[16], Num::Uscaled),              // 16_USCALED
    (10, &[16], Num::Sscaled),             // 16_SSCALED
    (11, &[16], Num::Uint),                // 16_UINT
    (12, &[16], Num::Sint),                // 16_SINT
    (13, &[16], Num::Float),               // 16_FLOAT
    (14, &[8, 8], Num::Unorm),             // 8_8_UNORM
    (15, &[8, 8], Num::Snorm),             // 8_8_SNORM
    (16, &[8, 8], Num::Uscaled),           // 8_8_USCALED
    (17, &[8, 8], Num::Sscaled),           // 8_8_SSCALED
    (18, &[8, 8], Num::Uint),              // 8_8_UINT
    (19, &[8, 8], Num::Sint),              // 8_8_SINT
    (20, &[32], Num::Uint),                // 32_UINT
    (21, &[32], Num::Sint),                // 32_SINT
    (22, &[32], Num::Float),               // 32_FLOAT
    (23, &[16, 16], Num::Unorm),           // 16_16_UNORM
    (24, &[16, 16], Num::Snorm),           // 16_16_SNORM
    (25, &[16, 16], Num::Uscaled),         // 16_16_USCALED
    (26, &[16, 16], Num::Sscaled),         // 16_16_SSCALED
    (27, &[16, 16], Num::Uint),            // 16_16_UINT
    (28, &[16, 16], Num::Sint),            // 16_16_SINT
    (29, &[16, 16], Num::Float),           // 16_16_FLOAT
    (30, &[11, 11, 10], Num::Unorm),       // 10_11_11_UNORM
    (31, &[11, 11, 10], Num::Snorm),       // 10_11_11_SNORM
    (32, &[11, 11, 10], Num::Uscaled),     // 10_11_11_USCALED
    (33, &[11, 11, 10], Num::Sscaled),     // 10_11_11_SSCALED
    (34, &[11, 11, 10], Num::Uint),        // 10_11_11_UINT
    (35, &[11, 11, 10], Num::Sint),        // 10_11_11_SINT
    (36, &[11, 11, 10], Num::Float),       // 10_11_11_FLOAT
    (37, &[10, 11, 11], Num::Unorm),       // 11_11_10_UNORM
    (38, &[10, 11, 11], Num::Snorm),       // 11_11_10_SNORM
    (39, &[10, 11, 11], Num::Uscaled),     // 11_11_10_USCALED
    (40, &[10, 11, 11], Num::Sscaled),     // 11_11_10_SSCALED
    (41, &[10, 11, 11], Num::Uint),        // 11_11_10_UINT
    (42, &[10, 11, 11], Num::Sint),        // 11_11_10_SINT
    (43, &[10, 11, 11], Num::Float),       // 11_11_10_FLOAT
    (44, &[2, 10, 10, 10], Num::Unorm),    // 10_10_10_2_UNORM
    (45, &[2, 10, 10, 10], Num::Snorm),    // 10_10_10_2_SNORM
    (46, &[2, 10, 10, 10], Num::Uscaled),  // 10_10_10_2_USCALED
    (47, &[2, 10, 10, 10], Num::Sscaled),  // 10_10_10_2_SSCALED
    (48, &[2, 10, 10, 10], Num::Uint),     // 10_10_10_2_UINT
    (49, &[2, 10, 10, 10], Num::Sint),     // 10_10_10_2_SINT
    (50, &[10, 10, 10, 2], Num::Unorm),    // 2_10_10_10_UNORM
    (51, &[10, 10, 10, 2], Num::Snorm),    // 2_10_10_10_SNORM
    (52, &[10, 10, 10, 2], Num::Uscaled),  // 2_10_10_10_USCALED
    (53, &[10, 10, 10, 2], Num::Sscaled),  // 2_10_10_10_SSCALED
    (54, &[10, 10, 10, 2], Num::Uint),     // 2_10_10_10_UINT
    (55, &[10, 10, 10, 2], Num::Sint),     // 2_10_10_10_SINT
    (56, &[8, 8, 8, 8], Num::Unorm),       // 8_8_8_8_UNORM
    (57, &[8, 8, 8, 8], Num::Snorm),       // 8_8_8_8_SNORM
    (58, &[8, 8, 8, 8], Num::Uscaled),     // 8_8_8_8_USCALED
    (59, &[8, 8, 8, 8], Num::Sscaled),     // 8_8_8_8_SSCALED
    (60, &[8, 8, 8, 8], Num::Uint),        // 8_8_8_8_UINT
    (61, &[8, 8, 8, 8], Num::Sint),        // 8_8_8_8_SINT
    (62, &[32, 32], Num::Uint),            // 32_32_UINT
    (63, &[32, 32], Num::Sint),            // 32_32_SINT
    (64, &[32, 32], Num::Float),           // 32_32_FLOAT
    (65, &[16, 16, 16, 16], Num::Unorm),   // 16_16_16_16_UNORM
    (66, &[16, 16, 16, 16], Num::Snorm),   // 16_16_16_16_SNORM
    (67, &[16, 16, 16, 16], Num::Uscaled), // 16_16_16_16_USCALED
    (68, &[16, 16, 16, 16], Num::Sscaled), // 16_16_16_16_SSCALED
    (69, &[16, 16, 16, 16], Num::Uint),    // 16_16_16_16_UINT
    (70, &[16, 16, 16, 16], Num::Sint),    // 16_16_16_16_SINT
    (71, &[16, 16, 16, 16], Num::Float),   // 16_16_16_16_FLOAT
    (72, &[32, 32, 32], Num::Uint),        // 32_32_32_UINT
    (73, &[32, 32, 32], Num::Sint),        // 32_32_32_SINT
    (74, &[32, 32, 32], Num::Float),       // 32_32_32_FLOAT
    (75, &[32, 32, 32, 32], Num::Uint),    // 32_32_32_32_UINT
    (76, &[32, 32, 32, 32], Num::Sint),    // 32_32_32_32_SINT
    (77, &[32, 32, 32, 32], Num::Float),   // 32_32_32_32_FLOAT
    (133, &[5, 6, 5], Num::Unorm),         // 5_6_5_UNORM
    (134, &[5, 5, 5, 1], Num::Unorm),      // 1_5_5_5_UNORM
    (135, &[1, 5, 5, 5], Num::Unorm),      // 5_5_5_1_UNORM
    (136, &[4, 4, 4, 4], Num::Unorm),      // 4_4_4_4_UNORM
    (137, &[4, 4], Num::Unorm),            // 4_4_UNORM
    (138, &[1], Num::Unorm),               // 1_UNORM
    (141, &[24, 8], Num::Unorm),           // 8_24_UNORM
    (142, &[24, 8], Num::Uint),            // 8_24_UINT
    (143, &[8, 24], Num::Unorm),           // 24_8_UNORM
    (144, &[8, 24], Num::Uint),            // 24_8_UINT
];

/// Channel widths and numeric type of a format, if the simulator converts it.
pub fn lookup(format: u32) -> Option<(&'static [u32], Num)> {
    FORMATS.iter().find(|(v, _, _)| *v == format).map(|&(_, w, n)| (w, n))
}

/// Bytes one element of the format occupies.
pub fn element_bytes(widths: &[u32]) -> u32 {
    widths.iter().sum::<u32>().div_ceil(8)
}

fn small_float_to_f32(bits: u32, mantissa: u32) -> f32 {
    let exp = (bits >> mantissa) & 0x1f;
    let man = bits & ((1 << mantissa) - 1);
    let m = man as f32 / (1u32 << mantissa) as f32;
    match exp {
        0 => m * 2f32.powi(-14),
        31 if man == 0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + m) * 2f32.powi(e as i32 - 15),
    }
}

/// Unpacks one element into up to four 32-bit register values (floats as f32 bits).
pub fn unpack(raw: u128, widths: &[u32], num: Num) -> Vec<u32> {
    let mut shift = 0;
    widths
        .iter()
        .map(|&n| {
            let c = ((raw >> shift) & ((1u128 << n) - 1)) as u32;
            shift += n;
            let signed = || if n >= 32 { c as i32 } else { ((c << (32 - n)) as i32) >> (32 - n) };
            match num {
                Num::Unorm => (c as f64 / ((1u64 << n) - 1) as f64) as f32,
                Num::Snorm => ((signed() as f64) / ((1u64 << (n - 1)) - 1) as f64).max(-1.0) as f32,
                Num::Uscaled => c as f32,
                Num::Sscaled => signed() as f32,
                Num::Uint => return c,
                Num::Sint => return signed() as u32,
                Num::Float => match n {
                    32 => return c,
                    16 => super::wave::f16_to_f32(c as u16),
                    11 => small_float_to_f32(c, 6),
                    10 => small_float_to_f32(c, 5),
                    _ => f32::NAN,
                },
            }
            .to_bits()
        })
        .collect()
}

/// Packs register values into one element; `None` for conversions not modelled.
pub fn pack(values: &[u32], widths: &[u32], num: Num) -> Option<u128> {
    let mut raw = 0u128;
    let mut shift = 0;
    for (&n, &v) in widths.iter().zip(values) {
        let mask = (1u64 << n) - 1;
        let f = f32::from_bits(v);
        let c: u64 = match num {
            Num::Unorm => (f.clamp(0.0, 1.0) as f64 * mask as f64).round_ties_even() as u64,
            Num::Snorm => {
                let max = ((1u64 << (n - 1)) - 1) as f64;
                ((f.clamp(-1.0, 1.0) as f64 * max).round_ties_even() as i64) as u64 & mask
            }
            Num::Uscaled => (f.max(0.0) as u64).min(mask),
            Num::Sscaled => (f as i64) as u64 & mask,
            Num::Uint | Num::Sint => v as u64 & mask,
            Num::Float => match n {
                32 => v as u64,
                16 => super::wave::f32_to_f16(f) as u64,
                _ => return None,
            },
        };
        raw |= (c as u128) << shift;
        shift += n;
    }
    Some(raw)
}
