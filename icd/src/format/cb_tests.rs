use super::*;
use crate::format::{info, FORMATS};

fn cb(f: vk::Format) -> CbFormat {
    cb_format(info(f).unwrap()).unwrap()
}

#[test]
fn every_renderable_format_has_a_cb_encoding() {
    for f in FORMATS.iter().filter(|f| f.caps.contains(Caps::COLOR)) {
        assert!(cb_format(f).is_some(), "{:?}", f.format);
        assert_ne!(export_format(f, false), 0, "{:?}", f.format);
    }
    for f in FORMATS.iter().filter(|f| !f.caps.contains(Caps::COLOR)) {
        assert_eq!(cb_format(f), None, "{:?}", f.format);
        assert_eq!(export_format(f, true), 0, "{:?}", f.format);
    }
}

#[test]
fn encodings_from_the_register_database() {
    use vk::Format as F;
    // (format, ColorFormat, SurfaceNumber, SurfaceSwap) with gfx103.json's numbers.
    let table = [
        (F::R8G8B8A8_UNORM, 10, 0, 0),
        (F::B8G8R8A8_UNORM, 10, 0, 1),
        (F::B8G8R8A8_SRGB, 10, 6, 1),
        (F::R8_UINT, 1, 4, 0),
        (F::R16G16_SFLOAT, 5, 7, 0),
        (F::R32G32B32A32_SFLOAT, 14, 7, 0),
        (F::R32_SINT, 4, 5, 0),
        (F::A2B10G10R10_UNORM_PACK32, 9, 0, 0),
        (F::A2R10G10B10_UNORM_PACK32, 9, 0, 1),
        (F::B10G11R11_UFLOAT_PACK32, 6, 7, 0),
        (F::R5G6B5_UNORM_PACK16, 16, 0, 2),
        (F::B5G6R5_UNORM_PACK16, 16, 0, 0),
        (F::R4G4B4A4_UNORM_PACK16, 19, 0, 2),
        (F::B4G4R4A4_UNORM_PACK16, 19, 0, 3),
        (F::A1R5G5B5_UNORM_PACK16, 17, 0, 1),
    ];
    for (f, format, number, swap) in table {
        assert_eq!(cb(f), CbFormat { format, number, swap }, "{f:?}");
    }
}

#[test]
fn export_formats_as_radv_chooses() {
    use vk::Format as F;
    let ex = |f, blend| export_format(info(f).unwrap(), blend);
    // SPI_SHADER_EX_FORMAT: 1 32_R, 2 32_GR, 3 32_AR, 4 FP16_ABGR, 5 UNORM16, 6 SNORM16, 7 UINT16,
    // 8 SINT16, 9 32_ABGR.
    assert_eq!(ex(F::R8G8B8A8_UNORM, false), 4);
    assert_eq!(ex(F::R8G8B8A8_UINT, false), 7);
    assert_eq!(ex(F::R16G16B16A16_SINT, true), 8);
    assert_eq!(ex(F::A2B10G10R10_UINT_PACK32, true), 7);
    assert_eq!(ex(F::R16G16B16A16_UNORM, false), 5);
    assert_eq!(ex(F::R16G16B16A16_UNORM, true), 9);
    assert_eq!(ex(F::R16_SNORM, false), 6);
    // Blending exports alpha too (a SRC_ALPHA factor reads it, whatever the target has).
    assert_eq!(ex(F::R16_SNORM, true), 3);
    assert_eq!(ex(F::R16G16_UNORM, true), 9);
    assert_eq!(ex(F::R16_SFLOAT, false), 4);
    assert_eq!(ex(F::R32_SFLOAT, true), 3);
    assert_eq!(ex(F::R32_SFLOAT, false), 1);
    assert_eq!(ex(F::R32G32_SFLOAT, true), 9);
    assert_eq!(ex(F::R32G32_UINT, false), 2);
    assert_eq!(ex(F::R32G32B32A32_SINT, false), 9);
}
