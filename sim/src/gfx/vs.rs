//! VS waves: the SPI launches the hardware VS 32 vertices at a time with the inputs
//! SPI_SHADER_PGM_RSRC1/2_VS and SPI_SHADER_USER_DATA_VS_* say, and collects the position and
//! parameter exports (SPI_SHADER_POS_FORMAT, SPI_VS_OUT_CONFIG) of every lane.

use ferrum_regs::gfx103 as r;

use super::state::{PaState, VsState, WAVE};
use crate::core::export::{ExportRecord, TARGET_PARAM0, TARGET_POS0};
use crate::core::lds::Lds;
use crate::core::wave::Wave;
use crate::core::Exec;
use crate::error::GpuError;

/// What one VS invocation exported, decoded by the PA's rules.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexOut {
    /// Clip-space position (POS0).
    pub pos: [f32; 4],
    /// The misc vector (point size, edge flag, layer, viewport index) when
    /// PA_CL_VS_OUT_CNTL.VS_OUT_MISC_VEC_ENA; zero otherwise.
    pub misc: [f32; 4],
    /// Clip/cull distances 0..7 (CCDIST0 then CCDIST1 vectors).
    pub dist: [f32; 8],
    pub params: Vec<[u32; 4]>,
}

/// Which position slot carries what, from PA_CL_VS_OUT_CNTL.
#[derive(Debug, Clone, Copy)]
struct PosLayout {
    misc: Option<usize>,
    ccdist: [Option<usize>; 2],
    slots: u32,
    /// The components of each position slot the PA reads: all of POS0, the misc vector's
    /// point size (x), edge flag (y), layer (z) and viewport index (w) as USE_VTX_* says,
    /// and the enabled clip and cull distances.
    read: [u8; 4],
}

fn layout(vs_out_cntl: u32) -> PosLayout {
    use r::PA_CL_VS_OUT_CNTL as C;
    let mut next = 1usize;
    let mut take = |on: bool| {
        on.then(|| {
            next += 1;
            next - 1
        })
    };
    let misc = take(C::VS_OUT_MISC_VEC_ENA.is_set(vs_out_cntl));
    let cc0 = take(C::VS_OUT_CCDIST0_VEC_ENA.is_set(vs_out_cntl));
    let cc1 = take(C::VS_OUT_CCDIST1_VEC_ENA.is_set(vs_out_cntl));
    let mut read = [0xf, 0, 0, 0];
    if let Some(s) = misc {
        let uses = [
            C::USE_VTX_POINT_SIZE,
            C::USE_VTX_EDGE_FLAG,
            C::USE_VTX_RENDER_TARGET_INDX,
            C::USE_VTX_VIEWPORT_INDX,
        ];
        read[s] =
            uses.iter().enumerate().fold(0, |m, (c, f)| m | u8::from(f.is_set(vs_out_cntl)) << c);
    }
    // CLIP_DIST_ENA_0..7 in bits 0..7, CULL_DIST_ENA_0..7 in bits 8..15.
    let dists = (vs_out_cntl | vs_out_cntl >> 8) & 0xff;
    for (k, slot) in [cc0, cc1].into_iter().enumerate() {
        if let Some(s) = slot {
            read[s] = (dists >> (4 * k) & 0xf) as u8;
        }
    }
    PosLayout { misc, ccdist: [cc0, cc1], slots: next as u32, read }
}

/// Runs the VS for `inputs` (vertex id, primitive id) of one instance; returns one output per
/// input. VGPR inputs: v0 vertex id, v1 unused (0), v2 primitive id, v3 instance id, as many
/// as VGPR_COMP_CNT asks for.
pub fn run(
    exec: &Exec<'_>,
    vs: &VsState,
    pa: &PaState,
    inputs: &[(u32, u32)],
    instance: u32,
    strict: bool,
    threads: usize,
) -> Result<Vec<VertexOut>, GpuError> {
    let lay = layout(pa.vs_out_cntl);
    if lay.slots != vs.pos_slots {
        return Err(GpuError::BadState(format!(
            "SPI_SHADER_POS_FORMAT enables {} position exports but PA_CL_VS_OUT_CNTL = {:#x} describes {}",
            vs.pos_slots, pa.vs_out_cntl, lay.slots
        )));
    }
    if vs.vgprs < vs.vgpr_comp_cnt + 1 {
        return Err(GpuError::BadState(format!(
            "{} VGPRs allocated but VGPR_COMP_CNT {} initialises {}",
            vs.vgprs,
            vs.vgpr_comp_cnt,
            vs.vgpr_comp_cnt + 1
        )));
    }
    // Waves are independent: contiguous runs of them go to host threads, and the outputs are
    // joined in order.
    let waves = inputs.len().div_ceil(WAVE);
    // One scratch slot per host thread: no more waves run at once than the ring has slots.
    let slots = vs.scratch.map_or(usize::MAX, |ring| ring.waves as usize);
    let threads = threads.clamp(1, waves.div_ceil(MIN_WAVES_PER_THREAD).max(1)).min(slots);
    let per_thread = waves.div_ceil(threads) * WAVE;
    let run_range = |first_wave: usize, ids: &[(u32, u32)]| -> Result<Vec<VertexOut>, GpuError> {
        let mut out = Vec::with_capacity(ids.len());
        let slot = (first_wave * WAVE / per_thread) as u32;
        for (k, chunk) in ids.chunks(WAVE).enumerate() {
            let wave_id = (first_wave + k) as u32;
            let wave = Launch { vs, lay: &lay, instance, strict, wave_id, slot };
            wave.run(exec, chunk, &mut out)?;
        }
        Ok(out)
    };
    if threads == 1 {
        return run_range(0, inputs);
    }
    let results: Vec<Result<Vec<VertexOut>, GpuError>> = std::thread::scope(|s| {
        let handles: Vec<_> = inputs
            .chunks(per_thread)
            .enumerate()
            .map(|(t, ids)| {
                let run_range = &run_range;
                s.spawn(move || run_range(t * per_thread / WAVE, ids))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("VS worker panicked")).collect()
    });
    let mut out = Vec::with_capacity(inputs.len());
    for r in results {
        out.extend(r?);
    }
    Ok(out)
}

/// Waves below which a host thread is not worth starting.
const MIN_WAVES_PER_THREAD: usize = 16;

/// One VS wave's launch parameters.
struct Launch<'a> {
    vs: &'a VsState,
    lay: &'a PosLayout,
    instance: u32,
    strict: bool,
    wave_id: u32,
    /// The scratch ring slot this wave owns while it runs.
    slot: u32,
}

impl Launch<'_> {
    /// Runs the wave for `ids` (up to 32) and appends its lanes' outputs to `out`.
    fn run(
        &self,
        exec: &Exec<'_>,
        ids: &[(u32, u32)],
        out: &mut Vec<VertexOut>,
    ) -> Result<(), GpuError> {
        let vs = self.vs;
        // Short waves never reach the shader core's own watchdog stride.
        if self.wave_id % 64 == 0 && std::time::Instant::now() > exec.deadline {
            return Err(GpuError::Hang(format!(
                "VS waves of {:#x} out of time",
                exec.program.base
            )));
        }
        let mut w = Wave::new(vs.vgprs, self.strict);
        w.s[..vs.user_data.len()].copy_from_slice(&vs.user_data);
        if let Some(ring) = vs.scratch {
            // No streamout SGPRs (SO_EN is refused): the wave offset follows the user SGPRs.
            w.s[vs.user_data.len()] = self.slot * ring.wave_bytes;
        }
        for (lane, &(id, prim)) in ids.iter().enumerate() {
            w.v[0][lane] = id;
            if vs.vgpr_comp_cnt >= 2 {
                w.v[2][lane] = prim;
            }
            if vs.vgpr_comp_cnt >= 3 {
                w.v[3][lane] = self.instance;
            }
        }
        w.set_exec(if ids.len() == WAVE { u32::MAX } else { (1u32 << ids.len()) - 1 });
        w.pc = exec.program.base;
        w.wave_id = self.wave_id;
        w.mode = vs.mode;
        w.exports = Some(Vec::new());
        let mut lds = Lds { bytes: &mut [], strict: self.strict };
        exec.run(&mut w, &mut lds).map_err(|f| exec.to_error(&w, f))?;
        if !w.done {
            return Err(GpuError::Shader {
                pc: w.pc,
                what: "s_barrier in a VS (no workgroup to synchronise with)".into(),
            });
        }
        let exports = w.exports.take().unwrap_or_default();
        collect(&exports, ids.len(), vs, self.lay, self.strict, out)
    }
}

/// Decodes a finished wave's exports into per-lane vertex outputs.
fn collect(
    exports: &[ExportRecord],
    lanes: usize,
    vs: &VsState,
    lay: &PosLayout,
    strict: bool,
    out: &mut Vec<VertexOut>,
) -> Result<(), GpuError> {
    let bad = |what: String| Err(GpuError::BadState(what));
    let mut pos = vec![[[0u32; 4]; 4]; lanes];
    let mut params = vec![vec![[0u32; 4]; vs.param_slots]; lanes];
    let mut pos_seen = [false; 4];
    let mut pos_en = [0u8; 4];
    let mut last_pos_done = false;
    for e in exports {
        if e.compr && (e.target >= TARGET_POS0) {
            return Err(GpuError::Unsupported("compressed position/parameter export".into()));
        }
        let slot_data = |lane: usize| [0, 1, 2, 3].map(|c| e.data[c][lane]);
        match e.target {
            t @ TARGET_POS0..=15 => {
                let slot = usize::from(t - TARGET_POS0);
                if slot as u32 >= vs.pos_slots {
                    return bad(format!("exp pos{slot} beyond SPI_SHADER_POS_FORMAT"));
                }
                // Components the export leaves out are undefined; the PA must not read them
                // (checked below). Mesa exports the misc vector with only its written fields.
                pos_seen[slot] = true;
                pos_en[slot] |= e.en;
                last_pos_done = e.done;
                for (lane, p) in pos.iter_mut().enumerate() {
                    let data = slot_data(lane);
                    for c in (0..4).filter(|c| e.en >> c & 1 != 0) {
                        p[slot][c] = data[c];
                    }
                }
            }
            t if t >= TARGET_PARAM0 => {
                let slot = usize::from(t - TARGET_PARAM0);
                if slot >= vs.param_slots {
                    return bad(format!(
                        "exp param{slot} beyond SPI_VS_OUT_CONFIG's {} parameter slots",
                        vs.param_slots
                    ));
                }
                for (lane, p) in params.iter_mut().enumerate() {
                    for (c, out) in p[slot].iter_mut().enumerate() {
                        if e.en >> c & 1 != 0 {
                            *out = e.data[c][lane];
                        }
                    }
                }
            }
            t => return bad(format!("a VS exports to target {t} (colour/depth/prim)")),
        }
    }
    if let Some(missing) = (0..vs.pos_slots as usize).find(|&s| !pos_seen[s]) {
        return bad(format!("the VS ended without exporting pos{missing} (the SPI would hang)"));
    }
    if let Some(s) = (0..vs.pos_slots as usize).find(|&s| lay.read[s] & !pos_en[s] != 0) {
        return bad(format!(
            "exp pos{s} enables components {:#x} but the PA reads {:#x} (PA_CL_VS_OUT_CNTL)",
            pos_en[s], lay.read[s]
        ));
    }
    if strict && !last_pos_done {
        return bad("the VS's last position export lacks DONE (the SPI would hang)".into());
    }
    let f = |v: [u32; 4]| v.map(f32::from_bits);
    for (lane, p) in pos.iter().enumerate() {
        let mut dist = [0f32; 8];
        for (k, slot) in lay.ccdist.iter().enumerate() {
            if let Some(s) = slot {
                dist[4 * k..4 * k + 4].copy_from_slice(&f(p[*s]));
            }
        }
        out.push(VertexOut {
            pos: f(p[0]),
            misc: lay.misc.map_or([0.0; 4], |s| f(p[s])),
            dist,
            params: std::mem::take(&mut params[lane]),
        });
    }
    Ok(())
}
