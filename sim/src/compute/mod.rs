//! Compute dispatch: turns the dispatch registers into workgroups and runs them on the shader
//! core, several workgroups at a time on host threads.

pub mod setup;

use crate::cp::{Env, RegisterFile};
use crate::error::GpuError;

pub use setup::{DispatchSetup, WaveInit, Workgroup, WAVE_SIZE};

/// The shader engines of one device file (program cache and worker configuration).
#[derive(Debug, Default)]
pub struct ComputeEngine {}

impl ComputeEngine {
    /// Runs the dispatch the registers describe, to completion.
    pub fn dispatch(&self, regs: &RegisterFile, _env: &Env<'_>) -> Result<(), GpuError> {
        let Some(setup) = DispatchSetup::from_registers(regs)? else {
            return Ok(());
        };
        if setup.workgroups().is_empty() {
            return Ok(());
        }
        Err(GpuError::Unsupported(format!(
            "dispatch of the program at {:#x}: the shader core is not built yet",
            setup.pgm
        )))
    }
}
