//! Image (T#) and sampler (S#) descriptors, decoded from their dwords
//! (descriptors-gfx103.md §2–3), with the checks that make a descriptor malformed for the
//! hardware (reported as shader faults, as a hang or garbage would be on a real GPU).

use super::format::Format;
use super::surface::{Dim, SurfaceDesc};

/// SQ_RSRC_IMG types.
pub mod ty {
    pub const D1: u32 = 8;
    pub const D2: u32 = 9;
    pub const D3: u32 = 10;
    pub const CUBE: u32 = 11;
    pub const D1_ARRAY: u32 = 12;
    pub const D2_ARRAY: u32 = 13;
    pub const D2_MSAA: u32 = 14;
    pub const D2_MSAA_ARRAY: u32 = 15;
}

/// The fields of a T# the texture unit uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tsharp {
    /// BASE_ADDRESS (256-byte units) as bytes, tile-swizzle bits included.
    pub base: u64,
    pub min_lod: f32,
    pub format: u32,
    pub width: u32,
    pub height: u32,
    /// DST_SEL_X..W (SQ_SEL: 0 zero, 1 one, 4..7 channel X..W).
    pub dst_sel: [u32; 4],
    pub base_level: u32,
    pub last_level: u32,
    pub sw_mode: u32,
    /// BC_SWIZZLE (TEX_BC_SWIZZLE: 0 XYZW, 1 XWYZ, 2 WZYX, 3 WXYZ, 4 ZYXW, 5 YXWZ): which
    /// border-colour component (X = R ... W = A) each channel X, Y, Z, W receives.
    pub bc_swizzle: u32,
    pub ty: u32,
    /// DEPTH field: 3D depth − 1, last array layer, or (linear 1D/2D) pitch − 1 low bits.
    pub depth: u32,
    pub pitch_msb: u32,
    pub base_array: u32,
    pub array_pitch: u32,
    pub max_mip: u32,
    pub compression: bool,
}

fn bits(w: u32, lo: u32, n: u32) -> u32 {
    (w >> lo) & ((1u64 << n) - 1) as u32
}

/// Unsigned 4.8 fixed point.
fn u4_8(v: u32) -> f32 {
    v as f32 / 256.0
}

impl Tsharp {
    /// Decodes 4 (`r128`) or 8 dwords; malformed descriptors are errors.
    pub fn parse(w: &[u32]) -> Result<Tsharp, String> {
        let mut d = [0u32; 8];
        d[..w.len().min(8)].copy_from_slice(&w[..w.len().min(8)]);
        let t = Tsharp {
            base: (d[0] as u64) << 8 | (bits(d[1], 0, 8) as u64) << 40,
            min_lod: u4_8(bits(d[1], 8, 12)),
            format: bits(d[1], 20, 9),
            width: (bits(d[1], 30, 2) | bits(d[2], 0, 12) << 2) + 1,
            height: bits(d[2], 14, 14) + 1,
            dst_sel: [0, 3, 6, 9].map(|s| bits(d[3], s, 3)),
            base_level: bits(d[3], 12, 4),
            last_level: bits(d[3], 16, 4),
            sw_mode: bits(d[3], 20, 5),
            bc_swizzle: bits(d[3], 25, 3),
            ty: bits(d[3], 28, 4),
            depth: bits(d[4], 0, 13),
            pitch_msb: bits(d[4], 13, 1),
            base_array: bits(d[4], 16, 13),
            array_pitch: bits(d[5], 0, 4),
            max_mip: bits(d[5], 4, 4),
            compression: bits(d[6], 21, 1) != 0,
        };
        if bits(d[2], 31, 1) == 0 {
            return Err("T# RESOURCE_LEVEL is 0 (must be 1 on GFX10)".into());
        }
        if t.ty < 8 {
            return Err(format!("T# TYPE {} is not an image type (a V# used as a T#?)", t.ty));
        }
        if t.compression {
            return Err("T# with COMPRESSION_EN (DCC/HTILE metadata) is not modelled".into());
        }
        if !t.msaa() && (t.base_level > t.last_level || t.last_level > t.max_mip) {
            return Err(format!(
                "T# levels {}..={} outside MAX_MIP {}",
                t.base_level, t.last_level, t.max_mip
            ));
        }
        let last_slice = match t.ty {
            ty::CUBE => 6 * (t.depth + 1) - 1,
            ty::D3 if t.array_pitch == 0 => u32::MAX,
            ty::D1 | ty::D2 | ty::D2_MSAA => u32::MAX,
            _ => t.depth,
        };
        if t.base_array > last_slice {
            return Err(format!(
                "T# BASE_ARRAY {} beyond the last slice {last_slice}",
                t.base_array
            ));
        }
        if t.dst_sel.iter().any(|&s| s == 2 || s == 3) {
            return Err(format!("T# DST_SEL {:?} uses reserved selects", t.dst_sel));
        }
        if t.bc_swizzle > 5 {
            return Err(format!("T# BC_SWIZZLE {} is reserved", t.bc_swizzle));
        }
        Ok(t)
    }

    pub fn msaa(&self) -> bool {
        matches!(self.ty, ty::D2_MSAA | ty::D2_MSAA_ARRAY)
    }

    pub fn is_array(&self) -> bool {
        matches!(self.ty, ty::D1_ARRAY | ty::D2_ARRAY | ty::D2_MSAA_ARRAY | ty::CUBE)
    }

    /// The data format, if modelled.
    pub fn format(&self) -> Result<Format, String> {
        Format::from_code(self.format)
            .ok_or_else(|| format!("T# FORMAT {} not modelled (or INVALID)", self.format))
    }

    /// Layers of the resource the addressing sees (cube: faces), or the 3D depth.
    pub fn slices(&self) -> u32 {
        match self.ty {
            ty::CUBE => 6 * (self.depth + 1),
            ty::D1 | ty::D2 | ty::D2_MSAA => 1,
            _ => self.depth + 1,
        }
    }

    /// The surface this T# describes (for its format's element size) and the start address
    /// without the tile-swizzle bits.
    pub fn surface(&self, f: &Format) -> Result<(u64, SurfaceDesc), String> {
        let (bw, bh) = f.block();
        let bpe = f.bytes();
        if !bpe.is_power_of_two() {
            return Err(format!(
                "T# format {} has {bpe}-byte elements (not an image format)",
                self.format
            ));
        }
        let dim = match self.ty {
            ty::D1 | ty::D1_ARRAY => Dim::D1,
            ty::D3 => Dim::D3,
            _ => Dim::D2,
        };
        let (mips, samples_log2) =
            if self.msaa() { (1, self.max_mip) } else { (self.max_mip + 1, 0) };
        let width = self.width.div_ceil(bw);
        let linear_2d = self.sw_mode == 0 && matches!(self.ty, ty::D1 | ty::D2);
        let pitch_field = self.depth | self.pitch_msb << 13;
        // GFX10.3: linear 1D/2D may carry a custom pitch in DEPTH/PITCH_MSB.
        let pitch = (linear_2d && mips == 1 && pitch_field + 1 >= width && pitch_field > 0)
            .then_some(pitch_field + 1);
        let block_bytes = match self.sw_mode {
            0 => 256,
            1..=3 => 256,
            4..=7 | 20..=23 => 4096,
            _ => 65536,
        };
        let pbx = (self.base & (block_bytes - 1)) as u32;
        let desc = SurfaceDesc {
            sw_mode: self.sw_mode,
            dim,
            bpe_log2: bpe.trailing_zeros(),
            width,
            height: if dim == Dim::D1 { 1 } else { self.height.div_ceil(bh) },
            slices: self.slices(),
            mips,
            samples_log2,
            pitch,
            pipe_bank_xor: if self.sw_mode == 0 { 0 } else { pbx },
        };
        let base = if self.sw_mode == 0 { self.base } else { self.base & !(block_bytes - 1) };
        Ok((base, desc))
    }
}

/// SQ_TEX_CLAMP address modes.
pub mod clamp {
    pub const WRAP: u32 = 0;
    pub const MIRROR: u32 = 1;
    pub const CLAMP_LAST_TEXEL: u32 = 2;
    pub const MIRROR_ONCE_LAST_TEXEL: u32 = 3;
    pub const CLAMP_HALF_BORDER: u32 = 4;
    pub const MIRROR_ONCE_HALF_BORDER: u32 = 5;
    pub const CLAMP_BORDER: u32 = 6;
    pub const MIRROR_ONCE_BORDER: u32 = 7;
}

/// The fields of an S# the texture unit uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ssharp {
    pub clamp: [u32; 3],
    pub max_aniso_ratio: u32,
    pub depth_compare: u32,
    pub force_unnormalized: bool,
    pub trunc_coord: bool,
    pub disable_cube_wrap: bool,
    /// SQ_IMG_FILTER: 0 blend, 1 min, 2 max.
    pub filter_mode: u32,
    pub min_lod: f32,
    pub max_lod: f32,
    pub lod_bias: f32,
    /// SQ_TEX_XY_FILTER: 0 point, 1 bilinear (2/3: anisotropic variants).
    pub mag_filter: u32,
    pub min_filter: u32,
    /// SQ_TEX_Z_FILTER: 0 none, 1 point, 2 linear.
    pub z_filter: u32,
    /// SQ_TEX_MIP_FILTER: 0 none, 1 point, 2 linear.
    pub mip_filter: u32,
    pub border_color_ptr: u32,
    /// 0 transparent black, 1 opaque black, 2 opaque white, 3 from the table.
    pub border_color_type: u32,
}

impl Ssharp {
    pub fn parse(d: &[u32]) -> Result<Ssharp, String> {
        let bias = bits(d[2], 0, 14);
        let s = Ssharp {
            clamp: [bits(d[0], 0, 3), bits(d[0], 3, 3), bits(d[0], 6, 3)],
            max_aniso_ratio: bits(d[0], 9, 3),
            depth_compare: bits(d[0], 12, 3),
            force_unnormalized: bits(d[0], 15, 1) != 0,
            trunc_coord: bits(d[0], 27, 1) != 0,
            disable_cube_wrap: bits(d[0], 28, 1) != 0,
            filter_mode: bits(d[0], 29, 2),
            min_lod: u4_8(bits(d[1], 0, 12)),
            max_lod: u4_8(bits(d[1], 12, 12)),
            lod_bias: ((bias << 18) as i32 >> 18) as f32 / 256.0,
            mag_filter: bits(d[2], 20, 2),
            min_filter: bits(d[2], 22, 2),
            z_filter: bits(d[2], 24, 2),
            mip_filter: bits(d[2], 26, 2),
            border_color_ptr: bits(d[3], 0, 12),
            border_color_type: bits(d[3], 30, 2),
        };
        if s.filter_mode == 3 {
            return Err("S# FILTER_MODE 3 is reserved".into());
        }
        if s.mip_filter == 3 || s.z_filter == 3 {
            return Err("S# MIP_FILTER/Z_FILTER 3 is not modelled".into());
        }
        Ok(s)
    }
}
