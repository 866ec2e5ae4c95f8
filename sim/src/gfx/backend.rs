//! The back half of a draw: primitives in window coordinates become quads, pixel-shader
//! waves, depth/stencil tests and colour writes, in primitive order.
//!
//! Quads are queued in primitive order and cut into waves of eight. Waves of a batch run in
//! parallel on host threads (a pixel shader cannot see another's results within a draw
//! except through memory it may not rely on), then their outputs go through late depth and
//! the colour block strictly in order, so results equal the in-order result even with
//! blending. Early Z (DB_SHADER_CONTROL.Z_ORDER early with no kill and no depth export, or
//! DEPTH_BEFORE_SHADER) runs in order before the batch's shaders.

use std::borrow::Cow;
use std::time::Instant;

use super::alpha_mask::AlphaToMask;
use super::back_state::{depth_clamp, depth_state, raster_state};
use super::depth::{DepthState, Stored};
use super::prim::{BackEndCounts, PrimBatch, Rasterizer};
use super::ps::{run_wave, PsOutput, PsQuad, PsState};
use super::ps_inputs::PsPrim;
use super::raster::{scan, Quad, RasterState, Setup, Triangle, FRAC_BITS};
use super::targets::{ColorState, DepthTarget};
use crate::core::program::ProgramCache;
use crate::core::wave::LANES;
use crate::core::{Exec, Mem, Stats};
use crate::cp::regs::RegisterFile;
use crate::cp::Env;
use crate::error::GpuError;
use crate::kernel::AddressSpace;
use ferrum_regs::gfx103 as r;

/// A triangle in window coordinates, as scan conversion takes it (points and lines become
/// two of these, see [`super::lines`]).
#[derive(Debug, Clone)]
pub struct Primitive<'a> {
    /// Window x, y, z and 1/w (clip) of each vertex.
    pub pos: [[f32; 4]; 3],
    pub front: bool,
    /// Which vertex (0..3) is the provoking one.
    pub provoking: u8,
    /// Per vertex, the vertex shader's parameter exports by PARAM index.
    pub params: [Cow<'a, [[u32; 4]]>; 3],
    /// Points: the parameter slot holding the sprite coordinates (PT_SPRITE_TEX inputs).
    pub sprite_slot: Option<usize>,
    /// The provoking vertex's parameters as the VS exported them (flat-shaded inputs).
    pub flat: Cow<'a, [[u32; 4]]>,
    /// Viewport index (scissor and depth range).
    pub viewport: u32,
    /// Render-target array layer, relative to the targets' first slice.
    pub layer: u32,
    /// Polygon offset added to the interpolated depth ([`super::poly_offset`]).
    pub z_bias: f64,
}

/// The back end as the front end drives it.
#[derive(Debug, Default)]
pub struct BackEnd;

impl Rasterizer for BackEnd {
    fn rasterize(
        &mut self,
        batch: &PrimBatch,
        regs: &RegisterFile,
        env: &Env<'_>,
    ) -> Result<BackEndCounts, GpuError> {
        if env.config.strict {
            super::back_require::require_back_end(regs)?;
        }
        let prims = super::lines::to_triangles(batch, regs)?;
        let be = BackEndEnv {
            space: env.space,
            timestamp: env.timestamp,
            programs: env.compute.programs(),
            compute: env.compute,
            engine: env.config.engine,
            stats: &env.compute.stats,
            strict: env.config.strict,
            budget: env.config.wave_budget,
            deadline: Instant::now() + env.config.watchdog,
            threads: env.config.threads,
        };
        let c = draw(&be, regs, &prims)?;
        Ok(BackEndCounts {
            zpass_samples: c.samples_passed,
            ps_invocations: c.ps_invocations,
            c_primitives: batch.prims.len() as u64,
        })
    }
}

/// What the shader core and memory the back end needs.
pub struct BackEndEnv<'a> {
    pub space: &'a AddressSpace,
    pub timestamp: &'a (dyn Fn() -> u64 + Sync),
    pub programs: &'a ProgramCache,
    /// Where translated programs are cached, and whether to use them.
    pub compute: &'a crate::compute::ComputeEngine,
    pub engine: crate::jit::Engine,
    pub stats: &'a Stats,
    pub strict: bool,
    /// Instructions each PS wave may execute ([`crate::SimConfig::wave_budget`]).
    pub budget: u64,
    pub deadline: Instant,
    pub threads: usize,
}

/// Counters a draw produces.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DrawCounts {
    /// Samples that passed the depth and stencil tests (occlusion queries, ZPASS_DONE).
    pub samples_passed: u64,
    /// Pixel-shader invocations (covered pixels shaded, helpers excluded).
    pub ps_invocations: u64,
}

/// Waves run in parallel per batch.
const WAVES_PER_BATCH: usize = 64;

struct Ctx<'a> {
    rs: RasterState,
    ds: DepthState,
    zclamp: [(f32, f32); 16],
    ps: PsState,
    cb: ColorState,
    db: Option<DepthTarget>,
    early: bool,
    /// Alpha to coverage, when enabled.
    atoc: Option<AlphaToMask>,
    prims: Vec<PsPrim<'a>>,
}

/// Rasterizes and shades `prims` with the state in `regs`.
pub fn draw(
    env: &BackEndEnv<'_>,
    regs: &RegisterFile,
    prims: &[Primitive<'_>],
) -> Result<DrawCounts, GpuError> {
    let unsupported = GpuError::Unsupported;
    refuse_unmodelled(regs)?;
    let rs = raster_state(regs).map_err(unsupported)?;
    let ds = depth_state(regs);
    let ps = PsState::from_regs(regs, env.strict)?;
    let cb = ColorState::from_regs(regs, env.space)?;
    let db = if ds.active() || ps.z_export() {
        Some(DepthTarget::from_regs(regs, env.space)?)
    } else {
        None
    };
    let sc = ps.shader_control;
    let z_order = (sc >> 4) & 3;
    let early =
        sc >> 12 & 1 != 0 || (matches!(z_order, 1 | 3) && !ps.kill_enable() && !ps.z_export());
    let program = env.programs.get(env.space, ps.pgm)?;
    let key = crate::jit::Key { vgprs: ps.vgprs, mode: ps.mode };
    let code = env.compute.translation(&program, key, env.engine);
    if let Some(c) = &code {
        env.stats.count_translation(c);
    }
    let exec = Exec {
        program: &program,
        mem: Mem { space: env.space, timestamp: env.timestamp },
        strict: env.strict,
        budget: env.budget,
        deadline: env.deadline,
        stats: env.stats,
        heaviest: Default::default(),
        border_color_base: super::border_color_base(regs),
        code: code.as_deref(),
    };
    let mut setups = Vec::new();
    for p in prims {
        let tri = Triangle { pos: p.pos.map(|v| [v[0], v[1]]) };
        if let Some(setup) = Setup::new(&tri, &rs, p.viewport as usize) {
            setups.push(PsPrim {
                setup,
                z: p.pos.map(|v| v[2]),
                inv_w: p.pos.map(|v| v[3]),
                front: p.front,
                provoking: p.provoking as usize,
                params: [&p.params[0], &p.params[1], &p.params[2]],
                sprite_slot: p.sprite_slot,
                flat: &p.flat,
                viewport: p.viewport as usize,
                layer: p.layer,
                z_bias: p.z_bias,
            });
        }
    }
    let iter = 1u32 << r::DB_EQAA::PS_ITER_SAMPLES.get(regs.get(r::DB_EQAA));
    if iter > 1 && iter != rs.samples {
        return Err(GpuError::Unsupported(format!(
            "{iter} shader iterations for {} samples (only one invocation per sample is modelled)",
            rs.samples
        )));
    }
    let per_sample = iter > 1;
    let atoc =
        AlphaToMask::from_regs(regs.get(r::DB_ALPHA_TO_MASK), regs.get(r::DB_EQAA), rs.samples);
    if atoc.is_some() && early {
        // The mask comes from the shader's alpha, after early Z has already written depth.
        return Err(GpuError::Unsupported("alpha to coverage with early Z is not modelled".into()));
    }
    let zclamp = depth_clamp(regs);
    let ctx = Ctx { rs, ds, zclamp, ps, cb, db, early, atoc, prims: setups };
    let mut counts = DrawCounts::default();
    let mut queue: Vec<PsQuad> = Vec::new();
    for (i, p) in ctx.prims.iter().enumerate() {
        scan(&p.setup, &ctx.rs, |quad| {
            if !per_sample {
                return queue.push(PsQuad { prim: i as u32, quad, sample: None });
            }
            for s in 0..ctx.rs.samples {
                let coverage = quad.coverage.map(|c| c & (1 << s));
                if coverage != [0; 4] {
                    let quad = Quad { coverage, ..quad };
                    queue.push(PsQuad { prim: i as u32, quad, sample: Some(s as u8) });
                }
            }
        });
        if queue.len() >= WAVES_PER_BATCH * 8 {
            ctx.batch(&exec, env, &mut queue, &mut counts)?;
        }
    }
    ctx.batch(&exec, env, &mut queue, &mut counts)?;
    exec.log_heaviest("PS");
    Ok(counts)
}

impl Ctx<'_> {
    fn batch(
        &self,
        exec: &Exec<'_>,
        env: &BackEndEnv<'_>,
        queue: &mut Vec<PsQuad>,
        counts: &mut DrawCounts,
    ) -> Result<(), GpuError> {
        if self.early {
            for q in queue.iter_mut() {
                for i in 0..4 {
                    let (x, y) = (q.quad.x + (i as i32 & 1), q.quad.y + (i as i32 >> 1));
                    let cov = q.quad.coverage[i];
                    let (pass, n) = self.depth(q.prim, x, y, cov, None, None);
                    q.quad.coverage[i] = pass;
                    counts.samples_passed += n;
                }
            }
            queue.retain(|q| q.quad.coverage != [0; 4]);
        }
        let waves: Vec<&[PsQuad]> = queue.chunks(LANES / 4).collect();
        let outputs = self.run_waves(exec, env, &waves)?;
        for (quads, out) in waves.iter().zip(&outputs) {
            self.late(quads, out, counts);
        }
        queue.clear();
        Ok(())
    }

    fn run_waves(
        &self,
        exec: &Exec<'_>,
        env: &BackEndEnv<'_>,
        waves: &[&[PsQuad]],
    ) -> Result<Vec<PsOutput>, GpuError> {
        // Each host thread's waves use one scratch slot, so threads never outnumber slots.
        let run = |w: &[PsQuad], slot: usize| {
            run_wave(exec, env.strict, &self.ps, &self.rs, &self.prims, w, slot as u32)
        };
        let slots = self.ps.scratch.map_or(usize::MAX, |ring| ring.waves as usize);
        let threads = env.threads.clamp(1, waves.len().max(1)).min(slots);
        if threads == 1 {
            return waves.iter().map(|w| run(w, 0)).collect();
        }
        let per = waves.len().div_ceil(threads);
        let results: Vec<Result<Vec<PsOutput>, GpuError>> = std::thread::scope(|s| {
            let handles: Vec<_> = waves
                .chunks(per)
                .enumerate()
                .map(|(t, chunk)| s.spawn(move || chunk.iter().map(|w| run(w, t)).collect()))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(GpuError::Unsupported("pixel-shader thread panicked".into()))
                    })
                })
                .collect()
        });
        let mut out = Vec::with_capacity(waves.len());
        for r in results {
            out.extend(r?);
        }
        Ok(out)
    }

    /// Depth/stencil for the samples `cov` of pixel (x, y): returns the passing samples and
    /// their count. `z` overrides the interpolated depth (MRTZ), `stencil_ref` the reference.
    fn depth(
        &self,
        prim: u32,
        x: i32,
        y: i32,
        cov: u16,
        z: Option<f32>,
        stencil_ref: Option<u8>,
    ) -> (u16, u64) {
        let Some(db) = &self.db else { return (cov, cov.count_ones() as u64) };
        let p = &self.prims[prim as usize];
        if !db.contains(x, y, p.layer) {
            return (0, 0);
        }
        let at = (x as u32, y as u32, p.layer);
        let mut ds = self.ds;
        if let Some(r) = stencil_ref {
            ds.front.test_val = r;
            ds.back.test_val = r;
        }
        let mut pass = 0u16;
        for s in 0..db.samples.min(16) {
            if cov >> s & 1 == 0 {
                continue;
            }
            let zs = z.unwrap_or_else(|| {
                let (ox, oy) = self.rs.sample_offset(x, y, s);
                let at = (((x as i64) << FRAC_BITS) + ox, ((y as i64) << FRAC_BITS) + oy);
                let w = p.setup.weights(at.0, at.1);
                let a = p.setup.area as f64;
                let z = (0..3).map(|i| w[i] as f64 / a * p.z[i] as f64).sum::<f64>();
                (z + p.z_bias) as f32
            });
            let (lo, hi) = self.zclamp[p.viewport.min(15)];
            let zs = db.quantize(zs.clamp(lo, hi));
            let (oz, ost) = db.read(at, s);
            let o = ds.test(zs, Stored { z: oz, stencil: ost }, p.front);
            let zw = (o.new.z != oz || o.new.z.to_bits() != oz.to_bits()).then_some(o.new.z);
            let sw = (o.new.stencil != ost).then_some(o.new.stencil);
            if zw.is_some() || sw.is_some() {
                db.write(at, s, zw, sw);
            }
            pass |= (o.pass as u16) << s;
        }
        (pass, pass.count_ones() as u64)
    }

    /// Late depth (unless done early) and colour writes of one wave, in quad order.
    fn late(&self, quads: &[PsQuad], out: &PsOutput, counts: &mut DrawCounts) {
        for (q, pq) in quads.iter().enumerate() {
            for i in 0..4 {
                let lane = q * 4 + i;
                if out.valid >> lane & 1 == 0 {
                    continue;
                }
                counts.ps_invocations += 1;
                let (x, y) = (pq.quad.x + (i as i32 & 1), pq.quad.y + (i as i32 >> 1));
                let mut cov = pq.quad.coverage[i];
                if let Some(m) = &out.mask {
                    cov &= m[lane] as u16;
                }
                if let (Some(a), Some(alpha)) = (&self.atoc, self.alpha(out, lane)) {
                    cov &= a.mask(x, y, alpha);
                }
                if !self.early {
                    let z = out.depth.map(|d| f32::from_bits(d[lane]));
                    let sref = out.stencil.map(|s| s[lane] as u8);
                    let (pass, n) = self.depth(pq.prim, x, y, cov, z, sref);
                    cov = pass;
                    counts.samples_passed += n;
                }
                if cov != 0 {
                    let layer = self.prims[pq.prim as usize].layer;
                    self.color(out, lane, (x, y, layer), cov);
                }
            }
        }
    }

    /// The alpha for alpha to coverage: MRTZ's when the shader exported one there (how a
    /// driver keeps the shader's alpha for coverage while alpha to one replaces MRT0's:
    /// RADV/radeonsi, LLPC's "the Alpha value must be copied from MRT 0 to MRT Z"), else
    /// `mrt0`'s; none when the shader exported neither, or integers (UINT16/SINT16), which
    /// have no coverage meaning.
    fn alpha(&self, out: &PsOutput, lane: usize) -> Option<f32> {
        if let Some(a) = &out.alpha {
            return Some(f32::from_bits(a[lane]));
        }
        let integer = matches!(self.ps.col_format & 0xf, 7 | 8);
        let c = out.color[0].as_ref().filter(|_| !integer)?;
        Some(f32::from_bits(c[lane][3]))
    }

    fn color(&self, out: &PsOutput, lane: usize, (x, y, layer): (i32, i32, u32), cov: u16) {
        let at = (x as u32, y as u32, layer);
        if self.cb.resolve {
            let (src, dst) = (&self.cb.targets[0], &self.cb.targets[1]);
            if src.contains(x, y, layer) && dst.contains(x, y, layer) {
                let v = src.resolved(at.0, at.1, layer);
                dst.write(at, 1, v, [0; 4], &self.cb);
            }
            return;
        }
        for t in &self.cb.targets {
            let Some(src) = &out.color[t.index as usize] else { continue };
            if !t.contains(x, y, layer) {
                continue;
            }
            let src1 = out.color[1].as_ref().map_or([0; 4], |c| c[lane]);
            t.write(at, cov, src[lane], src1, &self.cb);
        }
    }
}

/// State that changes what a draw produces and that the back end does not model yet: refused
/// rather than ignored.
fn refuse_unmodelled(regs: &RegisterFile) -> Result<(), GpuError> {
    let checks = [
        (
            regs.get(r::DB_RENDER_CONTROL) & 0x101f != 0,
            "DB_RENDER_CONTROL depth/stencil clear, copy, resummarize or decompress",
        ),
        (
            regs.get(r::PA_SC_CONSERVATIVE_RASTERIZATION_CNTL) & 0x21 != 0,
            "conservative rasterization",
        ),
        (
            r::PA_SC_MODE_CNTL_0::LINE_STIPPLE_ENABLE.is_set(regs.get(r::PA_SC_MODE_CNTL_0)),
            "line stipple",
        ),
    ];
    match checks.iter().find(|c| c.0) {
        Some((_, what)) => {
            Err(GpuError::Unsupported(format!("{what} is not modelled by the back end")))
        }
        None => Ok(()),
    }
}
