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
//! * [`compute`]: the SPI. Workgroups and initial wave state from the COMPUTE_* registers.
//! * [`core`]: the shader core. A wave32 interpreter over `ferrum_isa`'s decoder with a strict
//!   mode for missing `s_waitcnt`, registers beyond the allocation and LDS beyond the
//!   allocation, and a watchdog.
//!
//! Everything the GPU does wrong (VM faults, unknown packets, malformed streams, hangs, shader
//! faults, unmodelled programming) ends the job as a context loss with a `log::error!` line;
//! the host process keeps running.
//!
//! Not modelled yet: graphics (draws, rasterisation), MIMG/EXP/DPP/SDWA (not decoded by `isa`),
//! scratch (private) memory, swizzled buffers, GDS/GWS, counters sampled by EVENT_WRITE,
//! SET_PREDICATION, rounding modes other than nearest-even, SDMA and multimedia rings.

pub mod chip;
pub mod compute;
pub mod core;
pub mod cp;
pub mod error;
pub mod kernel;

use std::sync::Arc;
use std::time::Duration;

pub use chip::{Chip, NAVI21};
pub use error::GpuError;
pub use kernel::SimKernel;

/// Knobs of the simulated device.
#[derive(Debug, Clone)]
pub struct SimConfig {
    pub chip: Chip,
    /// Report reads of registers a pending memory operation will write (missing
    /// `s_waitcnt`), and accesses beyond the allocated registers or LDS, as faults.
    pub strict: bool,
    /// A dispatch running longer than this ends as a context loss (the GPU's hang detection).
    pub watchdog: Duration,
    /// Host threads that run workgroups.
    pub threads: usize,
    /// Cap on host memory handed out as BOs, per heap (tests keep it small).
    pub host_memory_limit: u64,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            chip: NAVI21,
            strict: true,
            watchdog: Duration::from_secs(10),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            host_memory_limit: 4 << 30,
        }
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
