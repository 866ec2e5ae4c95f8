use super::*;

fn info(format: vk::Format, w: u32, h: u32, levels: u32) -> vk::ImageCreateInfo<'static> {
    vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: w, height: h, depth: 1 })
        .mip_levels(levels)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::SAMPLED)
}

#[test]
fn swizzled_by_default_linear_on_request() {
    let img = Image::create(&info(vk::Format::R8G8B8A8_UNORM, 256, 256, 9)).unwrap();
    assert_eq!(img.surface.desc.mode, SwizzleMode::S64KX);
    assert_eq!((img.size(), img.alignment()), (393_216, 65_536));
    let rt = info(vk::Format::R8G8B8A8_UNORM, 8, 8, 1).usage(vk::ImageUsageFlags::COLOR_ATTACHMENT);
    assert_eq!(Image::create(&rt).unwrap().surface.desc.mode, SwizzleMode::R64KX);
    let d = Image::create(&info(vk::Format::D16_UNORM, 8, 8, 1)).unwrap();
    assert_eq!(d.surface.desc.mode, SwizzleMode::Z64KX);
    let lin = info(vk::Format::R8G8B8A8_UNORM, 10, 3, 1).tiling(vk::ImageTiling::LINEAR);
    let lin = Image::create(&lin).unwrap();
    assert_eq!(lin.surface.desc.mode, SwizzleMode::Linear);
    assert_eq!(lin.size(), 768, "64-texel (256-byte) rows × 3");
}

#[test]
fn combined_depth_stencil_has_a_stencil_plane_after_depth() {
    let img = Image::create(&info(vk::Format::D32_SFLOAT_S8_UINT, 300, 200, 1)).unwrap();
    // Depth: 4-byte Z blocks of 128×128 → 3×2 blocks; stencil: 256×256 blocks → 2×1.
    assert_eq!(img.surface.size, 6 * 65_536);
    let (s, offset) = img.stencil.as_ref().unwrap();
    assert_eq!((s.size, *offset), (2 * 65_536, 6 * 65_536));
    assert_eq!(img.size(), 8 * 65_536);
}

#[test]
fn block_compressed_sizes_count_blocks() {
    // 100×60 BC1: 25×15 blocks of 8 bytes → one 256×256-element (8-byte: 128×64) block grid.
    let img = Image::create(&info(vk::Format::BC1_RGBA_UNORM_BLOCK, 100, 60, 1)).unwrap();
    assert_eq!((img.surface.desc.width, img.surface.desc.height), (25, 15));
    assert_eq!(img.size(), 65_536);
}

#[test]
fn linear_subresource_layout() {
    let lin = info(vk::Format::R16_UINT, 130, 7, 1).tiling(vk::ImageTiling::LINEAR);
    let img = Image::create(&lin).unwrap();
    let l = img
        .subresource_layout(&vk::ImageSubresource {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            array_layer: 0,
        })
        .unwrap();
    // 130 texels × 2 bytes = 260 → 512-byte rows.
    assert_eq!((l.offset, l.row_pitch, l.size, l.depth_pitch), (0, 512, 3584, 3584));
    let bad = vk::ImageSubresource { mip_level: 1, ..Default::default() };
    assert!(img.subresource_layout(&bad).is_err());
    let opt = Image::create(&info(vk::Format::R16_UINT, 8, 8, 1)).unwrap();
    assert!(opt.subresource_layout(&vk::ImageSubresource::default()).is_err());
}

#[test]
fn bad_requests_are_errors() {
    let bad = |i: vk::ImageCreateInfo<'_>| assert!(Image::create(&i).is_err(), "{i:?}");
    // Sample-count rules of the layout itself (vkCreateImage also refuses multisampled images
    // of formats outside `proven_msaa`).
    let bad_layout = |i: vk::ImageCreateInfo<'_>| assert!(Image::build(&i).is_err(), "{i:?}");
    bad(info(vk::Format::R8_UNORM, 0, 1, 1));
    bad(info(vk::Format::R8_UNORM, 16, 16, 6));
    bad(info(vk::Format::R8_UNORM, 16385, 1, 1));
    bad(info(vk::Format::R64_UINT, 1, 1, 1));
    bad(info(vk::Format::R32G32B32_SFLOAT, 1, 1, 1));
    bad_layout(info(vk::Format::R8_UNORM, 4, 4, 1).samples(vk::SampleCountFlags::TYPE_16));
    bad_layout(info(vk::Format::R8_UNORM, 4, 4, 2).samples(vk::SampleCountFlags::TYPE_4));
    bad_layout(
        info(vk::Format::R8_UNORM, 4, 4, 1)
            .samples(vk::SampleCountFlags::TYPE_4)
            .tiling(vk::ImageTiling::LINEAR),
    );
    bad(info(vk::Format::E5B9G9R9_UFLOAT_PACK32, 4, 4, 1).samples(vk::SampleCountFlags::TYPE_4));
    bad(info(vk::Format::E5B9G9R9_UFLOAT_PACK32, 4, 4, 1).samples(vk::SampleCountFlags::TYPE_2));
    // Offered: the proven formats with 2, 4 and 8 samples.
    let props = crate::format::properties::PROVEN_COLOR.iter();
    for f in props.chain(crate::format::properties::PROVEN_MSAA_DEPTH_STENCIL) {
        for n in [2, 4, 8] {
            let i = info(*f, 4, 4, 1).samples(vk::SampleCountFlags::from_raw(n));
            assert!(Image::create(&i).is_ok(), "{i:?}");
        }
    }
    bad_layout(
        info(vk::Format::BC1_RGB_UNORM_BLOCK, 4, 4, 1).samples(vk::SampleCountFlags::TYPE_2),
    );
    bad(info(vk::Format::R8_UNORM, 4, 4, 1).array_layers(0));
    bad(info(vk::Format::R8_UNORM, 4, 8, 1)
        .array_layers(6)
        .flags(vk::ImageCreateFlags::CUBE_COMPATIBLE));
    let cube = |layers| {
        info(vk::Format::R8_UNORM, 8, 8, 1)
            .array_layers(layers)
            .flags(vk::ImageCreateFlags::CUBE_COMPATIBLE)
    };
    bad(cube(5));
    // Any count from six up: only cube views take layers in sixes (the CTS clears 8 and 16).
    for layers in [6, 7, 8, 12, 16] {
        assert!(Image::create(&cube(layers)).is_ok(), "{layers} layers");
    }
    bad(info(vk::Format::D16_UNORM, 4, 4, 1).tiling(vk::ImageTiling::LINEAR));
    bad(info(vk::Format::R8_UNORM, 4, 4, 2).tiling(vk::ImageTiling::LINEAR));
    // The largest legal image is fine.
    assert!(Image::create(&info(vk::Format::R8_UNORM, 16384, 16384, 15)).is_ok());
}

#[test]
fn multisampled_images_use_msaa_layouts() {
    let ms = |f, samples| {
        Image::build(&info(f, 100, 100, 1).samples(samples).usage(vk::ImageUsageFlags::SAMPLED))
            .unwrap()
    };
    // 4-byte elements, 4 samples: addrlib halves the 128x128 block once in each dimension
    // (64x64 pixels of 4 samples = 64 KiB); 100x100 pads to 128x128.
    let c = ms(vk::Format::R8G8B8A8_UNORM, vk::SampleCountFlags::TYPE_4);
    assert_eq!(c.surface.desc.mode, SwizzleMode::R64KX, "_S has no MSAA layout");
    assert_eq!(c.samples, 4);
    assert_eq!(c.surface.block, [64, 64, 1]);
    assert_eq!(c.size(), 128 * 128 * 4 * 4);
    // 2 samples halve the width only; 8 samples: width by 4, height by 2.
    let two = ms(vk::Format::R8G8B8A8_UNORM, vk::SampleCountFlags::TYPE_2);
    assert_eq!(two.surface.block, [64, 128, 1]);
    assert_eq!(two.size(), 128 * 128 * 4 * 2);
    let eight = ms(vk::Format::R8G8B8A8_UNORM, vk::SampleCountFlags::TYPE_8);
    assert_eq!(eight.surface.block, [32, 64, 1]);
    assert_eq!(eight.size(), 128 * 128 * 4 * 8);
    // D32S8 with 8 samples: both planes `_Z`, the stencil (1 byte, 256x256 block -> 64x128).
    let ds = ms(vk::Format::D32_SFLOAT_S8_UINT, vk::SampleCountFlags::TYPE_8);
    assert_eq!(ds.surface.desc.mode, SwizzleMode::Z64KX);
    let (st, offset) = ds.stencil.as_ref().unwrap();
    assert_eq!(st.block, [64, 128, 1]);
    assert_eq!(*offset, 128 * 128 * 4 * 8);
    assert_eq!(st.size, 128 * 128 * 8);
}

/// A 2D view of layer 2 of a layered image reads layer 2: its T#, decoded by the simulator,
/// selects slice 2 when the shader gives no layer coordinate (a 2D-typed T# would read layer
/// 0: dEQP-VK.binding_model.shader_access.*.2d_base_slice).
#[test]
fn views_of_a_later_layer_read_that_layer() {
    use ferrum_sim::tex::desc::Tsharp;
    for (ty, view, layers) in [
        (vk::ImageType::TYPE_2D, vk::ImageViewType::TYPE_2D, 4),
        (vk::ImageType::TYPE_1D, vk::ImageViewType::TYPE_1D, 3),
    ] {
        let mut ci = info(vk::Format::R8G8B8A8_UNORM, 16, 16, 1);
        ci.image_type = ty;
        ci.array_layers = layers;
        if ty == vk::ImageType::TYPE_1D {
            ci.extent.height = 1;
        }
        let image = Image::create(&ci).unwrap();
        for base in 0..layers {
            let v = vk::ImageViewCreateInfo::default()
                .view_type(view)
                .format(ci.format)
                .subresource_range(vk::ImageSubresourceRange {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    base_mip_level: 0,
                    level_count: 1,
                    base_array_layer: base,
                    layer_count: 1,
                });
            let (_, _, d) = super::view::describe(&image, 1 << 20, &v).unwrap();
            let t = Tsharp::parse(&d.words()).unwrap();
            let img = ferrum_sim::tex::image::Image::new(t).unwrap();
            assert_eq!(img.slice_range(0), (base, base), "{view:?} of layer {base}");
        }
    }
}
