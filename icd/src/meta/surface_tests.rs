//! The raw views meta kernels store through address depth and stencil planes exactly where
//! the DB reads them: for each depth/stencil format and several shapes, every texel's address
//! through the simulator's texture unit (decoding the T# the driver writes) equals its address
//! in the simulator's render-surface model (`ferrum_sim::gfx::surface`, what DB_Z_INFO /
//! DB_STENCIL_INFO describe), a separate path through the simulator.

use ash::vk;
use ferrum_sim::gfx::surface::{Layout as RenderLayout, RenderSurface};
use ferrum_sim::tex::desc::Tsharp;
use ferrum_sim::tex::image::{Image as TexImage, Texel};

use super::level_descriptor_at;
use crate::image::layout::mip_extent;
use crate::image::Image;

/// A swizzled surface's base: 64 KiB aligned, with pipe/bank XOR bits clear.
const VA: u64 = 0x40_0000_0000;

fn depth_image(format: vk::Format, w: u32, h: u32, levels: u32, layers: u32) -> Box<Image> {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: w, height: h, depth: 1 })
        .mip_levels(levels)
        .array_layers(layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::SAMPLED);
    Image::create(&info).expect("depth image")
}

#[test]
fn raw_views_of_depth_and_stencil_planes_address_like_the_db() {
    let formats = [
        vk::Format::D16_UNORM,
        vk::Format::D32_SFLOAT,
        vk::Format::S8_UINT,
        vk::Format::D32_SFLOAT_S8_UINT,
    ];
    let shapes = [(1, 1, 1, 1), (13, 7, 3, 2), (129, 65, 8, 3), (300, 5, 4, 1), (64, 64, 7, 6)];
    let mut checked = 0;
    for format in formats {
        for &(w, h, levels, layers) in &shapes {
            let image = depth_image(format, w, h, levels, layers);
            let mut planes = vec![(image.format.aspects(), &image.surface, 0)];
            if let Some((s, off)) = &image.stencil {
                planes = vec![
                    (vk::ImageAspectFlags::DEPTH, &image.surface, 0),
                    (vk::ImageAspectFlags::STENCIL, s, *off),
                ];
            }
            for (aspect, surface, off) in planes {
                let aspect = if aspect.contains(vk::ImageAspectFlags::DEPTH) {
                    vk::ImageAspectFlags::DEPTH
                } else {
                    aspect
                };
                for level in 0..levels {
                    let d = level_descriptor_at(&image, VA, aspect, level).unwrap();
                    let t = Tsharp::parse(&d.words()).unwrap();
                    let tex = TexImage::new(t).unwrap();
                    let (lw, lh) = (mip_extent(w, level), mip_extent(h, level));
                    for layer in 0..layers {
                        let rs = RenderSurface {
                            base: VA + off,
                            sw_mode: surface.desc.mode as u32,
                            bpe: surface.desc.bpe,
                            width: w,
                            height: h,
                            slices: layers,
                            mips: levels,
                            samples: 1,
                            slice: layer,
                            slice_max: layer,
                            mip: level,
                        };
                        let db = RenderLayout::new(&rs).unwrap();
                        assert!(db.width >= lw && db.height >= lh);
                        for y in 0..lh {
                            for x in 0..lw {
                                let p = Texel { x, y, z: layer, level, sample: 0 };
                                let a = tex.element_address(&p);
                                let b = db.base + db.offset(x, y, 0, 0);
                                assert_eq!(
                                    a, b,
                                    "{format:?} {aspect:?} {w}x{h} level {level} layer {layer} \
                                     texel ({x}, {y})"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}

fn bc_image(format: vk::Format, w: u32, h: u32, levels: u32, layers: u32) -> Box<Image> {
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: w, height: h, depth: 1 })
        .mip_levels(levels)
        .array_layers(layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::SAMPLED);
    Image::create(&info).expect("BC image")
}

/// Raw views of block-compressed levels reach every block the API level has,
/// `ceil(max(1, texels >> level) / 4)` per dimension (64×192 level 5: 1×2 blocks, where the
/// element count floors to 1×1), and address each block where the simulator's own layout of
/// the image (built from the real element size, not the widened one) places it.
#[test]
fn raw_views_of_bc_levels_reach_every_block() {
    use ferrum_sim::tex::surface::{Dim as SimDim, SurfaceDesc as SimDesc};
    let formats =
        [vk::Format::BC1_RGB_UNORM_BLOCK, vk::Format::BC4_UNORM_BLOCK, vk::Format::BC7_UNORM_BLOCK];
    let shapes = [
        (64, 192, 8, 2),
        (5, 3, 3, 1),
        (1, 1, 1, 1),
        (4, 4, 3, 2),
        (20, 12, 5, 1),
        (132, 68, 8, 3),
        (1028, 36, 11, 1),
    ];
    let mut checked = 0;
    for format in formats {
        for &(w, h, levels, layers) in &shapes {
            let image = bc_image(format, w, h, levels, layers);
            let s = &image.surface.desc;
            let own = SimDesc {
                sw_mode: s.mode as u32,
                dim: SimDim::D2,
                bpe_log2: s.bpe.trailing_zeros(),
                width: w.div_ceil(4),
                height: h.div_ceil(4),
                slices: layers,
                mips: levels,
                samples_log2: 0,
                pitch: None,
                pipe_bank_xor: 0,
            }
            .layout()
            .unwrap();
            for level in 0..levels {
                let d =
                    level_descriptor_at(&image, VA, vk::ImageAspectFlags::COLOR, level).unwrap();
                let tex = TexImage::new(Tsharp::parse(&d.words()).unwrap()).unwrap();
                let (bw, bh) = (mip_extent(w, level).div_ceil(4), mip_extent(h, level).div_ceil(4));
                let (vw, vh, _) = tex.level_size(level);
                let what = format!("{format:?} {w}x{h} level {level}");
                assert!(vw >= bw && vh >= bh, "{what}: view {vw}x{vh} < {bw}x{bh} blocks");
                for layer in 0..layers {
                    for y in 0..bh {
                        for x in 0..bw {
                            let p = Texel { x, y, z: layer, level, sample: 0 };
                            let a = tex.element_address(&p) - VA;
                            assert_eq!(a, own.offset(x, y, layer, level, 0), "{what} ({x}, {y})");
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
}
