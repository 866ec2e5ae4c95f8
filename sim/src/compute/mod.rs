//! Compute dispatch: turns the dispatch registers into workgroups and runs them on the shader
//! core, several workgroups at a time on host threads.

pub mod setup;

use std::time::Instant;

use crate::core::program::ProgramCache;
use crate::core::{Dispatch, Exec, Mem, Stats};
use crate::cp::{Env, RegisterFile};
use crate::error::GpuError;
use crate::jit::{self, Engine};

pub use setup::{DispatchSetup, WaveInit, Workgroup, WAVE_SIZE};

/// The shader engines of one queue: the program cache and execution statistics.
#[derive(Default)]
pub struct ComputeEngine {
    programs: ProgramCache,
    translations: jit::Cache,
    pub stats: Stats,
}

impl ComputeEngine {
    /// The decoded-program cache (graphics stages share it).
    pub fn programs(&self) -> &ProgramCache {
        &self.programs
    }

    /// The translation of `program` for waves starting with `key`, when `engine` is the JIT
    /// and the translator takes the program (graphics stages share the cache).
    pub fn translation(
        &self,
        program: &crate::core::program::Program,
        key: jit::Key,
        engine: Engine,
    ) -> Option<std::sync::Arc<jit::Code>> {
        match engine {
            Engine::Jit => self.translations.get(program, key),
            Engine::Interp => None,
        }
    }

    /// Drops decoded programs (new submission, or an instruction-cache invalidation).
    pub fn invalidate_programs(&self) {
        self.programs.invalidate();
    }

    /// Runs the dispatch the registers describe, to completion; returns the number of
    /// invocations (threads) launched.
    pub fn dispatch(&self, regs: &RegisterFile, env: &Env<'_>) -> Result<u64, GpuError> {
        let Some(setup) = DispatchSetup::from_registers(regs)? else {
            return Ok(0);
        };
        if setup.group_count() == 0 {
            return Ok(0);
        }
        let program = self.programs.get(env.space, setup.pgm)?;
        let code = self.translation(&program, jit_key(&setup), env.config.engine);
        if let Some(c) = &code {
            self.stats.count_translation(c);
        }
        let dispatch = Dispatch {
            setup: &setup,
            exec: Exec {
                program: &program,
                mem: Mem { space: env.space, timestamp: env.timestamp },
                strict: env.config.strict,
                budget: env.config.wave_budget,
                deadline: Instant::now() + env.config.watchdog,
                stats: &self.stats,
                heaviest: Default::default(),
                border_color_base: setup.border_color_base,
                code: code.as_deref(),
            },
        };
        let r = dispatch.run(env.config.threads);
        dispatch.exec.log_heaviest("dispatch");
        r.map(|()| setup.invocations()).map_err(|e| match e {
            GpuError::Shader { what, .. } if what.starts_with("watchdog") => {
                GpuError::Hang(format!("dispatch of {:#x}: {what}", setup.pgm))
            }
            other => other,
        })
    }
}

/// What a translation assumes about the dispatch: the VGPR allocation and the initial MODE
/// (as `Dispatch::run_workgroup` sets it).
fn jit_key(setup: &DispatchSetup) -> jit::Key {
    jit::Key {
        vgprs: setup.vgprs,
        mode: setup.float_mode | (setup.dx10_clamp as u32) << 8 | (setup.ieee_mode as u32) << 9,
    }
}
