//! Every format Ferrum knows, with its hardware encodings, and the format queries derived
//! from it.
//!
//! `table` holds one row per Vulkan format: texel block size and extent, aspects, the GFX10
//! `IMG_FORMAT`/`BUF_FORMAT` value a T# or typed V# uses, the channel selects that turn the
//! hardware's channel order into the API's, the compatibility class, and what navi21's
//! hardware can do with the format ([`Caps`]). What is *advertised* is that capability masked
//! by the paths that work end to end, per format ([`properties::PROVEN`]): a usage is switched
//! on for a format when a test proves its path (sampling, storage, copies, rendering...) there.

pub mod cb;
pub mod flags2;
pub mod properties;
mod table;
pub mod vertex64;

use ash::vk;

pub use table::FORMATS;

/// A GFX10 channel select (SQ_SEL_*), as in T#/V# DST_SEL fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Sel {
    Zero = 0,
    One = 1,
    X = 4,
    Y = 5,
    Z = 6,
    W = 7,
}

/// What navi21 can do with a format, whether or not Ferrum has the path yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Caps(pub u16);

impl Caps {
    /// Read through a T# with a sampler (and fetch / gather).
    pub const SAMPLE: Caps = Caps(1 << 0);
    /// The texture unit filters it (bilinear, trilinear).
    pub const FILTER: Caps = Caps(1 << 1);
    /// Read and written through a T# by image load/store instructions.
    pub const STORAGE: Caps = Caps(1 << 2);
    /// Image atomics.
    pub const ATOMIC: Caps = Caps(1 << 3);
    /// A CB colour target.
    pub const COLOR: Caps = Caps(1 << 4);
    /// The CB blends it.
    pub const BLEND: Caps = Caps(1 << 5);
    /// A DB depth and/or stencil target.
    pub const DEPTH_STENCIL: Caps = Caps(1 << 6);
    /// Fetched by typed buffer loads (vertex input, uniform texel buffers).
    pub const FETCH: Caps = Caps(1 << 7);
    /// Typed buffer loads and stores (storage texel buffers).
    pub const BUFFER_STORAGE: Caps = Caps(1 << 8);
    /// Buffer atomics.
    pub const BUFFER_ATOMIC: Caps = Caps(1 << 9);
    /// Only vertex input (USCALED/SSCALED: no texel-buffer view).
    pub const VERTEX_ONLY: Caps = Caps(1 << 10);
    /// Copied by the transfer commands (every image format: copies move bits).
    pub const TRANSFER: Caps = Caps(1 << 11);
    /// Blitted from: a blit source when sampled.
    pub const BLIT: Caps = Caps(1 << 12);
    /// A path bit only (never in the table): vertex input through the format, whose hardware
    /// capability is [`Caps::FETCH`]; uniform texel buffers are `FETCH` itself.
    pub const VERTEX: Caps = Caps(1 << 13);
    /// Blitted into: a blit destination when a colour target or storage image (a path bit,
    /// as every image format is, see [`Caps::BLIT`]).
    pub const BLIT_DST: Caps = Caps(1 << 14);

    pub const fn union(self, other: Caps) -> Caps {
        Caps(self.0 | other.0)
    }

    pub const fn contains(self, other: Caps) -> bool {
        self.0 & other.0 == other.0
    }

    pub const fn intersect(self, other: Caps) -> Caps {
        Caps(self.0 & other.0)
    }
}

impl std::ops::BitOr for Caps {
    type Output = Caps;
    fn bitor(self, rhs: Caps) -> Caps {
        self.union(rhs)
    }
}

/// What a format's numbers mean, for the rules that depend on it (filtering, blending,
/// blit compatibility, clear values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numeric {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
    Srgb,
    /// Depth and/or stencil.
    DepthStencil,
}

/// The compatibility class of the spec's "Compatible Formats" table: views may reinterpret a
/// `MUTABLE_FORMAT` image only within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Uncompressed colour formats, by texel size in bits.
    Bits(u16),
    /// A depth/stencil format: compatible only with itself.
    DepthStencil(vk::Format),
    /// A block-compressed family (`BC1_RGB`, `BC1_RGBA`, `BC2` ... `BC7`).
    Bc(&'static str),
}

/// One row of the format table.
#[derive(Debug, Clone, Copy)]
pub struct FormatInfo {
    pub format: vk::Format,
    /// Bytes per texel block (for depth/stencil, of the depth plane; see [`FormatInfo::stencil_bytes`]).
    pub block_bytes: u8,
    /// Texel block width and height (4×4 for BC, 1×1 otherwise).
    pub block: (u8, u8),
    pub numeric: Numeric,
    pub class: Class,
    /// GFX10_FORMAT in a T# (word 1 FORMAT); 0 = not an image format.
    pub img_format: u16,
    /// GFX10_FORMAT in a typed V# (word 3 FORMAT); 0 = not a buffer format.
    pub buf_format: u8,
    /// DST_SEL X, Y, Z, W: which hardware channel (or constant) each API channel reads.
    pub swizzle: [Sel; 4],
    pub caps: Caps,
}

impl FormatInfo {
    pub fn aspects(&self) -> vk::ImageAspectFlags {
        match self.format {
            vk::Format::D16_UNORM | vk::Format::D32_SFLOAT => vk::ImageAspectFlags::DEPTH,
            vk::Format::S8_UINT => vk::ImageAspectFlags::STENCIL,
            vk::Format::D32_SFLOAT_S8_UINT => {
                vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
            }
            _ => vk::ImageAspectFlags::COLOR,
        }
    }

    pub fn is_compressed(&self) -> bool {
        self.block != (1, 1)
    }

    pub fn is_depth_stencil(&self) -> bool {
        self.numeric == Numeric::DepthStencil
    }

    /// The UNORM format of the same memory as this sRGB format (R8G8B8A8_UNORM for
    /// R8G8B8A8_SRGB and A8B8G8R8_SRGB): the first UNORM row of its compatibility class with
    /// the same channel selects (the table lists the 8-bit-channel formats of a class before
    /// the 10-bit ones). `None` for other formats.
    pub fn unorm_twin(&self) -> Option<&'static FormatInfo> {
        if self.numeric != Numeric::Srgb || self.is_compressed() {
            return None;
        }
        FORMATS.iter().find(|g| {
            g.numeric == Numeric::Unorm && g.class == self.class && g.swizzle == self.swizzle
        })
    }

    /// How a blit kernel writes this colour format through a typed storage T# (`None`: it
    /// cannot). The format itself when the hardware stores it; an sRGB format through its
    /// UNORM twin, encoded by the kernel; a BGRA-ordered format through the RGBA-ordered
    /// format of the same hardware layout (same `img_format`), R and B swapped by the kernel;
    /// a packed 16-bit UNORM format (5_6_5, 1_5_5_5, 5_5_5_1, 4_4_4_4: navi21 has no typed
    /// stores for them) through R16_UINT, converted and packed by the kernel.
    pub fn blit_store(&'static self) -> Option<BlitStore> {
        let srgb = self.numeric == Numeric::Srgb;
        let plain = if srgb { self.unorm_twin()? } else { self };
        let store = |via, swap_rb, pack16| Some(BlitStore { via, srgb, swap_rb, pack16 });
        if plain.caps.contains(Caps::STORAGE) {
            return store(plain, false, false);
        }
        if matches!(plain.img_format, 133..=136) && plain.numeric == Numeric::Unorm {
            return store(info(vk::Format::R16_UINT)?, false, true);
        }
        if plain.swizzle != [Sel::Z, Sel::Y, Sel::X, Sel::W] {
            return None;
        }
        let via = FORMATS.iter().find(|g| {
            g.img_format == plain.img_format
                && g.numeric == plain.numeric
                && g.swizzle == [Sel::X, Sel::Y, Sel::Z, Sel::W]
                && g.caps.contains(Caps::STORAGE)
        })?;
        store(via, true, false)
    }

    /// Bytes per texel of the separate stencil plane (S8 alongside a depth plane), 0 if none.
    pub fn stencil_bytes(&self) -> u8 {
        u8::from(self.format == vk::Format::D32_SFLOAT_S8_UINT)
    }

    /// Bytes per texel block of the plane that holds `aspect`.
    pub fn aspect_bytes(&self, aspect: vk::ImageAspectFlags) -> u8 {
        if aspect == vk::ImageAspectFlags::STENCIL && self.stencil_bytes() != 0 {
            self.stencil_bytes()
        } else {
            self.block_bytes
        }
    }
}

/// How a blit stores a colour format ([`FormatInfo::blit_store`]).
#[derive(Debug, Clone, Copy)]
pub struct BlitStore {
    /// The format of the storage T#.
    pub via: &'static FormatInfo,
    /// Encode R, G and B with the sRGB curve before storing.
    pub srgb: bool,
    /// Swap R and B before storing (BGRA memory through an RGBA T#).
    pub swap_rb: bool,
    /// Convert to UNORM and pack the channels by the format's layout into one 16-bit word,
    /// stored through `via` (R16_UINT).
    pub pack16: bool,
}

/// The table row of `format`; `None` for formats Ferrum does not support at all.
pub fn info(format: vk::Format) -> Option<&'static FormatInfo> {
    FORMATS.iter().find(|f| f.format == format)
}

/// Whether an image of `a` may be viewed as `b` (same format, or same compatibility class).
pub fn view_compatible(a: &FormatInfo, b: &FormatInfo) -> bool {
    a.format == b.format || a.class == b.class
}
