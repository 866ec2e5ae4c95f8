//! The IR interpreter: the oracle every pass is tested against.
//!
//! It runs all invocations of a compute dispatch at any stage of the pipeline: with derefs,
//! calls and variables straight out of the front end, or with the explicit byte-offset
//! intrinsics `lower_explicit_io` produces. Workgroups run one after the other; inside a
//! workgroup, invocations run in turn until each reaches a barrier or finishes, which is
//! exactly the freedom the barrier semantics allow. Layout questions are answered by
//! [`crate::ir::layout`], the same facts the lowering encodes, but computed directly here rather
//! than through emitted address arithmetic.

mod exec;
pub mod memory;

use thiserror::Error;

pub use memory::{Buffer, GlobalBuffer, Resources};

use crate::ir::{Mode, Shader};

/// Why an interpreted dispatch failed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InterpError {
    /// Access outside the memory object.
    #[error("out-of-bounds {space} access at 0x{addr:x}")]
    OutOfBounds {
        /// Memory kind.
        space: &'static str,
        /// Address.
        addr: u64,
    },
    /// A descriptor the shader uses was not provided.
    #[error("no buffer bound at set {set} binding {binding} index {index}")]
    Unbound {
        /// Set.
        set: u32,
        /// Binding.
        binding: u32,
        /// Array element.
        index: u32,
    },
    /// Something the interpreter does not execute (images, graphics I/O).
    #[error("interpreter does not support {0}")]
    Unsupported(String),
    /// Inconsistent IR.
    #[error("invalid IR during interpretation: {0}")]
    Invalid(String),
    /// Runaway shader.
    #[error("step limit exceeded")]
    StepLimit,
    /// Some invocations wait at a barrier others never reach.
    #[error("barrier not reached by all invocations of a workgroup")]
    BarrierDivergence,
}

/// Maximum number of executed instructions per dispatch.
pub const STEP_LIMIT: u64 = 20_000_000;

/// Runs `shader` over `groups` workgroups against `res`.
pub fn run(shader: &Shader, groups: [u32; 3], res: &mut Resources) -> Result<(), InterpError> {
    let layout = exec::VarLayout::new(shader);
    let [wx, wy, wz] = shader.workgroup_size;
    let mut steps = 0u64;
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let shared_len = layout.shared_size.max(shader.shared_size) as usize;
                let mut shared = vec![0u8; shared_len];
                let mut invs = Vec::new();
                for z in 0..wz {
                    for y in 0..wy {
                        for x in 0..wx {
                            invs.push(exec::Invocation::new(
                                shader,
                                &layout,
                                [x, y, z],
                                [gx, gy, gz],
                                groups,
                            )?);
                        }
                    }
                }
                run_workgroup(shader, &layout, &mut invs, &mut shared, res, &mut steps)?;
            }
        }
    }
    Ok(())
}

fn run_workgroup(
    shader: &Shader,
    layout: &exec::VarLayout,
    invs: &mut [exec::Invocation],
    shared: &mut Vec<u8>,
    res: &mut Resources,
    steps: &mut u64,
) -> Result<(), InterpError> {
    loop {
        let mut at_barrier = 0;
        let mut done = 0;
        for inv in invs.iter_mut() {
            match inv.run(shader, layout, shared, res, steps)? {
                exec::Status::Done => done += 1,
                exec::Status::Barrier => at_barrier += 1,
            }
        }
        if done == invs.len() {
            return Ok(());
        }
        if done > 0 && at_barrier > 0 {
            return Err(InterpError::BarrierDivergence);
        }
    }
}

/// True if the shader reads images or graphics I/O, which the interpreter cannot run.
pub fn is_interpretable(shader: &Shader) -> bool {
    shader.stage == crate::ir::Stage::Compute
        && !shader.vars.iter().any(|v| matches!(v.mode, Mode::Handle | Mode::Input | Mode::Output))
}
