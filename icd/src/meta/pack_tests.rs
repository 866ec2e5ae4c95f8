//! Packed clear values against hand-computed bits (from the spec's layouts and rules).

use ash::vk;
use ash::vk::Format as F;

use super::*;
use crate::format;

fn color(f: F, v: [f32; 4]) -> [u32; 4] {
    pack_color(format::info(f).unwrap(), &vk::ClearColorValue { float32: v }).unwrap()
}

fn color_u(f: F, v: [u32; 4]) -> [u32; 4] {
    pack_color(format::info(f).unwrap(), &vk::ClearColorValue { uint32: v }).unwrap()
}

#[test]
fn byte_formats_follow_memory_order() {
    assert_eq!(color(F::R8G8B8A8_UNORM, [1.0, 0.0, 0.5, 0.2])[0], 0x33_80_00_ff);
    assert_eq!(color(F::B8G8R8A8_UNORM, [1.0, 0.0, 0.5, 0.2])[0], 0x33_ff_00_80);
    assert_eq!(color(F::R8_SNORM, [-1.0, 0.0, 0.0, 0.0])[0], 0x81);
    assert_eq!(color(F::R8_UNORM, [f32::NAN, 0.0, 0.0, 0.0])[0], 0);
    assert_eq!(color(F::R8G8_SNORM, [2.0, -0.5, 0.0, 0.0])[0], 0xc0_7f);
}

#[test]
fn packed_formats_name_channels_from_the_top() {
    assert_eq!(color(F::R5G6B5_UNORM_PACK16, [1.0, 0.0, 1.0, 0.0])[0], 0xf81f);
    assert_eq!(color(F::R5G6B5_UNORM_PACK16, [0.0, 1.0, 0.0, 0.0])[0], 0x07e0);
    assert_eq!(color(F::A1R5G5B5_UNORM_PACK16, [0.0, 0.0, 0.0, 1.0])[0], 0x8000);
    assert_eq!(color(F::R4G4_UNORM_PACK8, [1.0, 0.0, 0.0, 0.0])[0], 0xf0);
    assert_eq!(color(F::A2B10G10R10_UNORM_PACK32, [1.0, 0.0, 0.0, 1.0])[0], 0xc000_03ff);
    assert_eq!(color_u(F::A2R10G10B10_UINT_PACK32, [5, 0, 0, 7])[0], (3 << 30) | (5 << 20));
}

#[test]
fn integers_keep_their_low_bits_and_wide_formats_span_dwords() {
    assert_eq!(color_u(F::R16G16B16A16_UINT, [1, 2, 3, 0x1_0004]), [0x2_0001, 0x4_0003, 0, 0]);
    assert_eq!(color_u(F::R32G32B32A32_SINT, [u32::MAX, 0, 7, 8]), [u32::MAX, 0, 7, 8]);
    assert_eq!(color_u(F::R8_SINT, [(-2i32) as u32, 0, 0, 0])[0], 0xfe);
}

#[test]
fn floats_half_small_and_shared_exponent() {
    assert_eq!(color(F::R16_SFLOAT, [1.0, 0.0, 0.0, 0.0])[0], 0x3c00);
    assert_eq!(color(F::R16G16_SFLOAT, [-2.0, f32::INFINITY, 0.0, 0.0])[0], 0x7c00_c000);
    assert_eq!(color(F::R32_SFLOAT, [-0.0, 0.0, 0.0, 0.0])[0], 0x8000_0000);
    // B10G11R11: 1.0 is exponent 15 (bias 15), mantissa 0 in each field.
    let one = color(F::B10G11R11_UFLOAT_PACK32, [1.0, 1.0, 1.0, 0.0])[0];
    assert_eq!(one, (15 << 6) | ((15 << 6) << 11) | ((15 << 5) << 22));
    // Negative values are 0, huge ones the largest finite value, NaN stays NaN.
    assert_eq!(color(F::B10G11R11_UFLOAT_PACK32, [-1.0, 1e9, 0.0, 0.0])[0], 0x7bf << 11);
    assert_eq!(color(F::B10G11R11_UFLOAT_PACK32, [f32::NAN, 0.0, 0.0, 0.0])[0] & 0x7c0, 0x7c0);
    // 2^-15 is the 11-bit format's largest denormal step from 0: 2^-14 × 32/64.
    assert_eq!(color(F::B10G11R11_UFLOAT_PACK32, [2f32.powi(-15), 0.0, 0.0, 0.0])[0], 32);
    // E5B9G9R9: 1.0 → exponent 16, mantissa 256 (1 = 256/512 × 2^(16 - 15)); 0 → all zero.
    assert_eq!(color(F::E5B9G9R9_UFLOAT_PACK32, [1.0, 0.0, 0.0, 0.0])[0], (16 << 27) | 256);
    assert_eq!(color(F::E5B9G9R9_UFLOAT_PACK32, [0.0; 4])[0], 0);
}

#[test]
fn srgb_encodes_colour_but_not_alpha() {
    // 0.5 linear is 0.7354 in sRGB: 188 of 255; alpha 0.5 stays 128.
    assert_eq!(color(F::R8G8B8A8_SRGB, [0.5, 0.0, 1.0, 0.5])[0], 0x80_ff_00_bc);
}

#[test]
fn depth_and_unclearable_formats() {
    let d16 = format::info(F::D16_UNORM).unwrap();
    assert_eq!(pack_depth(d16, 1.0), Some(0xffff));
    assert_eq!(pack_depth(d16, 0.5), Some(0x8000));
    let d32 = format::info(F::D32_SFLOAT).unwrap();
    assert_eq!(pack_depth(d32, 0.25), Some(0.25f32.to_bits()));
    let v = vk::ClearColorValue { float32: [0.0; 4] };
    assert_eq!(pack_color(format::info(F::BC1_RGB_UNORM_BLOCK).unwrap(), &v), None);
    assert_eq!(pack_color(d16, &v), None);
}
