//! The registers these translations produce, decoded by the simulator (written separately from
//! the register database): the state a draw would run with must be the Vulkan state asked for.
//! This checks meaning, not bits: e.g. every compare op is run on values either side of the
//! stored one, every stencil op on a stored value.

use ash::vk;
use ferrum_sim::cp::regs::RegisterFile;
use ferrum_sim::gfx::back_state::{depth_clamp, raster_state};
use ferrum_sim::gfx::blend::BlendControl;
use ferrum_sim::gfx::color_format::ColorFormat;
use ferrum_sim::gfx::depth::{DepthState, Stored};
use ferrum_sim::gfx::raster::Rect as SimRect;
use ferrum_sim::gfx::surface::{Layout, RenderSurface};

use super::state::{blend, depth, multisample, viewport};
use super::Regs;
use crate::format::cb::cb_format;
use crate::format::{Caps, Sel, FORMATS};
use crate::image::Image;

fn file(regs: &[Regs]) -> RegisterFile {
    let mut f = RegisterFile::default();
    for r in regs {
        for &(a, v) in r.iter() {
            assert!(f.write(a, v), "{a:#x} is not a register the simulator has");
        }
    }
    f
}

#[test]
fn raster_state_as_the_simulator_decodes_it() {
    let area = vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent: vk::Extent2D { width: 300, height: 200 },
    };
    let vp = vk::Viewport {
        x: 10.0,
        y: 150.0,
        width: 100.0,
        height: -100.0,
        min_depth: 0.8,
        max_depth: 0.2,
    };
    let sc = vk::Rect2D {
        offset: vk::Offset2D { x: 0, y: 60 },
        extent: vk::Extent2D { width: 1000, height: 1000 },
    };
    let ms = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_8);
    let mask = [0x5au32];
    let ms = ms.sample_mask(&mask);
    let rast = vk::PipelineRasterizationStateCreateInfo::default().line_width(1.0);
    let f = file(&[
        super::state::rasterization::rasterization(&rast).unwrap(),
        viewport::render_area(&area),
        viewport::viewports(&[vp]),
        viewport::scissors(&[vp], &[sc]),
        multisample::multisample(&ms, false).unwrap(),
    ]);
    let rs = raster_state(&f).unwrap();
    assert_eq!(rs.samples, 8);
    assert_eq!((rs.snap_bits, rs.half_pixel_center), (8, true));
    assert_eq!(rs.scissor, SimRect { x0: 0, y0: 0, x1: 300, y1: 200 });
    assert_eq!(rs.vport_scissors.unwrap()[0], SimRect { x0: 10, y0: 60, x1: 110, y1: 150 });
    let offs = multisample::sample_offsets(8);
    for p in 0..4 {
        for (s, &(x, y)) in offs.iter().enumerate() {
            assert_eq!(
                rs.sample_locs[p][s],
                ((x - 8) as i8, (y - 8) as i8),
                "pixel {p} sample {s}"
            );
        }
        assert_eq!(rs.aa_mask[p], 0x5a);
    }
    assert_eq!(rs.centroid_priority[..8], [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(depth_clamp(&f)[0], (0.2, 0.8));
}

#[test]
fn every_blend_state_is_accepted() {
    use vk::BlendFactor as V;
    let factors = [
        V::ZERO,
        V::ONE,
        V::SRC_COLOR,
        V::ONE_MINUS_SRC_COLOR,
        V::DST_COLOR,
        V::ONE_MINUS_DST_COLOR,
        V::SRC_ALPHA,
        V::ONE_MINUS_SRC_ALPHA,
        V::DST_ALPHA,
        V::ONE_MINUS_DST_ALPHA,
        V::CONSTANT_COLOR,
        V::ONE_MINUS_CONSTANT_COLOR,
        V::CONSTANT_ALPHA,
        V::ONE_MINUS_CONSTANT_ALPHA,
        V::SRC_ALPHA_SATURATE,
        V::SRC1_COLOR,
        V::ONE_MINUS_SRC1_COLOR,
        V::SRC1_ALPHA,
        V::ONE_MINUS_SRC1_ALPHA,
    ];
    use vk::BlendOp as O;
    for op in [O::ADD, O::SUBTRACT, O::REVERSE_SUBTRACT, O::MIN, O::MAX] {
        for (i, &f) in factors.iter().enumerate() {
            let g = factors[(i + 7) % factors.len()];
            let a = vk::PipelineColorBlendAttachmentState {
                blend_enable: 1,
                src_color_blend_factor: f,
                dst_color_blend_factor: g,
                color_blend_op: op,
                src_alpha_blend_factor: g,
                dst_alpha_blend_factor: f,
                alpha_blend_op: op,
                color_write_mask: vk::ColorComponentFlags::RGBA,
            };
            let c = BlendControl::from_reg(blend::blend_control(&a).unwrap()).unwrap();
            assert!(c.enable && c.separate_alpha);
        }
    }
    assert!(!BlendControl::from_reg(0).unwrap().enable);
}

#[test]
fn every_compare_op_means_what_vulkan_says() {
    use vk::CompareOp as C;
    type Want = fn(f32, f32) -> bool;
    let ops: [(C, Want); 8] = [
        (C::NEVER, |_, _| false),
        (C::LESS, |a, b| a < b),
        (C::EQUAL, |a, b| a == b),
        (C::LESS_OR_EQUAL, |a, b| a <= b),
        (C::GREATER, |a, b| a > b),
        (C::NOT_EQUAL, |a, b| a != b),
        (C::GREATER_OR_EQUAL, |a, b| a >= b),
        (C::ALWAYS, |_, _| true),
    ];
    for (op, want) in ops {
        let info = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(true)
            .depth_compare_op(op);
        let r = depth::depth_stencil(&info, true, false);
        let ds = DepthState::from_regs(
            r.get(0x28800).unwrap(),
            r.get(0x2842c).unwrap(),
            r.get(0x28430).unwrap(),
            r.get(0x28434).unwrap(),
            (0.0, 1.0),
        );
        for z in [0.25f32, 0.5, 0.75] {
            let o = ds.test(z, Stored { z: 0.5, stencil: 0 }, true);
            assert_eq!(o.pass, want(z, 0.5), "{op:?} {z}");
            assert_eq!(o.new.z, if o.pass { z } else { 0.5 }, "{op:?} write");
        }
    }
}

#[test]
fn every_stencil_op_means_what_vulkan_says() {
    use vk::StencilOp as S;
    let r = 0x37u32;
    type Want = fn(u8) -> u8;
    let ops: [(S, Want); 8] = [
        (S::KEEP, |s| s),
        (S::ZERO, |_| 0),
        (S::REPLACE, |_| 0x37),
        (S::INCREMENT_AND_CLAMP, |s| s.saturating_add(1)),
        (S::DECREMENT_AND_CLAMP, |s| s.saturating_sub(1)),
        (S::INVERT, |s| !s),
        (S::INCREMENT_AND_WRAP, |s| s.wrapping_add(1)),
        (S::DECREMENT_AND_WRAP, |s| s.wrapping_sub(1)),
    ];
    for (op, want) in ops {
        let face = vk::StencilOpState {
            fail_op: S::KEEP,
            pass_op: op,
            depth_fail_op: S::KEEP,
            compare_op: vk::CompareOp::ALWAYS,
            compare_mask: 0xff,
            write_mask: 0xff,
            reference: r,
        };
        let info = vk::PipelineDepthStencilStateCreateInfo::default()
            .stencil_test_enable(true)
            .front(face)
            .back(face);
        let regs = depth::depth_stencil(&info, true, true);
        let ds = DepthState::from_regs(
            regs.get(0x28800).unwrap(),
            regs.get(0x2842c).unwrap(),
            regs.get(0x28430).unwrap(),
            regs.get(0x28434).unwrap(),
            (0.0, 1.0),
        );
        for s in [0u8, 1, 0x80, 0xfe, 0xff] {
            for front in [true, false] {
                let o = ds.test(0.5, Stored { z: 0.5, stencil: s }, front);
                assert_eq!(o.new.stencil, want(s), "{op:?} on {s} front {front}");
            }
        }
    }
}

#[test]
fn every_renderable_format_decodes_to_its_components() {
    for f in FORMATS.iter().filter(|f| f.caps.contains(Caps::COLOR)) {
        let cb = cb_format(f).unwrap();
        let sim = ColorFormat::new(cb.format, cb.number, cb.swap)
            .unwrap_or_else(|e| panic!("{:?}: {e}", f.format));
        assert_eq!(sim.bytes, u32::from(f.block_bytes), "{:?}", f.format);
        // API component c reads memory channel k; the simulator's channel k is component c.
        for (c, sel) in f.swizzle.iter().enumerate() {
            let k = match sel {
                Sel::X => 0,
                Sel::Y => 1,
                Sel::Z => 2,
                Sel::W => 3,
                _ => continue,
            };
            assert_eq!(usize::from(sim.comp[k]), c, "{:?} component {c}", f.format);
        }
    }
}

#[test]
fn msaa_surfaces_fit_the_driver_allocation() {
    use crate::gfx::target::{color_target, TargetView};
    for (format, samples) in [
        (vk::Format::R8G8B8A8_UNORM, vk::SampleCountFlags::TYPE_2),
        (vk::Format::R16G16B16A16_SFLOAT, vk::SampleCountFlags::TYPE_4),
        (vk::Format::R32G32B32A32_SFLOAT, vk::SampleCountFlags::TYPE_8),
        (vk::Format::R8_UNORM, vk::SampleCountFlags::TYPE_8),
        (vk::Format::D32_SFLOAT, vk::SampleCountFlags::TYPE_4),
    ] {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width: 333, height: 77, depth: 1 })
            .mip_levels(1)
            .array_layers(3)
            .samples(samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(if format == vk::Format::D32_SFLOAT {
                vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
            } else {
                vk::ImageUsageFlags::COLOR_ATTACHMENT
            });
        let img = Image::build(&info).unwrap();
        let range = vk::ImageSubresourceRange {
            base_array_layer: 2,
            layer_count: 1,
            level_count: 1,
            ..Default::default()
        };
        let t = TargetView::of(&img, 0, img.format, &range);
        if img.format.caps.contains(Caps::COLOR) {
            color_target(0, &t).unwrap();
        }
        let surf = RenderSurface {
            base: 0,
            sw_mode: img.surface.desc.mode as u32,
            bpe: img.surface.desc.bpe,
            width: 333,
            height: 77,
            slices: 3,
            mips: 1,
            samples: img.samples,
            slice: 2,
            slice_max: 2,
            mip: 0,
        };
        let l = Layout::new(&surf).unwrap();
        assert_eq!(l.size(), img.surface.size, "{format:?} x{}", img.samples);
        // The last sample of the last pixel of the last layer is inside the allocation.
        let last = l.offset(332, 76, 0, img.samples - 1);
        assert!(last + u64::from(img.surface.desc.bpe) <= img.size(), "{format:?}");
        assert!(last >= 2 * img.surface.layer_size, "{format:?}: layer 2 starts at its slice");
    }
}
