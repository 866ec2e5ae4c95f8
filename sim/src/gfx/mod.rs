//! The graphics pipeline of the legacy (non-NGG) path as RADV drives it with NGG off: index
//! fetch, VS waves, primitive assembly, clipping, culling and the viewport transform (the
//! front end), handing [`PrimBatch`]es to a [`Rasterizer`] (the back end: scan conversion,
//! PS, depth/stencil, colour).
//!
//! A draw runs to completion before the command processor moves on, like a dispatch, and
//! shares compute's fault handling: VM faults, shader faults, strict-mode errors and the
//! watchdog all end the job as a context loss.
//!
//! Back end ([`backend::BackEnd`] implements [`Rasterizer`]):
//! * [`raster`]: snapping, edge functions, fill rule, scissors, MSAA coverage, 2x2 quads;
//!   [`lines`]: points and lines as rectangles.
//! * [`ps`], [`ps_inputs`]: pixel-shader waves, their input VGPRs and parameter LDS.
//! * [`alpha_mask`]: alpha to coverage.
//! * [`depth`]: depth, depth-bounds and stencil tests and updates.
//! * [`poly_offset`]: polygon offset (depth bias) of filled triangles.
//! * [`blend`]: blend equations and logic operations.
//! * [`color_format`]: colour-buffer formats and their conversions.
//! * [`targets`], [`surface`]: colour and depth surfaces; [`back_state`]: PA_SC/DB decoding.

pub mod addr;
pub mod alpha_mask;
pub mod assemble;
pub mod back_require;
pub mod back_state;
pub mod backend;
pub mod blend;
pub mod clip;
pub mod color_format;
pub mod depth;
pub mod lines;
pub mod poly_offset;
pub mod prim;
pub mod ps;
pub mod ps_inputs;
pub mod raster;
pub mod setup;
pub mod state;
pub mod surface;
pub mod targets;
pub mod vs;

use std::time::Instant;

use ferrum_regs::gfx103 as r;
use parking_lot::Mutex;

use crate::core::{Exec, Mem};
use crate::cp::{Env, RegisterFile};
use crate::error::GpuError;
use assemble::{IndexSource, Restart, Topology};
use state::{PaState, VsState};

pub use prim::{
    BackEndCounts, Capture, NoBackEnd, PrimBatch, PrimKind, Rasterizer, SetupPrim, SetupVertex,
};

/// Vertices (index-stream entries) one draw may have per instance: the simulator holds a
/// draw's vertices in host memory, so larger draws are refused rather than exhausting it.
pub const MAX_DRAW_VERTICES: u32 = 1 << 22;

/// A draw as the draw packets describe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawArgs {
    pub source: IndexSource,
    pub instances: u32,
}

/// What a draw adds to the pipeline-statistics and occlusion counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrawCounts {
    pub ia_vertices: u64,
    pub ia_primitives: u64,
    pub vs_invocations: u64,
    pub c_invocations: u64,
    pub back: BackEndCounts,
}

/// The graphics units of one device: the back end the front end feeds.
pub struct GraphicsEngine {
    backend: Mutex<Box<dyn Rasterizer>>,
}

impl Default for GraphicsEngine {
    fn default() -> Self {
        GraphicsEngine { backend: Mutex::new(Box::new(backend::BackEnd)) }
    }
}

impl GraphicsEngine {
    /// Replaces the back end (tests install a [`Capture`] they keep a handle to).
    pub fn set_backend(&self, backend: Box<dyn Rasterizer>) {
        *self.backend.lock() = backend;
    }

    /// Runs one draw through the front end and the back end.
    pub fn draw(
        &self,
        regs: &RegisterFile,
        env: &Env<'_>,
        args: &DrawArgs,
    ) -> Result<DrawCounts, GpuError> {
        let strict = env.config.strict;
        let (topo, vs, pa) = decode(regs, strict)?;
        let restart = self.restart(regs, args, strict)?;
        let count = match args.source {
            IndexSource::Auto { count } | IndexSource::Dma { count, .. } => count,
        };
        if count > MAX_DRAW_VERTICES {
            return Err(GpuError::Unsupported(format!(
                "a draw of {count} vertices (the simulator takes up to {MAX_DRAW_VERTICES})"
            )));
        }
        let mut counts = DrawCounts::default();
        if count == 0 || args.instances == 0 {
            return Ok(counts);
        }
        let stream = vertex_stream(regs, env, args.source, restart)?;
        let last = r::PA_SU_SC_MODE_CNTL::PROVOKING_VTX_LAST.is_set(pa.su_mode);
        let prims = assemble::assemble(topo, &stream, last);
        let program = env.compute.programs().get(env.space, vs.pgm)?;
        let key = crate::jit::Key { vgprs: vs.vgprs, mode: vs.mode };
        let code = env.compute.translation(&program, key, env.config.engine);
        if let Some(c) = &code {
            env.compute.stats.count_translation(c);
        }
        let deadline = Instant::now() + env.config.watchdog;
        let exec = Exec {
            program: &program,
            mem: Mem { space: env.space, timestamp: env.timestamp },
            strict,
            budget: env.config.wave_budget,
            deadline,
            stats: &env.compute.stats,
            heaviest: Default::default(),
            border_color_base: border_color_base(regs),
            code: code.as_deref(),
        };
        let primitive_id =
            r::VGT_PRIMITIVEID_EN::PRIMITIVEID_EN.is_set(regs.get(r::VGT_PRIMITIVEID_EN));
        let (inputs, remapped) =
            vs_inputs(&stream, &prims, primitive_id.then_some(topo.vertices()));
        let ia_vertices = stream.iter().flatten().count() as u64;
        for instance in 0..args.instances {
            if Instant::now() > deadline {
                return Err(GpuError::Hang(format!("draw out of time at instance {instance}")));
            }
            let outs = vs::run(&exec, &vs, &pa, &inputs, instance, strict, env.config.threads)
                .map_err(|e| match e {
                    GpuError::Shader { what, .. } if what.starts_with("watchdog") => {
                        GpuError::Hang(format!("VS at {:#x}: {what}", vs.pgm))
                    }
                    other => other,
                })?;
            let setup = setup::Setup { pa: &pa, clip: clip::Clipper::new(&pa), instance };
            counts.ia_vertices += ia_vertices;
            counts.ia_primitives += prims.len() as u64;
            counts.vs_invocations += inputs.len() as u64;
            counts.c_invocations += prims.len() as u64;
            // Rasterization kill: the primitives end after the vertex shader; nothing reaches
            // setup or the back end (whose state need not be valid then).
            if r::PA_CL_CLIP_CNTL::DX_RASTERIZATION_KILL.is_set(pa.clip_cntl) {
                continue;
            }
            let mut batch = PrimBatch { param_slots: vs.param_slots, prims: Vec::new() };
            for a in &remapped {
                setup.run(topo, a, &outs, &mut batch.prims)?;
            }
            let back = self.backend.lock().rasterize(&batch, regs, env)?;
            counts.back.zpass_samples += back.zpass_samples;
            counts.back.ps_invocations += back.ps_invocations;
            counts.back.c_primitives += back.c_primitives;
        }
        exec.log_heaviest("VS");
        Ok(counts)
    }

    fn restart(
        &self,
        regs: &RegisterFile,
        args: &DrawArgs,
        strict: bool,
    ) -> Result<Option<Restart>, GpuError> {
        if !matches!(args.source, IndexSource::Dma { .. }) {
            return Ok(None);
        }
        if strict {
            state::require(regs, &[r::GE_MULTI_PRIM_IB_RESET_EN], "an indexed draw")?;
        }
        let en = regs.get(r::GE_MULTI_PRIM_IB_RESET_EN);
        if !r::GE_MULTI_PRIM_IB_RESET_EN::RESET_EN.is_set(en) {
            return Ok(None);
        }
        if strict {
            state::require(regs, &[r::VGT_MULTI_PRIM_IB_RESET_INDX], "primitive restart")?;
        }
        Ok(Some(Restart {
            index: regs.get(r::VGT_MULTI_PRIM_IB_RESET_INDX),
            match_all: r::GE_MULTI_PRIM_IB_RESET_EN::MATCH_ALL_BITS.is_set(en),
        }))
    }
}

/// The draw's state from the registers, with strict mode's checks.
fn decode(regs: &RegisterFile, strict: bool) -> Result<(Topology, VsState, PaState), GpuError> {
    if strict {
        state::require(regs, &[r::VGT_PRIMITIVE_TYPE], "a draw")?;
    }
    let topo = Topology::from_prim_type(
        r::VGT_PRIMITIVE_TYPE::PRIM_TYPE.get(regs.get(r::VGT_PRIMITIVE_TYPE)),
    )?;
    let vs = VsState::from_registers(regs, strict)?;
    let pa = PaState::from_registers(regs, strict)?;
    let poly_mode = r::PA_SU_SC_MODE_CNTL::POLY_MODE.get(pa.su_mode) != 0;
    if strict {
        let points = topo == Topology::PointList || poly_mode;
        let lines = matches!(topo, Topology::LineList | Topology::LineStrip) || poly_mode;
        PaState::require_for(regs, points, lines)?;
    }
    Ok((topo, vs, pa))
}

/// The vertex ids of the draw (`None` at restarts): indices plus GE_INDX_OFFSET (added
/// after the restart comparison), clamped to GE_MIN_VTX_INDX..=GE_MAX_VTX_INDX.
fn vertex_stream(
    regs: &RegisterFile,
    env: &Env<'_>,
    source: IndexSource,
    restart: Option<Restart>,
) -> Result<Vec<Option<u32>>, GpuError> {
    let mut stream = assemble::fetch(env.space, source, restart)?;
    let range = [r::GE_INDX_OFFSET, r::GE_MIN_VTX_INDX, r::GE_MAX_VTX_INDX];
    if env.config.strict {
        state::require(regs, &range, "a draw")?;
    }
    let [offset, min, max] = range.map(|a| regs.get(a));
    for id in stream.iter_mut().flatten() {
        *id = id.wrapping_add(offset).clamp(min, max.max(min));
    }
    Ok(stream)
}

/// The VS invocations of a draw as (vertex id, primitive id) pairs, and the primitives with
/// their vertices renumbered to invocations. Vertices are shared between the primitives that
/// use them; with VGT_PRIMITIVEID_EN (the VS exports the primitive id, GS scenario A),
/// `per_primitive` = Some(vertices per primitive) and each primitive's vertices are
/// invocations of their own that receive its id in v2.
fn vs_inputs(
    stream: &[Option<u32>],
    prims: &[assemble::Assembled],
    per_primitive: Option<usize>,
) -> (Vec<(u32, u32)>, Vec<assemble::Assembled>) {
    if let Some(n) = per_primitive {
        let mut inputs = Vec::new();
        let remapped = prims
            .iter()
            .map(|a| {
                let first = inputs.len();
                let mut v = a.v;
                for (k, e) in a.v.iter().enumerate().take(n) {
                    inputs.push((stream[*e].unwrap_or(0), a.id));
                    v[k] = first + k;
                }
                assemble::Assembled { v, ..*a }
            })
            .collect();
        return (inputs, remapped);
    }
    // Entry i of the stream is invocation `slot[i]`.
    let mut inputs = Vec::with_capacity(stream.len());
    let mut slot = vec![usize::MAX; stream.len()];
    for (i, e) in stream.iter().enumerate() {
        if let Some(id) = e {
            slot[i] = inputs.len();
            inputs.push((*id, 0));
        }
    }
    let remapped =
        prims.iter().map(|a| assemble::Assembled { v: a.v.map(|e| slot[e]), ..*a }).collect();
    (inputs, remapped)
}

/// The graphics border-colour table's address (TA_BC_BASE_ADDR/_HI, 256-byte units).
pub(crate) fn border_color_base(regs: &crate::cp::regs::RegisterFile) -> u64 {
    (regs.get(r::TA_BC_BASE_ADDR) as u64) << 8
        | ((regs.get(r::TA_BC_BASE_ADDR_HI) & 0xff) as u64) << 40
}
