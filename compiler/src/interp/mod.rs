//! The IR interpreter: the oracle every pass is tested against.
//!
//! It runs all invocations of a compute dispatch at any stage of the pipeline: with derefs,
//! calls and variables straight out of the front end, or with the explicit byte-offset
//! intrinsics `lower_explicit_io` produces. Workgroups run one after the other; inside a
//! workgroup, invocations run in turn until each reaches a barrier or finishes, which is
//! exactly the freedom the barrier semantics allow.
//!
//! Subgroup operations need the lanes of a wave (32 invocations by local invocation index)
//! together. An invocation stops *before* a subgroup operation; once every invocation has
//! stopped, each wave runs the operation for the lanes waiting at the same place, choosing
//! the place that comes first in the backend's block layout (see [`wave_order`]). That is the
//! active set a wave that runs its blocks in that order with an exec mask has: lanes that left
//! a loop early or skipped an `if` wait at the later operation until the others arrive. Limits:
//! the order is a property of the structured layout, so active sets match the hardware for
//! structured control flow in one function (after inlining, which the pipeline does first);
//! before inlining, frames of different calls are ordered by their call sites. Layout questions are answered by
//! [`crate::ir::layout`], the same facts the lowering encodes, but computed directly here rather
//! than through emitted address arithmetic.
//!
//! Vertex and fragment shaders run through [`gfx`]: vertex lanes in waves of 32, fragment
//! invocations a 2x2 quad at a time (so derivatives and helper invocations are defined), with
//! their inputs given and their outputs returned per slot and component.

mod exec;
pub mod gfx;
mod gfx_io;
pub mod image;
mod image_exec;
mod image_filter;
pub mod memory;
pub mod subgroup;

use thiserror::Error;

pub use gfx::{run_fragment, run_vertex, Fragment, Outputs, Quad, Triangle, VertexLane};
pub use image::{Address, Image, Sampler, TexelKind};
pub use memory::{Buffer, GlobalBuffer, Resources};

use crate::ir::{InstKind, Mode, Shader};

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

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Ready,
    Barrier,
    Subgroup,
    Done,
}

fn run_workgroup(
    shader: &Shader,
    layout: &exec::VarLayout,
    invs: &mut [exec::Invocation],
    shared: &mut Vec<u8>,
    res: &mut Resources,
    steps: &mut u64,
) -> Result<(), InterpError> {
    let order = wave_order(shader);
    let mut state = vec![State::Ready; invs.len()];
    loop {
        for (inv, st) in invs.iter_mut().zip(state.iter_mut()) {
            if *st == State::Ready {
                *st = match inv.run(shader, layout, shared, res, steps)? {
                    exec::Status::Done => State::Done,
                    exec::Status::Barrier => State::Barrier,
                    exec::Status::Subgroup => State::Subgroup,
                };
            }
        }
        if state.iter().all(|s| *s == State::Done) {
            return Ok(());
        }
        if state.contains(&State::Subgroup) {
            run_subgroup_ops(shader, &order, invs, &mut state)?;
            continue;
        }
        if state.contains(&State::Done) {
            return Err(InterpError::BarrierDivergence);
        }
        state.iter_mut().for_each(|s| *s = State::Ready);
    }
}

/// Position of every block in the backend's layout order, per function.
pub fn wave_order(shader: &Shader) -> Vec<Vec<usize>> {
    let has_subgroup = shader.funcs.iter().any(|f| {
        f.blocks.iter().any(|b| b.insts.iter().any(|i| matches!(i.kind, InstKind::Subgroup { .. })))
    });
    if !has_subgroup {
        return Vec::new();
    }
    shader
        .funcs
        .iter()
        .map(|f| {
            let dom = crate::analysis::dominance::Dominance::new(f);
            let (order, _) = crate::amd::isel::layout_order::block_order(f, &dom);
            let mut pos = vec![usize::MAX; f.blocks.len()];
            for (i, b) in order.iter().enumerate() {
                pos[b.0 as usize] = i;
            }
            pos
        })
        .collect()
}

/// In every wave with lanes waiting at subgroup operations, runs the first such place.
fn run_subgroup_ops(
    shader: &Shader,
    order: &[Vec<usize>],
    invs: &mut [exec::Invocation],
    state: &mut [State],
) -> Result<(), InterpError> {
    let waves = invs.len().div_ceil(32);
    for w in 0..waves {
        let key = |i: usize, invs: &[exec::Invocation]| {
            let loc = invs[i].location();
            let k: Vec<(usize, usize, usize)> = loc
                .iter()
                .map(|&(f, b, ip)| {
                    let pos = order.get(f).and_then(|o| o.get(b)).copied().unwrap_or(b);
                    (f, pos, ip)
                })
                .collect();
            k
        };
        let waiting: Vec<usize> = (0..invs.len())
            .filter(|&i| {
                state[i] == State::Subgroup && invs[i].local_index(shader) / 32 == w as u32
            })
            .collect();
        let Some(first) = waiting.iter().map(|&i| key(i, invs)).min() else { continue };
        let group: Vec<usize> = waiting.into_iter().filter(|&i| key(i, invs) == first).collect();
        let inst = invs[group[0]]
            .pending(shader)
            .ok_or_else(|| InterpError::Invalid("no pending subgroup op".into()))?;
        let f = &shader.funcs[invs[group[0]].location().last().map_or(0, |l| l.0)];
        if let InstKind::Image(i) = &inst.kind {
            gfx::implicit_lod(i, f, invs, &group)?;
            group.iter().for_each(|&i| state[i] = State::Ready);
            continue;
        }
        let InstKind::Subgroup { op, srcs } = &inst.kind else {
            return Err(InterpError::Invalid("waiting at a non-subgroup op".into()));
        };
        let (bits, comps) = srcs.first().map_or((1, 1), |v| f.ty(*v).shape());
        let lanes = group
            .iter()
            .map(|&i| {
                let srcs = srcs.iter().map(|v| invs[i].components(*v)).collect::<Result<_, _>>()?;
                Ok(subgroup::Lane { id: invs[i].local_index(shader) % 32, srcs })
            })
            .collect::<Result<Vec<_>, InterpError>>()?;
        let results = subgroup::eval(*op, bits, usize::from(comps), &lanes)?;
        let dst = inst.dst;
        for (&i, r) in group.iter().zip(results) {
            invs[i].finish_pending(dst, r);
            state[i] = State::Ready;
        }
    }
    Ok(())
}

/// True if the shader is a compute shader without graphics I/O, which [`run`] runs (images
/// need their contents in [`Resources::images`]); vertex and fragment shaders run through
/// [`run_vertex`] and [`run_fragment`].
pub fn is_interpretable(shader: &Shader) -> bool {
    shader.stage == crate::ir::Stage::Compute
        && !shader.vars.iter().any(|v| matches!(v.mode, Mode::Input | Mode::Output))
}

#[cfg(test)]
mod image_tests;
