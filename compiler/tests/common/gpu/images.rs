//! Images for the simulator rig: interpreter images become linear (SW_LINEAR) surfaces of
//! four 32-bit channels (GFX10 formats 32_32_32_32_FLOAT/UINT/SINT, which hold the
//! interpreter's texel bits unchanged), described by T#s, texel buffers by typed V#s, and
//! samplers by S#s, all written where the compiler's descriptor layout puts them. Field
//! positions follow shared/reference/descriptors-gfx103.md.

use ferrum_compiler::amd::abi::{DescriptorKind, ResourceLayout, COMBINED_SAMPLER_OFFSET};
use ferrum_compiler::interp::{Address, Image, Resources, Sampler, TexelKind};

use super::{Gpu, Mem};

/// Bytes per texel: four 32-bit channels.
const TEXEL: u64 = 16;

fn format(kind: TexelKind) -> u32 {
    match kind {
        TexelKind::Uint => 75,
        TexelKind::Sint => 76,
        TexelKind::Float => 77,
    }
}

/// Row pitch in texels: linear rows are aligned to 256 bytes.
fn pitch(img: &Image) -> u64 {
    u64::from(img.size[0]).next_multiple_of(256 / TEXEL)
}

/// A T# for a single-level, single-layer 2D linear image at `va`.
fn tsharp(img: &Image, va: u64) -> [u32; 8] {
    let (w, h) = (img.size[0] - 1, img.size[1] - 1);
    let dst_sel_xyzw = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    [
        (va >> 8) as u32,
        (va >> 40) as u32 & 0xff | format(img.kind) << 20 | (w & 3) << 30,
        (w >> 2) | h << 14 | 1 << 31,
        dst_sel_xyzw | 9 << 28,
        0,
        4 << 20,
        0,
        0,
    ]
}

/// A typed V# of `n` texels of 16 bytes at `va`.
fn typed_vsharp(img: &Image, va: u64) -> [u32; 4] {
    let dst_sel_xyzw = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    [
        va as u32,
        (va >> 32) as u32 & 0xffff | (TEXEL as u32) << 16,
        img.size[0],
        dst_sel_xyzw | format(img.kind) << 12 | 1 << 24,
    ]
}

fn clamp(a: Address) -> u32 {
    match a {
        Address::Repeat => 0,
        Address::Mirror => 1,
        Address::ClampEdge => 2,
        Address::MirrorClampEdge => 3,
        Address::ClampBorder => 6,
    }
}

/// An S#: filters, address modes, compare function (Vulkan's order is the hardware's),
/// LOD range 0..15, transparent black border.
fn ssharp(s: &Sampler) -> [u32; 4] {
    let filter = u32::from(s.linear);
    let mip = if s.mip_linear { 2 } else { 1 };
    [
        clamp(s.address[0])
            | clamp(s.address[1]) << 3
            | clamp(s.address[2]) << 6
            | u32::from(s.compare.unwrap_or(0)) << 12
            | u32::from(s.unnormalized) << 15,
        (15 << 8) << 12,
        filter << 20 | filter << 22 | mip << 26,
        0,
    ]
}

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Writes every image's texels and descriptors; the memory objects stay alive with the
/// dispatch and are read back by [`read_back`].
pub fn write(
    gpu: &Gpu,
    res: &Resources,
    layout: &ResourceLayout,
    sets: &[Mem],
) -> Result<Vec<Mem>, String> {
    let mut out = Vec::new();
    for img in &res.images {
        if img.levels != 1 || img.layers != 1 || img.samples != 1 || img.size[2] != 1 {
            return Err("the rig places single-level, single-layer 2D images only".into());
        }
        let l = layout.get(img.set, img.binding).ok_or("image binding missing from the layout")?;
        let p = pitch(img);
        let m = gpu.mem((p * u64::from(img.size[1]) * TEXEL) as usize, None);
        for y in 0..img.size[1] {
            let row: Vec<u32> =
                (0..img.size[0]).flat_map(|x| img.texels[(y * img.size[0] + x) as usize]).collect();
            m.map.write((u64::from(y) * p * TEXEL) as usize, &words(&row)).unwrap();
        }
        let at = l.offset as usize + img.index as usize * l.kind.descriptor_size() as usize;
        let set = &sets[img.set as usize];
        match l.kind {
            DescriptorKind::UniformTexelBuffer | DescriptorKind::StorageTexelBuffer => {
                set.map.write(at, &words(&typed_vsharp(img, m.va))).unwrap();
            }
            _ => set.map.write(at, &words(&tsharp(img, m.va))).unwrap(),
        }
        if let (Some(s), DescriptorKind::CombinedImageSampler) = (&img.sampler, l.kind) {
            set.map.write(at + COMBINED_SAMPLER_OFFSET as usize, &words(&ssharp(s))).unwrap();
        }
        out.push(m);
    }
    for s in &res.samplers {
        let l = layout.get(s.set, s.binding).ok_or("sampler binding missing from the layout")?;
        let at = l.offset as usize + s.index as usize * l.kind.descriptor_size() as usize;
        sets[s.set as usize].map.write(at, &words(&ssharp(s))).unwrap();
    }
    Ok(out)
}

/// Reads the texels back into `res`.
pub fn read_back(res: &mut Resources, mems: &[Mem]) {
    for (img, m) in res.images.iter_mut().zip(mems) {
        let p = pitch(img);
        for y in 0..img.size[1] {
            let mut row = vec![0u8; (img.size[0] as u64 * TEXEL) as usize];
            m.map.read((u64::from(y) * p * TEXEL) as usize, &mut row).unwrap();
            for x in 0..img.size[0] {
                let t = &mut img.texels[(y * img.size[0] + x) as usize];
                for (k, c) in t.iter_mut().enumerate() {
                    let o = (x as usize * 4 + k) * 4;
                    *c = u32::from_le_bytes(row[o..o + 4].try_into().unwrap());
                }
            }
        }
    }
}
