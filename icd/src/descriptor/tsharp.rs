//! Image descriptors (T#, 256 bits), from descriptors-gfx103.md §2.

use crate::format::Sel;

/// SQ_RSRC_IMG_* (T# word 3 TYPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum ImgType {
    D1 = 8,
    D2 = 9,
    D3 = 10,
    Cube = 11,
    D1Array = 12,
    D2Array = 13,
    /// Multisampled 2D: coordinates (x, y) and a sample (fragment) index.
    D2Msaa = 14,
    D2MsaaArray = 15,
}

impl ImgType {
    /// The array type a 2D or 2D-array view takes as an input attachment (others have none).
    pub fn arrayed(self) -> Option<ImgType> {
        match self {
            ImgType::D2 | ImgType::D2Array => Some(ImgType::D2Array),
            ImgType::D2Msaa | ImgType::D2MsaaArray => Some(ImgType::D2MsaaArray),
            _ => None,
        }
    }

    /// The multisampled counterpart of a 2D type (others have none).
    pub fn msaa(self) -> Option<ImgType> {
        match self {
            ImgType::D2 | ImgType::D2Msaa => Some(ImgType::D2Msaa),
            ImgType::D2Array | ImgType::D2MsaaArray => Some(ImgType::D2MsaaArray),
            _ => None,
        }
    }
}

/// Everything a T# says, in API terms resolved to hardware values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageDescriptor {
    /// Surface base address (256-byte aligned; 64 KiB for swizzled surfaces).
    pub va: u64,
    /// GFX10_FORMAT.
    pub format: u16,
    /// Level-0 width and height in texels, and 3D depth.
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    /// DST_SEL X, Y, Z, W: the format's selects composed with the view's swizzle.
    pub swizzle: [Sel; 4],
    /// The format's own selects (before any view swizzle), from which BC_SWIZZLE is derived.
    pub format_swizzle: [Sel; 4],
    /// BASE_LEVEL and LAST_LEVEL (multisampled: 0 and log2(samples), descriptors-gfx103 §2).
    pub base_level: u32,
    pub last_level: u32,
    /// Levels of the whole resource (multisampled: log2(samples) + 1, so MAX_MIP holds
    /// log2(samples)).
    pub levels: u32,
    pub sw_mode: u8,
    pub ty: ImgType,
    pub base_array: u32,
    /// Last accessible layer (arrays), last cube (cubes: layers / 6 - 1), depth - 1 (3D).
    pub last_array: u32,
}

/// BC_SWIZZLE: which border-colour component each hardware channel receives, so that the
/// format's selects `s` read the colour back in API order. The texture unit sends the border
/// colour through DST_SEL like a texel, so this is taken from the format alone (as Mesa's
/// `ac_border_color_swizzle` does): the view's swizzle then applies to the border colour as
/// Vulkan orders it (texel replacement before the component swizzle).
fn bc_swizzle(s: [Sel; 4]) -> u32 {
    match s {
        [_, _, Sel::Y, Sel::X] => 2, // WZYX
        [_, _, _, Sel::X] => 3,      // WXYZ
        [Sel::X, Sel::Y, _, _] => 0, // XYZW
        [Sel::X, _, _, _] => 1,      // XWYZ
        [_, Sel::X, _, _] => 5,      // YXWZ
        [_, _, Sel::X, _] => 4,      // ZYXW
        _ => 0,
    }
}

fn dst_sel(s: [Sel; 4]) -> u32 {
    s.iter().enumerate().map(|(i, &c)| (c as u32) << (3 * i)).sum()
}

/// PERF_MOD, as Mesa writes it.
const PERF_MOD: u32 = 4;

impl ImageDescriptor {
    /// The descriptor of a multisampled image of `samples` samples (2, 4 or 8): the 2D type
    /// becomes its MSAA type, and the level fields carry the sample count, as the T# defines
    /// them for MSAA resources (LAST_LEVEL = MAX_MIP = log2(samples), BASE_LEVEL = 0).
    pub fn multisampled(self, samples: u32) -> Option<ImageDescriptor> {
        let log2 = samples.trailing_zeros();
        Some(ImageDescriptor {
            ty: self.ty.msaa()?,
            base_level: 0,
            last_level: log2,
            levels: log2 + 1,
            ..self
        })
    }

    /// The eight T# words.
    pub fn words(&self) -> [u32; 8] {
        debug_assert_eq!(self.va & 0xff, 0, "T# base must be 256-byte aligned");
        let (w, h) = (self.width - 1, self.height - 1);
        let depth = match self.ty {
            ImgType::D3 => self.depth - 1,
            _ => self.last_array,
        };
        [
            (self.va >> 8) as u32,
            ((self.va >> 40) as u32 & 0xff) | (u32::from(self.format) << 20) | ((w & 3) << 30),
            ((w >> 2) & 0xfff) | ((h & 0x3fff) << 14) | (1 << 31),
            dst_sel(self.swizzle)
                | (self.base_level << 12)
                | (self.last_level << 16)
                | (u32::from(self.sw_mode) << 20)
                | (bc_swizzle(self.format_swizzle) << 25)
                | ((self.ty as u32) << 28),
            (depth & 0x1fff) | ((self.base_array & 0x1fff) << 16),
            ((self.levels - 1) << 4) | (PERF_MOD << 20),
            0,
            0,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of descriptors-gfx103.md §2.
    #[test]
    fn reference_example() {
        let d = ImageDescriptor {
            va: 0x12_3456_7800,
            format: 56,
            width: 256,
            height: 128,
            depth: 1,
            swizzle: [Sel::X, Sel::Y, Sel::Z, Sel::W],
            format_swizzle: [Sel::X, Sel::Y, Sel::Z, Sel::W],
            base_level: 0,
            last_level: 0,
            levels: 1,
            sw_mode: 0,
            ty: ImgType::D2,
            base_array: 0,
            last_array: 0,
        };
        assert_eq!(
            d.words(),
            [0x12345678, 0xC3800000, 0x801FC03F, 0x90000FAC, 0, 0x00400000, 0, 0]
        );
    }

    #[test]
    fn fields_land_in_place() {
        let d = ImageDescriptor {
            va: 0xAB_0001_0000,
            format: 71,
            width: 16384,
            height: 1,
            depth: 2048,
            swizzle: [Sel::Z, Sel::Y, Sel::X, Sel::W],
            format_swizzle: [Sel::Z, Sel::Y, Sel::X, Sel::W],
            base_level: 2,
            last_level: 13,
            levels: 15,
            sw_mode: 25,
            ty: ImgType::D3,
            base_array: 0,
            last_array: 0,
        };
        let w = d.words();
        assert_eq!(w[0], 0xAB00_0100);
        assert_eq!(w[1] >> 20 & 0x1ff, 71);
        assert_eq!(((w[2] & 0xfff) << 2) | (w[1] >> 30), 16383);
        assert_eq!(w[2] >> 14 & 0x3fff, 0);
        assert_eq!(w[3] & 0xfff, 6 | (5 << 3) | (4 << 6) | (7 << 9));
        assert_eq!((w[3] >> 12 & 0xf, w[3] >> 16 & 0xf, w[3] >> 20 & 0x1f), (2, 13, 25));
        assert_eq!((w[3] >> 25 & 7, w[3] >> 28), (4, 10), "ZYXW border swizzle, 3D");
        assert_eq!(w[4] & 0x1fff, 2047);
        assert_eq!(w[5] >> 4 & 0xf, 14);
    }

    /// BC_SWIZZLE comes from the format's own selects: a view swizzle leaves it alone (the
    /// hardware applies DST_SEL to the border colour afterwards, which swizzles it as Vulkan
    /// requires), and a B, G, R, A format gets ZYXW whatever the view does.
    #[test]
    fn border_swizzle_follows_the_format_not_the_view() {
        let rgba = [Sel::X, Sel::Y, Sel::Z, Sel::W];
        let bgra = [Sel::Z, Sel::Y, Sel::X, Sel::W];
        let d = ImageDescriptor {
            va: 0x1_0000,
            format: 56,
            width: 4,
            height: 4,
            depth: 1,
            swizzle: [Sel::W, Sel::Z, Sel::Y, Sel::X],
            format_swizzle: rgba,
            base_level: 0,
            last_level: 0,
            levels: 1,
            sw_mode: 0,
            ty: ImgType::D2,
            base_array: 0,
            last_array: 0,
        };
        assert_eq!(d.words()[3] >> 25 & 7, 0, "XYZW for an RGBA format under any view");
        let d = ImageDescriptor {
            swizzle: [Sel::One, Sel::Y, Sel::X, Sel::Zero],
            format_swizzle: bgra,
            ..d
        };
        assert_eq!(d.words()[3] >> 25 & 7, 4, "ZYXW for a BGRA format under any view");
        let argb = [Sel::Y, Sel::Z, Sel::W, Sel::X];
        assert_eq!(ImageDescriptor { format_swizzle: argb, ..d }.words()[3] >> 25 & 7, 3, "WXYZ");
    }
}
