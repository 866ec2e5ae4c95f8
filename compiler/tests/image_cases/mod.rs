//! The image corpus's directives (see tests/images.rs), shared by the image test binaries.

use ferrum_compiler::interp::{Address, Image, Sampler, TexelKind};

use crate::common;

pub struct ImageCase {
    pub case: common::Case,
    /// Texts the compiled listing must contain (`isa` directives).
    #[allow(dead_code)]
    pub isa: Vec<String>,
}

fn kind(s: &str) -> TexelKind {
    match s {
        "float" => TexelKind::Float,
        "uint" => TexelKind::Uint,
        "sint" => TexelKind::Sint,
        other => panic!("bad texel kind {other}"),
    }
}

fn address(s: &str) -> Address {
    match s {
        "repeat" => Address::Repeat,
        "mirror" => Address::Mirror,
        "edge" => Address::ClampEdge,
        "border" => Address::ClampBorder,
        "mirroredge" => Address::MirrorClampEdge,
        other => panic!("bad address mode {other}"),
    }
}

fn fill_texels(img: &mut Image, init: &str) {
    let words = common::fill(init, img.texels.len() * 4);
    for (i, t) in img.texels.iter_mut().enumerate() {
        for (k, c) in t.iter_mut().enumerate() {
            let o = (i * 4 + k) * 4;
            *c = u32::from_le_bytes(words[o..o + 4].try_into().unwrap());
        }
    }
}

pub fn load(path: &std::path::Path) -> ImageCase {
    let mut case = common::load_case(path);
    let mut isa = Vec::new();
    let src = std::fs::read_to_string(path).unwrap();
    let mut res = std::mem::take(&mut case.res);
    for line in src.lines() {
        let Some(d) = line.trim().strip_prefix("//!") else { continue };
        let t: Vec<&str> = d.split_whitespace().collect();
        let n =
            |i: usize| -> u32 { t[i].parse().unwrap_or_else(|_| panic!("bad directive {line}")) };
        match t[0] {
            "image" => {
                let mut img =
                    Image::new((n(1), n(2), 0), [n(4), n(5), n(6)], n(7), n(8), kind(t[3]));
                if t.get(10) == Some(&"ms") {
                    img.samples = n(11);
                    img.texels = vec![[0; 4]; img.level_offset(img.levels) as usize];
                }
                fill_texels(&mut img, t[9]);
                // Arrays of descriptors: one image per element.
                let count =
                    res.images.iter().filter(|i| i.set == n(1) && i.binding == n(2)).count();
                img.index = count as u32;
                res.images.push(img);
            }
            "texbuf" => {
                let mut img = Image::new((n(1), n(2), 0), [n(4), 1, 1], 1, 1, kind(t[3]));
                fill_texels(&mut img, t[5]);
                res.images.push(img);
            }
            "sampler" => {
                let mut s = Sampler {
                    set: n(1),
                    binding: n(2),
                    index: 0,
                    linear: t[3] == "linear",
                    mip_linear: t[4] == "miplinear",
                    address: [address(t[5]); 3],
                    compare: None,
                    unnormalized: false,
                    border: [0, 0, 0, 0x3f80_0000],
                };
                let mut i = 6;
                while i < t.len() {
                    match t[i] {
                        "compare" => {
                            s.compare = Some(n(i + 1) as u8);
                            i += 1;
                        }
                        "unnorm" => s.unnormalized = true,
                        other => panic!("bad sampler option {other}"),
                    }
                    i += 1;
                }
                let mut attached = false;
                for img in
                    res.images.iter_mut().filter(|i| i.set == s.set && i.binding == s.binding)
                {
                    img.sampler = Some(Sampler { index: img.index, ..s.clone() });
                    attached = true;
                }
                if !attached {
                    res.samplers.push(s);
                }
            }
            "isa" => isa.push(t[1..].join(" ")),
            _ => {}
        }
    }
    case.res = res;
    ImageCase { case, isa }
}
