use super::*;
use crate::format::info;

fn view(format: vk::Format) -> TargetView {
    TargetView {
        format: info(format).unwrap(),
        main: Some(Plane { va: 0x1234_5678_0000, mode: SwizzleMode::R64KX }),
        stencil: None,
        ty: vk::ImageType::TYPE_2D,
        width: 16384,
        height: 100,
        slices: 6,
        levels: 3,
        samples: 1,
        level: 2,
        base_layer: 1,
        layers: 4,
    }
}

#[test]
fn rgba8_target_registers() {
    let regs = color_target(0, &view(vk::Format::R8G8B8A8_UNORM)).unwrap();
    assert_eq!(regs.get(0x28c60), Some(0x3456_7800), "CB_COLOR0_BASE = va bits 8..39");
    assert_eq!(regs.get(0x28e40), Some(0x12), "CB_COLOR0_BASE_EXT = va >> 40");
    // VIEW: SLICE_START 1, SLICE_MAX 4 (bit 13), MIP_LEVEL 2 (bit 26).
    assert_eq!(regs.get(0x28c6c), Some(1 | 4 << 13 | 2 << 26));
    // INFO: FORMAT 8_8_8_8 (10) at bit 2, UNORM, STD, BLEND_CLAMP (15), SIMPLE_FLOAT (17).
    assert_eq!(regs.get(0x28c70), Some(10 << 2 | 1 << 15 | 1 << 17));
    assert_eq!(regs.get(0x28c74), Some(0));
    // ATTRIB2: MIP0_HEIGHT 99, MIP0_WIDTH 16383 (bit 14), MAX_MIP 2 (bit 28).
    assert_eq!(regs.get(0x28ec0), Some(99 | 16383 << 14 | 2 << 28));
    // ATTRIB3: MIP0_DEPTH 5, COLOR_SW_MODE 27 (bit 14), RESOURCE_TYPE 2D (1, bit 24),
    // RESOURCE_LEVEL 1 (bit 27).
    assert_eq!(regs.get(0x28ee0), Some(5 | 27 << 14 | 1 << 24 | 1 << 27));
}

#[test]
fn later_targets_use_their_strides() {
    let regs = color_target(7, &view(vk::Format::R32_UINT)).unwrap();
    assert!(regs.get(0x28c60 + 7 * 0x3c).is_some(), "CB_COLOR7_BASE");
    assert!(regs.get(0x28e40 + 7 * 4).is_some(), "CB_COLOR7_BASE_EXT");
    assert!(regs.get(0x28ee0 + 7 * 4).is_some(), "CB_COLOR7_ATTRIB3");
    // INFO: COLOR_32 (4), UINT (4 at bit 8), BLEND_BYPASS (16), SIMPLE_FLOAT, ROUND_MODE (18).
    assert_eq!(regs.get(0x28c70 + 7 * 0x3c), Some(4 << 2 | 4 << 8 | 1 << 16 | 1 << 17 | 1 << 18));
    // R32 has no alpha: FORCE_DST_ALPHA_1 (bit 17).
    assert_eq!(regs.get(0x28c74 + 7 * 0x3c), Some(1 << 17));
    assert!(color_target(8, &view(vk::Format::R32_UINT)).is_err());
    assert_eq!(no_color_target(3).0, vec![(0x28c70 + 3 * 0x3c, 0)]);
}

#[test]
fn msaa_and_bgra_target() {
    let v = TargetView { samples: 8, levels: 1, level: 0, ..view(vk::Format::B8G8R8A8_SRGB) };
    let regs = color_target(1, &v).unwrap();
    // NUM_SAMPLES 3 at bit 12, NUM_FRAGMENTS 3 at bit 15.
    assert_eq!(regs.get(0x28c74 + 0x3c), Some(3 << 12 | 3 << 15));
    // SRGB (6) at bit 8, SWAP_ALT (1) at bit 11.
    assert_eq!(regs.get(0x28c70 + 0x3c), Some(10 << 2 | 6 << 8 | 1 << 11 | 1 << 15 | 1 << 17));
    assert!(color_target(0, &TargetView { samples: 16, ..v }).is_err());
    assert!(color_target(0, &view(vk::Format::D16_UNORM)).is_err());
    assert!(color_target(0, &view(vk::Format::BC1_RGB_UNORM_BLOCK)).is_err());
}

#[test]
fn d32s8_depth_target() {
    let v = TargetView {
        main: Some(Plane { va: 0x1_0000_0000, mode: SwizzleMode::Z64KX }),
        stencil: Some(Plane { va: 0x1_0004_0000, mode: SwizzleMode::Z64KX }),
        samples: 4,
        width: 640,
        height: 480,
        base_layer: 2048 + 5,
        layers: 2,
        slices: 4096,
        ..view(vk::Format::D32_SFLOAT_S8_UINT)
    };
    let regs = depth_target(&v, (false, true)).unwrap();
    // DB_Z_INFO: Z_32_FLOAT (3), NUM_SAMPLES 2 (bit 2), SW_MODE 24 (bit 4), MAXMIP 2 (bit 16).
    assert_eq!(regs.get(0x28040), Some(3 | 2 << 2 | 24 << 4 | 2 << 16));
    // DB_STENCIL_INFO: STENCIL_8, SW_MODE 24, TILE_STENCIL_DISABLE (bit 29).
    assert_eq!(regs.get(0x28044), Some(1 | 24 << 4 | 1 << 29));
    // DB_DEPTH_VIEW: slice 2053 = 5 + 1 << 11, max 2054; STENCIL_READ_ONLY (25), MIPID 2.
    assert_eq!(regs.get(0x28008), Some(5 | 1 << 11 | 6 << 13 | 1 << 25 | 2 << 26 | 1 << 30));
    assert_eq!(regs.get(0x2801c), Some(639 | 479 << 16));
    assert_eq!(regs.get(0x28048), Some(0x100_0000));
    assert_eq!(regs.get(0x28050), Some(0x100_0000));
    assert_eq!(regs.get(0x28068), Some(0));
    assert_eq!(regs.get(0x2804c), Some(0x100_0400));
    assert_eq!(regs.get(0x28054), Some(0x100_0400));
}

#[test]
fn d16_and_stencil_only() {
    let d16 = TargetView {
        main: Some(Plane { va: 1 << 40, mode: SwizzleMode::Z64KX }),
        ..view(vk::Format::D16_UNORM)
    };
    let regs = depth_target(&d16, (true, false)).unwrap();
    assert_eq!(regs.get(0x28040).unwrap() & 3, 1, "Z_16");
    assert_eq!(regs.get(0x28044), Some(1 << 29), "no stencil");
    assert_eq!(regs.get(0x28068), Some(1), "DB_Z_READ_BASE_HI");
    assert_eq!(regs.get(0x28008).unwrap() >> 24 & 3, 1, "Z_READ_ONLY");
    assert_eq!(regs.get(0x2804c), None);
    let s8 = TargetView {
        main: None,
        stencil: Some(Plane { va: 0x20_0000, mode: SwizzleMode::Z64KX }),
        ..view(vk::Format::S8_UINT)
    };
    let regs = depth_target(&s8, (false, false)).unwrap();
    assert_eq!(regs.get(0x28040).unwrap() & 3, 0, "Z_INVALID");
    assert_eq!(regs.get(0x28048), None);
    assert_eq!(regs.get(0x2804c), Some(0x2000));
    assert!(depth_target(&view(vk::Format::R8_UNORM), (false, false)).is_err());
    assert_eq!(no_depth_target().0, vec![(0x28040, 0), (0x28044, 0)]);
}

#[test]
fn ps_key_and_col_format() {
    let f = |v| Some(info(v).unwrap());
    let key = ps_key(
        &[
            f(vk::Format::R8G8B8A8_UNORM),
            None,
            f(vk::Format::R16_UNORM),
            f(vk::Format::R32G32_SFLOAT),
        ],
        &[false, false, true],
    );
    // A blended R16_UNORM target exports 32-bit R and the alpha its blend factors may read
    // (32_AR).
    assert_eq!(key.color_formats, [4, 0, 3, 2, 0, 0, 0, 0]);
    assert_eq!(col_format(&key), 4 | 3 << 8 | 2 << 12);
}

#[test]
fn target_view_of_images() {
    let info = |f, samples| {
        vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(f)
            .extent(vk::Extent3D { width: 64, height: 32, depth: 1 })
            .mip_levels(1)
            .array_layers(3)
            .samples(samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT)
    };
    let range = vk::ImageSubresourceRange {
        base_array_layer: 1,
        layer_count: 2,
        level_count: 1,
        ..Default::default()
    };
    let img =
        Image::build(&info(vk::Format::D32_SFLOAT_S8_UINT, vk::SampleCountFlags::TYPE_4)).unwrap();
    let f = img.format;
    let t = TargetView::of(&img, 0x10_0000, f, &range);
    let offset = img.stencil.as_ref().unwrap().1;
    assert_eq!(t.main, Some(Plane { va: 0x10_0000, mode: SwizzleMode::Z64KX }));
    assert_eq!(t.stencil, Some(Plane { va: 0x10_0000 + offset, mode: SwizzleMode::Z64KX }));
    assert_eq!(
        (t.width, t.height, t.slices, t.samples, t.base_layer, t.layers),
        (64, 32, 3, 4, 1, 2)
    );
    let regs = depth_target(&t, (false, false)).unwrap();
    assert_eq!(regs.get(0x28040).unwrap() >> 2 & 3, 2, "4 samples");
    let s8 = Image::create(&info(vk::Format::S8_UINT, vk::SampleCountFlags::TYPE_1)).unwrap();
    let t = TargetView::of(&s8, 0x20_0000, s8.format, &range);
    assert_eq!((t.main, t.stencil.map(|p| p.va)), (None, Some(0x20_0000)));
}

#[test]
fn degenerate_views_do_not_panic() {
    let v = TargetView {
        width: 0,
        height: 0,
        slices: 0,
        levels: 0,
        layers: 0,
        base_layer: 0,
        ..view(vk::Format::R8_UNORM)
    };
    let regs = color_target(0, &v).unwrap();
    assert_eq!(regs.get(0x28ec0), Some(0));
    let d = TargetView { format: info(vk::Format::D16_UNORM).unwrap(), ..v };
    assert_eq!(depth_target(&d, (false, false)).unwrap().get(0x2801c), Some(0));
}
