//! Pixel-shader waves: the SPI packs up to eight 2x2 quads into a wave32 (helper lanes
//! included, their inputs interpolated; EXEC covers only the covered pixels, as on the
//! hardware, where a shader needing helpers enables them with `s_wqm`), loads SGPRs and VGPRs as
//! SPI_SHADER_PGM_RSRC*_PS, SPI_PS_INPUT_ENA/ADDR and SPI_BARYC_CNTL say, writes the
//! primitives' parameters into the wave's LDS, runs it, and hands the exports to the back end
//! in the formats SPI_SHADER_COL_FORMAT / SPI_SHADER_Z_FORMAT program.

use super::addr::*;
use super::ps_inputs::{lane_inputs, param_block, PsPrim, INPUT_VGPRS};
use super::raster::{Quad, RasterState};
use super::state::graphics_scratch;
use crate::compute::setup::ScratchRing;
use crate::core::export::ExportRecord as Export;
use crate::core::interp::ATTR_BYTES;
use crate::core::lds::Lds;
use crate::core::wave::{f16_to_f32, Wave, LANES};
use crate::core::Exec;
use crate::cp::regs::{field, RegisterFile};
use crate::error::GpuError;

/// The pixel shader's registers.
#[derive(Debug, Clone)]
pub struct PsState {
    pub pgm: u64,
    pub vgprs: u32,
    pub user_data: Vec<u32>,
    pub mode: u32,
    pub input_ena: u32,
    pub input_addr: u32,
    pub baryc_cntl: u32,
    pub input_cntl: Vec<u32>,
    pub col_format: u32,
    pub z_format: u32,
    pub shader_control: u32,
    /// The graphics scratch ring when RSRC2_PS.SCRATCH_EN: the SPI loads the wave's byte
    /// offset into it in the SGPR after PRIM_MASK.
    pub scratch: Option<ScratchRing>,
}

fn bad(what: String) -> GpuError {
    GpuError::Unsupported(what)
}

impl PsState {
    pub fn from_regs(regs: &RegisterFile, strict: bool) -> Result<PsState, GpuError> {
        let lo = regs.get(SPI_SHADER_PGM_LO_PS) as u64;
        let hi = regs.get(SPI_SHADER_PGM_HI_PS) as u64;
        let rsrc1 = regs.get(SPI_SHADER_PGM_RSRC1_PS);
        let rsrc2 = regs.get(SPI_SHADER_PGM_RSRC2_PS);
        let scratch = (rsrc2 & 1 != 0).then(|| graphics_scratch(regs, strict)).transpose()?;
        let user = field(rsrc2, 1, 5) + (field(rsrc2, 27, 27) << 5);
        if user > 32 {
            return Err(bad(format!("RSRC2_PS.USER_SGPR = {user} exceeds 32")));
        }
        let user_data = (0..user).map(|i| regs.get(SPI_SHADER_USER_DATA_PS_0 + 4 * i)).collect();
        let ena = regs.get(SPI_PS_INPUT_ENA) & 0xffff;
        let addr = regs.get(SPI_PS_INPUT_ADDR) & 0xffff;
        if ena & !addr != 0 {
            return Err(bad(format!(
                "SPI_PS_INPUT_ENA {ena:#x} enables inputs SPI_PS_INPUT_ADDR {addr:#x} does not allocate"
            )));
        }
        if ena & 0x7f == 0 {
            return Err(bad(
                "SPI_PS_INPUT_ENA enables no PERSP_* or LINEAR_* input (the hardware hangs)".into(),
            ));
        }
        if ena & (1 << 11) != 0 && ena & 0xf == 0 {
            return Err(bad("POS_W_FLOAT_ENA without a PERSP_* input".into()));
        }
        let in_control = regs.get(SPI_PS_IN_CONTROL);
        if in_control & (1 << 15) == 0 {
            return Err(bad(
                "SPI_PS_IN_CONTROL.PS_W32_EN = 0: wave64 pixel shaders are not modelled".into(),
            ));
        }
        let num_interp = field(in_control, 0, 5).min(32);
        let input_cntl: Vec<u32> =
            (0..num_interp).map(|i| regs.get(SPI_PS_INPUT_CNTL_0 + 4 * i)).collect();
        for (n, &c) in input_cntl.iter().enumerate() {
            let cyl = field(c, 13, 16) != 0;
            let fp16 = field(c, 19, 19) != 0 || field(c, 20, 20) != 0;
            if cyl || fp16 || field(c, 11, 11) != 0 || field(c, 18, 18) != 0 {
                return Err(bad(format!(
                    "SPI_PS_INPUT_CNTL_{n} = {c:#x}: cylindrical wrap, DUP, ROTATE_PC_PTR and the 16-bit modes are not modelled"
                )));
            }
        }
        let baryc = regs.get(SPI_BARYC_CNTL);
        if baryc & 0x0010_1111 != 0 {
            return Err(bad(format!(
                "SPI_BARYC_CNTL = {baryc:#x}: the *_CNTL sample-location selects and POS_FLOAT_ULC are not modelled"
            )));
        }
        let vgprs = (field(rsrc1, 0, 5) + 1) * 8;
        Ok(PsState {
            pgm: (lo << 8) | (hi << 40),
            vgprs,
            user_data,
            mode: field(rsrc1, 12, 19) | field(rsrc1, 21, 21) << 8 | field(rsrc1, 23, 23) << 9,
            input_ena: ena,
            input_addr: addr,
            baryc_cntl: regs.get(SPI_BARYC_CNTL),
            input_cntl,
            col_format: regs.get(SPI_SHADER_COL_FORMAT),
            z_format: regs.get(SPI_SHADER_Z_FORMAT) & 0xf,
            shader_control: regs.get(DB_SHADER_CONTROL),
            scratch,
        })
    }

    pub fn z_export(&self) -> bool {
        self.shader_control & 1 != 0
    }

    pub fn kill_enable(&self) -> bool {
        self.shader_control >> 6 & 1 != 0
    }

    fn param_stride(&self) -> u32 {
        self.input_cntl.len() as u32 * ATTR_BYTES
    }
}

/// A quad of a primitive, as queued for the pixel shader.
#[derive(Debug, Clone, Copy)]
pub struct PsQuad {
    pub prim: u32,
    pub quad: Quad,
    /// Per-sample shading (DB_EQAA.PS_ITER_SAMPLES): the sample this invocation shades (its
    /// coverage holds only that sample).
    pub sample: Option<u8>,
}

/// What the back end needs from a finished wave, per lane.
pub struct PsOutput {
    /// Lanes whose pixel survived (covered, not a helper, not discarded).
    pub valid: u32,
    /// RGBA per MRT and lane (float bits, or integers for the 16-bit integer formats).
    pub color: [Option<Box<[[u32; 4]; LANES]>>; 8],
    /// MRTZ: depth (f32 bits), stencil reference, sample mask per lane.
    pub depth: Option<[u32; LANES]>,
    pub stencil: Option<[u32; LANES]>,
    pub mask: Option<[u32; LANES]>,
    /// MRTZ's alpha (fourth register, Z_FORMAT 32_ABGR), which alpha to mask reads instead
    /// of MRT0's when the shader exports it.
    pub alpha: Option<[u32; LANES]>,
}

/// Runs one wave over `quads` (at most 8), owning scratch ring slot `slot` while it runs.
pub fn run_wave(
    exec: &Exec<'_>,
    strict: bool,
    ps: &PsState,
    rs: &RasterState,
    prims: &[PsPrim<'_>],
    quads: &[PsQuad],
    slot: u32,
) -> Result<PsOutput, GpuError> {
    debug_assert!(!quads.is_empty() && quads.len() <= LANES / 4);
    let mut w = Wave::new(ps.vgprs, strict);
    w.exports = Some(Vec::new());
    // Parameter blocks, one per primitive change; the new-primitive mask marks quads 1..
    let mut lds = Vec::new();
    let mut new_prim = 0u32;
    for (q, pq) in quads.iter().enumerate() {
        if q == 0 || pq.prim != quads[q - 1].prim {
            if q > 0 {
                new_prim |= 1 << (q - 1);
            }
            param_block(&prims[pq.prim as usize], &ps.input_cntl, &mut lds);
        }
    }
    let user = ps.user_data.len();
    w.s[..user].copy_from_slice(&ps.user_data);
    w.s[user] = new_prim << 16; // PRIM_MASK: LDS parameter offset 0
    if let Some(ring) = ps.scratch {
        w.s[user + 1] = slot * ring.wave_bytes;
    }
    w.param_stride = ps.param_stride();
    w.mode = ps.mode;
    w.pc = exec.program.base;
    let mut exec_mask = 0u32;
    let mut inputs = vec![[0u32; LANES]; 24];
    for (q, pq) in quads.iter().enumerate() {
        let p = &prims[pq.prim as usize];
        for i in 0..4 {
            let lane = q * 4 + i;
            exec_mask |= u32::from(pq.quad.coverage[i] != 0) << lane;
            let (x, y) = (pq.quad.x + (i as i32 & 1), pq.quad.y + (i as i32 >> 1));
            let vals = lane_inputs(
                rs,
                ps.baryc_cntl,
                ps.input_ena,
                p,
                (x, y),
                pq.quad.coverage[i],
                pq.sample,
            );
            for (r, v) in vals.iter().enumerate() {
                inputs[r][lane] = *v;
            }
        }
    }
    let mut vgpr = 0usize;
    let mut flat = 0usize;
    for (bit, &n) in INPUT_VGPRS.iter().enumerate() {
        let n = n as usize;
        if ps.input_addr >> bit & 1 != 0 {
            if ps.input_ena >> bit & 1 != 0 {
                for k in 0..n {
                    if vgpr + k >= w.v.len() {
                        return Err(bad(format!(
                            "PS inputs need more than the {} VGPRs RSRC1_PS allocates",
                            w.v.len()
                        )));
                    }
                    w.v[vgpr + k] = inputs[flat + k];
                }
            }
            vgpr += n;
        }
        flat += n;
    }
    w.set_exec(exec_mask);
    let mut lds_mem = Lds { bytes: &mut lds, strict };
    exec.run(&mut w, &mut lds_mem).map_err(|f| exec.to_error(&w, f))?;
    if !w.done {
        return Err(bad("a pixel shader executed s_barrier".into()));
    }
    collect(ps, &w, quads, exec_mask)
}

/// Turns the wave's exports into per-lane colours, depth and the valid-pixel mask.
fn collect(ps: &PsState, w: &Wave, quads: &[PsQuad], launched: u32) -> Result<PsOutput, GpuError> {
    let mut covered = 0u32;
    for (q, pq) in quads.iter().enumerate() {
        for i in 0..4 {
            covered |= ((pq.quad.coverage[i] != 0) as u32) << (q * 4 + i);
        }
    }
    let exports = w.exports.as_deref().unwrap_or(&[]);
    let last = exports.iter().rposition(|e| e.done && e.target <= 9);
    let mut valid = covered & launched;
    match last {
        Some(i) if exports[i].vm => valid &= exports[i].exec,
        Some(_) => {}
        None => {
            if ps.col_format != 0 || ps.z_export() || ps.kill_enable() {
                return Err(bad(
                    "pixel shader ended without a `done` export while colour, depth or kill is enabled"
                        .into(),
                ));
            }
        }
    }
    let mut out = PsOutput {
        valid,
        color: Default::default(),
        depth: None,
        stencil: None,
        mask: None,
        alpha: None,
    };
    for e in exports {
        match e.target {
            t @ 0..=7 => {
                let fmt = (ps.col_format >> (4 * t)) & 0xf;
                let mut lanes = Box::new([[0u32; 4]; LANES]);
                for (l, v) in lanes.iter_mut().enumerate() {
                    *v = decode_export(fmt, e, l)?;
                }
                out.color[t as usize] = Some(lanes);
            }
            8 => {
                let get = |slot: usize| core::array::from_fn(|l| e.data[slot][l]);
                out.depth = ps.z_export().then(|| get(0));
                if ps.shader_control >> 1 & 1 != 0 {
                    out.stencil = Some(get(1));
                }
                if ps.shader_control >> 8 & 1 != 0 {
                    out.mask = Some(get(if ps.z_format == 3 { 3 } else { 2 }));
                }
                // 32_ABGR carries an alpha in the fourth register when the export enables it
                // (Mesa's ac_nir_lower_ps: alpha to coverage "via MRTZ").
                if ps.z_format == 9 && e.en & 8 != 0 {
                    out.alpha = Some(get(3));
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// RGBA of lane `l` of an MRT export in SPI_SHADER_COL_FORMAT `fmt` (the SpiShaderExFormat
/// enum): 32-bit formats carry the register bits, the 16-bit ones pack two components per
/// register (`compr`) and are widened to f32 (or integers for UINT16/SINT16).
pub fn decode_export(fmt: u32, e: &Export, l: usize) -> Result<[u32; 4], GpuError> {
    let d = |slot: usize| e.data[slot][l];
    let one = 1f32.to_bits();
    let halves = |f: &dyn Fn(u32) -> u32| {
        let (a, b) = (d(0), d(1));
        [f(a & 0xffff), f(a >> 16), f(b & 0xffff), f(b >> 16)]
    };
    let compr = matches!(fmt, 4..=8);
    if compr != e.compr {
        return Err(bad(format!(
            "MRT export {} compr={} does not match SPI_SHADER_COL_FORMAT {fmt}",
            e.target, e.compr
        )));
    }
    Ok(match fmt {
        0 => [0, 0, 0, 0],
        1 => [d(0), 0, 0, one],
        2 => [d(0), d(1), 0, one],
        3 => [d(0), 0, 0, d(3)],
        4 => halves(&|h| f16_to_f32(h as u16).to_bits()),
        5 => halves(&|h| (h as f32 / 65535.0).to_bits()),
        6 => halves(&|h| (h as u16 as i16 as f32 / 32767.0).max(-1.0).to_bits()),
        7 => halves(&|h| h),
        8 => halves(&|h| h as u16 as i16 as i32 as u32),
        9 => [d(0), d(1), d(2), d(3)],
        f => return Err(bad(format!("SPI_SHADER_COL_FORMAT value {f} is undefined"))),
    })
}
