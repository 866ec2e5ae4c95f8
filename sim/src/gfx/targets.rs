//! The colour targets (CB_COLORn_*) and the depth/stencil surface (DB_Z_*, DB_STENCIL_*) of a
//! draw, decoded from the registers and mapped once, with per-sample read/modify/write.

use super::addr::*;
use super::blend::{blend, rop3, BlendControl, BlendInputs};
use super::color_format::{to_unorm, ColorFormat, Number};
use super::surface::{Layout, RenderSurface, SurfaceMem};
use crate::cp::regs::{field, RegisterFile};
use crate::error::GpuError;
use crate::kernel::AddressSpace;

fn bad(what: String) -> GpuError {
    GpuError::Unsupported(what)
}

/// One bound colour target.
pub struct ColorTarget {
    pub index: u32,
    pub fmt: ColorFormat,
    pub width: u32,
    pub height: u32,
    pub samples: u32,
    layout: Layout,
    mem: SurfaceMem,
    pub blend: BlendControl,
    /// RGBA components written (CB_TARGET_MASK & CB_SHADER_MASK).
    pub write_mask: u32,
}

/// The CB state of a draw.
pub struct ColorState {
    pub targets: Vec<ColorTarget>,
    pub constant: [f32; 4],
    /// ROP3 code; 0xCC (COPY) means no logic operation.
    pub rop3: u32,
    /// CB_COLOR_CONTROL.MODE = CB_RESOLVE: covered pixels of target 0 (multisampled) are
    /// resolved into target 1; the pixel shader's colour is not used.
    pub resolve: bool,
}

impl ColorState {
    pub fn from_regs(regs: &RegisterFile, space: &AddressSpace) -> Result<ColorState, GpuError> {
        let control = regs.get(CB_COLOR_CONTROL);
        let mode = field(control, 4, 6);
        let constant = [CB_BLEND_RED, CB_BLEND_GREEN, CB_BLEND_BLUE, CB_BLEND_ALPHA]
            .map(|a| f32::from_bits(regs.get(a)));
        let rop3 = field(control, 16, 23);
        let mut targets = Vec::new();
        if mode == 0 {
            return Ok(ColorState { targets, constant, rop3, resolve: false });
        }
        let resolve = mode == 3;
        if mode != 1 && !resolve {
            return Err(bad(format!("CB_COLOR_CONTROL.MODE {mode} is not modelled for draws")));
        }
        let target_mask = regs.get(CB_TARGET_MASK);
        let shader_mask = regs.get(CB_SHADER_MASK);
        for i in 0..8u32 {
            let mask = (target_mask >> (4 * i)) & (shader_mask >> (4 * i)) & 0xf;
            let r = |a: u32| regs.get(a + i * CB_COLOR_STRIDE);
            let e = |a: u32| regs.get(a + i * CB_COLOR_EXT_STRIDE);
            let info = r(CB_COLOR0_INFO);
            let format = field(info, 2, 6);
            if mask == 0 || format == 0 {
                continue;
            }
            let fmt = ColorFormat::new(format, field(info, 8, 10), field(info, 11, 12))
                .map_err(|m| bad(format!("CB_COLOR{i}_INFO: {m}")))?;
            let attrib = r(CB_COLOR0_ATTRIB);
            let samples = 1 << field(attrib, 12, 14);
            let attrib2 = e(CB_COLOR0_ATTRIB2);
            let attrib3 = e(CB_COLOR0_ATTRIB3);
            let view = r(CB_COLOR0_VIEW);
            let surf = RenderSurface {
                base: ((r(CB_COLOR0_BASE) as u64) << 8)
                    | ((e(CB_COLOR0_BASE_EXT) as u64 & 0xff) << 40),
                sw_mode: field(attrib3, 14, 18),
                bpe: fmt.bytes,
                width: field(attrib2, 14, 27) + 1,
                height: field(attrib2, 0, 13) + 1,
                slices: field(attrib3, 0, 12) + 1,
                mips: field(attrib2, 28, 31) + 1,
                samples,
                slice: field(view, 0, 12),
                slice_max: field(view, 13, 25),
                mip: field(view, 26, 29),
            };
            let layout = Layout::new(&surf).map_err(|m| bad(format!("CB_COLOR{i}: {m}")))?;
            let (width, height) = (layout.width, layout.height);
            let mem = SurfaceMem::map(space, layout.base, layout.size(), true)?;
            let blend = BlendControl::from_reg(regs.get(CB_BLEND0_CONTROL + 4 * i))
                .map_err(|m| bad(format!("CB_BLEND{i}_CONTROL: {m}")))?;
            targets.push(ColorTarget {
                index: i,
                fmt,
                width,
                height,
                samples,
                layout,
                mem,
                blend,
                write_mask: mask,
            });
        }
        if resolve {
            let ok = targets.len() == 2
                && targets[0].index == 0
                && targets[1].index == 1
                && targets[0].samples > 1
                && targets[1].samples == 1
                && targets[0].fmt.number.is_integer() == targets[1].fmt.number.is_integer();
            if !ok {
                return Err(bad(
                    "CB_RESOLVE needs a multisampled target 0 and a single-sampled target 1 of the same numeric class".into(),
                ));
            }
        }
        Ok(ColorState { targets, constant, rop3, resolve })
    }
}

impl ColorTarget {
    /// Whether pixel (x, y) of render-target array layer `layer` is inside the target.
    pub fn contains(&self, x: i32, y: i32, layer: u32) -> bool {
        x >= 0
            && y >= 0
            && (x as u32) < self.width
            && (y as u32) < self.height
            && self.layout.has_layer(layer)
    }

    /// Writes `src` (with the dual-source second colour `src1`) to the samples in `cov` of
    /// pixel (x, y) of `layer`: blend or logic op, then the component write mask.
    pub fn write(
        &self,
        (x, y, layer): (u32, u32, u32),
        cov: u16,
        src: [u32; 4],
        src1: [u32; 4],
        st: &ColorState,
    ) {
        let n = self.fmt.bytes;
        for s in 0..self.samples.min(16) {
            if cov >> s & 1 == 0 {
                continue;
            }
            let off = self.layout.offset(x, y, layer, s);
            if !self.mem.in_bounds(off, n) {
                continue;
            }
            let old = self.mem.read(off, n);
            let value = if self.blend.enable && !self.fmt.number.is_integer() {
                let dst = self.fmt.decode(old).map(f32::from_bits);
                let clamp = |v: [u32; 4]| clamp_for(self.fmt.number, v.map(f32::from_bits));
                let inputs = BlendInputs {
                    src: clamp(src),
                    src1: clamp(src1),
                    dst,
                    constant: clamp(st.constant.map(f32::to_bits)),
                };
                self.fmt.encode(blend(&self.blend, &inputs).map(f32::to_bits))
            } else {
                self.fmt.encode(src)
            };
            let value =
                if st.rop3 != 0xcc && !matches!(self.fmt.number, Number::Float | Number::Srgb) {
                    let (lo, hi) = (
                        rop3(st.rop3, value as u64 as u32, old as u32),
                        rop3(st.rop3, (value >> 32) as u32, (old >> 32) as u32),
                    );
                    lo as u128 | (hi as u128) << 32
                } else {
                    value
                };
            let keep = self.channel_keep_mask();
            self.mem.write(off, n, (old & keep) | (value & !keep));
        }
    }

    /// The RGBA value of sample `s` of pixel (x, y) of `layer`.
    pub fn read(&self, x: u32, y: u32, layer: u32, s: u32) -> [u32; 4] {
        let off = self.layout.offset(x, y, layer, s);
        if !self.mem.in_bounds(off, self.fmt.bytes) {
            return [0; 4];
        }
        self.fmt.decode(self.mem.read(off, self.fmt.bytes))
    }

    /// The resolved value of pixel (x, y): the average of its samples (integer formats:
    /// sample 0, as Vulkan's resolve of integer formats).
    pub fn resolved(&self, x: u32, y: u32, layer: u32) -> [u32; 4] {
        if self.fmt.number.is_integer() {
            return self.read(x, y, layer, 0);
        }
        let mut sum = [0f64; 4];
        for s in 0..self.samples {
            for (acc, v) in sum.iter_mut().zip(self.read(x, y, layer, s)) {
                *acc += f32::from_bits(v) as f64;
            }
        }
        sum.map(|v| ((v / self.samples as f64) as f32).to_bits())
    }

    /// Bits of the pixel that keep their old value (channels whose component is masked).
    fn channel_keep_mask(&self) -> u128 {
        let mut keep = 0u128;
        let mut shift = 0;
        for (ch, &w) in self.fmt.widths.iter().enumerate() {
            if self.write_mask >> self.fmt.comp[ch] & 1 == 0 {
                keep |= ((1u128 << w) - 1) << shift;
            }
            shift += w;
        }
        keep
    }
}

/// Vulkan: for fixed-point attachments source, destination and constant colours are clamped
/// to the format's range before blending.
fn clamp_for(n: Number, v: [f32; 4]) -> [f32; 4] {
    match n {
        Number::Unorm | Number::Srgb => v.map(|c| c.clamp(0.0, 1.0)),
        Number::Snorm => v.map(|c| c.clamp(-1.0, 1.0)),
        _ => v,
    }
}

/// The depth/stencil surface of a draw.
pub struct DepthTarget {
    /// Z_16 (2 bytes) or Z_32_FLOAT (4 bytes); `None` without depth.
    pub z: Option<(u32, Layout, SurfaceMem)>,
    pub stencil: Option<(Layout, SurfaceMem)>,
    pub width: u32,
    pub height: u32,
    pub samples: u32,
}

impl DepthTarget {
    pub fn from_regs(regs: &RegisterFile, space: &AddressSpace) -> Result<DepthTarget, GpuError> {
        let zi = regs.get(DB_Z_INFO);
        let si = regs.get(DB_STENCIL_INFO);
        let size = regs.get(DB_DEPTH_SIZE_XY);
        let (width, height) = (field(size, 0, 13) + 1, field(size, 16, 29) + 1);
        let samples = 1 << field(zi, 2, 3);
        let view = regs.get(DB_DEPTH_VIEW);
        let base =
            |lo: u32, hi: u32| ((regs.get(lo) as u64) << 8) | ((regs.get(hi) as u64 & 0xff) << 40);
        let surf = |base: u64, sw_mode: u32, bpe: u32| RenderSurface {
            base,
            sw_mode,
            bpe,
            width,
            height,
            slices: (field(view, 13, 23) | field(view, 30, 31) << 11) + 1,
            mips: field(zi, 16, 19) + 1,
            samples,
            slice: field(view, 0, 10) | field(view, 11, 12) << 11,
            slice_max: field(view, 13, 23) | field(view, 30, 31) << 11,
            mip: field(view, 26, 29),
        };
        let z = match field(zi, 0, 1) {
            0 => None,
            1 | 3 => {
                let bytes = if field(zi, 0, 1) == 1 { 2 } else { 4 };
                let (rb, wb) = (
                    base(DB_Z_READ_BASE, DB_Z_READ_BASE_HI),
                    base(DB_Z_WRITE_BASE, DB_Z_WRITE_BASE_HI),
                );
                if rb != wb {
                    return Err(bad("DB_Z_READ_BASE != DB_Z_WRITE_BASE is not modelled".into()));
                }
                let l = Layout::new(&surf(rb, field(zi, 4, 8), bytes))
                    .map_err(|m| bad(format!("DB_Z_INFO: {m}")))?;
                let mem = SurfaceMem::map(space, l.base, l.size(), view >> 24 & 1 == 0)?;
                Some((bytes, l, mem))
            }
            f => return Err(bad(format!("DB_Z_INFO.FORMAT {f} (Z_24) does not exist on GFX10.3"))),
        };
        let stencil = if si & 1 != 0 {
            let (rb, wb) = (
                base(DB_STENCIL_READ_BASE, DB_STENCIL_READ_BASE_HI),
                base(DB_STENCIL_WRITE_BASE, DB_STENCIL_WRITE_BASE_HI),
            );
            if rb != wb {
                return Err(bad("DB_STENCIL_READ_BASE != WRITE_BASE is not modelled".into()));
            }
            let l = Layout::new(&surf(rb, field(si, 4, 8), 1))
                .map_err(|m| bad(format!("DB_STENCIL_INFO: {m}")))?;
            let mem = SurfaceMem::map(space, l.base, l.size(), view >> 25 & 1 == 0)?;
            Some((l, mem))
        } else {
            None
        };
        Ok(DepthTarget { z, stencil, width, height, samples })
    }

    /// Whether pixel (x, y) of render-target array layer `layer` is inside the surface.
    pub fn contains(&self, x: i32, y: i32, layer: u32) -> bool {
        let layered = match (&self.z, &self.stencil) {
            (Some((_, l, _)), _) | (None, Some((l, _))) => l.has_layer(layer),
            (None, None) => true,
        };
        x >= 0 && y >= 0 && (x as u32) < self.width && (y as u32) < self.height && layered
    }

    /// Incoming depth in the stored domain: D16 quantised to unorm16 (as its value in [0,1]).
    pub fn quantize(&self, z: f32) -> f32 {
        match &self.z {
            Some((2, ..)) => to_unorm(z, 16) as f32 / 65535.0,
            _ => z,
        }
    }

    pub fn read(&self, (x, y, layer): (u32, u32, u32), s: u32) -> (f32, u8) {
        let z = match &self.z {
            Some((bytes, l, m)) => {
                let off = l.offset(x, y, layer, s);
                if !m.in_bounds(off, *bytes) {
                    0.0
                } else if *bytes == 2 {
                    m.read(off, 2) as f32 / 65535.0
                } else {
                    f32::from_bits(m.read(off, 4) as u32)
                }
            }
            None => 0.0,
        };
        let st = match &self.stencil {
            Some((l, m)) => {
                let off = l.offset(x, y, layer, s);
                if m.in_bounds(off, 1) {
                    m.read(off, 1) as u8
                } else {
                    0
                }
            }
            None => 0,
        };
        (z, st)
    }

    pub fn write(
        &self,
        (x, y, layer): (u32, u32, u32),
        s: u32,
        z: Option<f32>,
        stencil: Option<u8>,
    ) {
        if let (Some((bytes, l, m)), Some(z)) = (&self.z, z) {
            let off = l.offset(x, y, layer, s);
            if m.in_bounds(off, *bytes) {
                let v = if *bytes == 2 { to_unorm(z, 16) } else { z.to_bits() };
                m.write(off, *bytes, v as u128);
            }
        }
        if let (Some((l, m)), Some(st)) = (&self.stencil, stencil) {
            let off = l.offset(x, y, layer, s);
            if m.in_bounds(off, 1) {
                m.write(off, 1, st as u128);
            }
        }
    }
}
