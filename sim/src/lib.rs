//! A software navi21 behind the amdgpu kernel interface.
//!
//! [`open`] returns a [`SimKernel`]: an object implementing `ferrum_winsys::Kernel` that
//! behaves like an open amdgpu render node. It consumes what the hardware consumes (ioctls,
//! PM4 in indirect buffers, register writes, instruction words, descriptors in GPU memory) and
//! knows nothing about Vulkan or about the compiler that produced the code it runs.
//!
//! ```no_run
//! let dev = ferrum_sim::open_device(ferrum_sim::SimConfig::default())?;
//! assert!(dev.info().is_navi21());
//! # Ok::<(), ferrum_winsys::Error>(())
//! ```
//!
//! Layers, each in its own module:
//! * [`kernel`]: amdgpu semantics. GEM objects in host memory, a copy-on-write GPU VM per device
//!   file (page-granular, permission bits), contexts with guilty/innocent reset state, CS
//!   submission onto a queue thread (per-entity ordering, dependencies, BO-list residency),
//!   DRM syncobjs (binary and timeline, real blocking waits, fd export/import).
//! * [`cp`]: the command processor. Type-3 PM4 packets with their real header layout, the SH /
//!   CONTEXT / UCONFIG register file, chained and called IBs.
//! * [`compute`]: the SPI. Workgroups and initial wave state from the COMPUTE_* registers,
//!   including scratch-ring wave slots (RSRC2.SCRATCH_EN, COMPUTE_TMPRING_SIZE) and the scratch
//!   wave offset SGPR.
//! * [`gfx`]: the graphics pipeline's legacy (non-NGG) VS path. Draw packets, index fetch with
//!   primitive restart, VS waves and their position/parameter exports, primitive assembly,
//!   clipping (view volume, guard band, user planes, clip/cull distances), face culling,
//!   polygon modes and the viewport transform, producing [`gfx::SetupPrim`]s for the back end
//!   behind [`gfx::Rasterizer`]. The back end ([`gfx::backend::BackEnd`]): scan conversion
//!   with QUANT_MODE snapping and the top-left rule, scissors, MSAA sample locations, coverage
//!   and AA mask, points and lines as rectangles; PS waves of 2x2 quads with helper lanes,
//!   input VGPRs per SPI_PS_INPUT_ENA/ADDR, parameters in LDS for VINTRP, exports in the
//!   SPI_SHADER_COL/Z_FORMAT formats, discard; early/late depth, bounds, stencil, occlusion
//!   counts; colour formats, blending, logic ops, write masks, MSAA colour and CB_RESOLVE,
//!   per-sample shading (PS_ITER_SAMPLES = sample count);
//!   surfaces in any swizzle mode through [`tex::surface`].
//! * [`core`]: the shader core. A wave32 interpreter over `ferrum_isa`'s decoder with a strict
//!   mode for missing `s_waitcnt`, registers beyond the allocation and LDS beyond the
//!   allocation, and a watchdog.
//! * [`tex`]: the texture unit. T#/S# decoding, surface addressing (`tex::surface`, AMD's
//!   gfx10 equations for navi21), format conversion (`tex::format`, BCn included) and
//!   filtering, used by MIMG and typed buffer instructions; `surface` and `format` are pure
//!   and meant for the colour/depth back ends too.
//!
//! Modelled in the shader core: SALU, VALU (VOP1/2/3/3P/C) including the DPP16, DPP8 and SDWA
//! forms of VOP1/VOP2/VOPC and `v_permlane(x)16_b32`, SMEM, DS, MUBUF/MTBUF with V# range checks per dword and swizzled
//! addressing (ADD_TID_ENABLE, INDEX_STRIDE, 4-byte elements), 16-bit `_d16`/`_d16_hi` loads
//! and high-half stores, GLOBAL, SCRATCH and FLAT (FLAT
//! addresses routed per lane to the LDS aperture, the private aperture or the GPU VM),
//! FLAT_SCRATCH through `s_setreg`/`s_getreg` HW_REG_FLAT_SCR_LO/HI, SRC_SHARED_BASE/LIMIT and
//! SRC_PRIVATE_BASE/LIMIT, SH_MEM_BASES.
//!
//! Everything the GPU does wrong (VM faults, unknown packets, malformed streams, hangs, shader
//! faults, unmodelled programming) ends the job as a context loss with a `log::error!` line;
//! the host process keeps running.
//!
//! Register writes are checked against Mesa's register database (`ferrum-regs`) in strict
//! mode: a register GFX10.3 lacks or a value outside its fields ends the job.
//!
//! MIMG: loads/stores (`_mip`), 32-bit integer atomics, `get_resinfo`, `get_lod`, samples and
//! gathers with `_c/_d/_cd/_l/_b/_lz/_cl/_o/_g16`, A16, D16, NSA, unnormalized
//! coordinates, all address modes, border colours, min/max reduction, cube faces through
//! `v_cube*`.
//!
//! Not modelled yet: PS_ITER_SAMPLES other than 1 or the sample count, alpha to coverage,
//! polygon offset, conservative rasterization, line stipple, render-target layers, the 16-bit
//! `v_interp_*` VOP3 forms, LDS_DIRECT, NGG, GS and tessellation, GDS/GWS, MIMG `_pck`,
//! `msaa_load`, BVH, float image atomics, TFE/LWE, anisotropic
//! filtering, DCC/HTILE-compressed images, typed (format)
//! accesses to swizzled buffers, swizzled accesses that straddle a 4-byte element,
//! streamout counters, SET_PREDICATION, f16/f64 rounding modes other than nearest-even (a
//! MODE or FLOAT_MODE asking for one is refused; f32 directed rounding is modelled for add,
//! sub, mul, fma and conversions to f32), SDMA and multimedia rings.

pub mod chip;
pub mod compute;
pub mod core;
pub mod cp;
pub mod error;
pub mod gfx;
pub mod jit;
pub mod kernel;
pub mod tex;

use std::sync::Arc;
use std::time::Duration;

pub use chip::{Chip, NAVI21};
pub use error::GpuError;
pub use kernel::SimKernel;

/// The default [`SimConfig::wave_budget`]: 2^32 instructions. The heaviest waves of the
/// conformance cases measured so far run about 2^22 (see the watchdog section of the notes in
/// `core::watchdog`).
pub const DEFAULT_WAVE_BUDGET: u64 = 1 << 32;

/// The default [`SimConfig::watchdog`]: far beyond any legitimate job on a loaded host.
pub const DEFAULT_WATCHDOG: Duration = Duration::from_secs(300);

/// Knobs of the simulated device.
#[derive(Debug, Clone)]
pub struct SimConfig {
    pub chip: Chip,
    /// Report reads of registers a pending memory operation will write (missing
    /// `s_waitcnt`), and accesses beyond the allocated registers or LDS, as faults.
    pub strict: bool,
    /// Instructions one wave may execute before it counts as a runaway and its job ends as a
    /// context loss (the GPU's hang detection). Counted, not timed, so whether a shader hangs
    /// never depends on how busy the host is; both engines stop at the same instruction.
    pub wave_budget: u64,
    /// The last resort behind `wave_budget`: a dispatch, draw, chained IB sequence or
    /// WAIT_REG_MEM still running after this much wall-clock time ends as a context loss
    /// (huge but finite work, or a wait on memory nothing will write).
    pub watchdog: Duration,
    /// Host threads that run workgroups.
    pub threads: usize,
    /// Cap on host memory handed out as BOs, per heap (tests keep it small).
    pub host_memory_limit: u64,
    /// The engine that runs shader code; the default follows `FERRUM_SIM` (`interp` or
    /// `jit`, the default).
    pub engine: jit::Engine,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            chip: NAVI21,
            strict: true,
            wave_budget: DEFAULT_WAVE_BUDGET,
            watchdog: DEFAULT_WATCHDOG,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            host_memory_limit: 4 << 30,
            engine: jit::Engine::from_env(),
        }
    }
}

impl SimConfig {
    /// The defaults, adjusted by `FERRUM_SIM_STRICT` (0/1), `FERRUM_SIM_WAVE_BUDGET`
    /// (instructions), `FERRUM_SIM_WATCHDOG_MS` and `FERRUM_SIM_THREADS`; malformed values are
    /// ignored with a warning.
    pub fn from_env() -> SimConfig {
        let mut c = SimConfig::default();
        let var = |name: &str| std::env::var(name).ok();
        let parse = |name: &str, v: &str| {
            let n = v.parse::<u64>().ok();
            if n.is_none() {
                log::warn!("ignoring {name}={v:?}: not a number");
            }
            n
        };
        if let Some(v) = var("FERRUM_SIM_STRICT") {
            c.strict = v != "0";
        }
        if let Some(n) =
            var("FERRUM_SIM_WAVE_BUDGET").and_then(|v| parse("FERRUM_SIM_WAVE_BUDGET", &v))
        {
            c.wave_budget = n;
        }
        if let Some(ms) =
            var("FERRUM_SIM_WATCHDOG_MS").and_then(|v| parse("FERRUM_SIM_WATCHDOG_MS", &v))
        {
            c.watchdog = Duration::from_millis(ms);
        }
        if let Some(n) = var("FERRUM_SIM_THREADS").and_then(|v| parse("FERRUM_SIM_THREADS", &v)) {
            c.threads = n.max(1) as usize;
        }
        c
    }
}

/// Opens a simulated device file.
pub fn open(config: SimConfig) -> Arc<SimKernel> {
    Arc::new(SimKernel::new(config))
}

/// Opens a simulated device and wraps it in the winsys' safe API.
pub fn open_device(config: SimConfig) -> ferrum_winsys::Result<ferrum_winsys::Device> {
    ferrum_winsys::Device::from_kernel(open(config))
}
