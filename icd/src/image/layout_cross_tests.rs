//! The layout cross-check: the driver's surface layout (`layout.rs`, sizes and offsets) against
//! the simulator's surface addressing (`ferrum_sim::tex::surface`, texel addresses), which were
//! written separately from AMD's addrlib. For random images the driver creates, the T# the
//! driver's view code writes is decoded by the simulator's descriptor code, and every texel the
//! simulator addresses must lie inside the driver's allocation and inside the driver's range for
//! its subresource. The driver's layout is also checked against addrlib's own answers
//! (`sim/tests/data/addrlib_navi21.txt`) for the shapes the driver can create.

use ash::vk;
use ferrum_sim::tex::desc::Tsharp;
use ferrum_sim::tex::surface::Layout;

use super::layout::{alloc_extent, Surface, SurfaceDesc, SwizzleMode};
use super::view::describe;
use super::Image;
use crate::format::{FormatInfo, FORMATS};
use fastrand::Rng;

/// Where the surfaces sit in GPU memory for the test (64 KiB aligned, above 4 GiB).
const VA: u64 = 0x1_2345_0000;

/// Log-uniform-ish in `1..=max`: a random bit length, then a random value of that length.
fn size(rng: &mut Rng, max: u32) -> u32 {
    let bits = 1 + rng.u32(..32 - max.leading_zeros());
    let v = (1u32 << (bits - 1)) | rng.u32(..1 << (bits - 1)).min((1 << (bits - 1)) - 1);
    v.clamp(1, max)
}

fn random_info(rng: &mut Rng, f: &FormatInfo) -> vk::ImageCreateInfo<'static> {
    use vk::ImageType as T;
    let plain = !f.is_compressed() && !f.is_depth_stencil();
    let ty = match rng.u32(..10) {
        0..=1 if plain => T::TYPE_1D,
        2..=4 if plain => T::TYPE_3D,
        _ => T::TYPE_2D,
    };
    let linear = ty == T::TYPE_2D && !f.is_depth_stencil() && rng.u32(..6) == 0;
    let max = match ty {
        T::TYPE_3D => 300,
        _ => 5000,
    };
    let mut e = vk::Extent3D { width: size(rng, max), height: 1, depth: 1 };
    if ty != T::TYPE_1D {
        e.height = size(rng, max);
    }
    if ty == T::TYPE_3D {
        e.depth = size(rng, max);
    }
    let mut flags = vk::ImageCreateFlags::empty();
    let mut layers = match (ty, rng.u32(..3)) {
        (T::TYPE_3D, _) | (_, 0) => 1,
        _ => size(rng, 12),
    };
    if ty == T::TYPE_2D && !linear && rng.u32(..8) == 0 {
        flags = vk::ImageCreateFlags::CUBE_COMPATIBLE;
        e.height = e.width;
        layers = 6 * (1 + rng.u32(..2));
    }
    let full = 32 - e.width.max(e.height).max(e.depth).leading_zeros();
    let levels = match (linear, rng.u32(..2)) {
        (true, _) => 1,
        (false, 0) => full,
        _ => 1 + rng.u32(..full),
    };
    let usage = match rng.u32(..3) {
        0 if f.is_depth_stencil() => vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
        0 => vk::ImageUsageFlags::COLOR_ATTACHMENT,
        _ => vk::ImageUsageFlags::SAMPLED,
    };
    vk::ImageCreateInfo::default()
        .flags(flags)
        .image_type(ty)
        .format(f.format)
        .extent(e)
        .mip_levels(levels)
        .array_layers(layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(if linear { vk::ImageTiling::LINEAR } else { vk::ImageTiling::OPTIMAL })
        .usage(usage | vk::ImageUsageFlags::TRANSFER_DST)
}

/// The view type that shows every layer of an image of `ty`.
fn whole_view_type(image: &Image) -> vk::ImageViewType {
    match image.ty {
        vk::ImageType::TYPE_1D => vk::ImageViewType::TYPE_1D_ARRAY,
        vk::ImageType::TYPE_3D => vk::ImageViewType::TYPE_3D,
        _ if image.flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE) => {
            vk::ImageViewType::CUBE_ARRAY
        }
        _ => vk::ImageViewType::TYPE_2D_ARRAY,
    }
}

/// The simulator's layout of the surface a view of `aspect` of `image` (bound at [`VA`];
/// the plane at byte `plane`) describes,
/// from the T# words the driver writes.
fn sim_layout(image: &Image, aspect: vk::ImageAspectFlags, plane: u64) -> Layout {
    let info = vk::ImageViewCreateInfo::default()
        .view_type(whole_view_type(image))
        .format(image.format.format)
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: 0,
            level_count: vk::REMAINING_MIP_LEVELS,
            base_array_layer: 0,
            layer_count: vk::REMAINING_ARRAY_LAYERS,
        });
    let (_, _, d) = describe(image, VA, &info).expect("the driver describes its own image");
    let t = Tsharp::parse(&d.words()).unwrap_or_else(|e| panic!("T# {d:?} malformed: {e}"));
    let fmt = t.format().unwrap_or_else(|e| panic!("{:?}: {e}", image.format.format));
    let (base, sd) = t.surface(&fmt).unwrap_or_else(|e| panic!("{d:?}: {e}"));
    assert_eq!(base, VA + plane, "T# base address");
    sd.layout().unwrap_or_else(|e| panic!("simulator rejects {sd:?}: {e}"))
}

/// The driver's byte range (from the plane's start) that holds slice `z` of `mip`, or `None`
/// where the driver's layout does not split the surface that finely.
fn driver_range(s: &Surface, mip: u32, z: u32) -> (u64, u64) {
    let bpe = u64::from(s.desc.bpe);
    let l = s.levels[mip as usize];
    if s.desc.mode == SwizzleMode::Linear {
        let start = s.layer_size * u64::from(z) + l.offset;
        return (start, start + s.linear_depth_pitch(mip));
    }
    let block = 1u64 << 16;
    if s.block[2] > 1 {
        // Thick: slabs of `block[2]` slices, each holding the whole chain one slab deep.
        let base = s.layer_size * u64::from(s.block[2]) * u64::from(z / s.block[2]);
        if l.in_tail {
            return (base, base + block);
        }
        let size = u64::from(l.pitch) * u64::from(l.height) * bpe * u64::from(s.block[2]);
        return (base + l.offset, base + l.offset + size);
    }
    let base = s.layer_size * u64::from(z);
    if l.in_tail {
        return (base, base + block);
    }
    let size = u64::from(l.pitch) * u64::from(l.height) * bpe * u64::from(s.desc.samples);
    (base + l.offset, base + l.offset + size)
}

/// The texels of a `w`×`h` mip slice to address: all of them when few, else the border and a
/// random sample.
fn texels(rng: &mut Rng, w: u32, h: u32) -> Vec<(u32, u32)> {
    if u64::from(w) * u64::from(h) <= 2048 {
        return (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect();
    }
    let mut v: Vec<(u32, u32)> = Vec::new();
    for x in (0..w).step_by((w as usize / 64).max(1)).chain([w - 1]) {
        v.extend([(x, 0), (x, h - 1)]);
    }
    for y in (0..h).step_by((h as usize / 64).max(1)).chain([h - 1]) {
        v.extend([(0, y), (w - 1, y)]);
    }
    v.extend((0..128).map(|_| (rng.u32(..w), rng.u32(..h))));
    v
}

/// Checks one plane of `image` (the surface `s` at byte `plane` of the image).
fn check_plane(
    rng: &mut Rng,
    image: &Image,
    aspect: vk::ImageAspectFlags,
    s: &Surface,
    plane: u64,
) {
    let l = sim_layout(image, aspect, plane);
    let what = format!("{:?} {:?} {:?}", image.format.format, s.desc, image.extent);
    assert!(plane + s.size <= image.size(), "{what}: plane past the image size");
    assert!(l.size <= s.size, "{what}: simulator spans {} > driver's {}", l.size, s.size);
    assert!(s.alignment >= 1 << l.block_log2, "{what}: alignment below the block size");
    assert_eq!(image.alignment() % s.alignment, 0, "{what}: image alignment");
    let bpe = u64::from(s.desc.bpe);
    let tail = l.mips.iter().position(|m| m.tail.is_some()).unwrap_or(l.mips.len());
    assert_eq!(s.first_tail_level, tail as u32, "{what}: first level in the mip tail");
    for mip in 0..s.desc.levels {
        let (dl, sl) = (s.levels[mip as usize], l.mips[mip as usize]);
        if !dl.in_tail {
            assert_eq!((dl.pitch, dl.height), (sl.pitch, sl.height), "{what}: mip {mip} pitch");
        }
        let (w, h, depth) = l.mip_size(mip);
        assert_eq!(
            (w, h),
            (alloc_extent(s.desc.width, mip), alloc_extent(s.desc.height, mip)),
            "{what}: mip {mip} size in elements"
        );
        let xy = texels(rng, w, h);
        for z in 0..depth {
            let (lo, hi) = driver_range(s, mip, z);
            for &(x, y) in &xy {
                let o = l.offset(x, y, z, mip, 0);
                assert!(
                    o >= lo && o + bpe <= hi && hi <= s.size,
                    "{what}: mip {mip} ({x},{y},{z}) at {o}, driver's range {lo}..{hi} of {}",
                    s.size
                );
            }
        }
    }
    if s.desc.mode == SwizzleMode::Linear {
        check_linear(image, s, &l);
    }
}

/// `vkGetImageSubresourceLayout` against the simulator's linear addressing.
fn check_linear(image: &Image, s: &Surface, l: &Layout) {
    let bpe = u64::from(s.desc.bpe);
    for layer in 0..image.layers {
        let sub = vk::ImageSubresource {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            array_layer: layer,
        };
        let r = image.subresource_layout(&sub).unwrap();
        assert_eq!(r.row_pitch, u64::from(l.mips[0].pitch) * bpe, "linear row pitch");
        let (w, h, _) = l.mip_size(0);
        let last = l.offset(w - 1, h - 1, layer, 0, 0);
        assert_eq!(l.offset(0, 0, layer, 0, 0), r.offset, "linear subresource offset");
        assert!(last + bpe <= r.offset + r.size, "linear subresource size");
        assert_eq!(last, r.offset + u64::from(h - 1) * r.row_pitch + u64::from(w - 1) * bpe);
    }
}

/// Random images of every format and type the driver creates, with their T#s decoded by the
/// simulator.
#[test]
fn driver_layout_holds_every_texel_the_simulator_addresses() {
    let formats: Vec<&FormatInfo> = FORMATS.iter().filter(|f| f.img_format != 0).collect();
    let mut rng = Rng::with_seed(0x5eed_1a70_u64 << 20 | 0x0ff5e7);
    let (mut checked, mut modes, mut kinds) = (0, std::collections::HashSet::new(), [0u32; 6]);
    for i in 0..1500 {
        let f = formats[i % formats.len()];
        let info = random_info(&mut rng, f);
        let image = match Image::create(&info) {
            Ok(img) => img,
            Err(_) => continue,
        };
        let planes = match &image.stencil {
            Some((st, off)) => vec![
                (vk::ImageAspectFlags::DEPTH, &image.surface, 0),
                (vk::ImageAspectFlags::STENCIL, st, *off),
            ],
            None => vec![(image.format.aspects(), &image.surface, 0)],
        };
        for (aspect, s, off) in planes {
            check_plane(&mut rng, &image, aspect, s, off);
            modes.insert((s.desc.mode as u8, s.desc.bpe, image.ty.as_raw()));
        }
        kinds[image.ty.as_raw() as usize] += 1;
        kinds[3] += u32::from(
            image.levels > 1
                && image.levels
                    == 32
                        - image
                            .extent
                            .width
                            .max(image.extent.height)
                            .max(image.extent.depth)
                            .leading_zeros(),
        );
        kinds[4] += u32::from(image.format.is_compressed());
        kinds[5] += u32::from(image.layers > 1);
        checked += 1;
    }
    eprintln!(
        "{checked} images; 1D/2D/3D, full chains, BC, arrays: {kinds:?}; {} modes",
        modes.len()
    );
    assert!(checked >= 1000, "only {checked} shapes were creatable");
    assert!(kinds.iter().all(|&k| k >= 50), "shape coverage {kinds:?}");
    for mode in [0, 24, 25, 27] {
        assert!(modes.iter().any(|m| m.0 == mode), "mode {mode} not covered: {modes:?}");
    }
    for bpe in [1, 2, 4, 8, 16] {
        assert!(modes.iter().any(|m| m.1 == bpe), "{bpe}-byte elements not covered");
    }
}

/// The driver's layout against addrlib's own texel addresses (`sim/gen/addrlib_kat.cpp`), for
/// the modes the driver creates (and `_D`, which it could): each address lies in the driver's range for its
/// subresource, and linear addresses are exactly the driver's pitch arithmetic.
#[test]
fn driver_layout_agrees_with_addrlib() {
    let text = include_str!("../../../sim/tests/data/addrlib_navi21.txt");
    let mut checked = [0u32; 5];
    let mut msaa_checked = 0;
    for line in text.lines() {
        let f: Vec<u32> = line.split_whitespace().map(|v| v.parse().unwrap()).collect();
        let (mode, dim, bpe_log2, w, h, slices, mips, samples) =
            (f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]);
        let (x, y, z, mip) = (f[9], f[10], f[11], f[12]);
        let addr: u64 = line.split_whitespace().nth(14).unwrap().parse().unwrap();
        let (mode, slot) = match mode {
            0 if dim == 1 && mips == 1 => (SwizzleMode::Linear, 0),
            24 => (SwizzleMode::Z64KX, 1),
            26 => (SwizzleMode::D64KX, 4),
            25 => (SwizzleMode::S64KX, 2),
            27 => (SwizzleMode::R64KX, 3),
            _ => continue,
        };
        // Multisampled surfaces: single-level 2D `_Z`/`_R` only, as Vulkan and the hardware
        // allow them.
        let msaa_ok =
            matches!(mode, SwizzleMode::Z64KX | SwizzleMode::R64KX) && dim == 1 && mips == 1;
        if samples != 0 && !msaa_ok {
            continue;
        }
        if samples != 0 {
            msaa_checked += 1;
        }
        let ty =
            [vk::ImageType::TYPE_1D, vk::ImageType::TYPE_2D, vk::ImageType::TYPE_3D][dim as usize];
        let d3 = ty == vk::ImageType::TYPE_3D;
        let s = Surface::new(SurfaceDesc {
            ty,
            bpe: 1 << bpe_log2,
            width: w,
            height: h,
            depth: if d3 { slices } else { 1 },
            layers: if d3 { 1 } else { slices },
            levels: mips,
            samples: 1 << samples,
            mode,
        });
        let (lo, hi) = driver_range(&s, mip, z);
        assert!(
            lo <= addr && addr < hi && hi <= s.size,
            "{line}: addrlib's {addr} outside the driver's {lo}..{hi} of {} ({s:?})",
            s.size
        );
        if mode == SwizzleMode::Linear {
            let pitch = u64::from(s.levels[0].pitch);
            let texel = (u64::from(y) * pitch + u64::from(x)) << bpe_log2;
            assert_eq!(addr, s.layer_size * u64::from(z) + texel, "{line}");
        }
        checked[slot] += 1;
    }
    assert!(checked.iter().all(|&n| n >= 16), "addrlib answers per mode {checked:?}");
    assert_eq!(msaa_checked, 40, "addrlib's multisampled answers");
}
