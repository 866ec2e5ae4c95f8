//! A software navi21 behind the amdgpu kernel interface.
//!
//! [`open`] returns a [`SimKernel`]: an object implementing `ferrum_winsys::Kernel` that
//! behaves like an open amdgpu render node. It consumes what the hardware consumes (ioctls,
//! PM4 in indirect buffers, register writes, instruction words, descriptors in GPU memory) and
//! knows nothing about Vulkan or about the compiler that produced the code it runs.

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
