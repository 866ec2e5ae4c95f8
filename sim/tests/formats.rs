//! Format conversions at their edges, against values computed by hand from the Vulkan
//! conversion rules and the Khronos Data Format specification (S3TC/RGTC).

use ferrum_sim::tex::format::{encode_shared_exp, f32_to_small_float, small_float_to_f32, Format};

fn dec(code: u32, raw: &[u8]) -> [f32; 4] {
    Format::from_code(code).unwrap().decode(raw).map(f32::from_bits)
}

fn enc(code: u32, v: [f32; 4]) -> Vec<u8> {
    let fmt = Format::from_code(code).unwrap();
    let mut out = vec![0u8; fmt.bytes() as usize];
    fmt.encode(v.map(f32::to_bits), &mut out).unwrap();
    out
}

#[test]
fn unorm_snorm_and_packed_channels() {
    // 8_8_8_8_UNORM: 0, 255, 128 -> 128/255.
    assert_eq!(dec(56, &[0, 255, 128, 1]), [0.0, 1.0, 128.0 / 255.0, 1.0 / 255.0]);
    // 8_8_8_8_SNORM: -128 and -127 both read -1; 127 reads 1.
    assert_eq!(dec(57, &[0x80, 0x81, 0x7f, 0]), [-1.0, -1.0, 1.0, 0.0]);
    assert_eq!(enc(57, [-1.0, 1.0, 0.5, -2.0]), vec![0x81, 0x7f, 64, 0x81]);
    // UNORM encode rounds to nearest even after clamping; NaN becomes 0.
    assert_eq!(enc(56, [0.5, 1.5, -1.0, f32::NAN]), vec![128, 255, 0, 0]);
    // 5_6_5_UNORM: R in bits 4:0, G 10:5, B 15:11; no alpha channel (reads 1).
    let v: u16 = 31 | 32 << 5;
    assert_eq!(dec(133, &v.to_le_bytes()), [1.0, 32.0 / 63.0, 0.0, 1.0]);
    // 2_10_10_10_UNORM (A2B10G10R10): A in the top 2 bits.
    let v: u32 = 1023 | 3 << 30;
    assert_eq!(dec(50, &v.to_le_bytes()), [1.0, 0.0, 0.0, 1.0]);
    // 4_4_4_4 and 1_5_5_5 (A1 on top? 5_5_5_1 names R5 G5 B5 A1 from bit 0).
    assert_eq!(dec(136, &[0x0f, 0xf0]), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(dec(134, &0x8000u16.to_le_bytes()), [0.0, 0.0, 0.0, 1.0]);
    // Integers: 8_8_SINT sign-extends; missing channels read (0, 0, 0, 1) as integers.
    let f = Format::from_code(19).unwrap();
    assert_eq!(f.decode(&[0xff, 0x80]), [u32::MAX, (-128i32) as u32, 0, 1]);
}

#[test]
fn srgb_edges() {
    assert_eq!(dec(130, &[0, 255, 10, 255]), [0.0, 1.0, ((10.0 / 255.0) / 12.92) as f32, 1.0]);
    let mid = ((188.0 / 255.0 + 0.055) / 1.055f64).powf(2.4) as f32;
    assert_eq!(dec(128, &[188])[0], mid);
    // Encode: linear 0.5 -> 0.7354 * 255 = 187.5... -> 188; alpha stays linear.
    assert_eq!(enc(130, [0.5, 0.0, 1.0, 0.5]), vec![188, 0, 255, 128]);
}

#[test]
fn small_floats_at_zero_max_infinity_nan_and_denormals() {
    // f16.
    assert_eq!(f32_to_small_float(65504.0, 5, 10, true), 0x7bff);
    assert_eq!(f32_to_small_float(65520.0, 5, 10, true), 0x7c00, "ties to even: overflow");
    assert_eq!(f32_to_small_float(2f32.powi(-24), 5, 10, true), 1);
    assert_eq!(f32_to_small_float(2f32.powi(-25), 5, 10, true), 0, "tie to even 0");
    assert_eq!(f32_to_small_float(-0.0, 5, 10, true), 0x8000);
    assert_eq!(small_float_to_f32(0x3ff, 5, 10, true), 1023.0 * 2f32.powi(-24));
    // 11-bit unsigned (R11/G11): max 65024, infinity 0x7c0, NaN kept, negatives 0.
    assert_eq!(small_float_to_f32(0x7bf, 5, 6, false), 65024.0);
    assert_eq!(f32_to_small_float(65024.0, 5, 6, false), 0x7bf);
    assert_eq!(f32_to_small_float(f32::INFINITY, 5, 6, false), 0x7c0);
    assert!(small_float_to_f32(f32_to_small_float(f32::NAN, 5, 6, false), 5, 6, false).is_nan());
    assert_eq!(f32_to_small_float(-3.0, 5, 6, false), 0);
    assert_eq!(f32_to_small_float(f32::NEG_INFINITY, 5, 6, false), 0);
    assert_eq!(small_float_to_f32(1, 5, 6, false), 2f32.powi(-20), "smallest denormal");
    // 10-bit (B10): max 64512.
    assert_eq!(small_float_to_f32(0x3df, 5, 5, false), 64512.0);
    // 10_11_11_FLOAT (B10G11R11): R in bits 10:0.
    let v: u32 = 0x3c0 | 0x3c0 << 11 | 0x1e0 << 22; // 1.0 in each
    assert_eq!(dec(36, &v.to_le_bytes()), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(enc(36, [1.0, 1.0, 1.0, 0.0]), v.to_le_bytes().to_vec());
}

#[test]
fn shared_exponent_edges() {
    // 1.0 = 256 * 2^(16 - 15 - 9).
    assert_eq!(encode_shared_exp([1.0, 0.0, 0.0]), 256 | 16 << 27);
    assert_eq!(dec(132, &(256u32 | 16 << 27).to_le_bytes()), [1.0, 0.0, 0.0, 1.0]);
    // Max: 511 * 2^(31 - 24) = 65408; larger values and infinity clamp to it; NaN and
    // negatives are 0.
    let max = 511 | 511 << 9 | 511 << 18 | 31 << 27;
    assert_eq!(encode_shared_exp([65408.0, f32::INFINITY, 1e30]), max);
    assert_eq!(dec(132, &max.to_le_bytes()), [65408.0, 65408.0, 65408.0, 1.0]);
    assert_eq!(encode_shared_exp([f32::NAN, -1.0, 0.0]), 0);
    // Denormal range: exponent 0, mantissa 1 = 2^-24.
    assert_eq!(dec(132, &1u32.to_le_bytes())[0], 2f32.powi(-24));
    assert_eq!(encode_shared_exp([2f32.powi(-24), 0.0, 0.0]), 1);
    // Rounding up into the next exponent: 511.5 * 2^-8 -> 256 * 2^-7... = 2.0 exactly.
    assert_eq!(encode_shared_exp([1.999, 0.0, 0.0]), 256 | 17 << 27);
}

#[test]
fn depth_formats() {
    // 32_FLOAT_CLAMP clamps to [0, 1] when read.
    assert_eq!(dec(140, &2.5f32.to_le_bytes())[0], 1.0);
    assert_eq!(dec(140, &(-0.5f32).to_le_bytes())[0], 0.0);
    // 8_24_UNORM (D24S8 read as depth + stencil): depth in bits 23:0.
    let v: u32 = 0xffffff | 0x80 << 24;
    assert_eq!(dec(141, &v.to_le_bytes())[..2], [1.0, 128.0 / 255.0]);
}

/// A BC1 block: color0 = pure red (0xF800), color1 = pure blue (0x001F); texel indices
/// 0, 1, 2, 3 in the first row.
#[test]
fn bc1_bc4_bc5_blocks() {
    let bc1 = Format::from_code(169).unwrap();
    let block = [0x00, 0xf8, 0x1f, 0x00, 0b1110_0100, 0, 0, 0];
    let t = |i| bc1.decode_texel(&block, i, 0).map(f32::from_bits);
    assert_eq!(t(0), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(t(1), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(t(2), [2.0 / 3.0, 0.0, 1.0 / 3.0, 1.0]);
    assert_eq!(t(3), [1.0 / 3.0, 0.0, 2.0 / 3.0, 1.0]);
    // color0 <= color1: three colours and transparent black.
    let block = [0x1f, 0x00, 0x00, 0xf8, 0b1110_0100, 0, 0, 0];
    let t = |i| bc1.decode_texel(&block, i, 0).map(f32::from_bits);
    assert_eq!(t(2), [0.5, 0.0, 0.5, 1.0]);
    assert_eq!(t(3), [0.0; 4]);
    // BC4 UNORM, 8-value mode (e0 > e1): index 2 = (6 e0 + e1) / 7; texel (1, 0) has index 2.
    let bc4 = Format::from_code(175).unwrap();
    let block = [255, 0, 0b010_000, 0, 0, 0, 0, 0];
    assert_eq!(f32::from_bits(bc4.decode_texel(&block, 1, 0)[0]), 6.0 / 7.0);
    // 6-value mode (e0 <= e1): indices 6 and 7 are 0 and 1.
    let block = [0, 255, 0b111_110, 0, 0, 0, 0, 0];
    assert_eq!(f32::from_bits(bc4.decode_texel(&block, 0, 0)[0]), 0.0);
    assert_eq!(f32::from_bits(bc4.decode_texel(&block, 1, 0)[0]), 1.0);
    // BC5 SNORM: -128 reads -1 (like -127); the second channel from the second half.
    let bc5 = Format::from_code(178).unwrap();
    let mut block = [0u8; 16];
    block[0] = 0x80;
    block[8] = 127;
    let v = bc5.decode_texel(&block, 0, 0).map(f32::from_bits);
    assert_eq!(v, [-1.0, 1.0, 0.0, 1.0]);
}

/// LSB-first bit packing of (value, bits) fields into a 16-byte block.
fn pack(fields: &[(u32, u32)]) -> [u8; 16] {
    let mut v = 0u128;
    let mut pos = 0;
    for &(x, n) in fields {
        v |= (x as u128 & ((1u128 << n) - 1)) << pos;
        pos += n;
    }
    assert_eq!(pos, 128, "block layout adds up to 128 bits");
    v.to_le_bytes()
}

fn texel(code: u32, block: &[u8], t: u32) -> [f32; 4] {
    Format::from_code(code).unwrap().decode_texel(block, t % 4, t / 4).map(f32::from_bits)
}

/// BC7 mode 6: one subset, 7-bit RGBA endpoints with per-endpoint p-bits, 4-bit indices
/// (3 for the anchor texel 0). Expected values by the spec's interpolation
/// ((64 − w) e0 + w e1 + 32) >> 6 with w = 30 for index 7.
#[test]
fn bc7_mode6_endpoints_pbits_and_interpolation() {
    let mut f = vec![(1 << 6, 7)];
    f.extend([(127, 7), (0, 7), (0, 7), (127, 7), (64, 7), (64, 7), (127, 7), (127, 7)]);
    f.extend([(1, 1), (0, 1)]);
    f.push((0, 3)); // texel 0
    f.push((15, 4)); // texel 1
    f.push((7, 4)); // texel 2
    f.extend(std::iter::repeat_n((0, 4), 13));
    let block = pack(&f);
    let n = |v: [u32; 4]| v.map(|c| c as f32 / 255.0);
    assert_eq!(texel(181, &block, 0), n([255, 1, 129, 255]));
    assert_eq!(texel(181, &block, 1), n([0, 254, 128, 254]));
    assert_eq!(texel(181, &block, 2), n([135, 120, 129, 255]));
    // The sRGB variant decodes colour (not alpha) through the transfer function.
    let s = texel(182, &block, 1);
    assert_eq!(s[3], 254.0 / 255.0);
    assert_eq!(s[1], (((254.0 / 255.0 + 0.055) / 1.055f64).powf(2.4)) as f32);
}

/// BC7 mode 1: two subsets (partition 0: columns 2–3 are subset 1, anchor texel 15),
/// 6-bit endpoints with shared p-bits, 3-bit indices (2 for anchors).
#[test]
fn bc7_mode1_partitions_and_anchors() {
    let mut f = vec![(0b10, 2), (0, 6)];
    for _ in 0..3 {
        f.extend([(63, 6), (0, 6), (0, 6), (32, 6)]); // s0 e0, s0 e1, s1 e0, s1 e1
    }
    f.extend([(1, 1), (0, 1)]);
    for t in 0..16 {
        let bits = if t == 0 || t == 15 { 2 } else { 3 };
        let idx = match t {
            2 => 7,
            15 => 3,
            1 => 4,
            _ => 0,
        };
        f.push((idx, bits));
    }
    let block = pack(&f);
    let n = |v: u32| v as f32 / 255.0;
    assert_eq!(texel(181, &block, 0), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(texel(181, &block, 2), [n(129), n(129), n(129), 1.0]);
    assert_eq!(texel(181, &block, 15), [n(54), n(54), n(54), 1.0]);
    // Texel 1 (subset 0), index 4 of 3 bits: w = 37 between 255 and 2.
    let v = (27 * 255 + 37 * 2 + 32) >> 6;
    assert_eq!(texel(181, &block, 1), [n(v), n(v), n(v), 1.0]);
}

/// BC6H mode 00011: one region, 10-bit endpoints stored directly, 4-bit indices.
#[test]
fn bc6h_unsigned_and_signed_endpoints() {
    let mut f = vec![(0b00011, 5), (1023, 10), (512, 10), (0, 10), (0, 10), (0, 10), (0, 10)];
    f.push((0, 3));
    f.push((15, 4));
    f.extend(std::iter::repeat_n((0, 4), 14));
    let block = pack(&f);
    // R: 1023 -> 0xffff -> (0xffff * 31) >> 6 = 0x7bff = 65504; G: 512 -> 32800 -> 0x3e0f.
    assert_eq!(texel(179, &block, 0), [65504.0, 1.0 + 527.0 / 1024.0, 0.0, 1.0]);
    assert_eq!(texel(179, &block, 1), [0.0, 0.0, 0.0, 1.0]);
    // Signed: 0x3ff is -1 -> -96 -> -(96 * 31 >> 5) = -93 (an f16 denormal).
    let s = texel(180, &block, 0);
    assert_eq!(s[0], -93.0 * 2f32.powi(-24));
    // A reserved mode (10011) decodes to 0.
    let mut r = [0u8; 16];
    r[0] = 0b10011;
    assert_eq!(texel(179, &r, 0), [0.0, 0.0, 0.0, 1.0]);
}

/// BC2's explicit 4-bit alpha and BC3's interpolated alpha in its six-value mode (a0 <= a1:
/// indices 6 and 7 are 0 and 1); their colour blocks always use four colours, even with
/// color0 <= color1 (the punch-through mode is BC1's alone).
#[test]
fn bc2_bc3_alpha_and_four_colour_blocks() {
    // color0 = blue (0x001F) < color1 = red (0xF800); texel 0 has index 2: (2 c0 + c1) / 3.
    let colour = [0x1f, 0x00, 0x00, 0xf8, 0b10, 0, 0, 0];
    let mut bc2 = [0u8; 16];
    bc2[0] = 0xf0; // texel 0 alpha 0, texel 1 alpha 15
    bc2[1] = 0x07; // texel 2 alpha 7
    bc2[8..].copy_from_slice(&colour);
    assert_eq!(texel(171, &bc2, 0), [1.0 / 3.0, 0.0, 2.0 / 3.0, 0.0]);
    assert_eq!(texel(171, &bc2, 1)[3], 1.0);
    assert_eq!(texel(171, &bc2, 2)[3], 7.0 / 15.0);
    // BC3: a0 = 0, a1 = 255; texels 0, 1, 2 have indices 2, 7, 6: (4 a0 + a1) / 5, 1, 0.
    let mut bc3 = [0u8; 16];
    bc3[1] = 255;
    bc3[2] = 0xba; // 0b110_111_010
    bc3[3] = 0x01;
    bc3[8..].copy_from_slice(&colour);
    assert_eq!(texel(173, &bc3, 0), [1.0 / 3.0, 0.0, 2.0 / 3.0, 0.2]);
    assert_eq!(texel(173, &bc3, 1)[3], 1.0);
    assert_eq!(texel(173, &bc3, 2)[3], 0.0);
    // BC3 sRGB: colour through the transfer function, alpha linear.
    let s = texel(174, &bc3, 0);
    assert_eq!(s[3], 0.2);
    assert_eq!(s[0], (((f64::from(1.0f32 / 3.0) + 0.055) / 1.055).powf(2.4)) as f32);
}

/// An f16 value, decoded by hand (normal and denormal; no infinities here).
fn half(bits: u16) -> f32 {
    let (e, m) = (i32::from(bits >> 10 & 31), f32::from(bits & 1023));
    let v = if e == 0 { m * 2f32.powi(-24) } else { 2f32.powi(e - 15) * (1.0 + m / 1024.0) };
    if bits & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// BC6H mode 00111: one region, 11-bit base endpoint, the second endpoint a 9-bit signed
/// delta from it (wrapped to 11 bits), 4-bit indices. Base R = 0x7ff, delta -1; base G =
/// 512, delta 0x100 (-256). Unsigned: unquantise ((v << 16) + 0x8000) >> 11 (0x7ff -> 0xffff),
/// finish (v * 31) >> 6. Signed: endpoints sign-extended from 11 bits (R: -1 and -2),
/// unquantise ((|v| << 15) + 0x4000) >> 10 with the sign put back, finish (|v| * 31) >> 5.
#[test]
fn bc6h_transformed_endpoints_sign_extend() {
    let mut f = vec![(0b00111, 5), (0x7ff & 1023, 10), (512, 10), (0, 10)];
    f.extend([(0x1ff, 9), (1, 1), (0x100, 9), (0, 1), (0, 9), (0, 1)]);
    f.push((0, 3)); // texel 0: endpoint 0
    f.push((15, 4)); // texel 1: endpoint 1
    f.push((8, 4)); // texel 2: weight 34
    f.extend(std::iter::repeat_n((0, 4), 13));
    let block = pack(&f);
    // Unsigned: R 0xffff, 65488 -> 0x7bff, 0x7be8; G 16400, 8208 -> 0x1f07, 0x0f87; texel 2
    // R (30 * 65535 + 34 * 65488 + 32) >> 6 = 65510 -> 0x7bf3, G 12048 -> 0x16cb.
    assert_eq!(texel(179, &block, 0), [half(0x7bff), half(0x1f07), 0.0, 1.0]);
    assert_eq!(texel(179, &block, 1), [half(0x7be8), half(0x0f87), 0.0, 1.0]);
    assert_eq!(texel(179, &block, 2), [half(0x7bf3), half(0x16cb), 0.0, 1.0]);
    // Signed: R -1 -> -48 -> -46, -2 -> -80 -> -77 (f16 denormals); G 512 -> 16400 -> 15887
    // (0x3e0f), 256 -> 8208 -> 7951 (0x1f0f); texel 2 G (30 * 16400 + 34 * 8208 + 32) >> 6 =
    // 12048 -> 11671 (0x2d97), R (30 * -48 + 34 * -80 + 32) >> 6 = -65 -> -62.
    assert_eq!(texel(180, &block, 0), [half(0x8000 | 46), half(0x3e0f), 0.0, 1.0]);
    assert_eq!(texel(180, &block, 1), [half(0x8000 | 77), half(0x1f0f), 0.0, 1.0]);
    assert_eq!(texel(180, &block, 2), [half(0x8000 | 62), half(0x2d97), 0.0, 1.0]);
}

/// BC7 mode 4: one subset, 5-bit colour and 6-bit alpha endpoints, a 2-bit and a 3-bit
/// index set; index selection 1 gives colour the 3-bit indices and alpha the 2-bit ones,
/// rotation 1 swaps R and A after interpolation. Endpoints R 31/0, G 0/31, B 16/16 (5-bit
/// 16 expands to 132), A 63/0.
#[test]
fn bc7_mode4_rotation_and_index_selection() {
    let mut f = vec![(1 << 4, 5), (1, 2), (1, 1)];
    f.extend([(31, 5), (0, 5), (0, 5), (31, 5), (16, 5), (16, 5), (63, 6), (0, 6)]);
    f.extend([(0, 1), (2, 2)]); // 2-bit indices: texel 0 (anchor, 1 bit), texel 1
    f.extend(std::iter::repeat_n((0, 2), 14));
    f.extend([(3, 2), (5, 3)]); // 3-bit indices: texel 0 (anchor, 2 bits), texel 1
    f.extend(std::iter::repeat_n((0, 3), 14));
    let block = pack(&f);
    let n = |v: [u32; 4]| v.map(|c| c as f32 / 255.0);
    // Texel 0: colour index 3 (w 27): R (37 * 255 + 32) >> 6 = 147, G 108; alpha index 0:
    // 255. Rotated: R 255, A 147.
    assert_eq!(texel(181, &block, 0), n([255, 108, 132, 147]));
    // Texel 1: colour index 5 (w 46): R 72, G 183; alpha index 2 (w 43): 84. Rotated.
    assert_eq!(texel(181, &block, 1), n([84, 183, 132, 72]));
    assert_eq!(texel(181, &block, 2), n([255, 0, 132, 255]));
}

/// BC7 mode 0: three subsets (partition 0: rows 0011 0011 0221 2222, anchors 0, 3 and 15),
/// 4-bit RGB endpoints with per-endpoint p-bits (5 bits, expanded by bit replication),
/// 3-bit indices (2 for the three anchors).
#[test]
fn bc7_mode0_three_subsets_and_anchors() {
    let mut f = vec![(1, 1), (0, 4)];
    f.extend([15, 0, 8, 8, 0, 0].map(|v| (v, 4))); // R of s0 e0, s0 e1, s1 e0, s1 e1, s2 ...
    f.extend([0, 15, 8, 8, 0, 0].map(|v| (v, 4))); // G
    f.extend([0, 0, 8, 8, 15, 0].map(|v| (v, 4))); // B
    f.extend([1, 0, 0, 1, 1, 0].map(|p| (p, 1)));
    f.extend([(3, 2), (0, 3), (7, 3), (1, 2)]); // texels 0 (anchor), 1, 2, 3 (anchor)
    f.extend(std::iter::repeat_n((0, 3), 5));
    f.push((4, 3)); // texel 9
    f.extend(std::iter::repeat_n((0, 3), 5));
    f.push((2, 2)); // texel 15 (anchor)
    let block = pack(&f);
    let n = |v: [u32; 4]| v.map(|c| c as f32 / 255.0);
    // Endpoints: s0 (255, 8, 8)-(0, 247, 0); s1 132-140 grey; s2 (8, 8, 255)-(0, 0, 0).
    assert_eq!(texel(181, &block, 1), n([255, 8, 8, 255]));
    // Texel 0, weight 27: (37 * 255 + 32) >> 6 = 147, (37 * 8 + 27 * 247 + 32) >> 6 = 109.
    assert_eq!(texel(181, &block, 0), n([147, 109, 5, 255]));
    assert_eq!(texel(181, &block, 2), n([140, 140, 140, 255]));
    // Texel 3, subset 1's anchor, 2-bit index 1 (weight 9): (55 * 132 + 9 * 140 + 32) >> 6.
    assert_eq!(texel(181, &block, 3), n([133, 133, 133, 255]));
    assert_eq!(texel(181, &block, 9), n([3, 3, 108, 255]));
    // Texel 15, subset 2's anchor, 2-bit index 2 (weight 18).
    assert_eq!(texel(181, &block, 15), n([6, 6, 183, 255]));
}
