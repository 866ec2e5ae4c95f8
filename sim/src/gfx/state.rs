//! The draw state the front end reads from the register file, decoded once per draw, and the
//! strict-mode rule that a draw needs its state written.

use ferrum_regs::gfx103 as r;

use crate::compute::setup::ScratchRing;
use crate::cp::RegisterFile;
use crate::error::GpuError;

/// Wave size of the legacy VS (VGT_SHADER_STAGES_EN.VS_W32_EN is required).
pub const WAVE: usize = 32;
/// SPI_SHADER_USER_DATA_VS_0..31.
const USER_DATA_VS: u32 = 32;
/// PA_CL_VPORT_* blocks are 6 dwords apart, one per viewport.
pub const VIEWPORTS: u32 = 16;
const VPORT_STRIDE: u32 = 24;

fn bad(what: impl Into<String>) -> GpuError {
    GpuError::BadState(what.into())
}

fn unsupported(what: impl Into<String>) -> GpuError {
    GpuError::Unsupported(what.into())
}

/// Strict mode: every register in `addrs` must have been written.
pub fn require(regs: &RegisterFile, addrs: &[u32], why: &str) -> Result<(), GpuError> {
    for &a in addrs {
        if !regs.is_written(a) {
            let name = ferrum_regs::lookup(a).map_or("?", |i| i.name);
            return Err(bad(format!("{why} needs {name} ({a:#x}), which was never written")));
        }
    }
    Ok(())
}

/// The hardware VS as the SPI launches it.
#[derive(Debug, Clone)]
pub struct VsState {
    pub pgm: u64,
    pub vgprs: u32,
    pub user_data: Vec<u32>,
    /// VGPR_COMP_CNT: v0 vertex id, v1 (unused), v2 primitive id, v3 instance id.
    pub vgpr_comp_cnt: u32,
    /// MODE register bits from RSRC1 (FLOAT_MODE, DX10_CLAMP, IEEE).
    pub mode: u32,
    /// Position export slots the SPI expects (SPI_SHADER_POS_FORMAT POSn != NONE).
    pub pos_slots: u32,
    /// Parameter export slots (SPI_VS_OUT_CONFIG), 0 with NO_PC_EXPORT.
    pub param_slots: usize,
    /// The graphics scratch ring (SPI_TMPRING_SIZE) when RSRC2_VS.SCRATCH_EN: the SPI loads
    /// the wave's byte offset into it in the SGPR after the user SGPRs.
    pub scratch: Option<ScratchRing>,
}

/// The graphics stages' scratch ring, for a stage whose RSRC2 has SCRATCH_EN.
pub fn graphics_scratch(regs: &RegisterFile, strict: bool) -> Result<ScratchRing, GpuError> {
    if strict {
        require(regs, &[r::SPI_TMPRING_SIZE], "a shader with SCRATCH_EN")?;
    }
    ScratchRing::from_tmpring(regs.get(r::SPI_TMPRING_SIZE), "SPI_TMPRING_SIZE")
}

impl VsState {
    pub fn from_registers(regs: &RegisterFile, strict: bool) -> Result<VsState, GpuError> {
        let stages = regs.get(r::VGT_SHADER_STAGES_EN);
        use r::VGT_SHADER_STAGES_EN as S;
        if S::LS_EN.get(stages) | S::HS_EN.get(stages) | S::ES_EN.get(stages) != 0
            || S::GS_EN.get(stages) != 0
            || S::VS_EN.get(stages) != 0
        {
            return Err(unsupported(format!(
                "VGT_SHADER_STAGES_EN = {stages:#x}: only the hardware VS stage is modelled"
            )));
        }
        if S::PRIMGEN_EN.is_set(stages) {
            return Err(unsupported("NGG (VGT_SHADER_STAGES_EN.PRIMGEN_EN)"));
        }
        if !S::VS_W32_EN.is_set(stages) {
            return Err(unsupported("wave64 VS (VGT_SHADER_STAGES_EN.VS_W32_EN = 0)"));
        }
        let gs_mode = r::VGT_GS_MODE::MODE.get(regs.get(r::VGT_GS_MODE));
        if gs_mode > 1 {
            return Err(unsupported(format!(
                "VGT_GS_MODE.MODE {gs_mode} (only GS_OFF/SCENARIO_A)"
            )));
        }
        let rsrc1 = regs.get(r::SPI_SHADER_PGM_RSRC1_VS);
        let rsrc2 = regs.get(r::SPI_SHADER_PGM_RSRC2_VS);
        use r::SPI_SHADER_PGM_RSRC1_VS as R1;
        use r::SPI_SHADER_PGM_RSRC2_VS as R2;
        let scratch =
            R2::SCRATCH_EN.is_set(rsrc2).then(|| graphics_scratch(regs, strict)).transpose()?;
        if R2::SO_EN.is_set(rsrc2) || rsrc2 & (0xf << 8) != 0 {
            return Err(unsupported("streamout (SPI_SHADER_PGM_RSRC2_VS.SO_EN / SO_BASEn_EN)"));
        }
        if R1::FLOAT_MODE.get(rsrc1) & 0xc != 0 {
            return Err(unsupported("FLOAT_MODE f16/f64 rounding other than nearest-even"));
        }
        let user_sgprs = R2::USER_SGPR.get(rsrc2) | R2::USER_SGPR_MSB.get(rsrc2) << 5;
        if user_sgprs > USER_DATA_VS {
            return Err(bad(format!("{user_sgprs} user SGPRs (the VS has 32)")));
        }
        let user_addrs: Vec<u32> =
            (0..user_sgprs).map(|i| r::SPI_SHADER_USER_DATA_VS_0 + 4 * i).collect();
        let pos_format = regs.get(r::SPI_SHADER_POS_FORMAT);
        let out_config = regs.get(r::SPI_VS_OUT_CONFIG);
        if strict {
            require(
                regs,
                &[
                    r::SPI_SHADER_PGM_LO_VS,
                    r::SPI_SHADER_PGM_RSRC1_VS,
                    r::SPI_SHADER_PGM_RSRC2_VS,
                    r::VGT_SHADER_STAGES_EN,
                    r::SPI_SHADER_POS_FORMAT,
                    r::SPI_VS_OUT_CONFIG,
                ],
                "a draw",
            )?;
            require(regs, &user_addrs, "the VS's user SGPRs")?;
        }
        let mut pos_slots = 0;
        for slot in 0..4 {
            match (pos_format >> (4 * slot)) & 0xf {
                0 => {}
                4 if slot == pos_slots => pos_slots += 1,
                f => {
                    return Err(bad(format!(
                        "SPI_SHADER_POS_FORMAT = {pos_format:#x}: POS{slot} format {f} (positions are 4COMP, consecutive from POS0)"
                    )))
                }
            }
        }
        if pos_slots == 0 {
            return Err(bad("SPI_SHADER_POS_FORMAT.POS0_EXPORT_FORMAT is NONE: no position"));
        }
        use r::SPI_VS_OUT_CONFIG as OC;
        let param_slots = if OC::NO_PC_EXPORT.is_set(out_config) {
            0
        } else {
            OC::VS_EXPORT_COUNT.get(out_config) as usize + 1
        };
        let lo = u64::from(regs.get(r::SPI_SHADER_PGM_LO_VS));
        let hi = u64::from(regs.get(r::SPI_SHADER_PGM_HI_VS) & 0xff);
        Ok(VsState {
            pgm: (lo << 8) | (hi << 40),
            vgprs: (R1::VGPRS.get(rsrc1) + 1) * 8,
            user_data: user_addrs.iter().map(|&a| regs.get(a)).collect(),
            vgpr_comp_cnt: R1::VGPR_COMP_CNT.get(rsrc1),
            mode: R1::FLOAT_MODE.get(rsrc1)
                | (R1::DX10_CLAMP.get(rsrc1) << 8)
                | (R1::IEEE_MODE.get(rsrc1) << 9),
            pos_slots,
            param_slots,
            scratch,
        })
    }
}

/// One viewport's transform (PA_CL_VPORT_*SCALE/*OFFSET, with PA_CL_VTE_CNTL's enables applied:
/// a disabled scale is 1, a disabled offset 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    pub scale: [f32; 3],
    pub offset: [f32; 3],
}

/// What primitive assembly, clipping and setup read.
#[derive(Debug, Clone)]
pub struct PaState {
    pub clip_cntl: u32,
    pub vs_out_cntl: u32,
    pub vte_cntl: u32,
    pub su_mode: u32,
    /// Guard band: x/y clip planes at ±w·CLIP_ADJ, points discarded beyond ±w·DISC_ADJ.
    pub gb_clip: [f32; 2],
    pub gb_disc: [f32; 2],
    /// PA_CL_UCP_n_X..W.
    pub ucp: [[f32; 4]; 6],
    pub point_size: f32,
    pub point_min: f32,
    pub point_max: f32,
    pub line_width: f32,
    viewports: Vec<Viewport>,
    /// Which viewports' registers were written (strict mode refuses the others).
    viewport_written: Vec<bool>,
    strict: bool,
}

impl PaState {
    pub fn from_registers(regs: &RegisterFile, strict: bool) -> Result<PaState, GpuError> {
        let f = |a: u32| f32::from_bits(regs.get(a));
        if strict {
            require(
                regs,
                &[
                    r::PA_CL_CLIP_CNTL,
                    r::PA_CL_VS_OUT_CNTL,
                    r::PA_CL_VTE_CNTL,
                    r::PA_SU_SC_MODE_CNTL,
                    r::PA_CL_GB_VERT_CLIP_ADJ,
                    r::PA_CL_GB_VERT_DISC_ADJ,
                    r::PA_CL_GB_HORZ_CLIP_ADJ,
                    r::PA_CL_GB_HORZ_DISC_ADJ,
                ],
                "a draw",
            )?;
        }
        let vte = regs.get(r::PA_CL_VTE_CNTL);
        let viewport_written = (0..VIEWPORTS)
            .map(|i| {
                let base = r::PA_CL_VPORT_XSCALE + VPORT_STRIDE * i;
                (0..6).all(|k| vte >> k & 1 == 0 || regs.is_written(base + 4 * k))
            })
            .collect();
        let viewports = (0..VIEWPORTS)
            .map(|i| {
                let base = r::PA_CL_VPORT_XSCALE + VPORT_STRIDE * i;
                let v = |k: u32, enable: u32, default: f32| {
                    if vte >> enable & 1 != 0 {
                        f(base + 4 * k)
                    } else {
                        default
                    }
                };
                Viewport {
                    scale: [v(0, 0, 1.0), v(2, 2, 1.0), v(4, 4, 1.0)],
                    offset: [v(1, 1, 0.0), v(3, 3, 0.0), v(5, 5, 0.0)],
                }
            })
            .collect();
        // Point sizes are 12.4 fixed-point half-sizes (radius); keep diameters in pixels.
        let half = |v: u32| (v & 0xffff) as f32 / 16.0 * 2.0;
        let ps = regs.get(r::PA_SU_POINT_SIZE);
        let mm = regs.get(r::PA_SU_POINT_MINMAX);
        let ucp = [0u32, 1, 2, 3, 4, 5].map(|i| {
            let b = r::PA_CL_UCP_0_X + 16 * i;
            [f(b), f(b + 4), f(b + 8), f(b + 12)]
        });
        Ok(PaState {
            clip_cntl: regs.get(r::PA_CL_CLIP_CNTL),
            vs_out_cntl: regs.get(r::PA_CL_VS_OUT_CNTL),
            vte_cntl: vte,
            su_mode: regs.get(r::PA_SU_SC_MODE_CNTL),
            gb_clip: [f(r::PA_CL_GB_HORZ_CLIP_ADJ), f(r::PA_CL_GB_VERT_CLIP_ADJ)],
            gb_disc: [f(r::PA_CL_GB_HORZ_DISC_ADJ), f(r::PA_CL_GB_VERT_DISC_ADJ)],
            ucp,
            point_size: half(r::PA_SU_POINT_SIZE::WIDTH.get(ps)),
            point_min: half(r::PA_SU_POINT_MINMAX::MIN_SIZE.get(mm)),
            point_max: half(r::PA_SU_POINT_MINMAX::MAX_SIZE.get(mm)),
            line_width: (regs.get(r::PA_SU_LINE_CNTL) & 0xffff) as f32 / 8.0,
            viewports,
            viewport_written,
            strict,
        })
    }

    /// Viewport `index`; an index beyond the 16 viewports, or (strict) one whose registers
    /// were never written, is an error.
    pub fn viewport(&self, index: usize) -> Result<Viewport, GpuError> {
        match self.viewports.get(index) {
            Some(_) if self.strict && !self.viewport_written[index] => Err(bad(format!(
                "a primitive uses viewport {index}, whose PA_CL_VPORT_* registers were never written"
            ))),
            Some(v) => Ok(*v),
            None => Err(bad(format!("viewport index {index} (there are {VIEWPORTS})"))),
        }
    }

    /// Strict mode: the registers a draw of this primitive class reads (viewports are
    /// checked as primitives use them).
    pub fn require_for(regs: &RegisterFile, points: bool, lines: bool) -> Result<(), GpuError> {
        let mut need = Vec::new();
        if points {
            need.extend([r::PA_SU_POINT_SIZE, r::PA_SU_POINT_MINMAX]);
        }
        if lines {
            need.push(r::PA_SU_LINE_CNTL);
        }
        let clip = regs.get(r::PA_CL_CLIP_CNTL);
        for i in 0..6 {
            if clip >> i & 1 != 0 {
                need.extend((0..4).map(|k| r::PA_CL_UCP_0_X + 16 * i + 4 * k));
            }
        }
        require(regs, &need, "a draw")
    }
}
