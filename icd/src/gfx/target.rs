//! Render targets: the CB_COLORn_* registers of a colour attachment and the DB_* registers of
//! a depth/stencil attachment, from what an image view knows ([`TargetView`]), and the export
//! formats ([`ps_key`]) the pixel shader must write for the colour attachments.
//!
//! Facts: the register database for fields; RADV (`radv_initialise_color_surface`,
//! `radv_initialise_ds_surface`) for the GFX10.3 programming: the BASE registers hold the
//! 256-byte-aligned address (bits 8..39, the _EXT/_HI registers bits 40..47); ATTRIB2/3 describe
//! mip 0 of the whole resource (the CB walks the mip chain itself) and VIEW selects the level
//! and slices rendered to; RESOURCE_LEVEL is 1 on GFX10; without FMASK/EQAA the fragment count
//! equals the sample count; NORM/SRGB formats clamp blending, integer formats bypass it;
//! FORCE_DST_ALPHA_1 for formats without alpha. No compression metadata (DCC, CMASK, FMASK,
//! HTILE) is used: Ferrum allocates none and the simulator models none, so a multisampled
//! colour surface is just its samples (the `_R`/`_Z` MSAA layouts) and resolves read them.

use ash::vk;
use ferrum_compiler::amd::abi::graphics::PsKey;
use ferrum_regs::gfx103 as r;

use crate::error::VkResult;
use crate::format::cb::{cb_format, export_format};
use crate::format::{FormatInfo, Numeric, Sel};
use crate::gfx::{refuse, Regs};
use crate::image::layout::{mip_extent, SwizzleMode};
use crate::image::Image;

/// Stride between the CB_COLORn_BASE..DCC_BASE blocks.
pub const CB_STRIDE: u32 = r::CB_COLOR1_BASE - r::CB_COLOR0_BASE;
/// Stride between the CB_COLORn_ATTRIB2, ATTRIB3 and BASE_EXT registers.
pub const CB_EXT_STRIDE: u32 = r::CB_COLOR1_ATTRIB2 - r::CB_COLOR0_ATTRIB2;

/// One plane of an image as a render target sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plane {
    /// GPU address of the plane's start (64 KiB aligned for swizzled modes).
    pub va: u64,
    pub mode: SwizzleMode,
}

/// What the registers need of an image view used as an attachment.
#[derive(Debug, Clone, Copy)]
pub struct TargetView {
    /// The view's format.
    pub format: &'static FormatInfo,
    /// The colour or depth plane (`None` for a stencil-only format's depth).
    pub main: Option<Plane>,
    /// The stencil plane of a format with stencil.
    pub stencil: Option<Plane>,
    pub ty: vk::ImageType,
    /// Mip-0 size in pixels of the image.
    pub width: u32,
    pub height: u32,
    /// Array layers, or the depth of a 3D image.
    pub slices: u32,
    pub levels: u32,
    pub samples: u32,
    /// The view's subresource range.
    pub level: u32,
    pub base_layer: u32,
    pub layers: u32,
}

impl TargetView {
    /// What a view of `image` (bound at `va`) with `format` and the resolved `range` renders
    /// to. A depth/stencil view always names both planes of its format: attachments use every
    /// aspect the format has, whatever the view's aspect mask.
    pub fn of(
        image: &Image,
        va: u64,
        format: &'static FormatInfo,
        range: &vk::ImageSubresourceRange,
    ) -> TargetView {
        let main_plane = Plane { va, mode: image.surface.desc.mode };
        let (main, stencil) = match (&image.stencil, image.format.format) {
            (Some((s, offset)), _) => {
                (Some(main_plane), Some(Plane { va: va + offset, mode: s.desc.mode }))
            }
            (None, vk::Format::S8_UINT) => (None, Some(main_plane)),
            (None, _) => (Some(main_plane), None),
        };
        let slices =
            if image.ty == vk::ImageType::TYPE_3D { image.extent.depth } else { image.layers };
        TargetView {
            format,
            main,
            stencil,
            ty: image.ty,
            width: image.extent.width,
            height: image.extent.height,
            slices,
            levels: image.levels,
            samples: image.samples,
            level: range.base_mip_level,
            base_layer: range.base_array_layer,
            layers: range.layer_count,
        }
    }

    /// The size in pixels of the view's level (what render-pass clears may cover).
    pub fn extent(&self) -> vk::Extent2D {
        vk::Extent2D {
            width: mip_extent(self.width, self.level),
            height: mip_extent(self.height, self.level),
        }
    }
}

fn log2(samples: u32) -> VkResult<u32> {
    match samples {
        1 | 2 | 4 | 8 => Ok(samples.trailing_zeros()),
        _ => Err(refuse("render targets with other than 1, 2, 4 or 8 samples")),
    }
}

/// addrlib's resource type numbering (ADDR_RSRC_TEX_1D/2D/3D) in ATTRIB3.RESOURCE_TYPE.
fn resource_type(ty: vk::ImageType) -> u32 {
    match ty {
        vk::ImageType::TYPE_1D => 0,
        vk::ImageType::TYPE_3D => 2,
        _ => 1,
    }
}

/// The CB_COLORn_* registers of colour attachment `index` (0..8).
pub fn color_target(index: u32, v: &TargetView) -> VkResult<Regs> {
    let cb = cb_format(v.format)
        .ok_or_else(|| refuse("colour attachment of a non-renderable format"))?;
    let plane = v.main.ok_or_else(|| refuse("colour attachment without a colour plane"))?;
    if index >= 8 {
        return Err(refuse("more than 8 colour attachments"));
    }
    let samples = log2(v.samples)?;
    let last = (v.base_layer + v.layers).saturating_sub(1);
    let integer = matches!(v.format.numeric, Numeric::Uint | Numeric::Sint);
    let normalized = matches!(v.format.numeric, Numeric::Unorm | Numeric::Snorm | Numeric::Srgb);
    use r::CB_COLOR0_INFO as I;
    let info = I::FORMAT.val(cb.format)
        | I::NUMBER_TYPE.val(cb.number)
        | I::COMP_SWAP.val(cb.swap)
        | I::BLEND_CLAMP.val(normalized as u32)
        | I::BLEND_BYPASS.val(integer as u32)
        | I::SIMPLE_FLOAT.val(1)
        | I::ROUND_MODE.val(!normalized as u32);
    use r::CB_COLOR0_ATTRIB as A;
    let attrib = A::NUM_SAMPLES.val(samples)
        | A::NUM_FRAGMENTS.val(samples)
        | A::FORCE_DST_ALPHA_1.val((v.format.swizzle[3] == Sel::One) as u32);
    use r::CB_COLOR0_ATTRIB2 as A2;
    let attrib2 = A2::MIP0_HEIGHT.val(v.height.saturating_sub(1))
        | A2::MIP0_WIDTH.val(v.width.saturating_sub(1))
        | A2::MAX_MIP.val(v.levels.saturating_sub(1));
    use r::CB_COLOR0_ATTRIB3 as A3;
    let attrib3 = A3::MIP0_DEPTH.val(v.slices.saturating_sub(1))
        | A3::COLOR_SW_MODE.val(plane.mode as u32)
        | A3::RESOURCE_TYPE.val(resource_type(v.ty))
        | A3::RESOURCE_LEVEL.val(1);
    use r::CB_COLOR0_VIEW as V;
    let view =
        V::SLICE_START.val(v.base_layer) | V::SLICE_MAX.val(last) | V::MIP_LEVEL.val(v.level);
    let (n, e) = (index * CB_STRIDE, index * CB_EXT_STRIDE);
    let mut regs = Regs::new();
    regs.push(r::CB_COLOR0_BASE + n, (plane.va >> 8) as u32);
    regs.push(
        r::CB_COLOR0_BASE_EXT + e,
        r::CB_COLOR0_BASE_EXT::BASE_256B.val((plane.va >> 40) as u32),
    );
    regs.push(r::CB_COLOR0_VIEW + n, view);
    regs.push(r::CB_COLOR0_INFO + n, info);
    regs.push(r::CB_COLOR0_ATTRIB + n, attrib);
    regs.push(r::CB_COLOR0_ATTRIB2 + e, attrib2);
    regs.push(r::CB_COLOR0_ATTRIB3 + e, attrib3);
    Ok(regs)
}

/// CB_COLORn_INFO with FORMAT = COLOR_INVALID: attachment `index` is unused.
pub fn no_color_target(index: u32) -> Regs {
    let mut regs = Regs::new();
    regs.push(r::CB_COLOR0_INFO + index * CB_STRIDE, 0);
    regs
}

/// The DB's depth format (ZFormat) of a depth/stencil format.
fn z_format(f: vk::Format) -> u32 {
    use r::enums::ZFormat as Z;
    match f {
        vk::Format::D16_UNORM | vk::Format::D16_UNORM_S8_UINT => Z::Z_16,
        vk::Format::D32_SFLOAT | vk::Format::D32_SFLOAT_S8_UINT => Z::Z_32_FLOAT,
        _ => Z::Z_INVALID,
    }
}

/// The depth/stencil registers of a depth/stencil attachment; `read_only` = (depth, stencil)
/// in a read-only layout.
pub fn depth_target(v: &TargetView, read_only: (bool, bool)) -> VkResult<Regs> {
    if !v.format.is_depth_stencil() {
        return Err(refuse("depth attachment of a colour format"));
    }
    let samples = log2(v.samples)?;
    let zf = z_format(v.format.format);
    let depth = v.main.filter(|_| zf != 0);
    if depth.is_none() && v.stencil.is_none() {
        return Err(refuse("depth/stencil attachment without a plane"));
    }
    use r::DB_Z_INFO as Z;
    let z_info = Z::FORMAT.val(depth.map_or(0, |_| zf))
        | Z::NUM_SAMPLES.val(samples)
        | Z::SW_MODE.val(depth.map_or(0, |p| p.mode as u32))
        | Z::MAXMIP.val(v.levels.saturating_sub(1));
    use r::DB_STENCIL_INFO as S;
    let s_info = S::FORMAT.val(v.stencil.is_some() as u32)
        | S::SW_MODE.val(v.stencil.map_or(0, |p| p.mode as u32))
        | S::TILE_STENCIL_DISABLE.val(1);
    let last = (v.base_layer + v.layers).saturating_sub(1);
    use r::DB_DEPTH_VIEW as V;
    let view = V::SLICE_START.val(v.base_layer)
        | V::SLICE_START_HI.val(v.base_layer >> 11)
        | V::SLICE_MAX.val(last)
        | V::SLICE_MAX_HI.val(last >> 11)
        | V::Z_READ_ONLY.val(read_only.0 as u32)
        | V::STENCIL_READ_ONLY.val(read_only.1 as u32)
        | V::MIPID.val(v.level);
    use r::DB_DEPTH_SIZE_XY as XY;
    let mut regs = Regs::new();
    regs.push(r::DB_Z_INFO, z_info);
    regs.push(r::DB_STENCIL_INFO, s_info);
    regs.push(r::DB_DEPTH_VIEW, view);
    regs.push(
        r::DB_DEPTH_SIZE_XY,
        XY::X_MAX.val(v.width.saturating_sub(1)) | XY::Y_MAX.val(v.height.saturating_sub(1)),
    );
    let mut bases = |lo: [u32; 2], hi: [u32; 2], va: u64| {
        for (l, h) in lo.into_iter().zip(hi) {
            regs.push(l, (va >> 8) as u32);
            regs.push(h, (va >> 40) as u32 & 0xff);
        }
    };
    if let Some(p) = depth {
        bases(
            [r::DB_Z_READ_BASE, r::DB_Z_WRITE_BASE],
            [r::DB_Z_READ_BASE_HI, r::DB_Z_WRITE_BASE_HI],
            p.va,
        );
    }
    if let Some(p) = v.stencil {
        let lo = [r::DB_STENCIL_READ_BASE, r::DB_STENCIL_WRITE_BASE];
        bases(lo, [r::DB_STENCIL_READ_BASE_HI, r::DB_STENCIL_WRITE_BASE_HI], p.va);
    }
    Ok(regs)
}

/// DB_Z_INFO/DB_STENCIL_INFO with invalid formats: no depth/stencil attachment.
pub fn no_depth_target() -> Regs {
    let mut regs = Regs::new();
    regs.push(r::DB_Z_INFO, 0);
    regs.push(r::DB_STENCIL_INFO, 0);
    regs
}

/// The pixel shader key for colour attachments of `formats` (None: no attachment at that
/// index) with blending enabled per `blend` (missing entries: off).
pub fn ps_key(formats: &[Option<&FormatInfo>], blend: &[bool]) -> PsKey {
    use r::enums::SPI_SHADER_EX_FORMAT as Ex;
    let mut key = PsKey { color_formats: [Ex::SPI_SHADER_ZERO; 8], ..PsKey::default() };
    for (i, f) in formats.iter().take(8).enumerate() {
        if let Some(f) = f {
            key.color_formats[i] = export_format(f, blend.get(i).copied().unwrap_or(false));
        }
    }
    key
}

/// SPI_SHADER_COL_FORMAT for a key: target i's export format in bits 4i..4i+3.
pub fn col_format(key: &PsKey) -> u32 {
    key.color_formats.iter().enumerate().fold(0, |v, (i, f)| v | (f & 0xf) << (4 * i))
}

#[cfg(test)]
#[path = "target_tests.rs"]
mod tests;
